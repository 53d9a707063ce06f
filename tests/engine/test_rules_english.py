"""RULES.md §11 English variant: support limits for the attacker and the defender."""

from __future__ import annotations

from diagram import assert_illegal, legal, of_type, pending, play, st
from tigris_euphrates import to_act

# Seat 1's priest at b2 has two temples (a2, c2); a priest placed at e1 has one (e2).
WEAK_ATTACKER = """
    . . . . . .
    r . r k r .
"""

# Seat 1's priest at b2 has two temples; a priest placed at f2 has three.
STRONG_ATTACKER = """
    r R . . . r .
    r . r k r . r
"""


def test_attacker_may_commit_only_to_get_ahead_of_the_defenders_base() -> None:
    s = st(WEAK_ATTACKER, leaders="1 red b2", hands=[{"red": 3}, {"red": 3}], english_variant=True)
    s, events = play(s, "leader red e1")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 2)
    # 1 + n > 2 needs n >= 2; committing 0 is always allowed
    assert legal(s) == {"commit 0", "commit 2", "commit 3"}
    assert_illegal(s, "commit 1", "english-attacker", "English variant")


def test_defender_may_commit_only_to_equal_the_attackers_total_exactly() -> None:
    s = st(WEAK_ATTACKER, leaders="1 red b2", hands=[{"red": 3}, {"red": 3}], english_variant=True)
    s, _ = play(s, "leader red e1", "commit 2")  # attacker total 3, defender base 2
    assert to_act(s) == 1
    assert legal(s) == {"commit 0", "commit 1"}
    assert_illegal(s, "commit 2", "english-defender", "equal the attacker's total exactly")
    assert_illegal(s, "commit 3", "english-defender", "English variant")
    s, events = play(s, "commit 1")  # 3 against 3: the defender wins the tie
    assert of_type(events, "conflict_resolved")[0]["winner"] == 1


def test_defender_already_ahead_may_only_commit_zero() -> None:
    s = st(WEAK_ATTACKER, leaders="1 red b2", hands=[{"red": 3}, {"red": 3}], english_variant=True)
    s, _ = play(s, "leader red e1", "commit 0")  # 1 against a base of 2
    assert legal(s) == {"commit 0"}
    assert_illegal(s, "commit 1", "english-defender", "English variant")


def test_defender_short_of_the_exact_number_may_only_commit_zero() -> None:
    s = st(
        STRONG_ATTACKER, leaders="1 red b2", hands=[{"red": 3}, {"red": 2}], english_variant=True
    )
    s, _ = play(s, "leader red f2")
    assert legal(s) == {"commit 0", "commit 1", "commit 2", "commit 3"}  # 3 > 2 already
    s, _ = play(s, "commit 2")  # total 5: the defender would need 3
    assert legal(s) == {"commit 0"}
    s, events = play(s, "commit 0")
    assert of_type(events, "conflict_resolved")[0]["winner"] == 0


def test_english_limits_apply_to_wars_with_their_base_strengths() -> None:
    s = st(
        """
        . . . . . .
        r k . k k r
        """,
        leaders="0 black a1, 1 black f1",
        hands=[{"black": 4}, {"black": 4}],
        english_variant=True,
    )
    s, events = play(s, "tile black c2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 2)
    assert legal(s) == {"commit 0", "commit 2", "commit 3"}  # one placed: three left
    s, _ = play(s, "commit 3")  # total 4
    assert legal(s) == {"commit 0", "commit 2"}
    assert pending(s)["conflict"]["attacker_commit"] == 3  # type: ignore[index]


def test_without_the_variant_any_number_in_hand_may_be_committed() -> None:
    s = st(WEAK_ATTACKER, leaders="1 red b2", hands=[{"red": 3}, {"red": 3}], english_variant=False)
    s, _ = play(s, "leader red e1")
    assert legal(s) == {"commit 0", "commit 1", "commit 2", "commit 3"}
    s, _ = play(s, "commit 1")
    assert legal(s) == {"commit 0", "commit 1", "commit 2", "commit 3"}
