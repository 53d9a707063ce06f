"""RULES.md §5.2 (placing a civilization tile), §5.4 (swap), §5.5 (pass) and the end of a
turn's refill (§5)."""

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


def test_blue_tiles_go_only_on_rivers_and_others_only_on_land() -> None:
    s = st("~ ~ .\n. . .", hands=[{"blue": 1, "red": 1, "green": 1, "black": 1}, {}])
    assert_illegal(s, "tile blue c1", "blue-on-land", "blue tiles go only on rivers")
    for colour in ("red", "green", "black"):
        assert_illegal(s, f"tile {colour} a1", "tile-on-river", "only on land")
    assert {"tile blue a1", "tile blue b1", "tile red c1", "tile black c2"} <= legal(s)
    assert "tile blue c1" not in legal(s)


def test_a_tile_needs_an_empty_cell() -> None:
    s = st("r x .\n. . .", leaders="1 red a2", hands=[{"red": 2}, {}])
    assert_illegal(s, "tile red a1", "occupied", "holds a tile")
    assert_illegal(s, "tile red b1", "occupied", "catastrophe")
    assert_illegal(s, "tile red a2", "occupied", "leader")


def test_a_tile_must_be_in_the_hand() -> None:
    s = st(". .", hands=[{"red": 1}, {"green": 3}])
    assert_illegal(s, "tile green a1", "no-tile", "no green tile")
    assert not any(a.startswith("tile green") for a in legal(s))


def test_the_point_goes_to_the_owner_of_the_same_coloured_leader_not_the_placer() -> None:
    s = st("r . .\n. . .", leaders="1 green a2, 0 black b2", hands=[{"green": 1}, {}])
    s, events = play(s, "tile green b1")
    assert score(s, 1)["green"] == 1
    assert score(s, 0) == ZERO
    scored = of_type(events, "points_scored")
    assert scored == [
        {"type": "points_scored", "seat": 1, "colour": "green", "points": 1, "reason": "tile"}
    ]


def test_without_a_leader_of_the_colour_the_king_scores_the_tiles_colour() -> None:
    s = st("r . .\n. . .", leaders="1 black a2, 0 red b2", hands=[{"green": 1, "red": 1}, {}])
    s, _ = play(s, "tile green b1")
    assert score(s, 1) == {**ZERO, "green": 1}
    s, _ = play(s, "tile red c1")  # seat 0's priest is in the kingdom: seat 0 scores red
    assert score(s, 0)["red"] == 1 and score(s, 1)["red"] == 0


def test_without_a_leader_of_the_colour_or_a_king_nobody_scores() -> None:
    s = st("r . .\n. . .", leaders="1 red a2", hands=[{"green": 1}, {}])
    s, events = play(s, "tile green b1")
    assert score(s, 0) == ZERO and score(s, 1) == ZERO
    assert of_type(events, "points_scored") == []


def test_a_tile_touching_no_kingdom_scores_nothing() -> None:
    s = st("r . .\n. . . . . r", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b1")
    assert of_type(events, "points_scored") == []
    assert cells(s)["b1"] == {"tile": "red"}


def test_leaderless_regions_touched_by_the_tile_merge_into_the_kingdom() -> None:
    s = st("r . r\n. . .", leaders="1 red a2", hands=[{"red": 1}, {}])
    s, _ = play(s, "tile red b1")
    assert score(s, 1)["red"] == 1
    # c1 now belongs to seat 1's kingdom: seat 0's priest next to it starts a revolt
    s, events = play(s, "leader red c2")
    started = of_type(events, "conflict_started")
    assert started and started[0]["defender"] == 1


def test_a_union_scores_nothing_even_without_a_war() -> None:
    s = st("r . r\n. . .", leaders="0 red a2, 1 black c2", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b1")
    assert [e["type"] for e in events[:3]] == ["tile_placed", "kingdoms_united", "union_resolved"]
    assert of_type(events, "points_scored") == []
    assert of_type(events, "conflict_started") == []
    assert score(s, 0) == ZERO and score(s, 1) == ZERO
    assert pending(s) is None and to_act(s) == 0
    assert to_position(s)["turn"]["actions_left"] == 1


THREE = """
    . . . . .
    . . r . .
    . r . r .
"""


def test_a_tile_touching_three_kingdoms_is_illegal() -> None:
    s = st(THREE, leaders="0 black c1, 1 black a3, 0 red e3", hands=[{"green": 1}, {}])
    msg = assert_illegal(s, "tile green c3", "three-kingdoms")
    assert "three or more kingdoms" in msg


def test_two_kingdoms_and_a_leaderless_region_are_a_union() -> None:
    s = st(THREE, leaders="0 black c1, 1 red a3", hands=[{"green": 1}, {}])
    s, events = play(s, "tile green c3")
    assert of_type(events, "kingdoms_united")
    assert of_type(events, "points_scored") == []


# --- swap, pass, two actions and the refill -------------------------------------------------


def test_swap_discards_then_draws_and_the_drawn_tiles_are_usable_at_once() -> None:
    s = st(
        "~ ~ .",
        hands=[{"red": 2, "black": 4}, {}],
        bag=["blue", "blue", "green", "red", "red", "red"],
    )
    s, events = play(s, "swap red=2")
    assert hand(s, 0) == {"red": 0, "blue": 2, "green": 0, "black": 4}
    assert to_position(s)["out"]["swapped"][0]["red"] == 2
    assert to_position(s)["bag"] == ["green", "red", "red", "red"]
    assert of_type(events, "tiles_swapped")[0]["count"] == 2
    assert "tile blue a1" in legal(s)
    s, _ = play(s, "tile blue a1")
    assert cells(s)["a1"] == {"tile": "blue"}


def test_swap_takes_one_to_six_tiles_from_the_hand() -> None:
    s = st(". .", hands=[{"red": 6}, {}])
    swaps = {a for a in legal(s) if a.startswith("swap")}
    assert swaps == {f"swap red={n}" for n in range(1, 7)}
    s2 = st(". .", hands=[{"red": 2, "green": 1}, {}])
    assert_illegal(s2, "swap red=3", "swap-not-in-hand", "not in your hand")
    assert_illegal(s2, "swap blue=1", "swap-not-in-hand", "not in your hand")
    s3 = st(". .", hands=[{"red": 7}, {}])
    assert_illegal(s3, "swap red=7", "swap-size", "1 to 6")


def test_pass_uses_an_action_and_two_actions_end_the_turn() -> None:
    s = st(". .", hands=[{"red": 6}, {"red": 6}])
    s, _ = play(s, "pass")
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1
    s, events = play(s, "pass")
    assert to_position(s)["turn"] == {"player": 1, "actions_left": 2}
    assert of_type(events, "turn_started") == [{"type": "turn_started", "seat": 1}]


def test_the_same_action_twice_and_the_refill_from_the_turn_player_clockwise() -> None:
    s = st(
        ". . . .",
        players=3,
        hands=[{"black": 6}, {"black": 5}, {"black": 6}],
        bag=["red", "blue", "green", "black", "black"],
    )
    s, events = play(s, "tile black a1", "tile black d1")
    drawn = of_type(events, "tiles_drawn")
    assert [(e["seat"], e["count"], e["tiles"]) for e in drawn] == [
        (0, 2, {"red": 1, "blue": 1}),
        (1, 1, {"green": 1}),
    ]
    assert hand(s, 0) == {"red": 1, "blue": 1, "green": 0, "black": 4}
    assert hand(s, 1) == {"red": 0, "blue": 0, "green": 1, "black": 5}
    assert hand(s, 2)["black"] == 6
    assert to_position(s)["bag"] == ["black", "black"]
    assert to_act(s) == 1
    assert leaders_on_board(s) == set()


def test_a_kingdom_touched_twice_counts_once() -> None:
    # b2 touches the kingdom through a2 and b1: one kingdom, the tile scores
    s = st("r r .\nr . .", leaders="1 red a3", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b2")
    assert of_type(events, "kingdoms_united") == []
    assert score(s, 1)["red"] == 1
