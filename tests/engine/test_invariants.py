"""Random-playout invariant checker over many seeded games (2, 3, 4 players, all options)."""

from __future__ import annotations

import itertools

import pytest

from playout import play_random_game

#: Every combination of the options: board x English x open scoring x wonder x buildings in
#: the classic ruleset, and board x English x open scoring in the galaxy ruleset (which the
#: wonder and the buildings do not combine with).
OPTION_SETS = [
    {
        "board": board,
        "english_variant": english,
        "open_scoring": open_,
        "wonder": wonder,
        "buildings": buildings,
    }
    for board, english, open_, wonder, buildings in itertools.product(
        ("standard", "advanced"), (False, True), (False, True), (False, True), (False, True)
    )
] + [
    {"board": board, "english_variant": english, "open_scoring": open_, "ruleset": "galaxy"}
    for board, english, open_ in itertools.product(
        ("standard", "advanced"), (False, True), (False, True)
    )
]

# 3 player counts x 40 option sets x 5 seeds = 600 games in CI.
CASES = [
    (players, i, seed)
    for players in (2, 3, 4)
    for i in range(len(OPTION_SETS))
    for seed in range(5)
]


@pytest.mark.parametrize(
    ("players", "option_set", "seed"),
    [pytest.param(p, i, s, id=f"{p}p-opt{i}-seed{s}") for p, i, s in CASES],
)
def test_random_playout_invariants(players: int, option_set: int, seed: int) -> None:
    options = {"players": players, **OPTION_SETS[option_set]}
    state, record = play_random_game(options, seed * 31 + option_set)
    assert state.over and state.end in ("treasures", "bag")
    assert len(record["actions"]) > 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1600))
def test_random_playout_invariants_slow(seed: int) -> None:
    options = {"players": 2 + seed % 3, **OPTION_SETS[seed % len(OPTION_SETS)]}
    play_random_game(options, seed)
