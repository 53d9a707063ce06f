"""The table's people: the names and ratings its seats show stay those of the accounts that
hold the seats, however the store's answers interleave."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from tigris_euphrates.server.live import LiveGame
from tigris_euphrates.server.people import read_people
from tigris_euphrates.store import Store

T = TypeVar("T")


class SlowFirstReader:
    """A hub whose store answers at once, except the first read's question for the
    accounts' names: it waits until the test lets it go, as a busy database thread would."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.held: asyncio.Task[None] | None = None
        self.waiting = asyncio.Event()
        self.release = asyncio.Event()

    @property
    def db(self) -> Callable[..., Awaitable[Any]]:
        async def call(fn: Callable[..., T], *args: Any) -> T:
            if asyncio.current_task() is self.held and fn == self.store.accounts.names:
                self.waiting.set()
                await self.release.wait()
            return fn(*args)

        return call

    def names_changed(self, game: LiveGame) -> None:
        """Nothing else to tell: one process."""


def test_two_seats_bound_at_once_both_show_their_accounts(tmp_path: Path) -> None:
    """Seat 0's account is read, then seat 1 is bound and read while the first read still
    waits on the database: when both are done, the table shows both accounts (the older
    read does not put back a table without seat 1)."""
    store = Store(f"sqlite:///{tmp_path / 'people.sqlite3'}")
    seats: list[Any] = [{"kind": "human"}, {"kind": "human"}]
    store.games.create("g1", {"players": 2}, 7, seats, rated=True)
    ann = store.accounts.create("Ann", "x").id
    bob = store.accounts.create("Bob", "x").id
    game = LiveGame(store.games.load("g1"))

    async def bind_both() -> None:
        hub = SlowFirstReader(store)
        store.accounts.bind_seat("g1", 0, ann)
        hub.held = asyncio.create_task(read_people(hub, game))
        await hub.waiting.wait()
        store.accounts.bind_seat("g1", 1, bob)
        second = asyncio.create_task(read_people(hub, game))
        await asyncio.sleep(0)
        hub.release.set()
        await asyncio.gather(hub.held, second)

    try:
        asyncio.run(bind_both())
        assert {s: p["account"] for s, p in game.table.people.items()} == {0: "Ann", 1: "Bob"}
        assert [p["rating"] for p in game.table.people.values()] == [1500, 1500]
    finally:
        store.close()
