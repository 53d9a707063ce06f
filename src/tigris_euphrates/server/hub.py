"""The live games of one server process: loading them, their connections, and the one path
that changes a game.

Every entry of a game's log goes through ``Hub.write`` (a move from ``Hub.submit``, an undo
from ``Hub.undo``, a seat change, a resignation, an abort): under the game's lock it stores
the entry (the (game, seq) key makes a second writer fail at the database), applies it on
the game's one apply path (``gamelog.GameLog.apply``, the path of the steps heard from other
processes too), makes fresh views due to the game's connections, each built only from
``player_view``/``redact_event`` for its seat, and emits "the game changed" once.

The hub wires the parts that do the rest, each in its own module: ``newgames`` (creating a
game within the client's limits), ``seats`` (hand-overs to bots and back, timeouts),
``bots`` (the bots' scheduling), ``timekeeper`` (the clocks), ``sync`` (the other processes
on the same PostgreSQL database), ``chat``, ``hints`` (suggested moves), ``lifecycle``
(starting and stopping). Whoever acts after a change of a game follows the event
(``events.py``): the clocks, the bots, the lobby, the metrics.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from .. import IllegalAction, InvalidAction, apply, to_action
from ..coach.analysis import AnalysisBudget
from ..store import StepTaken, Store, UnknownGame
from ..store.jsontypes import JsonDict
from ..store.logentry import Abort, LogEntry, Move, Undo
from ..store.logentry import encode as encode_entry
from ..store.rows import TableSettings
from . import lifecycle
from .aiseats import BotRunner
from .analyses import Analyst
from .chat import TableChat, chat_for
from .clocks import Pace, pace_from_dict
from .cluster import Cluster
from .conn import Conn
from .dbthread import DatabaseThread
from .direct import DirectChallenges
from .errors import GameError
from .eventrunner import EventRunner
from .events import GameChanged, GameEvents
from .gamelog import Played
from .hints import HintDesk
from .leaving import Leaving
from .lifecycle import RESTART as RESTART  # the close of a process that stops, for routes
from .limits import Limits
from .live import LiveGame
from .lobbyfeed import LobbyFeed
from .lobbygames import LobbyGames
from .mail import Mailer
from .meeting import Meeting
from .metrics import Metrics
from .newgames import NewGames, SeatWanted
from .notices import Claim, Gone, LobbyNote, Names, Step, Who, encode
from .people import read_people
from .puzzles import PuzzleDesk
from .readiness import Readiness
from .seats import Seats
from .sync import ClusterSync
from .timekeeper import Timekeeper

log = logging.getLogger("tigris_euphrates.server")


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
        self.db = DatabaseThread(1 if store.is_sqlite else 4, self.metrics)
        self.closing = False
        #: the process is stopping on purpose: its clients are told to connect again
        self.draining = False
        #: the wake-ups of the open bot event sockets (``routes/botsocket.py``)
        self.event_sockets: set[asyncio.Event] = set()
        #: whether this process should get traffic, and its gauges (``/readyz``, ``/metrics``)
        self.readiness = Readiness(self)
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
            fall_back=self._bot_fall_back,
        )
        #: enforces the clocks of the games this process owns and sends the turn e-mails
        self.timekeeper = Timekeeper(
            self.db, store, self.owns, self.time_out, clock, lambda: self.games, mailer
        )
        self.chat = TableChat(self.db, store, self.cluster)
        self.hints = HintDesk(self.db, store, self.bots, self.limits)
        #: runs the post-game analyses queued in the database; makes each one's puzzles
        self.analyst, self.puzzles = self._analyses(analysis_seconds, analysis_budget)
        self.seats = Seats(self)
        self.leaving = Leaving(self)
        self.newgames = NewGames(self, client_seeds)
        self.sync = None if self.cluster is None else ClusterSync(self, self.cluster)
        #: the games held here as the lobby sees them (accounts at them, whose turn)
        games = self.lobby_games = LobbyGames(self.games, self._announce)
        #: the live lobby, and the open tables, quick match and invitations
        self.lobby = LobbyFeed(
            store, self.db, self.cluster, clock, games.accounts_at_games, games.actor_of
        )
        self.meeting = Meeting(store, self.db, self.lobby, clock, mailer, self._started)
        self.meeting.invite_emails = self.limits.invite_emails_per_account
        #: the direct challenges between people
        self.direct = DirectChallenges(
            store, self.db, self.lobby, clock, mailer, self.limits, self._started
        )
        #: the arenas and Swiss events (one process of the cluster pairs them at a time)
        self.eventrunner = EventRunner(store, self.db, self.lobby, clock, self._started)
        #: "a game changed" and who follows it: the metrics, the clocks (and their turn
        #: e-mails), the bots' scheduling, the lobby's view of the games in progress
        self.events = GameEvents()
        for follower in (self.metrics, self.timekeeper, self.bots, self.lobby_games):
            self.events.subscribe(follower.game_changed)
        self._loading: dict[str, asyncio.Task[LiveGame]] = {}
        self._background: set[asyncio.Task[Any]] = set()

    def _analyses(
        self, seconds: float, budget: AnalysisBudget | None
    ) -> tuple[Analyst, PuzzleDesk]:
        """The post-game analyses queued in the database (any process takes the next), and
        the puzzles made of each analysed game (``PuzzleDesk``, which also limits the
        guests' answers to puzzles)."""
        puzzles = PuzzleDesk(self.db, self.store, self.clock, self.limits)
        analyst = Analyst(
            self.db, self.store, self._finished_record, seconds, budget, finished=puzzles.harvest
        )
        return analyst, puzzles

    # --- life cycle (``lifecycle.py``) -----------------------------------------------------

    async def start(self) -> None:
        """Load the unfinished games, join the other processes (``lifecycle.start``)."""
        await lifecycle.start(self)

    async def drain(self) -> None:
        """Stop on purpose, the clients told to connect again (``lifecycle.drain``)."""
        await lifecycle.drain(self)

    async def stop(self) -> None:
        """Close what is left (``lifecycle.stop``)."""
        await lifecycle.stop(self)

    # --- health (``readiness.Readiness``) and background work -----------------------------

    def owns(self, game: LiveGame) -> bool:
        """Whether this process runs the game's bots and clock: alone on SQLite, else while
        it holds the game's advisory lock."""
        return self.cluster is None or game.id in self.cluster.held

    async def _finished_record(self, game_id: str) -> JsonDict:
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

    def cancel_background(self) -> None:
        """Cancel the background work (the server stops)."""
        for task in self._background:
            task.cancel()

    def changed(self, game: LiveGame, *, stored: bool = False) -> None:
        """``game`` changed (``stored``: this process stored an entry of its log), or was
        loaded: the event's subscribers do what is due (``events.py``)."""
        if not self.closing:
            self.events.emit(GameChanged(game, stored))

    def _announce(self, account: int, what: str) -> None:
        self.lobby.announce(account, what)

    def lobby_heard(self, notice: LobbyNote) -> None:
        """Another process changed what the lobby shows."""
        self.lobby.heard(notice)

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
        game.table.chat = [line for line in lines if not line.hidden]
        game.table.chat_n = lines[-1].n if lines else 0
        self.games[game_id] = game
        if game.over and row.status != "over":
            await self.finished(game)
        if row.rated or any(s["kind"] == "human" for s in game.seats):
            await self.read_people(game)
        if game.aborted and row.status != "aborted":
            await self.db(self.store.games.mark_aborted, game_id)
        if self.sync is not None:
            # entries committed while it loaded, and who is connected elsewhere
            self.sync.catch_up_soon(game)
            self.sync.tell(Who(self.sync.proc, game.id))
        return game

    async def create(
        self,
        options: Mapping[str, object],
        seats: Sequence[SeatWanted],
        seed: int | None = None,
        client: str = "",
        *,
        listed: bool = False,
        settings: TableSettings | None = None,
        same_people: LiveGame | None = None,
        rated: bool = False,
        pace: Pace | None = None,
        bound: dict[int, int] | None = None,
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
            bound=bound,
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
            self.lobby_games.forget(game.id)
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
        conn.hidden = hidden
        key = game.audience.join(conn, game.log.seq)
        if game.table.chat:  # the chat so far (none: no frame)
            conn.send(chat_for(conn, game.table.chat, reset=True))
        if self.sync is not None and seat is not None:
            self.sync.tell(Claim(self.sync.proc, game.id, seat, conn.cid))
        return key, conn

    def detach(self, game: LiveGame, key: int) -> None:
        """The connection ``key`` closed: a seat gone offline is away from now on, and the
        others see it (unless the server stops)."""
        conn, gone = game.audience.part(key, quietly=self.closing)
        if gone is not None:
            game.table.away_since[gone] = time.time()
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
            history = game.log
            history.check_turn(seat, seq)
            if (game.table.seats[seat]["kind"] == "bot") != bot:
                if bot:
                    raise GameError("stale", "the seat's player took it back")
                raise GameError(
                    "seat-is-bot", "a bot plays this seat: take it back to play yourself"
                )
            try:
                act = to_action(action)
                played = apply(history.state, act)
            except (InvalidAction, IllegalAction) as exc:
                raise GameError(exc.code, exc.message) from None
            except (ValueError, TypeError, KeyError) as exc:  # what the engine did not foresee
                raise GameError("bad-action", f"not an action of this game: {exc}") from None
            await self.write(game, seat, Move(str(act)), played=played)
        self.evict(game)

    async def _play_bot(self, game: LiveGame, seat: int, seq: int, action: str) -> None:
        await self.submit(game, seat, seq, action, bot=True)

    async def _bot_fall_back(self, game: LiveGame, seat: int, failed: str, level: str) -> bool:
        """The bot of ``seat`` could not move: a bot of ``level`` plays it from now on, the
        log telling the players (``seats.Seats.fall_back``)."""
        return await self.seats.fall_back(game, seat, failed, level)

    async def undo(self, game: LiveGame, seat: int | None, seq: Any) -> None:
        """Take back ``seat``'s last action (made against step ``seq``); raises
        ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot act")
        async with game.lock:
            history = game.log
            if not isinstance(seq, int) or seq != history.seq:
                raise GameError("stale", history.stale_message(seq))
            if history.aborted:
                history.check_ongoing()
            if not history.can_undo(seat):
                raise GameError(
                    "no-undo",
                    "only your own last action can be taken back, and only while it revealed "
                    "nothing (no tile drawn, no other player asked)",
                )
            await self.write(game, seat, Undo())

    async def write(
        self,
        game: LiveGame,
        seat: int | None,
        entry: LogEntry,
        *,
        bots: int | None = None,
        played: Played | None = None,
    ) -> None:
        """The one path that changes a game, under its lock: store ``entry`` as the game's
        next log entry, written by ``seat`` (``bots``: the bot seats after a seat change),
        apply it (``GameLog.apply``; ``played``: a move's position, computed already),
        make fresh views due, then emit "the game changed" (``events.py``). A game stopped
        here is marked so in the store; a game over here has its result stored. Raises
        ``GameError`` (``stale``) when another process stored that step first: this copy
        has read the log on, the caller may check and try again."""
        seq = game.log.seq + 1
        at = await self.store_step(game, seat, entry, bots)
        game.log.apply(seq, seat, entry, at, played)
        if isinstance(entry, Abort):
            game.table.bots.clear()
            await self.db(self.store.games.mark_aborted, game.id)
        await self._settled(game, undone=isinstance(entry, Undo))
        self.changed(game, stored=True)

    async def _settled(self, game: LiveGame, *, undone: bool) -> None:
        """After entries were applied (stored here or by another process): the log is sent
        whole after an undo, a game over has its result stored, fresh views are due."""
        if undone:
            game.audience.resend_logs()  # the log shrank: send it whole
        if game.log.over:
            game.table.bots.clear()
            await self.finished(game)
        game.audience.broadcast()

    async def store_step(
        self, game: LiveGame, seat: int | None, entry: LogEntry, bots: int | None = None
    ) -> float:
        """Store the game's next log entry (``bots``: the bot seats after a seat change);
        returns the time it was stored at (the clock's). Under the game's lock."""
        seq = game.log.seq + 1
        text = encode_entry(entry)
        notice = "" if self.sync is None else encode(Step(self.sync.proc, game.id, seq, seat, text))
        at = self.clock()
        try:
            await self.db(self.store.games.append, game.id, seq, seat, text, at, bots, notice)
            return at
        except StepTaken:
            # Another process stored this step: our copy is behind, read the log on.
            await self.catch_up_locked(game)
            raise GameError("stale", "another move was stored for this step first") from None

    async def catch_up_locked(self, game: LiveGame, *, read_log: bool = True) -> None:
        """Apply the log entries other processes wrote after this copy (under the game's
        lock), then push fresh views: first those that came with their announcements,
        then, if some are missing or ``read_log``, those in the database."""
        history = game.log
        rows: list[tuple[int, int | None, LogEntry]] = []
        while history.seq + 1 + len(rows) in history.pending:
            seq = history.seq + 1 + len(rows)
            rows.append((seq, *history.pending[seq]))
        history.pending = {k: v for k, v in history.pending.items() if k > history.seq + len(rows)}
        if read_log or history.announced > history.seq + len(rows):
            after = rows[-1][0] if rows else history.seq
            rows += await self.db(self.store.games.rows_after, game.id, after)
        if not rows:
            return
        undone = False
        for seq, seat, entry in rows:
            if seq != history.seq + 1:
                break  # cannot happen: an entry is written only after the one before it
            undone = undone or isinstance(entry, Undo)
            history.apply(seq, seat, entry)
        await self._settled(game, undone=undone)

    async def finished(self, game: LiveGame) -> None:
        """The game is over: its result stored (a rated game's ratings counted by the
        store's finish hook), then the rating changes read for its seats."""
        await self.db(self.store.games.finish, game.id, game.log.result())
        if game.log.tally is not None:
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

    async def take_back(
        self, game: LiveGame, token: str | None, target: int, holder: int | None = None
    ) -> None:
        """The seat's player takes it back from its bot (``seats.Seats.take_back``)."""
        await self.seats.take_back(game, token, target, holder)

    async def time_out(self, game: LiveGame) -> bool:
        """A bot takes the seat whose time ran out, if it did (``seats.Seats.time_out``);
        else the game is looked at again (its clock armed anew, its bot let play)."""
        done = await self.seats.time_out(game)
        if not done:
            self.changed(game)
        return done
