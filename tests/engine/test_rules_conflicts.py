"""RULES.md §6 (support decisions, common to revolts and wars) and §13.4–13.6."""

from __future__ import annotations

from diagram import (
    assert_illegal,
    hand,
    leaders_on_board,
    legal,
    of_type,
    pending,
    play,
    score,
    st,
)
from tigris_euphrates import player_view, to_act, to_position

# Seat 1's priest at b2 (two temples); a priest placed at f2 has three.
REVOLT = """
    r R . . . r .
    r . r k r . r
    . . . . . . .
"""

BLACK_WAR = """
    . . . . . .
    r k k . k r
"""


def test_attacker_decides_first_then_the_defender_each_once() -> None:
    s = st(REVOLT, leaders="1 red b2", hands=[{"red": 2}, {"red": 2}])
    s, _ = play(s, "leader red f2")
    assert to_act(s) == 0 and pending(s)["conflict"]["attacker_commit"] is None  # type: ignore[index]
    assert_illegal(s, "pass", "wrong-decision", "support commitment")
    s, events = play(s, "commit 2")
    assert of_type(events, "support_committed") == [
        {"type": "support_committed", "seat": 0, "role": "attacker", "colour": "red", "count": 2}
    ]
    assert to_act(s) == 1 and pending(s)["conflict"]["attacker_commit"] == 2  # type: ignore[index]
    s, events = play(s, "commit 2")  # 5 against 4
    assert of_type(events, "support_committed")[0]["role"] == "defender"
    assert pending(s) is None and to_act(s) == 0
    assert leaders_on_board(s) == {(0, "red", "f2")}


def test_committed_tiles_leave_the_hand_when_committed_and_are_public() -> None:
    s = st(REVOLT, leaders="1 red b2", hands=[{"red": 3, "blue": 1}, {"red": 1}])
    out_before = to_position(s)["out"]["public"]["red"]
    s, _ = play(s, "leader red f2", "commit 2")
    assert hand(s, 0) == {"red": 1, "blue": 1, "green": 0, "black": 0}
    assert to_position(s)["out"]["public"]["red"] == out_before + 2
    # the defender (and everyone) sees the commitment, and the attacker's smaller hand
    view = player_view(s, 1)
    assert view["pending"]["conflict"]["attacker_commit"] == 2
    assert view["players"][0]["hand_size"] == 2
    s, _ = play(s, "commit 1")
    assert hand(s, 1)["red"] == 0
    assert to_position(s)["out"]["public"]["red"] == out_before + 3


def test_the_winners_committed_tiles_are_discarded_too() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 4}, {"black": 2}])
    s, _ = play(s, "tile black d2", "commit 3", "commit 2")  # 5 against 3: seat 0 wins
    assert hand(s, 0)["black"] == 0 and hand(s, 1)["black"] == 0
    # the winner scores the leader and the one removed tile, not the committed tiles
    assert score(s, 0)["black"] == 2


def test_support_is_asked_even_with_no_tile_in_hand() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 1, "red": 5}, {"red": 6}])
    s, _ = play(s, "tile black d2")
    assert to_act(s) == 0 and legal(s) == {"commit 0"}
    s, _ = play(s, "commit 0")
    assert to_act(s) == 1 and legal(s) == {"commit 0"}
    assert_illegal(s, "commit 1", "support-not-in-hand", "black")
    s, _ = play(s, "commit 0")
    assert pending(s) is None
    assert score(s, 0)["black"] == 2  # 2 against 1: seat 0 wins, e2 removed


def test_support_must_be_in_the_hand() -> None:
    s = st(REVOLT, leaders="1 red b2", hands=[{"red": 2, "black": 3}, {"red": 2}])
    s, _ = play(s, "leader red f2")
    assert legal(s) == {"commit 0", "commit 1", "commit 2"}
    assert_illegal(s, "commit 3", "support-not-in-hand", "red tiles")


def test_ties_go_to_the_defender_in_a_war_too() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 1}, {"black": 1}])
    s, events = play(s, "tile black d2", "commit 0", "commit 1")
    resolved = of_type(events, "conflict_resolved")[0]
    assert (resolved["attacker_total"], resolved["defender_total"]) == (2, 2)
    assert resolved["winner"] == 1
