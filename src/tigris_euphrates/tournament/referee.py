"""The referee: the one loop that plays bots against each other, used by ``tne selfplay``,
``tne tournament``, the benchmarks and the tests.

The referee holds the true state; each bot only ever receives ``player_view(state, seat)``
and the events redacted for its seat (``redact_event``), exactly what a server sends. The one
exception is an ``Omniscient`` seat, which is handed the true state: the benchmarks' cheating
yardstick (``bench/minimax.py``), never a player's bot.

A seat may be a program speaking ``tne-bot/1`` (``botproto.ProtocolBot``): the referee starts
it before the first action and stops it after the last. When it fails (``BotFault``: late,
illegal, garbage, crash) the fault goes into the record's ``faults`` and the program is
started again, told the game so far and asked the same decision (``then``: ``restart``), at
most ``restarts`` times in the game (one unless the organiser says otherwise). At its next
fault, by the organiser's choice (``fallback``), either the game ends there as a loss for
that seat (``end`` ``forfeit``) or a bot of the named level takes the seat over for the rest
of the game, after hearing every event the seat heard, and the game goes on.
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
    ranking,
    redact_event,
    result,
    seat_totals,
    to_act,
)
from ..ai import Bot, Budget
from ..botproto import BotFault, ProtocolBot
from ..botproto.faults import RESTARTS, Faults


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
    faults: list[dict[str, Any]] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The game record (``tne-record/1``) with the bots named in an extra field, and the
        faults of protocol bots, if any, in another."""
        rec = make_record(self.options, self.actions, seed=self.seed)
        rec["result"] = self.result
        rec["players"] = list(self.bots)
        if self.faults:
            rec["faults"] = list(self.faults)
        return rec


def forfeit_result(state: State, seat: int) -> dict[str, Any]:
    """The result of a game ended by ``seat``'s fault: the totals as they stand, the other
    seats ranked by them and ``seat`` last."""
    totals = seat_totals(state)
    others = [s for s in range(len(totals)) if s != seat]
    order: list[int | list[int]] = []
    for entry in ranking([totals[s] for s in others]):
        if isinstance(entry, list):
            order.append([others[i] for i in entry])
        else:
            order.append(others[entry])
    order.append(seat)
    return {"scores": totals, "ranking": order, "end": "forfeit", "forfeit": seat}


def play_game(
    bots: Sequence[Bot | Omniscient],
    options: dict[str, Any] | None = None,
    seed: int = 0,
    budgets: Sequence[Budget | None] | None = None,
    names: Sequence[str] | None = None,
    max_plies: int = 20000,
    fallback: str | None = None,
    restarts: int = RESTARTS,
) -> GameOutcome:
    """Play one game; ``bots[i]`` sits in seat i. Every action goes through ``apply``
    (validated), so an illegal choice raises ``IllegalAction``. A bot gets its seat's view
    and redacted events; an ``Omniscient`` seat the true state and no events. A protocol
    bot that fails is started again, at most ``restarts`` times in the game; its next fault
    ends the game or hands its seat to the ``fallback`` level (module docstring).
    """
    opts = dict(options or {})
    opts.setdefault("players", len(bots))
    if opts["players"] != len(bots):
        raise ValueError(f"{len(bots)} bots for a {opts['players']}-player game")
    state = new_game(opts, seed)
    seated = list(bots)
    if names is None:
        names = [getattr(b, "name", "?") for b in bots]
    faults = Faults(fallback, restarts)
    out: GameOutcome | None = None
    try:
        for seat, bot in enumerate(seated):
            if isinstance(bot, ProtocolBot) and faults.forfeit is None:
                try:
                    bot.begin(state.options.to_dict(), seat, budgets[seat] if budgets else None)
                except BotFault as fault:
                    faults.handle(seated, seat, 0, fault)
        if faults.forfeit is None:
            out = _play(seated, state, seed, budgets, max_plies, faults)
        else:
            out = GameOutcome({}, seed, [], forfeit_result(state, faults.forfeit), [], 0, 1)
            out.times, out.final = [[] for _ in bots], state
        out.options, out.bots, out.faults = state.options.to_dict(), list(names), faults.faults
    finally:
        for bot in [*bots, *seated]:
            if isinstance(bot, ProtocolBot):
                bot.finish(None if out is None else out.result)
    return out


def _play(
    bots: list[Bot | Omniscient],
    state: State,
    seed: int,
    budgets: Sequence[Budget | None] | None,
    max_plies: int,
    faults: Faults,
) -> GameOutcome:
    """The game loop of ``play_game`` from ``state`` on, ``bots`` seated (and replaced on a
    fault with a fallback)."""
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
            try:
                choice = player.choose(view, budget)
            except BotFault as fault:
                faults.handle(bots, seat, state.ply, fault)
                if faults.forfeit is not None:
                    break
                continue
            finally:
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
    res = result(state) if faults.forfeit is None else forfeit_result(state, faults.forfeit)
    assert res is not None
    return GameOutcome(
        options=state.options.to_dict(),
        seed=seed,
        bots=[],
        result=res,
        actions=actions,
        plies=state.ply,
        turns=turns,
        times=times,
        final=state,
    )
