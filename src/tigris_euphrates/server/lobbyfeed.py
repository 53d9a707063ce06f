"""The live lobby: the lobby's websockets (``/ws/lobby``) and what they are sent.

Every lobby connection gets the open tables (``TablesFrame``) when it opens and again
whenever they change; a signed-in one gets its own corner too (``MeFrame``: invitations,
friends and who of them is online, blocked accounts, its quick match). A change made in any
process is announced to all (``notices.LobbyNote`` on the cluster's channel): each process
then reads the tables (or the account's corner) once from the database and pushes the new
frame to its own connections. The page never polls. Every connection gets everybody's
activity too (``ActivityFrame``, ``lobbyactivity.py``: people online, quick match's seeks,
games to watch): at once after a quick match changed anywhere, else every
``PRESENCE_SECONDS`` when it changed.

Presence is kept here too: every ``PRESENCE_SECONDS`` this process writes that the accounts
connected to it (a lobby or a game) are online, and keeps the quick-match rows of the
accounts in its lobby alive.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..store import Store
from ..store.accounts import GameInProgress
from ..store.ratings import displayed
from ..store.tables import OpenTable
from .dbthread import DatabaseThread
from .direct import challenges_of
from .frames import (
    ActivityFrame,
    FriendInfo,
    LobbyFrame,
    MeFrame,
    PlayingInfo,
    TableInfo,
    TableSeatInfo,
    TablesFrame,
)
from .lobbyactivity import activity_frame
from .notices import LobbyNote

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("tigris_euphrates.server")

#: How often the accounts connected here are written as online.
PRESENCE_SECONDS = 15.0
#: An account is online while it was seen within this many seconds.
ONLINE_SECONDS = 45.0
#: How long a started table stays in the frames (its seated pages go to the game).
STARTED_SECONDS = 600.0
#: The notes after which the lobby's activity is read again at once (a quick match
#: changed: its seeks); the rest of it follows every ``PRESENCE_SECONDS``.
ACTIVITY_NOTES = frozenset({"match"})
#: Frames waiting for a lobby connection before it is closed as not reading.
LOBBY_BACKLOG = 50


class LobbyConn:
    """One lobby websocket: the account (``None``: a guest) and its outbox."""

    def __init__(self, account: int | None) -> None:
        self.account = account
        self.frames: deque[LobbyFrame] = deque()
        self.wake = asyncio.Event()
        self.closed = False
        #: the close to send (the process stops: the page connects again, elsewhere)
        self.closing: tuple[int, str] | None = None
        #: the friends (and who of them is online) in the last corner sent
        self.last_friends: list[FriendInfo] = []

    def send(self, frame: LobbyFrame) -> None:
        if self.closed:
            return
        if len(self.frames) >= LOBBY_BACKLOG:
            self.closed = True  # a connection that does not read: the writer closes it
        else:
            self.frames.append(frame)
        self.wake.set()


class LobbyFeed:
    """This process's lobby connections and the frames they are due."""

    def __init__(
        self,
        store: Store,
        db: DatabaseThread,
        cluster: Cluster | None,
        clock: Callable[[], float],
        accounts_in_games: Callable[[], set[int]],
        actor_of: Callable[[str], int | None] = lambda game: None,
    ) -> None:
        self.store = store
        self.db = db
        self.cluster = cluster
        self.clock = clock
        self.accounts_in_games = accounts_in_games
        #: the seat to act in a game this process holds (``None``: not held, or over)
        self.actor_of = actor_of
        self.conns: dict[int, LobbyConn] = {}
        self._keys = itertools.count(1)
        self._tables_due: asyncio.Task[None] | None = None
        self._again = False
        #: each account's corner being read now, and the accounts to read again after it
        self._accounts_due: dict[int, asyncio.Task[None]] = {}
        self._accounts_again: set[int] = set()
        #: the activity being read now, whether to read it again, the last one sent
        self._activity_due: asyncio.Task[None] | None = None
        self._activity_again = False
        self._last_activity: ActivityFrame | None = None

    # --- connections ----------------------------------------------------------------------

    async def attach(self, account: int | None) -> tuple[int, LobbyConn]:
        """A new lobby connection, sent the tables (and its corner) at once."""
        key, conn = next(self._keys), LobbyConn(account)
        first = account is not None and not any(c.account == account for c in self.conns.values())
        self.conns[key] = conn
        conn.send(await self.tables_frame())
        if account is not None:
            await self.db(self.store.social.seen, [account], self.clock())
            me = await self.me_frame(account)
            conn.last_friends = me["friends"]
            conn.send(me)
            if first:  # its followers see it online now
                for follower in await self.db(self.store.social.followers, account):
                    self.announce(follower, "friends")
        conn.send(await self.activity_frame())
        return key, conn

    def detach(self, key: int) -> None:
        self.conns.pop(key, None)

    def close_all(self, code: int, reason: str) -> None:
        """Close every lobby connection of this process with ``code`` (a stopping process:
        1012, which the page answers by connecting again)."""
        for conn in self.conns.values():
            conn.closing = (code, reason)
            conn.wake.set()

    # --- what changed ---------------------------------------------------------------------

    def announce(self, account: int, what: str) -> None:
        """Something the lobby shows changed here: the tables (``account`` 0) or an
        account's corner. This process's connections are told now, the others through
        the cluster."""
        if self.cluster is not None:
            self.cluster.publish(LobbyNote(self.cluster.proc, account, what))
        self.heard(LobbyNote("", account, what))

    def heard(self, notice: LobbyNote) -> None:
        if notice.what in ACTIVITY_NOTES:
            self._refresh_activity()
        if notice.account == 0:
            self._refresh_tables()
        elif any(c.account == notice.account for c in self.conns.values()):
            account = notice.account
            running = self._accounts_due.get(account)
            if running is not None and not running.done():
                self._accounts_again.add(account)  # read again once this read is sent
                return
            task = asyncio.get_running_loop().create_task(self._refresh_account(account))
            self._accounts_due[account] = task

    def _refresh_activity(self) -> None:
        """Read the activity once for every change announced while a read is under way."""
        if not self.conns:
            return
        if self._activity_due is not None and not self._activity_due.done():
            self._activity_again = True
            return
        self._activity_due = asyncio.get_running_loop().create_task(self._push_activity())

    async def _push_activity(self) -> None:
        try:
            while True:
                self._activity_again = False
                frame = await self.activity_frame()
                for conn in list(self.conns.values()):
                    conn.send(frame)
                if not self._activity_again:
                    return
        except Exception:
            log.exception("cannot send the lobby its activity")

    def _refresh_tables(self) -> None:
        """Read the tables once for every change announced while a read is under way."""
        if not self.conns:
            return
        if self._tables_due is not None and not self._tables_due.done():
            self._again = True
            return
        self._tables_due = asyncio.get_running_loop().create_task(self._push_tables())

    async def _push_tables(self) -> None:
        try:
            while True:
                self._again = False
                frame = await self.tables_frame()
                for conn in list(self.conns.values()):
                    conn.send(frame)
                if not self._again:
                    return
        except Exception:
            log.exception("cannot send the lobby its tables")

    async def _refresh_account(self, account: int) -> None:
        """Send the account's connections its corner; read once more if a change was
        announced while this read was under way (frames go out in the order read)."""
        try:
            while True:
                self._accounts_again.discard(account)
                frame = await self.me_frame(account)
                for conn in list(self.conns.values()):
                    if conn.account == account:
                        conn.last_friends = frame["friends"]
                        conn.send(frame)
                if account not in self._accounts_again:
                    return
        except Exception:
            log.exception("cannot send an account its lobby")
        finally:
            if self._accounts_due.get(account) is asyncio.current_task():
                del self._accounts_due[account]

    # --- the frames -----------------------------------------------------------------------

    async def activity_frame(self) -> ActivityFrame:
        """Everybody's activity (``lobbyactivity.py``), kept as the last one sent."""
        frame = await activity_frame(self.store, self.db, self.clock() - ONLINE_SECONDS)
        self._last_activity = frame
        return frame

    async def tables_frame(self) -> TablesFrame:
        now = self.clock()
        tables: list[OpenTable] = await self.db(self.store.tables.listing, now)
        ratings = await self.db(self.store.tables.ratings_at, tables)
        started = await self.db(self.store.tables.started_since, now - STARTED_SECONDS)
        return {
            "type": "tables",
            "tables": [table_info(t, ratings) for t in tables],
            "started": [{"table": t, "game": g} for t, g in started],
        }

    async def me_frame(self, account: int) -> MeFrame:
        now = self.clock()
        social = self.store.social
        invites = await self.db(social.invites_of, account, now)
        friends = await self.db(social.following, account)
        online = await self.db(social.online, [i for i, _ in friends], now - ONLINE_SECONDS)
        blocked = await self.db(social.blocked, account)
        match = await self.db(self.store.matches.state, account)
        if match is not None and match.game_over:
            match = None  # its game is over: the account is free again
        playing = await self.db(self.store.accounts.in_progress, account)
        challenges = await challenges_of(self.store, self.db, account, now)
        return {
            "type": "me",
            "invites": [{"id": i.id, "table": i.table_id, "by": i.by} for i in invites],
            "friends": [{"name": n, "online": i in online} for i, n in friends],
            "blocked": [n for _, n in blocked],
            "match": None
            if match is None
            else {
                "state": match.state,
                "family": match.family,
                "players": match.players,
                "pace": match.pace,
                "joined": match.joined,
                "bot_after": match.bot_after,
                "game": match.game_id,
                "seat": match.seat,
            },
            "playing": [self._playing_info(g) for g in playing],
            "challenges": challenges,
        }

    def _playing_info(self, g: GameInProgress) -> PlayingInfo:
        """A game in progress as the account's corner shows it: whose turn it is is known
        for a game held here, or from its running clock."""
        actor = self.actor_of(g.id)
        if actor is None:
            actor = g.running
        return {
            "game": g.id,
            "seat": g.seat,
            "names": g.names,
            "rated": g.rated,
            "pace": g.pace,
            "my_turn": actor == g.seat,
        }

    # --- presence -------------------------------------------------------------------------

    def connected_accounts(self) -> list[int]:
        """The accounts connected to this process: in the lobby or at a game."""
        lobby = {c.account for c in self.conns.values() if c.account is not None}
        return sorted(lobby | self.accounts_in_games())

    async def keep_presence(self) -> None:
        """Write, every ``PRESENCE_SECONDS``, that the connected accounts are online and
        that the lobby pages waiting for a match are still open; then send each account in the lobby
        here its corner again if a friend came or went since the last one."""
        while True:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                accounts, now = self.connected_accounts(), self.clock()
                await self.db(self.store.social.seen, accounts, now)
                # only a lobby page waits for its match (it goes to the game when made)
                lobby = sorted({c.account for c in self.conns.values() if c.account is not None})
                await self.db(self.store.matches.seen, lobby, now)
                await self._friends_moved()
                await self._activity_moved()
            except Exception:
                log.exception("cannot write who is online")

    async def _activity_moved(self) -> None:
        """Send every lobby connection here the activity if it changed since the last one
        sent (people came or went, a game moved up or ended)."""
        if not self.conns:
            return
        last = self._last_activity
        frame = await self.activity_frame()
        if frame != last:
            for conn in list(self.conns.values()):
                conn.send(frame)

    async def _friends_moved(self) -> None:
        lobby = {c.account for c in self.conns.values() if c.account is not None}
        for account in sorted(lobby):
            frame = await self.me_frame(account)
            conns = [c for c in self.conns.values() if c.account == account]
            if any(c.last_friends != frame["friends"] for c in conns):
                for c in conns:
                    c.last_friends = frame["friends"]
                    c.send(frame)


def table_info(t: OpenTable, ratings: dict[tuple[str, int], tuple[float, int]]) -> TableInfo:
    """An open table as the lobby lists it (no seat's token): each seated account's
    displayed rating (``store.ratings.displayed``, as the table and the leaderboards show
    it) and whether it is a bot account."""
    seats: list[TableSeatInfo] = []
    for s in t.seats:
        rating = ratings.get((t.id, s.account_id)) if s.account_id is not None else None
        seats.append(
            {
                "seat": s.seat,
                "name": s.name,
                "account": s.account_id is not None,
                "bot": s.bot,
                "rating": None if rating is None else displayed(rating[0]),
                "games": None if rating is None else rating[1],
            }
        )
    return {
        "id": t.id,
        "options": t.options,
        "pace": t.pace,
        "players": t.players,
        "rated": t.rated,
        "min_rating": t.min_rating,
        "max_rating": t.max_rating,
        "allow_bots": t.allow_bots,
        "bot_accounts": t.bot_accounts,
        "expires": t.expires,
        "seats": seats,
        "free": len(t.free()),
    }
