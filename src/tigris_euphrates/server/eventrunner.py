"""The pairing of live events in one server process at a time (``EventRunner``): every
``EVENT_SECONDS`` the process that holds the events' leadership (``store.leadership``)
takes each scheduled or running event one step on (``eventplan.decide``, stored by
``store.events.Events.step``), starts the games it made and tells their players' lobbies.

A process that stops lets the leadership go; one that dies loses it with its database
connection, and another process takes it on its next beat, so the pairing goes on within
seconds. Every step is one locked transaction that reads the event afresh: a restart in the
middle of an event loses no pairing, result or standing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import uuid
from collections.abc import Awaitable, Callable

from ..store import GameRow, Store
from ..store.eventrows import EventRow, EventState, NewGame, event_options
from ..store.leadership import Leadership
from ..store.rows import GameOptions, StoredSeat
from .beats import every
from .clocks import Pace
from .dbthread import DatabaseThread
from .eventplan import decide
from .live import hash_token
from .lobbyfeed import LobbyFeed

log = logging.getLogger("tigris_euphrates.server")

#: How often the pairing process looks at the events (and another process asks whether
#: the pairing process is still there).
EVENT_SECONDS = 1.0


class EventRunner:
    """The events' pairing, run by one process of the cluster at a time."""

    def __init__(
        self,
        store: Store,
        db: DatabaseThread,
        feed: LobbyFeed,
        clock: Callable[[], float],
        started: Callable[[str], Awaitable[None]],
    ) -> None:
        self.store = store
        self.db = db
        self.feed = feed
        self.clock = clock
        self.started = started
        self.leadership = Leadership(store.db, "events")
        self.kick = asyncio.Event()

    async def run(self) -> None:
        """A step of every event each ``EVENT_SECONDS`` (at once after a join)."""
        await every(EVENT_SECONDS, self.beat, "the events' pairing", self.kick)

    async def beat(self) -> bool:
        """One step of every event, when this process does the pairing (``False``: another
        one does). An event whose step fails is logged and taken again at the next beat;
        the others go on."""
        due = await self.db(self.store.events.due)
        if not due or not await self.db(self.leadership.hold):
            return False  # nothing to pair (no connection kept for it), or another pairs
        for event_id in due:
            try:
                await self.step(event_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the pairing of event %s failed", event_id)
        return True

    async def step(self, event_id: str) -> None:
        """One step of the event: its games made and started, their players' lobbies told,
        a recurring event's next occurrence made when it starts."""
        now = self.clock()
        step = await self.db(
            self.store.events.step, event_id, now, lambda s: decide(s, now, self.make)
        )
        for game in step.games:
            for account in game.seats:
                self.feed.announce(account, "match")
            await self.started(game.row.id)
        if step.state == "running":
            await self.db(self.store.events.repeat, event_id, next_occurrence)

    async def stop(self) -> None:
        """Let the pairing go to another process (this one stops)."""
        with contextlib.suppress(Exception):
            await self.db(self.leadership.release)

    def make(self, state: EventState, seats: list[int]) -> NewGame:
        """An event's game for accounts in seat order: rated unless a bot account plays,
        at the event's pace, each seat bound to its account."""
        event = state.event
        people = {e.account_id: e for e in state.entrants}
        stored: list[StoredSeat] = [
            {
                "kind": "human",
                "name": people[a].name,
                "token": hash_token(secrets.token_urlsafe(18)),
            }
            for a in seats
        ]
        options: GameOptions = {**event_options(event), "players": len(seats)}
        row = GameRow(
            secrets.token_hex(6),
            options,
            secrets.randbits(128),
            stored,
            "active",
            self.clock(),
            seed_source="server",
            listed=True,
            settings={"chat": "players", "event": event.id},
            rated=not any(people[a].bot for a in seats),
        )
        pace = Pace("realtime", event.settings["base"], event.settings["increment"])
        return NewGame(row, pace.to_dict(), seats)


def next_occurrence(event: EventRow) -> EventRow:
    """The next occurrence of a recurring event: the same rules, ``repeat_minutes`` later."""
    minutes = event.settings["repeat_minutes"] or 0
    starts = event.starts + 60.0 * minutes
    ends = None if event.ends is None else event.ends + 60.0 * minutes
    return EventRow(
        uuid.uuid4().hex[:12],
        event.name,
        event.kind,
        event.maker,
        "scheduled",
        event.settings,
        starts,
        ends,
        0,
        secrets.randbits(31),
        event.invite,
        None,
        event.created,
    )
