"""RULES.md §11 Civilization buildings.

Four buildings (one per colour, owned by nobody). A *run* is a maximal row or column line of
contiguous face-up tiles of one colour; a tile's *length* is the longer of its row run and
column run. After a tile of colour c is placed (after its scoring; a union tile after its
wars), before the wonder/monument check: T = 2 with building c off the board, else
max(2, length of its tile); nothing happens if building c stands on the placed tile's row or
column run; otherwise the tiles of those two runs longer than T are the candidates
(`building COLOUR CELL` or `decline`). A tile of colour c scoring in a kingdom holding
building c gives its scorer 1 extra VP of c. A building's tile is safe from catastrophes and
wars; a monument or wonder over it sends the building back off the board.

``buildings={...}`` in a diagram turns the variant on (``{}``: every building off the board).
"""

from __future__ import annotations

from diagram import (
    ZERO,
    assert_refused,
    cells,
    legal,
    of_type,
    pending,
    play,
    score,
    st,
)
from tigris_euphrates import State, to_act, to_position


def stage(s: State) -> str | None:
    p = pending(s)
    return None if p is None else p["stage"]


def buildings(s: State) -> dict[str, str]:
    return dict(to_position(s).get("buildings", {}))


def offer(colour: str, *cells_: str) -> set[str]:
    return {f"building {colour} {c}" for c in cells_} | {"decline"}


# --- the threshold T --------------------------------------------------------------------------


def test_a_run_of_two_gives_no_offer_while_the_building_is_off_the_board() -> None:
    s = st("k . .\n. . .", hands=[{"black": 1}, {}], buildings={})
    s, events = play(s, "tile black b1")  # the run a1-b1: 2, not longer than T = 2
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1
    assert of_type(events, "building_placed") == [] and buildings(s) == {}


def test_a_run_of_three_offers_the_building_on_any_tile_of_the_run() -> None:
    s = st("k k .\n. . .", hands=[{"black": 1}, {}], buildings={})
    s, _ = play(s, "tile black c1")  # the run a1-c1: 3 > 2
    assert stage(s) == "building" and to_act(s) == 0
    assert legal(s) == offer("black", "a1", "b1", "c1")
    assert_refused(s, "pass")
    assert_refused(s, "building black a2")  # not a tile of the run
    assert_refused(s, "building green b1")  # only building c, the placed tile's colour
    s, events = play(s, "building black b1")
    assert buildings(s) == {"black": "b1"}
    placed = of_type(events, "building_placed")
    assert [(e["seat"], e["colour"], e["cell"], e["origin"]) for e in placed] == [
        (0, "black", "b1", None)
    ]
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


def test_declining_the_building_offer() -> None:
    s = st("k k .\n. . .", hands=[{"black": 1}, {}], buildings={})
    s, events = play(s, "tile black c1", "decline")
    assert buildings(s) == {} and of_type(events, "building_placed") == []
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


def test_the_candidates_come_from_both_the_row_run_and_the_column_run() -> None:
    s = st("k k .\n. . k\n. . k", hands=[{"black": 1}, {}], buildings={})
    s, _ = play(s, "tile black c1")  # row a1-c1 and column c1-c3, both 3 long
    assert legal(s) == offer("black", "a1", "b1", "c1", "c2", "c3")


def test_a_tiles_length_is_the_longer_of_its_row_run_and_column_run() -> None:
    s = st("k k k\n. . .", hands=[{"black": 1}, {}], buildings={})
    # b2's own runs are short (column b1-b2: 2, row: 1), but b1, a tile of its column run,
    # has the row run a1-c1: length 3 > 2. b2 itself (length 2) is no candidate.
    s, _ = play(s, "tile black b2")
    assert legal(s) == offer("black", "b1")


def test_face_down_tiles_break_runs() -> None:
    s = st(
        "k K K k .\n. K K . .",
        monuments={"blue-black": "b1"},
        hands=[{"black": 1}, {}],
        buildings={},
    )
    s, _ = play(s, "tile black e1")  # the run d1-e1 is 2 long (not a1-e1, 5)
    assert pending(s) is None


def test_the_building_moves_only_to_a_strictly_longer_run() -> None:
    # the building stands on a1, of the run a1-c1: T = 3. Buildings are nobody's: seat 1 moves it.
    s = st(
        """
        k k k . .
        . . . . .
        k k . . .
        """,
        turn=1,
        hands=[{}, {"black": 2}],
        buildings={"black": "a1"},
    )
    s, _ = play(s, "tile black c3")  # the run a3-c3: 3, not longer than 3
    assert pending(s) is None and buildings(s) == {"black": "a1"}
    s, events = play(s, "tile black d3")  # the run a3-d3: 4 > 3
    assert stage(s) == "building" and to_act(s) == 1
    assert legal(s) == offer("black", "a3", "b3", "c3", "d3")
    s, events = play(s, "building black b3")
    assert buildings(s) == {"black": "b3"}
    placed = of_type(events, "building_placed")
    assert [(e["seat"], e["colour"], e["cell"], e["origin"]) for e in placed] == [
        (1, "black", "b3", "a1")
    ]


def test_t_is_at_least_two_when_the_buildings_tile_is_shorter() -> None:
    # the building's tile a1 stands alone (length 1): T = max(2, 1) = 2
    s = st("k . . .\n. . . .\nk . . .", hands=[{"black": 2}, {}], buildings={"black": "a1"})
    s, _ = play(s, "tile black b3")  # a3-b3: 2
    assert pending(s) is None
    s, _ = play(s, "tile black c3")  # a3-c3: 3
    assert legal(s) == offer("black", "a3", "b3", "c3")


def test_the_building_stays_when_it_stands_on_the_placed_tiles_row_run() -> None:
    s = st("k k k .\n. . . .", hands=[{"black": 1}, {}], buildings={"black": "a1"})
    s, _ = play(s, "tile black d1")  # a1-d1: 4 > 3, but the building is on this run
    assert pending(s) is None and buildings(s) == {"black": "a1"}


def test_the_building_stays_when_it_stands_on_the_placed_tiles_column_run() -> None:
    s = st(
        """
        k . . .
        k . . .
        . k k k
        """,
        hands=[{"black": 1}, {}],
        buildings={"black": "a1"},
    )
    # a3 makes the column a1-a3 (3) and the row a3-d3 (4 > T = 2); the building is on the column
    s, _ = play(s, "tile black a3")
    assert pending(s) is None and buildings(s) == {"black": "a1"}


# --- the order: scoring, building, monument -----------------------------------------------------

# b2 completes the block a1 and makes the column b1-b3 (3); the kingdom has seat 1's king d1.
ORDER = """
    k k r .
    k . . .
    . k . .
"""


def test_the_building_check_comes_after_the_scoring_and_before_the_monument_check() -> None:
    s = st(ORDER, leaders="1 black d1", hands=[{"black": 1}, {}], buildings={})
    s, _ = play(s, "tile black b2")
    assert score(s, 1)["black"] == 1  # the tile's point, to seat 1's king, came first
    assert stage(s) == "building" and to_act(s) == 0
    # a2: row a2-b2 and column a1-a2, both 2: no candidate
    assert legal(s) == offer("black", "b1", "b2", "b3")
    s, _ = play(s, "building black b3")
    assert stage(s) == "monument" and to_act(s) == 0
    assert legal(s) == {
        "monument red-black a1",
        "monument blue-black a1",
        "monument green-black a1",
        "decline",
    }
    s, _ = play(s, "decline")
    assert pending(s) is None and buildings(s) == {"black": "b3"}
    assert to_position(s)["turn"]["actions_left"] == 1


def test_a_monument_built_over_the_building_sends_it_back_off_the_board() -> None:
    s = st(ORDER, leaders="1 black d1", hands=[{"black": 1}, {}], buildings={})
    s, _ = play(s, "tile black b2", "building black b2")
    s, events = play(s, "monument blue-black a1")
    assert cells(s)["b2"] == {"tile": "black", "face_down": True}
    assert buildings(s) == {}
    returned = of_type(events, "building_returned")
    assert [(e["colour"], e["cell"]) for e in returned] == [("black", "b2")]


# --- a union tile: the building check after its wars ------------------------------------------

# Kingdom A (seat 0's king a1): b2 c2. Kingdom B (seat 1's king f1): e2. A black tile on d2
# unites them (the black run b2-e2 is 4 long for a moment) and starts a black war.
BLACK_WAR = """
    . . . . . .
    r k k . k r
    r . . . . .
"""
WAR_LEADERS = "0 black a1, 1 black f1"


def test_the_building_check_on_a_union_tile_comes_after_its_wars() -> None:
    s = st(BLACK_WAR, leaders=WAR_LEADERS, hands=[{"black": 1}, {}], buildings={})
    s, _ = play(s, "tile black d2")
    assert stage(s) == "conflict"
    s, _ = play(s, "commit 0", "commit 0")  # 2 against 1: seat 0 wins, e2 is removed
    assert "e2" not in cells(s) and score(s, 0)["black"] == 2
    assert stage(s) == "building" and to_act(s) == 0
    assert legal(s) == offer("black", "b2", "c2", "d2")  # the run b2-d2: 3


def test_no_building_offer_when_the_war_broke_the_run() -> None:
    s = st(BLACK_WAR, leaders=WAR_LEADERS, hands=[{"black": 1}, {"black": 1}], buildings={})
    s, _ = play(s, "tile black d2", "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    assert "b2" not in cells(s) and "c2" not in cells(s)
    assert pending(s) is None  # d2-e2: 2


# --- the building's tile is protected -----------------------------------------------------------


def test_the_buildings_tile_survives_a_war_and_still_supports() -> None:
    s = st(
        BLACK_WAR,
        leaders=WAR_LEADERS,
        hands=[{"black": 1}, {"black": 1}],
        buildings={"black": "b2"},
    )
    s, events = play(s, "tile black d2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (2, 1)  # b2 counts
    s, events = play(s, "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    board = cells(s)
    assert board["b2"] == {"tile": "black"} and "c2" not in board
    assert of_type(events, "tiles_removed")[0]["cells"] == ["c2"]
    assert score(s, 1)["black"] == 2  # the leader + c2
    assert buildings(s) == {"black": "b2"}
    # then the building check on d2: the run d2-e2 is 2, T = max(2, 1): no offer
    assert pending(s) is None


def test_a_catastrophe_cannot_hit_the_buildings_tile() -> None:
    s = st("k k k .\n. . . .", buildings={"black": "b1"})
    assert_refused(s, "catastrophe b1")
    assert {"catastrophe a1", "catastrophe d1"} <= legal(s)


# --- the bonus point --------------------------------------------------------------------------


def test_the_bonus_goes_to_the_scorer_of_a_tile_of_the_buildings_colour_in_its_kingdom() -> None:
    s = st(
        "r g . .\n. . . .",
        leaders="1 black a2",
        hands=[{"green": 1}, {}],
        buildings={"green": "b1"},
    )
    s, events = play(s, "tile green c1")
    # seat 1's king takes the green point (no trader), and the bonus with it; not the placer
    assert score(s, 1) == {**ZERO, "green": 2} and score(s, 0) == ZERO
    scored = sorted(
        (e["seat"], e["colour"], e["points"], e["reason"]) for e in of_type(events, "points_scored")
    )
    assert scored == [(1, "green", 1, "building"), (1, "green", 1, "tile")]
    assert pending(s) is None  # the building b1 is on c1's row run: it stays


def test_no_bonus_in_another_kingdom_or_for_another_colour() -> None:
    s = st(
        "r g . . . r .\n. . . . . . .",
        leaders="1 black a2, 0 green f2",
        hands=[{"green": 1, "red": 1}, {}],
        buildings={"green": "b1"},
    )
    s, _ = play(s, "tile green g1")  # seat 0's trader's kingdom: no building there
    assert score(s, 0) == {**ZERO, "green": 1}
    s, _ = play(s, "tile red a3")  # the building's kingdom, but a red tile: the king's point
    assert score(s, 1) == {**ZERO, "red": 1}
    assert score(s, 0) == {**ZERO, "green": 1}


def test_the_bonus_counts_the_kingdom_as_the_tile_makes_it() -> None:
    # ruling: "a kingdom that holds building c (after placement)" is the kingdom as it is once
    # the tile is placed: a tile that joins the building's leaderless region to the kingdom
    # scores the bonus.
    s = st(
        "r . g .\n. . . .",
        leaders="1 black a2",
        hands=[{"green": 1}, {}],
        buildings={"green": "c1"},
    )
    s, _ = play(s, "tile green b1")
    assert score(s, 1) == {**ZERO, "green": 2}


def test_the_tile_that_brings_the_building_scores_no_bonus_for_itself() -> None:
    # ruling: the building check comes after the tile's scoring, so the tile that puts the
    # building into the kingdom has already scored without it; the next tile has the bonus.
    s = st("r g g . .\n. . . . .", leaders="1 black a2", hands=[{"green": 2}, {}], buildings={})
    s, _ = play(s, "tile green d1")
    assert score(s, 1)["green"] == 1
    assert legal(s) == offer("green", "b1", "c1", "d1")
    s, _ = play(s, "building green c1")
    assert score(s, 1)["green"] == 1
    s, _ = play(s, "tile green e1")  # 1 + the bonus; the building is on e1's run: it stays
    assert score(s, 1)["green"] == 3
    assert buildings(s) == {"green": "c1"}


def test_war_points_earn_no_bonus() -> None:
    # ruling: the bonus is for a tile's own point (§5.2), not for the war's points, even when
    # the winner's kingdom holds the building of the war's colour.
    s = st(BLACK_WAR, leaders=WAR_LEADERS, hands=[{"black": 1}, {}], buildings={"black": "b2"})
    s, events = play(s, "tile black d2", "commit 0", "commit 0")  # 2 against 1: seat 0 wins
    assert score(s, 0) == {**ZERO, "black": 2}  # the leader + e2
    assert [e["reason"] for e in of_type(events, "points_scored")] == ["war"]
    assert pending(s) is None  # the building b2 is on d2's row run b2-d2: it stays
