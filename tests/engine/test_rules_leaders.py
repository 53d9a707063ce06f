"""RULES.md §5.1 (placing, moving, withdrawing a leader) and §6.1 (revolts)."""

from __future__ import annotations

from diagram import (
    ZERO,
    assert_illegal,
    cells,
    hand,
    leaders_on_board,
    legal,
    of_type,
    pending,
    play,
    score,
    st,
)
from tigris_euphrates import to_act, to_position

# --- where a leader may stand -------------------------------------------------------------


def test_leader_needs_an_adjacent_face_up_temple() -> None:
    s = st(
        """
        . . . . . .
        . r . . R .
        . . . . . .
        """
    )
    moves = legal(s)
    assert {"leader black a2", "leader black b1", "leader black c2", "leader black b3"} <= moves
    # diagonal to a temple, or next to a face-down (monument) tile only: no temple
    assert_illegal(s, "leader black a1", "no-temple", "temple")
    assert_illegal(s, "leader black e1", "no-temple", "temple")
    assert_illegal(s, "leader black e3", "no-temple", "temple")


def test_leader_goes_on_land_only() -> None:
    s = st("~ r .")
    assert_illegal(s, "leader red a1", "leader-on-river", "river")
    assert "leader red c1" in legal(s)


def test_leader_needs_an_empty_cell() -> None:
    s = st(
        """
        r k x
        . . .
        """,
        leaders="1 red a2",
    )
    assert_illegal(s, "leader black b1", "occupied", "tile")
    assert_illegal(s, "leader black c1", "occupied", "catastrophe")
    assert_illegal(s, "leader black a2", "occupied", "leader")


def test_leader_cannot_be_placed_on_its_own_cell() -> None:
    s = st("r .", leaders="0 black a2")
    assert_illegal(s, "leader black a2", "same-cell", "cell it stands on")


def test_placing_a_leader_scores_nothing() -> None:
    s = st("r r .", leaders="1 black a2")
    s2, events = play(s, "leader red c1")
    assert (0, "red", "c1") in leaders_on_board(s2)
    assert score(s2, 0) == ZERO and score(s2, 1) == ZERO
    assert of_type(events, "points_scored") == []
    assert to_act(s2) == 0 and to_position(s2)["turn"]["actions_left"] == 1


# --- kingdoms -------------------------------------------------------------------------------


def test_a_leader_may_not_unite_two_kingdoms() -> None:
    s = st(
        """
        . . .
        r . r
        """,
        leaders="0 black a1, 1 black c1",
    )
    msg = assert_illegal(s, "leader red b2", "unites-kingdoms")
    assert "a leader may not unite two kingdoms" in msg


def test_a_leader_may_join_one_kingdom_and_leaderless_regions() -> None:
    s = st(
        """
        . . .
        r . r
        """,
        leaders="0 black a1",
    )
    s, _ = play(s, "leader red b2")
    assert (0, "red", "b2") in leaders_on_board(s)
    # c2 now belongs to the kingdom: seat 1's priest next to it starts a revolt
    s, _ = play(s, "pass", "leader red c1")
    p = pending(s)
    assert p is not None and p["conflict"]["kind"] == "revolt"
    assert p["conflict"]["attacker"] == 1 and p["conflict"]["defender"] == 0


def test_a_leader_move_is_judged_with_the_leader_lifted() -> None:
    # Seat 0's priest at a1 makes a2 a kingdom; lifted, a2 is leaderless, so b2 touches
    # only seat 1's kingdom (c1-c2) and the move is legal.
    s = st(
        """
        . . .
        r . r
        """,
        leaders="0 red a1, 1 black c1",
    )
    assert "leader red b2" in legal(s)
    s2, events = play(s, "leader red b2")
    assert leaders_on_board(s2) == {(0, "red", "b2"), (1, "black", "c1")}
    assert of_type(events, "leader_placed")[0]["origin"] == "a1"
    assert of_type(events, "conflict_started") == []


def test_a_moved_leader_still_may_not_unite_two_kingdoms() -> None:
    # Lifting seat 0's priest from e2 leaves a1-a2 and c1-c2 as two kingdoms: b2 unites them.
    s = st(
        """
        . . . . .
        r . r . r
        """,
        leaders="0 black a1, 1 black c1, 0 red e1",
    )
    assert_illegal(s, "leader red b2", "unites-kingdoms", "a leader may not unite two kingdoms")


def test_a_move_inside_its_own_kingdom_is_no_revolt() -> None:
    s = st(
        """
        r r r . . r
        . . . . . .
        """,
        leaders="0 red a2, 1 red f2",
    )
    s2, events = play(s, "leader red c2")
    assert (0, "red", "c2") in leaders_on_board(s2)
    assert of_type(events, "conflict_started") == []
    assert pending(s2) is None
    assert to_position(s2)["turn"]["actions_left"] == 1


def test_withdraw_returns_the_leader_and_uses_an_action() -> None:
    s = st("r .", leaders="0 black a2, 1 red b2")
    s2, events = play(s, "withdraw black")
    assert leaders_on_board(s2) == {(1, "red", "b2")}
    assert to_position(s2)["turn"]["actions_left"] == 1
    assert of_type(events, "leader_withdrawn")[0]["reason"] == "withdrawn"
    assert_illegal(s2, "withdraw black", "leader-off-board", "not on the board")
    assert "withdraw red" not in legal(s2)  # seat 1's leader is not seat 0's to withdraw


# --- revolts --------------------------------------------------------------------------------

# Seat 1's priest at b2 has two temples (a2, c2; the face-down b1 and nothing diagonal
# count); a priest placed at f2 joins the kingdom with three (e2, g2, f1).
REVOLT = """
    r R . . . r .
    r . r k r . r
    . . . . . . .
"""


def test_revolt_base_strength_and_tie_goes_to_the_defender() -> None:
    s = st(REVOLT, leaders="1 red b2", hands=[{"red": 0}, {"red": 2}])
    s, events = play(s, "leader red f2")
    started = of_type(events, "conflict_started")[0]
    assert started["kind"] == "revolt" and started["support"] == "red"
    assert (started["attacker"], started["defender"]) == (0, 1)
    assert (started["attacker_base"], started["defender_base"]) == (3, 2)
    assert to_act(s) == 0 and legal(s) == {"commit 0"}
    s, _ = play(s, "commit 0")
    assert to_act(s) == 1 and legal(s) == {"commit 0", "commit 1", "commit 2"}
    before = cells(s)
    s, events = play(s, "commit 1")  # 3 against 2 + 1: a tie, the defender wins
    resolved = of_type(events, "conflict_resolved")[0]
    assert resolved["winner"] == 1 and resolved["loser"] == 0
    assert leaders_on_board(s) == {(1, "red", "b2")}
    assert score(s, 1)["red"] == 1 and score(s, 0) == ZERO
    assert cells(s) == before  # no tile leaves the board in a revolt
    assert hand(s, 1)["red"] == 1  # the committed tile is gone
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1


def test_revolt_won_by_the_attacker() -> None:
    s = st(REVOLT, leaders="1 red b2", hands=[{"red": 1}, {"red": 1}])
    before = cells(s)
    s, events = play(s, "leader red f2", "commit 1", "commit 1")  # 4 against 3
    assert leaders_on_board(s) == {(0, "red", "f2")}
    assert score(s, 0)["red"] == 1 and score(s, 1) == ZERO
    assert cells(s) == before
    assert hand(s, 0)["red"] == 0 and hand(s, 1)["red"] == 0
    withdrawn = of_type(events, "leader_withdrawn")[0]
    assert (withdrawn["seat"], withdrawn["cell"], withdrawn["reason"]) == (1, "b2", "revolt")


def test_revolt_support_is_red_whatever_the_leaders_colour() -> None:
    s = st(REVOLT, leaders="1 black b2", hands=[{"red": 1, "black": 4}, {"black": 3}])
    s, events = play(s, "leader black f2")
    assert of_type(events, "conflict_started")[0]["support"] == "red"
    assert legal(s) == {"commit 0", "commit 1"}
    s, _ = play(s, "commit 0")
    # the defender has no red tile: still asked, and commit 0 is the only choice
    assert to_act(s) == 1 and legal(s) == {"commit 0"}
    assert_illegal(s, "commit 1", "support-not-in-hand", "red")
    s, _ = play(s, "commit 0")  # 3 against 2: the attacker wins
    assert leaders_on_board(s) == {(0, "black", "f2")}
    assert score(s, 0)["red"] == 1 and score(s, 0)["black"] == 0


def test_one_temple_counts_for_both_leaders() -> None:
    s = st("r . .\n. r .", leaders="1 green a2")
    # the temple b2 is next to both a2 (which also has a1) and c2
    s, events = play(s, "leader green c2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 2)


def test_a_moved_leader_that_loses_goes_back_to_its_owner() -> None:
    s = st(
        REVOLT + "r . . . . . .\n",
        leaders="1 red b2, 0 red b4",
        hands=[{}, {"red": 2}],
    )
    s, _ = play(s, "leader red f2", "commit 0", "commit 1")
    assert leaders_on_board(s) == {(1, "red", "b2")}  # not back on b4
