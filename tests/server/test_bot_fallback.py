"""A bot seat whose bot cannot move never hangs its game: tried again, then given to a simpler
level computed on the server's threads, the log telling the players (``aiseats.py``).

The games run on a real ``Hub`` with a SQLite store whose decision function is replaced: in a
worker process it kills the process (the pool breaks, as when the out-of-memory killer takes
a worker: "bot workers broke"), and for an ``easy`` bot it raises. The game still reaches its
end, the seats' levels and the log's notes say who played for whom, and a reload of the game
from its log (another process, a restart) sees the same seats.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path

from tigris_euphrates.ai import Bot, Budget
from tigris_euphrates.server import aiseats
from tigris_euphrates.server.aiseats import BOT_TRIES, fallback_level
from tigris_euphrates.server.endings import seat_note
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.store import Store
from tigris_euphrates.store.fairplay import CALLED, Tally
from tigris_euphrates.store.jsontypes import JsonDict
from tigris_euphrates.store.logentry import HandOver, encode


def failing_decide(
    bot: Bot, unheard: list[list[JsonDict]], view: JsonDict, budget: Budget
) -> tuple[str, Bot]:
    """The decision of a broken server: a worker process dies, an ``easy`` bot raises;
    any other bot on a thread decides as always."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    if bot.name == "easy":
        raise RuntimeError("this bot is broken")
    return aiseats._decide(bot, unheard, view, budget)


async def until(done: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        await asyncio.sleep(0.02)


def test_a_bot_that_cannot_move_is_replaced_and_the_log_says_so(tmp_path: Path) -> None:
    async def serve() -> tuple[list[tuple[object, ...]], list[JsonDict], list[JsonDict]]:
        store = Store(f"sqlite:///{tmp_path / 'fallback.sqlite3'}")
        h = Hub(store, bot_seconds=None, bot_iterations=20, bot_processes=1)
        h.bots.decide = failing_decide
        await h.start()
        try:
            seats = [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "easy"}]
            game, _, _ = await h.create({"players": 2}, seats, seed=11)
            await until(lambda: game.over, timeout=300)
            notes = [(n["seat"], n["change"], n["level"], n["by"]) for n in game.seat_log]
            shown = [dict(s) for s in game.public_seats()]
            # the game as any other process (or a restart) reads it from its log
            h.games.pop(game.id, None)  # a finished game may have left memory already
            again = await h.get(game.id)
            return notes, shown, [dict(s) for s in again.public_seats()]
        finally:
            await h.stop()
            store.close()

    notes, shown, reloaded = asyncio.run(serve())
    # each seat's fallback once, told in the log, by the server (no seat's player)
    assert sorted(notes, key=str) == [
        (0, "fallback", "greedy", None),
        (1, "fallback", "random", None),
    ]
    assert [(s["kind"], s["level"]) for s in shown] == [("bot", "greedy"), ("bot", "random")]
    assert [(s["kind"], s["level"]) for s in reloaded] == [("bot", "greedy"), ("bot", "random")]


def test_the_levels_fall_back_to_the_threads_then_to_the_simplest() -> None:
    assert BOT_TRIES > 1  # tried again before the seat changes hands
    assert [fallback_level(x) for x in ("expert", "hard", "medium")] == ["greedy"] * 3
    assert [fallback_level(x) for x in ("greedy", "easy", "random")] == ["random", "random", None]


def test_a_fallback_is_a_note_of_the_log_and_keeps_the_seats_holder() -> None:
    entry = HandOver(1, "greedy", fallback=True)
    assert encode(entry) == "seat 1 bot greedy fallback"
    assert seat_note(7, None, entry) == {
        "seq": 7,
        "seat": 1,
        "change": "fallback",
        "level": "greedy",
        "by": None,
    }
    # a player's own bot (called by the seat itself) stays the player's after the fallback
    tally = Tally(2)
    tally.step(1, HandOver(1, "hard"))
    tally.step(None, entry)
    assert tally.holder[1] == CALLED
