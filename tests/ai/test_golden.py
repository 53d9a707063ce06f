"""The bots play exactly as the levels were measured: records of games played by every level
(two and four players, fixed seeds, a fixed iteration budget, no time cap) before their code
was restructured are played again by today's bots and must come out byte for byte the same.
A change that alters a level's decisions fails here; if it is meant to, the strength table
must be measured again before these records are renewed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.tournament import play_game

GAMES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden_records.json").read_text()
)["games"]


@pytest.mark.parametrize(
    "game", GAMES, ids=[f"{g['level']}-{g['players']}p-{g['seed']}" for g in GAMES]
)
def test_each_level_replays_its_recorded_games(game: dict[str, Any]) -> None:
    n = game["players"]
    bots = [make_bot(game["level"], seed) for seed in game["bot_seeds"]]
    budget = Budget(iterations=game["iterations"])
    out = play_game(bots, {"players": n}, seed=game["seed"], budgets=[budget] * n)
    expected = game["record"]
    assert out.actions == expected["actions"]
    assert json.dumps(out.record(), sort_keys=True) == json.dumps(expected, sort_keys=True)
