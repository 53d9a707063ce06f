"""The referee: the one loop that plays bots against each other, used by ``tne selfplay``,
``tne tournament``, the benchmarks and the tests.

The referee holds the true state; each bot only ever receives ``player_view(state, seat)``
and the events redacted for its seat (``redact_event``), exactly what a server sends. The one
exception is an ``Omniscient`` seat, which is handed the true state: the benchmarks' cheating
yardstick (``bench/minimax.py``), never a player's bot.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .. import (
    State,
    TurnStarted,
    apply,
    make_record,
    new_game,
    player_view,
    redact_event,
    result,
    to_act,
)
from ..ai import Bot, Budget


@runtime_checkable
class Omniscient(Protocol):
    """A seat that decides from the true state (every hand, the bag's order): a yardstick
    for the benchmarks, which the referee hands the state instead of a view."""

    name: str

    def choose_from_state(self, state: State) -> str:
        """The notation of the action to play in ``state`` (whose seat is to act)."""
        ...


@dataclass
class GameOutcome:
    """What one game produced: the result, the record, per-seat decision times and the
    final state (the referee's, with every hand: not for a player's eyes)."""

    options: dict[str, Any]
    seed: int
    bots: list[str]
    result: dict[str, Any]
    actions: list[str]
    plies: int
    turns: int
    times: list[list[float]] = field(default_factory=list)
    final: State | None = field(default=None, repr=False, compare=False)

    def record(self) -> dict[str, Any]:
        """The game record (``tne-record/1``) with the bots named in an extra field."""
        rec = make_record(self.options, self.actions, seed=self.seed)
        rec["result"] = self.result
        rec["players"] = list(self.bots)
        return rec


def play_game(
    bots: Sequence[Bot | Omniscient],
    options: dict[str, Any] | None = None,
    seed: int = 0,
    budgets: Sequence[Budget | None] | None = None,
    names: Sequence[str] | None = None,
    max_plies: int = 20000,
) -> GameOutcome:
    """Play one game; ``bots[i]`` sits in seat i. Every action goes through ``apply``
    (validated), so an illegal choice raises ``IllegalAction``. A bot gets its seat's view
    and redacted events; an ``Omniscient`` seat the true state and no events."""
    opts = dict(options or {})
    opts.setdefault("players", len(bots))
    if opts["players"] != len(bots):
        raise ValueError(f"{len(bots)} bots for a {opts['players']}-player game")
    state = new_game(opts, seed)
    n = len(bots)
    times: list[list[float]] = [[] for _ in range(n)]
    actions: list[str] = []
    turns = 1
    while not state.over:
        if state.ply >= max_plies:
            raise RuntimeError(f"game {seed} did not end after {max_plies} plies")
        seat = to_act(state)
        assert seat is not None
        player = bots[seat]
        if isinstance(player, Omniscient):
            t0 = time.perf_counter()
            choice = player.choose_from_state(state)
            times[seat].append(time.perf_counter() - t0)
        else:
            view = player_view(state, seat)
            budget = budgets[seat] if budgets is not None else None
            t0 = time.perf_counter()
            choice = player.choose(view, budget)
            times[seat].append(time.perf_counter() - t0)
            if choice not in view["legal_actions"]:
                raise ValueError(f"bot in seat {seat} chose {choice!r}, not a legal action")
        state, events = apply(state, choice)
        actions.append(choice)
        for e in events:
            if isinstance(e, TurnStarted):
                turns += 1
        for p, bot in enumerate(bots):
            if not isinstance(bot, Omniscient):
                bot.observe([redact_event(e, p) for e in events])
    res = result(state)
    assert res is not None
    return GameOutcome(
        options=state.options.to_dict(),
        seed=seed,
        bots=list(names) if names is not None else [getattr(b, "name", "?") for b in bots],
        result=res,
        actions=actions,
        plies=state.ply,
        turns=turns,
        times=times,
        final=state,
    )
