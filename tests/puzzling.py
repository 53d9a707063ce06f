"""Helpers for the puzzle tests: a real finished game (seeded bots play it to its end), its
post-game analysis with a small budget, and the puzzles made from them; the same every time
(cached per process)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from tigris_euphrates import (
    State,
    apply,
    make_record,
    new_game,
    player_view,
    to_act,
)
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.coach.analysis import AnalysisBudget, analyse
from tigris_euphrates.coach.puzzles import extract

#: The actions of a game that are analysed: its end, from the position before them.
LAST = 40


def small_budget() -> AnalysisBudget:
    """The least work an analysis does."""
    return AnalysisBudget(iterations=8, worlds=1, seed=0)


def bot_game(
    seed: int, options: dict[str, Any] | None = None, levels: tuple[str, ...] = ("random", "easy")
) -> tuple[list[State], list[str]]:
    """A game seeded bots played to its end: every state, and the actions between them."""
    s = new_game(options or {"players": len(levels)}, seed)
    bots = [make_bot(level, seed + k) for k, level in enumerate(levels)]
    states, actions = [s], []
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        action = bots[seat].choose(player_view(s, seat), Budget())
        s, _ = apply(s, action)
        states.append(s)
        actions.append(str(action))
    return states, actions


@cache
def _analysed(seed: int, options: str, levels: tuple[str, ...]) -> str:
    states, actions = bot_game(seed, json.loads(options), levels)
    start = states[-LAST - 1]
    record = make_record(start.options, actions[-LAST:], start=start, final=states[-1])
    record = json.loads(json.dumps(record))
    return json.dumps({"record": record, "analysis": analyse(record, small_budget())})


def analysed_game(
    seed: int = 7,
    options: dict[str, Any] | None = None,
    levels: tuple[str, ...] = ("random", "easy"),
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record of a bot game's last ``LAST`` actions and its analysis (a fresh copy)."""
    data = json.loads(_analysed(seed, json.dumps(options or {"players": len(levels)}), levels))
    return data["record"], data["analysis"]


def game_puzzles(seed: int = 7, **kwargs: Any) -> list[dict[str, Any]]:
    """The puzzles of ``analysed_game``."""
    record, analysis = analysed_game(seed, **kwargs)
    return extract(record, analysis)
