"""RULES.md §5 end of turn, §9 (end of the game, final scoring), §13.1, §13.9."""

from __future__ import annotations

from typing import Any

from diagram import hand, legal, of_type, play, score, st, state
from tigris_euphrates import result, to_act, to_position

# --- the bag runs short -----------------------------------------------------------------------


def test_bag_short_during_a_swap_ends_the_game_at_once() -> None:
    s = st(". .", hands=[{"red": 3}, {"red": 6}], bag=["blue"])
    s, events = play(s, "swap red=2")
    assert hand(s, 0) == {"red": 1, "blue": 1, "green": 0, "black": 0}
    assert [e["type"] for e in events] == ["tiles_swapped", "tiles_drawn", "game_over"]
    assert of_type(events, "tiles_drawn")[0]["count"] == 1
    pos = to_position(s)
    assert pos["over"] is True and pos["end"] == "bag" and pos["bag"] == []
    assert to_act(s) is None and legal(s) == set()
    r = result(s)
    assert r is not None and r["end"] == "bag"
    assert of_type(events, "game_over")[0]["result"] == r


def test_bag_short_during_the_refill_later_players_draw_nothing() -> None:
    s = state(  # no treasure on the board at all: the end is still "bag"
        ". . . .",
        players=3,
        hands=[{"red": 6}, {"red": 4}, {"red": 5}],
        bag=["blue", "green", "black"],
    )
    s, events = play(s, "tile red a1", "tile red c1")
    drawn = [(e["seat"], e["count"]) for e in of_type(events, "tiles_drawn")]
    assert drawn == [(0, 2), (1, 1)]  # seat 1 takes what is left; seat 2 draws nothing
    assert hand(s, 1) == {"red": 4, "blue": 0, "green": 0, "black": 1}
    assert hand(s, 2) == {"red": 5, "blue": 0, "green": 0, "black": 0}
    assert to_position(s)["end"] == "bag"
    assert of_type(events, "turn_started") == []
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "bag"


def test_a_bag_holding_exactly_enough_does_not_end_the_game() -> None:
    s = st(". . . .", hands=[{"red": 6}, {"red": 5}], bag=["blue", "green", "black"])
    s, _ = play(s, "tile red a1", "tile red c1")
    pos = to_position(s)
    assert pos["over"] is False and pos["bag"] == [] and to_act(s) == 1
    assert hand(s, 1) == {"red": 5, "blue": 0, "green": 0, "black": 1}
    # the next draw ends it
    s, _ = play(s, "swap red=1")
    assert to_position(s)["end"] == "bag"
    assert hand(s, 1) == {"red": 4, "blue": 0, "green": 0, "black": 1}


def test_monument_points_come_before_the_refill_that_ends_the_game() -> None:
    s = st(
        "R R r\nR R .",
        monuments={"red-green": "a1"},
        leaders="0 red c2",
        hands=[{"black": 5}, {"black": 6}],
        bag=[],
    )
    s, _ = play(s, "pass", "pass")
    assert to_position(s)["end"] == "bag"
    assert score(s, 0)["red"] == 1


# --- the treasure end -------------------------------------------------------------------------


def test_the_treasure_end_is_checked_at_the_end_of_the_turn_after_the_refills() -> None:
    s = st("T . T\n. . .", leaders="0 green a2", hands=[{"red": 2}, {"red": 6}], spare_treasures=1)
    s, _ = play(s, "tile red b1", "treasure a1")
    # two treasures left (c1, p11): the turn goes on
    assert to_position(s)["over"] is False
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1
    s, events = play(s, "pass")
    types = [e["type"] for e in events]
    assert types[-2:] == ["tiles_drawn", "game_over"]
    assert hand(s, 0)["black"] == 5  # the refill happened before the end
    assert to_position(s)["end"] == "treasures"
    assert result(s)["end"] == "treasures"  # type: ignore[index]


def test_three_treasures_left_the_game_goes_on() -> None:
    s = st(". .", hands=[{"red": 6}, {"red": 6}])
    s, _ = play(s, "pass", "pass")
    assert to_position(s)["over"] is False and to_act(s) == 1


# --- final scoring ----------------------------------------------------------------------------


def _finish(scores: list[dict[str, int]]) -> dict[str, Any]:
    n = len(scores)
    hands = [{"red": 6} for _ in range(n)]
    s = st(". .", players=n, hands=hands, scores=scores, bag=[])
    assert result(s) is None
    s, _ = play(s, "swap red=1")
    r = result(s)
    assert r is not None
    return r


def test_treasures_fill_the_lowest_colours() -> None:
    r = _finish(
        [{"red": 0, "blue": 3, "green": 3, "black": 3, "treasure": 4}, {"red": 2, "blue": 2}]
    )
    assert r["scores"] == [[3, 3, 3, 4], [0, 0, 2, 2]]
    assert r["ranking"] == [0, 1]


def test_ties_compare_the_next_colours_and_equal_players_share_the_place() -> None:
    r = _finish(
        [
            {"red": 3, "blue": 5, "green": 4, "black": 9, "treasure": 2},
            {"red": 4, "blue": 4, "green": 6, "black": 7},
            {"red": 7, "blue": 6, "green": 4, "black": 4},
        ]
    )
    assert r["scores"] == [[4, 5, 5, 9], [4, 4, 6, 7], [4, 4, 6, 7]]
    assert r["ranking"] == [0, [1, 2]]


def test_a_tie_broken_by_the_highest_colour() -> None:
    r = _finish(
        [
            {"red": 5, "blue": 5, "green": 5, "black": 8},
            {"red": 5, "blue": 5, "green": 9, "black": 5},
        ]
    )
    assert r["ranking"] == [1, 0]


def test_shared_first_place_and_a_third() -> None:
    r = _finish(
        [
            {"red": 1, "blue": 1, "green": 1, "black": 1},
            {"red": 2, "blue": 2, "green": 2, "black": 2},
            {"red": 2, "blue": 2, "green": 2, "black": 1, "treasure": 1},
            {"red": 0, "blue": 9, "green": 9, "black": 9},
        ]
    )
    assert r["ranking"] == [[1, 2], 0, 3]


def test_a_treasure_on_a_face_down_tile_counts_for_the_end() -> None:
    from diagram import position
    from tigris_euphrates import from_position

    pos = position("R R T\nR R .", monuments={"red-blue": "a1"}, spare_treasures=1)
    pos["cells"]["a1"]["treasure"] = True
    pos["players"] = [dict(p, hand={"red": 6}) for p in pos["players"]]
    s = from_position(pos)  # three treasures: a1 (face down), c1, p11
    s, _ = play(s, "pass", "pass")
    assert to_position(s)["over"] is False


def test_setup_of_a_new_game() -> None:
    from tigris_euphrates import new_game

    for players in (2, 3, 4):
        s = new_game({"players": players}, seed=7)
        pos = to_position(s)
        temples = {c for c, v in pos["cells"].items() if v == {"tile": "red", "treasure": True}}
        assert len(temples) == 10 and len(pos["cells"]) == 10
        assert all(sum(p["hand"].values()) == 6 and p["catastrophes"] == 2 for p in pos["players"])
        assert len(pos["bag"]) == 153 - 10 - 6 * players
        assert pos["turn"] == {"player": 0, "actions_left": 2} and pos["leaders"] == []
    adv = to_position(new_game({"board": "advanced"}, seed=7))
    assert sum(1 for v in adv["cells"].values() if v.get("treasure")) == 14


def test_an_empty_bag_ends_nothing_while_nobody_must_draw() -> None:
    s = st(". .", hands=[{"red": 6}, {"red": 6}], bag=[])
    s, _ = play(s, "pass", "pass")
    assert to_position(s)["over"] is False and to_act(s) == 1
