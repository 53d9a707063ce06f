"""The bots play exactly as the levels were measured: records of games played by every level
(two and four players, fixed seeds, a fixed iteration budget, no time cap) before their code
was restructured are played again by today's bots and must come out byte for byte the same.
A change that alters a level's decisions fails here; if it is meant to, the strength table
must be measured again before these records are renewed (``python tests/ai/test_golden.py
--renew`` plays every listed game again and writes the file).

At one fixed iteration budget hard and expert are the same search, and a budget under 16
iterations never reaches the early stop. So a few more games give each seat its level's own
iterations for that player count divided by ``divisor`` (no time cap): they tell hard from
expert, run the early stop, and fail when a level's default budget (iterations or time cap)
changes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tigris_euphrates.ai import Bot, Budget, SearchBot, make_bot
from tigris_euphrates.ai.base import Event, View
from tigris_euphrates.tournament import play_game

RECORDS = Path(__file__).parent / "golden_records.json"

GAMES: list[dict[str, Any]] = json.loads(RECORDS.read_text())["games"]


def _levels(game: dict[str, Any]) -> list[str]:
    """The level of each seat: one for the table (``level``) or one per seat (``levels``)."""
    return list(game["levels"]) if "levels" in game else [game["level"]] * game["players"]


def _default_budgets(bots: list[Bot], players: int) -> list[dict[str, Any]]:
    """Each seat's own budget for this player count, as the level table gives it."""
    return [
        {"iterations": b.iterations, "seconds": b.seconds}
        for b in (bot.default_budget(players) for bot in bots)
    ]


def _budgets(game: dict[str, Any], bots: list[Bot]) -> list[Budget]:
    """The budget of each seat: the game's fixed ``iterations``, or the seat's level's own
    iterations divided by ``divisor`` (a level that counts none has nothing to divide);
    never a time cap."""
    n = game["players"]
    if "divisor" not in game:
        return [Budget(iterations=game["iterations"])] * n
    own = [b["iterations"] for b in _default_budgets(bots, n)]
    return [Budget(iterations=None if i is None else max(1, i // game["divisor"])) for i in own]


class _Counted:
    """A bot that counts its search's early stops: decisions whose search ran but ended
    before its iteration budget (with no time cap, only the early stop ends it sooner)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.early_stops = 0

    def choose(self, view: View, budget: Budget | None = None) -> str:
        choice = self.bot.choose(view, budget)
        b = self.bot
        if isinstance(b, SearchBot) and budget and budget.iterations and b.last_iterations:
            carried = min(b.last_reused, budget.iterations // 2)
            self.early_stops += carried + b.last_iterations < budget.iterations
        return choice

    def observe(self, events: list[Event]) -> None:
        self.bot.observe(events)

    def default_budget(self, players: int) -> Budget:
        return self.bot.default_budget(players)


def _play(game: dict[str, Any]) -> tuple[list[str], dict[str, Any], list[Bot], int]:
    """The game played again by today's bots: its actions, its record, the bots and how
    many of their decisions stopped early."""
    n = game["players"]
    seeds = game["bot_seeds"]
    bots = [make_bot(level, seed) for level, seed in zip(_levels(game), seeds, strict=True)]
    seats = [_Counted(bot) for bot in bots]
    out = play_game(seats, {"players": n}, seed=game["seed"], budgets=_budgets(game, bots))
    return out.actions, out.record(), bots, sum(s.early_stops for s in seats)


def _name(game: dict[str, Any]) -> str:
    table = game.get("level") or "-".join(game["levels"])
    scale = f"-own-div{game['divisor']}" if "divisor" in game else ""
    return f"{table}-{game['players']}p-{game['seed']}{scale}"


@pytest.mark.parametrize("game", GAMES, ids=[_name(g) for g in GAMES])
def test_each_level_replays_its_recorded_games(game: dict[str, Any]) -> None:
    actions, record, bots, early_stops = _play(game)
    expected = game["record"]
    assert actions == expected["actions"]
    assert json.dumps(record, sort_keys=True) == json.dumps(expected, sort_keys=True)
    if "divisor" in game:
        assert _default_budgets(bots, game["players"]) == game["default_budgets"]
        assert early_stops == game["early_stops"]


def test_scaled_games_tell_hard_from_expert_and_stop_early() -> None:
    """The games at the levels' own budgets seat hard and expert, so a change that made
    one level play as the other would fail, and their searches do stop early."""
    scaled = [g for g in GAMES if "divisor" in g]
    assert {"hard", "expert"} <= {level for g in scaled for level in _levels(g)}
    assert all(g["early_stops"] > 0 for g in scaled)


def renew() -> None:
    """Play every listed game again with today's bots and write the file (records, and
    each scaled game's default budgets and early stops); an entry without a record is
    recorded afresh."""
    data = json.loads(RECORDS.read_text())
    for game in data["games"]:
        actions, record, bots, early_stops = _play(game)
        game["record"] = record
        if "divisor" in game:
            game["default_budgets"] = _default_budgets(bots, game["players"])
            game["early_stops"] = early_stops
        print(_name(game), len(actions), "actions")
    RECORDS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--renew"]:
        sys.exit("usage: python tests/ai/test_golden.py --renew")
    renew()
