"""Notation, JSON forms and positions round-trip; final scoring is right (hypothesis)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tigris_euphrates import InvalidAction, from_position, new_game, parse_action, to_position
from tigris_euphrates.engine.actions import Action, action_from_dict, to_action
from tigris_euphrates.engine.board import CELL_NAMES, COLOURS, MONUMENT_NAMES
from tigris_euphrates.engine.scoring import final_totals, ranking, ranks

colour = st.sampled_from(COLOURS)
cell = st.sampled_from(CELL_NAMES)
counts = st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda c: 0 < sum(c) <= 6)

notation = st.one_of(
    st.builds(lambda c, x: f"tile {c} {x}", colour, cell),
    st.builds(lambda c, x: f"leader {c} {x}", colour, cell),
    st.builds(lambda c: f"withdraw {c}", colour),
    st.builds(lambda x: f"catastrophe {x}", cell),
    st.builds(
        lambda n: "swap " + ",".join(f"{COLOURS[i]}={k}" for i, k in enumerate(n) if k), counts
    ),
    st.just("pass"),
    st.builds(lambda n: f"commit {n}", st.integers(0, 6)),
    st.builds(lambda c: f"war {c}", colour),
    st.builds(lambda m, x: f"monument {m} {x}", st.sampled_from(MONUMENT_NAMES), cell),
    st.just("decline"),
    st.builds(lambda x: f"treasure {x}", cell),
    st.builds(lambda x: f"wonder {x}", cell),
    st.builds(lambda c: f"point {c}", colour),
    st.builds(lambda c, x: f"building {c} {x}", colour, cell),
)


@given(notation)
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(text.upper().replace(" ", "  ")) == action
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert eval(repr(action), {"Action": Action}) == action
    assert to_action(action) is action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "tile",
        "tile purple e4",
        "tile red q4",
        "tile red e12",
        "leader red",
        "swap",
        "swap red=0",
        "swap red=1,red=2",
        "swap red2",
        "commit -1",
        "commit x",
        "monument red-red f7",
        "monument blue-red f7",
        "fly",
        "pass now",
    ],
)
def test_malformed_notation_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        parse_action(text)


def test_swap_prints_colours_in_order() -> None:
    assert str(parse_action("swap black=1,red=2")) == "swap red=2,black=1"


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.sampled_from(["standard", "advanced"]))
def test_new_game_position_round_trip(seed: int, players: int, board: str) -> None:
    state = new_game({"players": players, "board": board}, seed)
    pos = to_position(state)
    assert from_position(json.loads(json.dumps(pos))) == state
    assert pos["format"] == "tne-position/1"
    assert sum(sum(p["hand"].values()) for p in pos["players"]) == 6 * players


def brute_best(colours: list[int], treasures: int) -> list[int]:
    best: list[int] | None = None
    for split in itertools.product(range(treasures + 1), repeat=4):
        if sum(split) == treasures:
            key = sorted(c + s for c, s in zip(colours, split, strict=True))
            best = key if best is None or key > best else best
    assert best is not None
    return best


@given(st.lists(st.integers(0, 8), min_size=4, max_size=4), st.integers(0, 5))
def test_treasures_fill_the_lowest_colours_best(colours: list[int], treasures: int) -> None:
    assert final_totals(colours, treasures) == brute_best(colours, treasures)


@given(st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=2, max_size=4))
def test_ranking_is_competition_ranking(rows: list[list[int]]) -> None:
    totals = [sorted(r) for r in rows]
    order = ranking(totals)
    flat = [s for g in order for s in (g if isinstance(g, list) else [g])]
    assert sorted(flat) == list(range(len(rows)))
    r = ranks(totals)
    place = 1
    for group in order:
        seats = group if isinstance(group, list) else [group]
        assert len(seats) == 1 or all(totals[s] == totals[seats[0]] for s in seats)
        assert all(r[s] == place for s in seats)
        place += len(seats)
