"""The cluster sync: what this process hears of the other processes on the same PostgreSQL
database (``notices``), and what it does about it.

- a step another process stored comes with its announcement (``Step``): it is applied to
  this process's copy of the game (the entries in order; a gap is read from the log);
- presence (``Claim``, ``Here``, ``Gone``, ``Who``): which seats are online in any process,
  and which connection of a seat is the newest (the common order of the notifications);
- the chat and the rematch of a table (``ChatStored``, ``RematchMade``), a chat line a
  moderator hid (``ChatHidden``), the seat of a banned account (``Expel``);
- every few seconds a scan takes the games whose process died (their locks are free), and
  reads on the games whose log grew without a notification reaching this process; a process
  that stops on purpose says it let go of its games (``Released``): the scan runs at once;
- the lobby changed (``LobbyNote``: the open tables, or one account's invitations and quick
  match): the hub's ``lobby_heard`` tells this process's lobby connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from ..store import Store, UnknownGame
from ..store.logentry import decode
from .chat import TableChat
from .cluster import SCAN_SECONDS, Cluster
from .dbthread import DatabaseThread
from .live import LiveGame
from .notices import (
    Beat,
    ChatHidden,
    ChatStored,
    Claim,
    Expel,
    Gone,
    Here,
    LobbyNote,
    Names,
    Notice,
    Presence,
    Released,
    RematchMade,
    Step,
    Who,
)

log = logging.getLogger("tigris_euphrates.server")


class Games(Protocol):
    """What the sync needs of the hub: the games in memory, how to load one, read one's log
    on, and what to do after a game changed."""

    games: dict[str, LiveGame]
    store: Store
    db: DatabaseThread
    chat: TableChat
    closing: bool

    async def get(self, game_id: str) -> LiveGame: ...

    async def catch_up_locked(self, game: LiveGame, *, read_log: bool = True) -> None: ...

    def owns(self, game: LiveGame) -> bool: ...

    def changed(self, game: LiveGame) -> None: ...

    def evict(self, game: LiveGame) -> None: ...

    def locks_lost(self) -> None: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...

    def lobby_heard(self, notice: LobbyNote) -> None: ...
    async def read_people(self, game: LiveGame) -> None: ...


class ClusterSync:
    """This process's side of the cluster: it hears the others and keeps its games up to
    date."""

    def __init__(self, hub: Games, cluster: Cluster) -> None:
        self.hub = hub
        self.cluster = cluster
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._scanner: asyncio.Task[None] | None = None

    @property
    def proc(self) -> str:
        """This process among the others."""
        return self.cluster.proc

    def tell(self, notice: Notice) -> None:
        """Announce ``notice`` to every process."""
        self.cluster.publish(notice)

    async def start(self) -> None:
        """Join the others: listen, take the free games' locks, and scan every few seconds."""
        await self.cluster.start(self.heard, self.resync, self.hub.locks_lost)
        await self.scan_once()
        self._scanner = asyncio.create_task(self._scan())

    async def stop(self) -> None:
        """Leave the others: stop scanning and listening, let go of the games' locks and
        say so (``Cluster.release``: the others take the games at once)."""
        for task in [self._scanner, *self._catching.values()]:
            if task is not None:
                task.cancel()
        await self.cluster.release()

    # --- reading a game's log on ----------------------------------------------------------

    def catch_up_soon(self, game: LiveGame) -> None:
        """Read the game's log past this process's copy (once at a time; again if more
        was announced meanwhile)."""
        task = self._catching.get(game.id)
        if task is not None and not task.done():
            game.behind = True
            return
        self._catching[game.id] = asyncio.get_running_loop().create_task(self._catch_up(game))

    async def _catch_up(self, game: LiveGame) -> None:
        try:
            while True:
                game.behind = False
                async with game.lock:
                    await self.hub.catch_up_locked(game, read_log=game.log.announced <= game.seq)
                self.hub.changed(game)
                self.hub.evict(game)
                if not game.behind:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot read the log of game %s", game.id)
        finally:
            if self._catching.get(game.id) is asyncio.current_task():
                del self._catching[game.id]

    # --- what the others say --------------------------------------------------------------

    def heard(self, notice: Notice) -> None:
        """A message of another process (and this process's own claims, back in the common
        order)."""
        if isinstance(notice, Beat):
            return
        if isinstance(notice, LobbyNote):
            self.hub.lobby_heard(notice)
            return
        if isinstance(notice, Released):
            # a process stopped and let go of its games: take them now, not at the next scan
            if not self.hub.closing:
                self.hub.spawn(self._scan_now())
            return
        game = self.hub.games.get(notice.game)
        if game is None:
            return
        if isinstance(notice, Step):
            if notice.seq > game.seq:
                # the entry comes with its announcement: no need to read it back (an entry
                # this release cannot read is read from the log, and refused there)
                with contextlib.suppress(ValueError):
                    game.log.pending[notice.seq] = (notice.seat, decode(notice.action))
                game.log.announced = max(game.log.announced, notice.seq)
                self.catch_up_soon(game)
        elif isinstance(notice, Claim | Here | Gone):
            self._presence(game, notice)
        elif isinstance(notice, ChatStored):
            if notice.n > game.table.chat_n:
                self.hub.spawn(self.hub.chat.read(game))
        elif isinstance(notice, ChatHidden):
            self.hub.spawn(self.hub.chat.refresh(game))
        elif isinstance(notice, Expel):
            game.audience.expel(notice.seat, game.log.seq)
        elif isinstance(notice, Names):
            self.hub.spawn(self.hub.read_people(game))
        elif isinstance(notice, RematchMade):
            if game.settings.get("rematch") != notice.rematch:
                game.settings["rematch"] = notice.rematch
                game.audience.broadcast()
        elif isinstance(notice, Who):
            for conn in game.conns.values():
                if conn.seat is not None and conn.closing is None:
                    self.tell(Here(self.proc, game.id, conn.seat, conn.cid))

    def _presence(self, game: LiveGame, notice: Presence) -> None:
        seat = notice.seat
        if not 0 <= seat < len(game.seats):
            return
        if notice.proc == self.proc:  # our own claim, back in the common order
            for conn in game.conns.values():
                if conn.cid == notice.conn:
                    conn.announced = True
            return
        online = game.audience.online()
        conns = game.audience.remote.setdefault(seat, {})
        if isinstance(notice, Gone):
            conns.pop(notice.conn, None)
        else:
            conns[notice.conn] = notice.proc
            if isinstance(notice, Claim):
                game.audience.take_over(seat, game.log.seq, announced_only=True)
        if seat not in game.audience.online():
            game.table.away_since[seat] = time.time()
        if game.audience.online() != online:
            game.audience.broadcast()

    async def resync(self) -> None:
        """Notifications may have been missed: read every game held up to the log's end,
        read its table again (a rematch, the chat) and ask again who is connected."""
        for game in list(self.hub.games.values()):
            self.catch_up_soon(game)
            self.hub.spawn(self.reread_table(game))
            self.tell(Who(self.proc, game.id))

    async def reread_table(self, game: LiveGame) -> None:
        """What other processes may have announced while this one was not listening: the
        game's rematch (its settings) and its chat lines."""
        try:
            stored = await self.hub.db(self.hub.store.games.settings, game.id)
        except UnknownGame:
            return
        rematch = stored.get("rematch")
        if isinstance(rematch, str) and game.settings.get("rematch") != rematch:
            game.settings["rematch"] = rematch
            game.audience.broadcast()
        await self.hub.chat.refresh(game)
        await self.hub.read_people(game)

    # --- the scan -------------------------------------------------------------------------

    async def _scan(self) -> None:
        while not self.hub.closing:
            await asyncio.sleep(SCAN_SECONDS)
            try:
                await self.scan_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the scan of the games failed")

    async def _scan_now(self) -> None:
        try:
            await self.scan_once()
        except Exception:
            log.exception("the scan of the games failed")

    async def scan_once(self) -> None:
        """Forget the connections of dead processes; take the lock of every unfinished
        game nobody holds (its process died, or none ever held it) and run its bots; read
        on the games whose log grew without a notification reaching this process."""
        hub = self.hub
        self._forget_dead(self.cluster.dead())
        active = await hub.db(hub.store.games.ids, "active")
        for gid in await self.cluster.try_locks(active):
            try:
                game = await hub.get(gid)
            except Exception:
                log.exception("cannot load game %s", gid)
                continue
            self.catch_up_soon(game)
        loaded = [g.id for g in hub.games.values() if g.conns or hub.owns(g)]
        last = await hub.db(hub.store.games.last_seqs, loaded)
        for gid, seq in last.items():
            behind = hub.games.get(gid)
            if behind is not None and seq > behind.seq:
                self.catch_up_soon(behind)
        for game in list(hub.games.values()):
            if hub.owns(game):
                hub.changed(game)

    def _forget_dead(self, dead: set[str]) -> None:
        """Forget the connections of the processes ``dead``."""
        if not dead:
            return
        for game in self.hub.games.values():
            online = game.audience.online()
            for conns in game.audience.remote.values():
                for cid in [c for c, p in conns.items() if p in dead]:
                    del conns[cid]
            if game.audience.online() != online:
                for seat in online - game.audience.online():
                    game.table.away_since[seat] = time.time()
                game.audience.broadcast()
