"""RULES.md §6.2 (war: external conflict), with §4's "the joining tile belongs to no kingdom"."""

from __future__ import annotations

from diagram import (
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
from tigris_euphrates import from_position, to_act, to_position

# Kingdom A (seat 0's king at a1) has two black tiles b2 c2; kingdom B (seat 1's king at
# f1) has one, e2. A black tile on d2 unites them: a black war.
BLACK_WAR = """
    . . . . . .
    r k k . k r
    r . . . . .
"""


def test_war_base_strength_excludes_the_union_tile_and_the_tie_goes_to_the_defender() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 2}, {"black": 1}])
    s, events = play(s, "tile black d2")
    assert of_type(events, "points_scored") == []  # a union scores nothing
    started = of_type(events, "conflict_started")[0]
    assert started["kind"] == "war" and started["colour"] == "black"
    assert started["support"] == "black"
    assert (started["attacker"], started["defender"]) == (0, 1)
    assert (started["attacker_base"], started["defender_base"]) == (2, 1)
    assert pending(s)["union"] == "d2"  # type: ignore[index]  # the unification marker
    assert to_act(s) == 0 and legal(s) == {"commit 0", "commit 1"}
    s, _ = play(s, "commit 0")
    assert to_act(s) == 1 and legal(s) == {"commit 0", "commit 1"}
    s, events = play(s, "commit 1")  # 2 against 1 + 1: tie, the defender wins
    resolved = of_type(events, "conflict_resolved")[0]
    assert (resolved["winner"], resolved["loser"]) == (1, 0)
    assert leaders_on_board(s) == {(1, "black", "f1")}
    board = cells(s)
    assert "b2" not in board and "c2" not in board  # the loser's black tiles are removed
    assert board["d2"] == {"tile": "black"} and board["e2"] == {"tile": "black"}
    # 1 for the leader + 2 removed tiles; the committed tile scores nothing
    assert score(s, 1)["black"] == 3 and score(s, 0)["black"] == 0
    assert of_type(events, "tiles_removed")[0]["cells"] == ["b2", "c2"]
    assert hand(s, 1)["black"] == 0
    assert to_position(s)["out"]["public"]["black"] == 3  # two removed + one committed
    assert pending(s) is None and to_act(s) == 0
    assert to_position(s)["turn"]["actions_left"] == 1


def test_war_won_by_the_attacker_removes_the_defenders_tiles() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 3}, {"black": 1}])
    s, _ = play(s, "tile black d2", "commit 2", "commit 1")  # 4 against 2
    assert leaders_on_board(s) == {(0, "black", "a1")}
    board = cells(s)
    assert "e2" not in board and {"b2", "c2", "d2"} <= set(board)
    assert score(s, 0)["black"] == 2 and score(s, 1)["black"] == 0
    assert hand(s, 0)["black"] == 0 and hand(s, 1)["black"] == 0


def test_a_non_red_war_removes_tiles_even_next_to_other_leaders() -> None:
    # seat 0's priest at b3 stands next to the black tile b2: it is removed all the same
    s = st(
        BLACK_WAR, leaders="0 black a1, 0 red b3, 1 black f1", hands=[{"black": 1}, {"black": 2}]
    )
    s, _ = play(s, "tile black d2", "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    board = cells(s)
    assert "b2" not in board and "c2" not in board
    assert (0, "red", "b3") in leaders_on_board(s)


def test_face_down_tiles_never_count_as_supporters() -> None:
    s = st(
        """
        . K K . . . .
        r K K k . k r
        """,
        leaders="0 black a1, 1 black g1",
        hands=[{"black": 1}, {}],
    )
    s, events = play(s, "tile black e2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 1)
    s, events = play(s, "commit 0", "commit 0")  # the defender wins; face-down tiles stay
    board = cells(s)
    assert "d2" not in board
    assert all(board[c].get("face_down") for c in ("b1", "c1", "b2", "c2"))
    assert score(s, 1)["black"] == 2


# --- several wars: the placer's choice, recomputed after each war ---------------------------

# Kingdom A (seat 0: priest a1, king a3, trader c1) and kingdom B (seat 1: priest g1,
# king g3, trader e1). A tile on d2 unites them with three conflicts.
THREE_WARS = """
    . r . . . r .
    r r k . k r r
    . r . . . r .
"""
THREE_LEADERS = "0 red a1, 0 black a3, 0 green c1, 1 red g1, 1 black g3, 1 green e1"


def test_the_placer_chooses_the_war_and_is_asked_again_after_each_war() -> None:
    s = st(THREE_WARS, leaders=THREE_LEADERS, hands=[{"black": 1}, {}])
    s, events = play(s, "tile black d2")
    assert of_type(events, "war_choice")[0]["colours"] == ["red", "green", "black"]
    assert pending(s)["stage"] == "war"  # type: ignore[index]
    assert to_act(s) == 0 and legal(s) == {"war red", "war green", "war black"}
    assert_illegal(s, "war blue", "no-such-war", "no blue war")
    s, _ = play(s, "war green", "commit 0", "commit 0")  # green: 0 against 0, seat 1 wins
    assert score(s, 1)["green"] == 1
    assert (0, "green", "c1") not in leaders_on_board(s)
    # asked again, with what is left
    assert to_act(s) == 0 and legal(s) == {"war red", "war black"}
    s, events = play(s, "war black")
    started = of_type(events, "conflict_started")[0]
    assert started["colour"] == "black"
    assert (started["attacker_base"], started["defender_base"]) == (1, 1)
    s, events = play(s, "commit 0", "commit 0")  # seat 1 wins, c2 is removed
    # Without c2, kingdom A no longer touches the union tile: the red war is cancelled.
    assert "c2" not in cells(s)
    assert score(s, 1) == {"red": 0, "blue": 0, "green": 1, "black": 2, "treasure": 0}
    assert of_type(events, "union_resolved") == [{"type": "union_resolved", "cell": "d2"}]
    assert len(of_type(events, "conflict_started")) == 0
    assert (0, "red", "a1") in leaders_on_board(s) and (1, "red", "g1") in leaders_on_board(s)
    assert pending(s) is None and to_act(s) == 0


def test_the_placer_chooses_even_when_not_involved() -> None:
    s = st(
        THREE_WARS,
        players=3,
        turn=2,
        leaders=THREE_LEADERS,
        hands=[{}, {}, {"black": 1}],
    )
    s, _ = play(s, "tile black d2")
    assert to_act(s) == 2 and legal(s) == {"war red", "war green", "war black"}
    s, events = play(s, "war red")
    started = of_type(events, "conflict_started")[0]
    # the placer is not involved: the first involved seat clockwise from seat 2 is seat 0
    assert (started["attacker"], started["defender"]) == (0, 1)
    assert to_act(s) == 0


# Kingdom A: seat 0's king a2 next to temple b2, priest c1 next to temple c2 only, black
# tile d2 touching the union cell e2. Kingdom B: f2 black, g2 temple, seat 1's priest g1 and
# king g3. Red and black conflict.
SPLIT = """
    . . . . . . .
    . r r k . k r
    . . . . . . .
"""


def test_a_war_removal_that_splits_the_kingdom_cancels_the_next_war() -> None:
    s = st(
        SPLIT,
        leaders="0 black a2, 0 red c1, 1 red g1, 1 black g3",
        turn=1,
        hands=[{}, {"green": 1, "red": 2}],
    )
    s, _ = play(s, "tile green e2")
    assert to_act(s) == 1 and legal(s) == {"war red", "war black"}
    s, events = play(s, "war red")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker"], started["defender"]) == (1, 0)
    assert (started["attacker_base"], started["defender_base"]) == (1, 2)
    s, events = play(s, "commit 2", "commit 0")  # 3 against 2
    # b2 stays (next to seat 0's king), c2 goes: A splits into a2-b2 and a leaderless d2
    board = cells(s)
    assert "c2" not in board and "b2" in board and "d2" in board
    assert score(s, 1)["red"] == 2
    assert of_type(events, "union_resolved")
    assert len(of_type(events, "conflict_started")) == 0
    assert leaders_on_board(s) == {(0, "black", "a2"), (1, "red", "g1"), (1, "black", "g3")}
    assert pending(s) is None and to_act(s) == 1


# --- with one war left, it starts at once --------------------------------------------------

TWO_WARS = """
    . . . . .
    r k . k r
    . . . . .
"""


def test_the_last_war_starts_without_a_choice_and_the_red_union_tile_counts_for_nobody() -> None:
    s = st(
        TWO_WARS,
        leaders="0 red a1, 0 black a3, 1 red e1, 1 black e3",
        hands=[{"red": 2}, {}],
    )
    s, events = play(s, "tile red c2")
    assert legal(s) == {"war red", "war black"}
    s, events = play(s, "war red")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 1)  # c2 is nobody's
    s, events = play(s, "commit 1", "commit 0")  # seat 0 wins
    # e2 stays: a temple next to another leader (seat 1's king) in a red war
    assert "e2" in cells(s)
    assert score(s, 0)["red"] == 1
    # the black war starts by itself
    started = of_type(events, "conflict_started")
    assert started and started[0]["colour"] == "black"
    assert pending(s)["stage"] == "conflict" and to_act(s) == 0  # type: ignore[index]
    s, events = play(s, "commit 0", "commit 0")
    assert "b2" not in cells(s) and score(s, 1)["black"] == 2
    assert of_type(events, "union_resolved")
    assert cells(s)["c2"] == {"tile": "red"}  # the union tile stays an ordinary tile


# --- what a lost war removes ----------------------------------------------------------------


def test_priest_war_keeps_treasure_temples_and_temples_next_to_other_leaders() -> None:
    s = st(
        """
        . . . . . .
        T r r . k r
        . . . . . .
        """,
        leaders="0 red a1, 0 black c3, 1 red f1",
        turn=1,
        hands=[{}, {"black": 1, "red": 3}],
    )
    s, events = play(s, "tile black d2")
    started = of_type(events, "conflict_started")[0]
    assert started["colour"] == "red" and (started["attacker"], started["defender"]) == (1, 0)
    assert (started["attacker_base"], started["defender_base"]) == (1, 3)
    s, events = play(s, "commit 3", "commit 0")
    board = cells(s)
    assert board["a2"] == {"tile": "red", "treasure": True}  # a treasure: stays
    assert board["c2"] == {"tile": "red"}  # next to seat 0's king: stays
    assert "b2" not in board  # next to the losing priest only: removed
    assert of_type(events, "tiles_removed")[0]["cells"] == ["b2"]
    assert score(s, 1)["red"] == 2


def test_tiles_carrying_a_treasure_are_never_removed() -> None:
    s = st(
        """
        . . . . . .
        r $ g . g r
        """,
        leaders="0 green a1, 1 green f1",
        hands=[{"black": 1}, {"green": 1}],
    )
    s, _ = play(s, "tile black d2", "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    board = cells(s)
    assert board["b2"] == {"tile": "green", "treasure": True}
    assert "c2" not in board
    assert score(s, 1)["green"] == 2


# --- who attacks when the placer is not involved --------------------------------------------


def _war_parties(players: int, turn: int, left: int, right: int) -> tuple[int, int]:
    hands: list[dict[str, int]] = [{} for _ in range(players)]
    hands[turn] = {"black": 1}
    s = st(
        BLACK_WAR,
        players=players,
        turn=turn,
        leaders=f"{left} black a1, {right} black f1",
        hands=hands,
    )
    s, events = play(s, "tile black d2")
    started = of_type(events, "conflict_started")[0]
    assert to_act(s) == started["attacker"]
    return started["attacker"], started["defender"]


def test_the_placer_attacks_when_involved_even_on_the_right() -> None:
    assert _war_parties(2, 1, 0, 1) == (1, 0)
    assert _war_parties(3, 2, 1, 2) == (2, 1)


def test_war_attacker_when_the_placer_is_not_involved_three_players() -> None:
    assert _war_parties(3, 0, 2, 1) == (1, 2)
    assert _war_parties(3, 1, 0, 2) == (2, 0)
    assert _war_parties(3, 2, 1, 0) == (0, 1)


def test_war_attacker_when_the_placer_is_not_involved_four_players() -> None:
    assert _war_parties(4, 1, 0, 3) == (3, 0)
    assert _war_parties(4, 3, 2, 1) == (1, 2)
    assert _war_parties(4, 3, 1, 2) == (1, 2)
    assert _war_parties(4, 2, 0, 1) == (0, 1)
    assert _war_parties(4, 0, 3, 2) == (2, 3)


def test_a_war_position_round_trips_through_to_position() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 2}, {"black": 1}])
    s, _ = play(s, "tile black d2", "commit 1")
    again = from_position(to_position(s))
    assert to_act(again) == 1 and legal(again) == legal(s)
    assert to_position(again) == to_position(s)


def test_the_war_choice_shows_every_war_with_its_sides_and_strengths() -> None:
    """The view of the placer's choice lists each war of the union: who attacks (the placer
    here) and both base strengths, the union tile excluded."""
    from tigris_euphrates import player_view

    s = st(THREE_WARS, leaders=THREE_LEADERS, hands=[{"black": 1}, {}])
    s, _ = play(s, "tile black d2")
    for seat in (0, 1, None):
        wars = player_view(s, seat)["pending"]["wars"]
        assert wars == [
            {"colour": "red", "attacker": 0, "defender": 1, "attacker_base": 4, "defender_base": 4},
            {
                "colour": "green",
                "attacker": 0,
                "defender": 1,
                "attacker_base": 0,
                "defender_base": 0,
            },
            {
                "colour": "black",
                "attacker": 0,
                "defender": 1,
                "attacker_base": 1,
                "defender_base": 1,
            },
        ]
