"""Several server processes on one PostgreSQL database.

The action log stays the truth (``PRIMARY KEY (game_id, seq)``: a second writer of a step
fails). What the processes tell each other goes through PostgreSQL itself, on one
``LISTEN``/``NOTIFY`` channel (no other service to run):

- ``Step`` — a log entry was committed (sent by the store in the transaction that writes
  it, so it is delivered exactly when the entry is visible); every process with the game in
  memory applies the entries it lacks and pushes views;
- ``Claim`` — a connection opened a seat: the seat is online, and any older connection of
  that seat, in any process, is told it was taken over. Notifications reach every listener
  in commit order, so all processes agree on which is newer;
- ``Here`` — the same connection is still there (an answer to ``Who``, asked by a process
  that just loaded the game); ``Gone`` — it closed;
- ``Beat`` — a heartbeat every few seconds: the presence of a process not heard from for
  ``DEAD_AFTER`` seconds (killed) is forgotten.

The messages are versioned JSON (``notices``: their one encoder and decoder); what each
means to the games is ``sync``'s.

Exactly one process runs a game's bots: the one holding the game's PostgreSQL advisory
lock (a session lock on its own connection, as the 18xx.games server does). When that
process dies its session ends, the lock is free, and another process takes it on its next
scan (every ``SCAN_SECONDS``), reads the log to the end and goes on. A process that stops
on purpose (SIGTERM) lets go of its locks itself and says so (``Released``): the others take
its games at once (``release``). A bot move is made at most once: it is written as step
``seq + 1`` only if that step does not exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg

from ..store import libpq_url
from .notices import Beat, Claim, Notice, Released, decode, encode, written_by

log = logging.getLogger("tigris_euphrates.server")

BEAT_SECONDS = 2.0
DEAD_AFTER = 8.0
SCAN_SECONDS = 2.0
#: A batch of notifications that could not be sent is tried again after this pause.
RETRY_SECONDS = 0.2
#: While the database is unreachable, at most this many notifications wait (the oldest go:
#: a process that reconnects reads the games it holds from the log and the tables anyway).
OUTBOX_LIMIT = 10_000


def lock_key(prefix: str, game_id: str) -> int:
    """The game's advisory lock: a signed 64-bit number from its tables and id."""
    digest = hashlib.sha256(f"{prefix}|{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Cluster:
    """This process's link to the others: a listening connection and a locking one.

    Once started, ``on_message(notice)`` is called for every message of another process
    (and for this process's own claims, so that it learns their place in the common order);
    ``on_resync()`` after the listening connection was lost and is back (notifications
    may have been missed: the hub then reads every game it holds up to the log's end);
    ``on_locks_lost()`` when the locking connection broke (its locks are gone).
    """

    def __init__(
        self,
        url: str,
        channel: str,
        prefix: str,
    ) -> None:
        self.url = libpq_url(url)
        self.channel = channel
        self.prefix = prefix
        self.proc = secrets.token_hex(6)
        #: how this process's own messages begin, but its claims: they come back to it
        #: with every step it stores, and are passed over unread
        self._own = written_by(self.proc, but=(Claim,))
        self.on_message: Callable[[Notice], None] = _ignore
        self.on_resync: Callable[[], Awaitable[None]] = _nothing
        self.on_locks_lost: Callable[[], None] = _nothing_now
        self.held: set[str] = set()
        self.seen: dict[str, float] = {}  # other processes: when last heard from
        self._locker: psycopg.AsyncConnection[Any] | None = None
        self._locker_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: list[str] = []
        self._ready = asyncio.Event()
        self._listening = asyncio.Event()
        #: whether the listening connection is up now (the readiness check reads it)
        self.listening = False
        self.closing = False
        self._released = False

    # --- life cycle -----------------------------------------------------------------------

    async def start(
        self,
        on_message: Callable[[Notice], None],
        on_resync: Callable[[], Awaitable[None]],
        on_locks_lost: Callable[[], None],
    ) -> None:
        """Connect, listen, and from now on tell the callbacks what happens."""
        self.on_message, self.on_resync, self.on_locks_lost = on_message, on_resync, on_locks_lost
        await self._connect_locker()
        self._tasks = [
            asyncio.create_task(self._listen(), name="tne-listen"),
            asyncio.create_task(self._beat(), name="tne-beat"),
            asyncio.create_task(self._send(), name="tne-send"),
        ]
        await asyncio.wait_for(self._listening.wait(), 30)

    async def stop(self, *, keep_locker: bool = False) -> None:
        """Stop listening and sending (``keep_locker``: the locking connection stays open,
        its locks held, for ``release``)."""
        self.closing = True
        self.listening = False
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._locker is not None and not keep_locker:
            with contextlib.suppress(Exception):
                await self._locker.close()

    async def release(self) -> None:
        """Stop, letting go of every game lock at once: the announcements still waiting,
        then ``Released``, go out in the statement that unlocks, so the others take the
        games now (not at their next scan). The locks go with the session anyway."""
        if self._released:
            return
        self._released = True
        await self.stop(keep_locker=True)
        batch = [*self._outbox, encode(Released(self.proc))]
        self._outbox = []
        self.held.clear()
        try:
            await self._locked(
                "SELECT pg_advisory_unlock_all(), count(pg_notify(%s, p))"
                " FROM unnest(%s::text[]) AS t(p)",
                (self.channel, batch),
            )
        except (psycopg.OperationalError, ConnectionError) as exc:
            log.warning("cannot tell the other processes that the games are free (%s)", exc)
        if self._locker is not None:
            with contextlib.suppress(Exception):
                await self._locker.close()
            self._locker = None

    async def _connect_locker(self) -> None:
        self._locker = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name=self._app_name("lock")
        )

    async def _locked(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run ``query`` on the locking connection; if it broke, its locks are lost: say
        so, connect again (the new connection is kept for the next call) and raise."""
        async with self._locker_lock:
            if self._locker is None or self._locker.closed:
                self._locker = None
                self._lost_locks()
                await self._connect_locker()
                raise ConnectionError("the locking connection was down")
            try:
                cur = await self._locker.execute(query, params)
                return list(await cur.fetchall()) if cur.description else []
            except (psycopg.OperationalError, ConnectionError):
                self._lost_locks()
                with contextlib.suppress(Exception):
                    if self._locker is not None:
                        await self._locker.close()
                self._locker = None
                raise

    def _lost_locks(self) -> None:
        if self.held:
            log.error("lost the database session holding %d game locks", len(self.held))
        self.held.clear()
        self.on_locks_lost()

    # --- notifications --------------------------------------------------------------------

    def publish(self, notice: Notice) -> None:
        """Announce ``notice`` to every process (this one included), in order: the
        announcements waiting when the sender is free go in one statement."""
        self._outbox.append(encode(notice))
        self._ready.set()

    async def _send(self) -> None:
        while not self.closing:
            await self._ready.wait()
            self._ready.clear()
            batch, self._outbox = self._outbox, []
            if not batch:
                continue
            try:
                await self._locked(
                    # a function scan returns the array in order: the notifications go out
                    # in the order they were published (identical ones are sent once)
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS t(p)",
                    (self.channel, batch),
                )
            except (psycopg.OperationalError, ConnectionError) as exc:
                # Not sent: sent again, before anything published since, once the database
                # answers (the locking connection is made again on the next try).
                self._outbox = (batch + self._outbox)[-OUTBOX_LIMIT:]
                log.warning("cannot notify the other processes (%s); trying again", exc)
                await asyncio.sleep(RETRY_SECONDS)
                self._ready.set()

    async def _listen(self) -> None:
        """Keep a listening connection: its socket stays registered with the event loop,
        which reads notifications as they arrive (no task wakes up per notification). When
        the connection breaks, connect again and have the hub read on from the log."""
        loop = asyncio.get_running_loop()
        first = True
        delay = 0.2
        while not self.closing:
            lost = loop.create_future()
            try:
                conn: psycopg.Connection[Any] = await asyncio.to_thread(self._connect_listener)
            except Exception as exc:
                log.error("cannot listen on the database (%s); trying again", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            try:
                conn.execute(f'LISTEN "{self.channel}"')
                pgconn = conn.pgconn
                pgconn.nonblocking = 1
                loop.add_reader(pgconn.socket, self._readable, pgconn, lost)
                self._listening.set()
                self.listening = True
                delay = 0.2
                if not first:
                    log.warning("listening again: reading the games held up to date")
                    await self.on_resync()
                first = False
                await lost
                log.error("the listening connection broke; connecting again")
            finally:
                self.listening = False
                with contextlib.suppress(Exception):
                    loop.remove_reader(conn.pgconn.socket)
                with contextlib.suppress(Exception):
                    conn.close()

    def _app_name(self, role: str) -> str:
        """How the database lists this process's connections (``pg_stat_activity``): the
        role, the tables' prefix and the process, e.g. ``tne-listen-c1f2_-4a5b6c7d8e9f``."""
        return f"tne-{role}-{self.prefix[:32]}-{self.proc}"

    def _connect_listener(self) -> psycopg.Connection[Any]:
        return psycopg.Connection.connect(
            self.url, autocommit=True, application_name=self._app_name("listen")
        )

    def _readable(self, pgconn: Any, lost: asyncio.Future[None]) -> None:
        try:
            pgconn.consume_input()
        except psycopg.OperationalError:
            if not lost.done():
                lost.set_result(None)
            return
        while (note := pgconn.notifies()) is not None:
            self._heard(note.extra.decode("utf-8", "replace"))
        if pgconn.status != psycopg.pq.ConnStatus.OK and not lost.done():
            lost.set_result(None)

    def _heard(self, payload: str) -> None:
        if payload.startswith(self._own):
            return  # as below, without reading it: one comes back for every step stored
        notice = decode(payload)
        if notice is None:
            log.warning("a notification this process cannot read: %r", payload[:200])
            return
        if notice.proc != self.proc:
            self.seen[notice.proc] = time.monotonic()
            if isinstance(notice, Beat):
                return
        elif not isinstance(notice, Claim):
            return  # this process's own steps, presence and beats (its claims come back)
        try:
            self.on_message(notice)
        except Exception:
            log.exception("cannot handle the notification %r", payload[:200])

    async def _beat(self) -> None:
        """Heartbeats (and a check that the locking connection still holds)."""
        while not self.closing:
            await asyncio.sleep(BEAT_SECONDS)
            self.publish(Beat(self.proc))

    def dead(self) -> set[str]:
        """The processes not heard from for ``DEAD_AFTER`` seconds (forgotten now)."""
        now = time.monotonic()
        gone = {p for p, t in self.seen.items() if now - t > DEAD_AFTER}
        for p in gone:
            del self.seen[p]
        return gone

    # --- the bots' locks ------------------------------------------------------------------

    async def try_locks(self, game_ids: list[str]) -> list[str]:
        """Take the lock of each game of ``game_ids`` that no process holds; returns the
        games whose lock this process now holds (and did not before)."""
        wanted = {lock_key(self.prefix, g): g for g in game_ids if g not in self.held}
        if not wanted:
            return []
        try:
            rows = await self._locked(
                "SELECT k FROM unnest(%s::bigint[]) AS k WHERE pg_try_advisory_lock(k)",
                (list(wanted),),
            )
        except (psycopg.OperationalError, ConnectionError):
            return []
        got = [wanted[int(r[0])] for r in rows]
        self.held.update(got)
        return got

    async def unlock(self, game_id: str) -> None:
        if game_id in self.held:
            self.held.discard(game_id)
            with contextlib.suppress(psycopg.OperationalError, ConnectionError):
                await self._locked(
                    "SELECT pg_advisory_unlock(%s)", (lock_key(self.prefix, game_id),)
                )


def _ignore(notice: Notice) -> None:
    """What a cluster not started does with a message: nothing."""


async def _nothing() -> None:
    """What a cluster not started does after a reconnection: nothing."""


def _nothing_now() -> None:
    """What a cluster not started does when its locks are lost: nothing."""
