"""The live games of one server process: loading them, their connections, and the one path
that changes a game.

Every move goes through ``Hub.submit`` (and an undo through ``Hub.undo``): under the game's
lock it checks the step the move was made against, asks the engine, stores the step (the
(game, seq) key makes a second writer fail at the database), then makes fresh views due to
the game's connections, each built only from ``player_view``/``redact_event`` for its seat.

The hub wires the parts that do the rest, each in its own module: ``newgames`` (creating a
game within the client's limits), ``seats`` (hand-overs to bots and back, timeouts),
``bots`` (the bots' scheduling), ``timekeeper`` (the clocks), ``sync`` (the other processes
on the same PostgreSQL database), ``chat``, ``hints`` (suggested moves). After any
change of a game, ``changed`` arms its clock and lets its bot play.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from .. import IllegalAction, InvalidAction, apply, to_action
from ..coach.analysis import AnalysisBudget
from ..store import StepTaken, Store, UnknownGame
from .analyses import Analyst
from .bots import BotRunner
from .chat import TableChat, chat_for
from .clocks import Pace, pace_from_dict
from .cluster import Cluster
from .conn import Conn
from .dbthread import DatabaseThread
from .errors import GameError
from .hints import HintDesk
from .leaving import Leaving
from .limits import Limits
from .live import UNDO, Entry, LiveGame
from .lobbyfeed import LobbyFeed
from .mail import Mailer
from .meeting import Meeting
from .metrics import CENSUS_SECONDS, Metrics, multiprocess_mode
from .newgames import NewGames
from .notices import Claim, Gone, LobbyNote, Names, Step, Who, encode
from .people import read_people
from .seats import Seats
from .sync import ClusterSync
from .timekeeper import Timekeeper

log = logging.getLogger("tigris_euphrates.server")

#: How long the readiness check waits for the database's answer.
READY_SECONDS = 2.0
#: How long a stopping process waits for its clients to close after telling them to go.
DRAIN_SECONDS = 5.0
#: The close of a websocket whose process stops on purpose: the page connects again.
RESTART = (1012, "service restart")


class Hub:
    """All live games of one server process."""

    def __init__(
        self,
        store: Store,
        *,
        bot_seconds: float | None = 2.0,
        bot_iterations: int | None = None,
        bot_delay: float = 0.0,
        bot_processes: int = 1,
        limits: Limits | None = None,
        client_seeds: bool = False,
        clock: Callable[[], float] = time.time,
        mailer: Mailer | None = None,
        metrics: Metrics | None = None,
        analysis_seconds: float = 300.0,
        analysis_budget: AnalysisBudget | None = None,
    ) -> None:
        self.store = store
        #: the figures of this process (``/metrics``)
        self.metrics = metrics or Metrics()
        #: the time (seconds since the epoch) for the games' clocks: injectable for tests
        self.clock = clock
        self.limits = limits or Limits()
        self.games: dict[str, LiveGame] = {}
        #: open websockets per client (an address hash)
        self.client_conns: Counter[str] = Counter()
        self.db = DatabaseThread(1 if store.is_sqlite else 4, self.metrics)
        self.closing = False
        #: the process is stopping on purpose: its clients are told to connect again
        self.draining = False
        self._ping: asyncio.Task[None] | None = None
        #: the other processes on the same PostgreSQL database (``None``: SQLite, alone)
        self.cluster = None if store.is_sqlite else Cluster(store.url, store.channel, store.prefix)
        self.bots = BotRunner(
            self.limits,
            self._play_bot,
            self.owns,
            seconds=bot_seconds,
            iterations=bot_iterations,
            delay=bot_delay,
            processes=bot_processes,
            metrics=self.metrics,
        )
        #: enforces the clocks of the games this process owns and sends the turn e-mails
        self.timekeeper = Timekeeper(
            self.db, store, self.owns, self.time_out, clock, lambda: self.games, mailer
        )
        self.chat = TableChat(self.db, store, self.cluster)
        self.hints = HintDesk(self.db, store, self.bots, self.limits)
        #: runs the post-game analyses queued in the database (any process takes the next)
        self.analyst = Analyst(
            self.db, store, self._finished_record, analysis_seconds, analysis_budget
        )
        self.seats = Seats(self)
        self.leaving = Leaving(self)
        self.newgames = NewGames(self, client_seeds)
        self.sync = None if self.cluster is None else ClusterSync(self, self.cluster)
        #: the live lobby, and the open tables, quick match and invitations
        self.lobby = LobbyFeed(store, self.db, self.cluster, clock, self._accounts_at_games)
        self.meeting = Meeting(store, self.db, self.lobby, clock, mailer, self._started)
        self._loading: dict[str, asyncio.Task[LiveGame]] = {}
        self._background: set[asyncio.Task[Any]] = set()

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game and let its bots resume. On PostgreSQL, join the other
        processes: only the games whose lock this process gets are loaded now, and a scan
        every few seconds takes the games whose process died."""
        if multiprocess_mode():
            self.spawn(self._census_loop())
        self.spawn(self.meeting.run())
        self.spawn(self.lobby.keep_presence())
        self.spawn(self.analyst.run())
        if self.sync is not None:
            await self.sync.start()
            return
        for gid in await self.db(self.store.games.ids, "active"):
            try:
                game = await self.get(gid)
            except Exception:  # a broken record must not stop the server
                log.exception("cannot load game %s", gid, extra={"game": gid})
                continue
            self.changed(game)

    async def drain(self) -> None:
        """Stop on purpose (SIGTERM), before the connections are cut: no bot starts a
        decision, the moves under way are stored and their views sent, then every client is
        told to connect again (close 1012, which the page answers by reconnecting — to
        another process behind a load balancer); after they went (``DRAIN_SECONDS`` at
        most), the games' locks are let go and the other processes told so, so that they
        take the bots at once. ``stop`` follows."""
        if self.draining or self.closing:
            return
        self.draining = True
        self.timekeeper.closing = True
        self.timekeeper.disarm_all()
        await self.bots.stop()
        self.lobby.close_all(*RESTART)
        for game in list(self.games.values()):
            async with game.lock:  # a move under way is stored and its views due first
                for conn in game.conns.values():
                    conn.close(*RESTART)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        while any(game.conns for game in self.games.values()) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        if self.sync is not None:
            await self.sync.stop()  # lets go of the locks and says so

    async def stop(self) -> None:
        """Close what is left: the connections (1001), the bots, the link to the other
        processes (letting go of the games' locks), then the database thread once the
        writes under way are done."""
        self.closing = True
        self.timekeeper.closing = True
        self.timekeeper.disarm_all()
        for task in self._background:
            task.cancel()
        self.bots.closing = True
        self.lobby.close_all(1001, "the server is shutting down")
        for game in list(self.games.values()):
            for conn in game.conns.values():
                conn.close(1001, "the server is shutting down")
        await self.bots.stop()
        self.analyst.stop()
        if self.sync is not None:
            await self.sync.stop()
        self.db.shutdown()
        self.metrics.process_gone()

    # --- health ---------------------------------------------------------------------------

    async def unready(self) -> str | None:
        """Why this process should get no traffic now (``None``: it is ready): it is
        stopping, its database did not answer a cheap query within ``READY_SECONDS``, or
        (PostgreSQL) it does not hear the other processes."""
        if self.closing or self.draining:
            return "the server is stopping"
        if self._ping is None or self._ping.done():
            # one query at a time: checks asked while one hangs do not pile up on the thread
            self._ping = asyncio.get_running_loop().create_task(self.db(self.store.ping))
        try:
            await asyncio.wait_for(asyncio.shield(self._ping), READY_SECONDS)
        except TimeoutError:
            return f"the database did not answer within {READY_SECONDS:g} s"
        except Exception as exc:
            log.warning("readiness: the database cannot be reached: %s", exc)
            return f"the database cannot be reached ({type(exc).__name__})"
        if self.cluster is not None and not self.cluster.listening:
            return "the listening connection to the database is down"
        return None

    def census(self) -> Metrics:
        """The gauges counted now (games held and owned, connections, bot queues)."""
        players = spectators = 0
        for game in self.games.values():
            for conn in game.conns.values():
                if conn.seat is None:
                    spectators += 1
                else:
                    players += 1
        owned = sum(1 for game in self.games.values() if self.owns(game))
        self.metrics.census(
            len(self.games),
            owned,
            players,
            spectators,
            self.bots.search_work.waiting,
            self.bots.quick_work.waiting,
        )
        return self.metrics

    async def _census_loop(self) -> None:
        """With several processes on one port, each counts its gauges every second (the
        worker that answers a scrape cannot count the others')."""
        while not self.closing:
            self.census()
            await asyncio.sleep(CENSUS_SECONDS)

    def owns(self, game: LiveGame) -> bool:
        """Whether this process runs the game's bots and clock: alone on SQLite, else while
        it holds the game's advisory lock."""
        return self.cluster is None or game.id in self.cluster.held

    async def _finished_record(self, game_id: str) -> dict[str, Any]:
        """A finished game's record, for its analysis."""
        game = await self.get(game_id)
        if not game.over:
            raise GameError("not-over", "only a finished game can be analysed")
        return game.record()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (cancelled when the server stops)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def changed(self, game: LiveGame) -> None:
        """After any change of ``game`` (or its load): arm its clock, let its bot play."""
        if self.closing:
            return
        self.timekeeper.arm(game)
        self.bots.kick(game)

    def lobby_heard(self, notice: LobbyNote) -> None:
        """Another process changed what the lobby shows."""
        self.lobby.heard(notice)

    def _accounts_at_games(self) -> set[int]:
        """The accounts connected to a game of this process."""
        return {
            c.account
            for game in self.games.values()
            for c in game.conns.values()
            if c.account is not None
        }

    async def _started(self, game_id: str) -> None:
        """A table or a match became ``game_id``: load it, so that its clock and its bots
        start (on PostgreSQL the process that takes its lock runs them)."""
        try:
            self.changed(await self.get(game_id))
        except Exception:
            log.exception("cannot load the new game %s", game_id, extra={"game": game_id})

    def locks_lost(self) -> None:
        """The session holding the games' locks ended: stop running their bots and
        enforcing their clocks."""
        self.timekeeper.disarm_all()
        self.bots.halt()

    # --- the games in memory --------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, loaded from the store on first use (several games load at once; one
        game loads once however many ask for it)."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        loading = self._loading.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_task(self._load(game_id))
            self._loading[game_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load(self, game_id: str) -> LiveGame:
        try:
            row = await self.db(self.store.games.load, game_id)
        except UnknownGame:
            raise GameError("no-game", f"there is no game {game_id!r}") from None
        game = self.games.get(game_id)
        if game is not None:  # created here meanwhile
            return game
        pace_data = await self.db(self.store.clocks.pace, game_id)
        pace = times = None
        if pace_data is not None:
            pace = pace_from_dict(pace_data)
            times = await self.db(self.store.clocks.step_times, game_id)
        lines = await self.db(self.store.chat.lines, game_id)
        game = self.games.get(game_id)
        if game is not None:  # created here meanwhile
            return game
        # no await from here on: one LiveGame per game in this process, the one registered
        game = LiveGame(row, pace, times, self.clock)
        game.chat = [line for line in lines if not line.hidden]
        game.chat_n = lines[-1].n if lines else 0
        self.games[game_id] = game
        if game.over and row.status != "over":
            await self.finished(game)
        if row.rated or any(s["kind"] == "human" for s in game.seats):
            await self.read_people(game)
        elif game.aborted and row.status != "aborted":
            await self.db(self.store.games.mark_aborted, game_id)
        if self.sync is not None:
            # entries committed while it loaded, and who is connected elsewhere
            self.sync.catch_up_soon(game)
            self.sync.tell(Who(self.sync.proc, game.id))
        return game

    async def create(
        self,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        client: str = "",
        *,
        listed: bool = False,
        settings: dict[str, Any] | None = None,
        same_people: LiveGame | None = None,
        rated: bool = False,
        pace: Pace | None = None,
    ) -> tuple[LiveGame, list[str | None], str | None]:
        """A new game (``newgames.NewGames.create``), held by this process, its bots running."""
        game, tokens, creator = await self.newgames.create(
            options,
            seats,
            seed,
            client,
            listed=listed,
            settings=settings,
            same_people=same_people,
            rated=rated,
            pace=pace,
        )
        self.games[game.id] = game
        log.info("game created", extra={"game": game.id, "seats": len(game.seats)})
        if self.cluster is not None:
            await self.cluster.try_locks([game.id])  # the creating process runs its bots
        self.changed(game)
        return game, tokens, creator

    def adopt(self, game: LiveGame) -> LiveGame:
        """The copy of ``game`` this process holds, to attach a connection to after an
        await: a finished game nobody watched may have left memory meanwhile (``evict``);
        it is registered again (and its table read again: announcements to a game not held
        are not heard), or a copy loaded since is used instead."""
        held = self.games.get(game.id)
        if held is not None:
            return held
        self.games[game.id] = game
        if self.sync is not None:
            self.sync.catch_up_soon(game)
            self.spawn(self.sync.reread_table(game))
        return game

    def evict(self, game: LiveGame) -> None:
        """Finished (or stopped) games nobody watches leave memory (they reload from the
        store)."""
        if game.ended and not game.conns and self.games.get(game.id) is game:
            del self.games[game.id]
            if self.cluster is not None and game.id in self.cluster.held:
                self.spawn(self.cluster.unlock(game.id))

    # --- connections ----------------------------------------------------------------------

    def attach(
        self, game: LiveGame, seat: int | None, hidden: frozenset[int] = frozenset()
    ) -> tuple[int, Conn]:
        """A new connection of ``seat`` (``None``: a spectator): it takes the seat over from
        older ones, the others see the seat come online, and its first view and the chat
        so far are due (without the lines of the seats in ``hidden``: their accounts are
        blocked by the connection's)."""
        conn = Conn(seat, self.limits)
        key = id(conn)
        online = game.online()
        if seat is not None:
            game.take_over(seat)
        game.conns[key] = conn
        if game.online() != online:
            game.broadcast(exclude=key)  # the others see the seat come online
        conn.due(full_log=True)
        conn.hidden = hidden
        if game.chat:
            conn.send(chat_for(conn, game.chat, reset=True))  # the chat so far (none: no frame)
        if self.sync is not None and seat is not None:
            self.sync.tell(Claim(self.sync.proc, game.id, seat, conn.cid))
        return key, conn

    def detach(self, game: LiveGame, key: int) -> None:
        """The connection ``key`` closed."""
        online = game.online()
        conn = game.conns.pop(key, None)
        if conn is not None and conn.seat is not None and conn.seat not in game.online():
            game.away_since[conn.seat] = time.time()
        if conn is not None and not self.closing and game.online() != online:
            game.broadcast()
        if conn is not None and conn.seat is not None and self.sync is not None:
            self.sync.tell(Gone(self.sync.proc, game.id, conn.seat, conn.cid))
        self.evict(game)

    # --- the one path that changes a game -------------------------------------------------

    async def submit(
        self, game: LiveGame, seat: int | None, seq: Any, action: Any, *, bot: bool = False
    ) -> None:
        """Play ``action`` for ``seat`` against step ``seq`` (``bot``: the seat's bot plays
        it); raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot act")
        async with game.lock:
            game.check_turn(seat, seq)
            if (game.seats[seat]["kind"] == "bot") != bot:
                if bot:
                    raise GameError("stale", "the seat's player took it back")
                raise GameError(
                    "seat-is-bot", "a bot plays this seat: take it back to play yourself"
                )
            try:
                act = to_action(action)
                state, events = apply(game.state, act)
            except (InvalidAction, IllegalAction) as exc:
                raise GameError(exc.code, exc.message) from None
            except (ValueError, TypeError, KeyError) as exc:  # what the engine did not foresee
                raise GameError("bad-action", f"not an action of this game: {exc}") from None
            notation = str(act)
            at = await self.store_step(game, seat, notation)
            game.seq += 1
            game.state = state
            game.entries.append(Entry(game.seq, seat, notation, events))
            game.tick(at)
            if game.over:
                game.bots.clear()
                await self.finished(game)
            game.broadcast()
        self.changed(game)
        self.evict(game)

    async def _play_bot(self, game: LiveGame, seat: int, seq: int, action: str) -> None:
        await self.submit(game, seat, seq, action, bot=True)

    async def undo(self, game: LiveGame, seat: int | None, seq: Any) -> None:
        """Take back ``seat``'s last action (made against step ``seq``); raises
        ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot act")
        async with game.lock:
            if not isinstance(seq, int) or seq != game.seq:
                raise GameError("stale", game.stale_message(seq))
            if game.aborted:
                game.check_ongoing()
            if not game.can_undo(seat):
                raise GameError(
                    "no-undo",
                    "only your own last action can be taken back, and only while it revealed "
                    "nothing (no tile drawn, no other player asked)",
                )
            at = await self.store_step(game, seat, UNDO)
            game.seq += 1
            game.entries.pop()
            game.rebuild()
            game.tick(at)
            for conn in game.conns.values():
                conn.last_log = 0  # the log shrank: send it whole
            game.broadcast()
        self.changed(game)

    async def store_step(
        self, game: LiveGame, seat: int | None, action: str, bots: int | None = None
    ) -> float:
        """Store the game's next log entry (``bots``: the bot seats after a seat change);
        returns the time it was stored at (the clock's). Under the game's lock."""
        seq = game.seq + 1
        notice = (
            "" if self.sync is None else encode(Step(self.sync.proc, game.id, seq, seat, action))
        )
        at = self.clock()
        try:
            await self.db(self.store.games.append, game.id, seq, seat, action, at, bots, notice)
            game.logged(seat, action, seq)
            self.metrics.actions.inc()
            return at
        except StepTaken:
            # Another process stored this step: our copy is behind, read the log on.
            await self.catch_up_locked(game)
            raise GameError("stale", "another move was stored for this step first") from None

    async def catch_up_locked(self, game: LiveGame, *, read_log: bool = True) -> None:
        """Apply the log entries other processes wrote after this copy (under the game's
        lock), then push fresh views: first those that came with their announcements,
        then, if some are missing or ``read_log``, those in the database."""
        rows: list[tuple[int, int | None, str]] = []
        while game.seq + 1 + len(rows) in game.pending:
            seq = game.seq + 1 + len(rows)
            rows.append((seq, *game.pending[seq]))
        game.pending = {k: v for k, v in game.pending.items() if k > game.seq + len(rows)}
        if read_log or game.announced > game.seq + len(rows):
            after = rows[-1][0] if rows else game.seq
            rows += await self.db(self.store.games.rows_after, game.id, after)
        if not rows:
            return
        undone = False
        for seq, seat, action in rows:
            if seq != game.seq + 1:
                break  # cannot happen: an entry is written only after the one before it
            undone = undone or action == UNDO
            game.apply_row(seq, seat, action)
        if undone:
            for conn in game.conns.values():
                conn.last_log = 0  # the log shrank: send it whole
        if game.over:
            game.bots.clear()
            await self.finished(game)
        game.broadcast()

    async def finished(self, game: LiveGame) -> None:
        """The game is over: its result stored (a rated game's ratings counted by the
        store's finish hook), then the rating changes read for its seats."""
        await self.db(self.store.games.finish, game.id, game.result())
        if game.tally is not None:
            await self.read_people(game)

    # --- the table's people (``people.py``) and leaving it (``leaving.py``) -------------------

    async def read_people(self, game: LiveGame) -> None:
        """Read the names and ratings of the game's seats again (``people.read_people``)."""
        await read_people(self, game)

    def names_changed(self, game: LiveGame) -> None:
        """The game's names changed here: the other processes read them again."""
        if self.sync is not None:
            self.sync.tell(Names(self.sync.proc, game.id))

    async def leave(self, game: LiveGame, seat: int | None, *, resign: bool) -> None:
        """The seat's player resigns, or aborts the game before everybody moved
        (``leaving.Leaving``)."""
        await (self.leaving.resign if resign else self.leaving.abort)(game, seat)
        self.changed(game)
        self.evict(game)

    # --- seats (``seats.Seats``) ------------------------------------------------------------

    async def hand_to_bot(
        self,
        game: LiveGame,
        token: str | None,
        target: int,
        level: str | None,
        holder: int | None = None,
    ) -> None:
        """Give the human seat ``target`` to a bot of ``level`` (``seats.Seats.hand_to_bot``)."""
        await self.seats.hand_to_bot(game, token, target, level, holder)
        self.changed(game)

    async def take_back(
        self, game: LiveGame, token: str | None, target: int, holder: int | None = None
    ) -> None:
        """The seat's player takes it back from its bot (``seats.Seats.take_back``)."""
        await self.seats.take_back(game, token, target, holder)
        self.changed(game)

    async def time_out(self, game: LiveGame) -> bool:
        """A bot takes the seat whose time ran out, if it did (``seats.Seats.time_out``)."""
        done = await self.seats.time_out(game)
        self.changed(game)
        return done
