"""The server plays the measured bots: one bot object per (game, seat), kept across its
decisions and seeded as the tournament seeds a game's bots, makes the decisions the
tournament's referee loop (``tournament.play_game``) makes with the same bots; after a restart
each seat's bot is rebuilt by hearing the game so far and play goes on to a legal end.

The games run on a real ``Hub`` (the server's game manager) with a SQLite store, with a
fixed iteration budget and no time cap (``bot_seconds=None``), so every decision is the same
amount of work on any machine.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tigris_euphrates import apply, new_game, player_view, redact_event, replay, result, to_act
from tigris_euphrates.ai import Bot, Budget, make_bot
from tigris_euphrates.server import aiseats
from tigris_euphrates.server.aiseats import seat_bot, unheard_steps
from tigris_euphrates.server.gamelog import Entry
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.server.live import LiveGame, SeatBot
from tigris_euphrates.store import GameRow, Store
from tigris_euphrates.store.logentry import Move, Undo
from tigris_euphrates.tournament import play_game


def tournament_seeds(game_seed: int, players: int) -> list[int]:
    """Each seat's bot seed in a tournament game seeded ``game_seed`` (``tournament.deal``)."""
    return [game_seed * 10 + s + 1 for s in range(players)]


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every bot the hub makes, as (level, seed)."""
    calls: list[tuple[str, int]] = []

    def counting(level: str, seed: int = 0) -> Bot:
        calls.append((level, seed))
        return make_bot(level, seed)

    monkeypatch.setattr(aiseats, "make_bot", counting)
    return calls


async def until(done: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the bots did not get there in time"
        await asyncio.sleep(0.01)


def test_server_bots_decide_as_the_tournaments_bots(
    tmp_path: Path, made: list[tuple[str, int]]
) -> None:
    """A whole three-player game of bots on the server (``hard`` and ``medium`` in the
    worker process, ``easy`` on a thread) is the game the referee loop plays with the same
    levels, bot seeds and budget: the same actions, step by step. Each seat's bot was made
    once, with the tournament's seed; the game exercises the search's tree reuse."""
    levels, seed, iterations = ["hard", "easy", "medium"], 5, 30
    options = {"players": len(levels)}

    async def serve() -> list[str]:
        store = Store(f"sqlite:///{tmp_path / 'bots.sqlite3'}")
        h = Hub(store, bot_seconds=None, bot_iterations=iterations, bot_processes=1)
        await h.start()
        try:
            seats = [{"kind": "bot", "level": level} for level in levels]
            game, _, _ = await h.create(options, seats, seed=seed)
            await until(lambda: game.over, timeout=120)
            return [e.action for e in game.entries]
        finally:
            await h.stop()
            store.close()

    served = asyncio.run(serve())
    seeds = tournament_seeds(seed, len(levels))
    assert made == list(zip(levels, seeds, strict=True))

    bots = [make_bot(level, s) for level, s in zip(levels, seeds, strict=True)]
    search, reused = bots[0], []
    choose = search.choose

    def choosing(view: dict[str, Any], budget: Budget | None = None) -> str:
        choice = choose(view, budget)
        reused.append(search.last_reused)  # type: ignore[attr-defined]
        return choice

    search.choose = choosing  # type: ignore[method-assign]
    budgets: list[Budget | None] = [Budget(iterations=iterations)] * len(levels)
    referee = play_game(bots, options, seed, budgets)
    assert served == referee.actions
    assert sum(1 for r in reused if r) >= 5, reused  # decisions that went on from a kept tree


def test_server_bots_resume_after_a_restart_as_rebuilt_bots(
    tmp_path: Path, made: list[tuple[str, int]]
) -> None:
    """A server stopped mid-game, and a new one on the same database: each bot seat gets a
    new bot with the same seed that hears the game so far as its seat heard it (one
    ``observe`` a step), and these bots play the game to a legal end — exactly as a referee
    that seats such bots at the step the first server stopped."""
    levels, seed, iterations = ["medium", "greedy", "random"], 8, 20
    options = {"players": len(levels)}
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    seats = [{"kind": "bot", "level": level} for level in levels]

    def server(store: Store) -> Hub:
        return Hub(store, bot_seconds=None, bot_iterations=iterations, bot_processes=0)

    async def first() -> str:
        store = Store(url)
        h = server(store)
        await h.start()
        try:
            game, _, _ = await h.create(options, seats, seed=seed)
            await until(lambda: game.seq >= 24, timeout=60)
            return game.id
        finally:
            await h.stop()
            store.close()

    async def second(gid: str) -> dict[str, Any]:
        store = Store(url)
        h = server(store)
        await h.start()  # loads the unfinished game and starts its bots
        try:
            game = await h.get(gid)
            await until(lambda: game.over, timeout=120)
            return game.record()
        finally:
            await h.stop()
            store.close()

    gid = asyncio.run(first())
    store = Store(url)
    stopped = [action for _, _, action in store.games.load(gid).actions]
    store.close()
    made.clear()
    record = asyncio.run(second(gid))

    seeds = tournament_seeds(seed, len(levels))
    assert sorted(made) == sorted(zip(levels, seeds, strict=True))  # rebuilt, same seeds
    assert record["actions"][: len(stopped)] == stopped and len(record["actions"]) > len(stopped)
    assert result(replay(record)) == record["result"]

    state = new_game(options, seed)
    bots = [make_bot(level, s) for level, s in zip(levels, seeds, strict=True)]
    for action in stopped:
        state, events = apply(state, action)
        for p, bot in enumerate(bots):
            bot.observe([redact_event(e, p) for e in events])
    rest: list[str] = []
    while not state.over:
        seat = to_act(state)
        assert seat is not None
        choice = bots[seat].choose(player_view(state, seat), Budget(iterations=iterations))
        state, events = apply(state, choice)
        rest.append(choice)
        for p, bot in enumerate(bots):
            bot.observe([redact_event(e, p) for e in events])
    assert record["actions"][len(stopped) :] == rest


def test_a_seat_keeps_its_bot_until_the_steps_it_heard_or_its_level_change(
    made: list[tuple[str, int]],
) -> None:
    """``aiseats.seat_bot``: the same bot decision after decision, hearing only the steps
    since its last one; taking back a step it has not heard keeps it, taking back one it
    heard, or a new level for the seat, makes a new bot with the seat's seed."""
    seats = [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "greedy"}]
    game = LiveGame(GameRow("g", {"players": 2}, 3, seats, "active", 0.0))

    def play(n: int) -> None:
        for _ in range(n):
            actor = game.log.actor()
            action = player_view(game.state, actor)["legal_actions"][0]
            game.log.apply(game.seq + 1, actor, Move(action))

    def undo() -> None:
        game.log.apply(game.seq + 1, 0, Undo())

    def heard_all(kept: SeatBot) -> None:
        kept.heard, kept.heard_seq = len(game.entries), game.entries[-1].seq

    def steps(entries: list[Entry]) -> list[list[dict[str, Any]]]:
        return [[redact_event(ev, 1) for ev in e.events] for e in entries]

    bot_seed = 3 * 10 + 1 + 1
    play(3)
    kept = seat_bot(game, 1)
    assert made == [("greedy", bot_seed)]
    assert unheard_steps(game, 1, kept) == steps(game.entries)
    heard_all(kept)
    play(2)
    assert seat_bot(game, 1) is kept and unheard_steps(game, 1, kept) == steps(game.entries[-2:])
    undo()
    undo()  # two steps it has not heard
    assert seat_bot(game, 1) is kept and unheard_steps(game, 1, kept) == []
    undo()  # a step it heard
    rebuilt = seat_bot(game, 1)
    assert rebuilt is not kept and made == [("greedy", bot_seed)] * 2
    assert unheard_steps(game, 1, rebuilt) == steps(game.entries)
    play(1)
    heard_all(rebuilt)
    undo()
    play(1)  # as many steps as it heard, but not the same
    again = seat_bot(game, 1)
    assert again is not rebuilt and made == [("greedy", bot_seed)] * 3
    game.seats[1] = {"kind": "bot", "level": "random"}
    other = seat_bot(game, 1)
    assert other is not again and other.level == "random" and made[-1] == ("random", bot_seed)
