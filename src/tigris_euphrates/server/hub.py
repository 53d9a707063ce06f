"""Live games: the authoritative states, their locks, connections and bots.

Every change goes through ``Hub.submit``: under the game's lock it checks the sequence the
move was made against, asks the engine, stores the step (the (game, seq) key makes a second
writer fail at the database), then queues per-seat messages built only from
``player_view``/``redact_event``. Each bot seat has one bot object for the whole game
(``SeatBot``), which hears every step as its seat heard it and chooses on a worker (thread or
process) from its seat's view, as in the tournament's referee loop (``tournament.play_game``);
it submits through the same path as people.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import multiprocessing
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import orjson

from .. import apply, new_game, player_view, redact_event, result, to_act
from ..ai import BOTS, DEFAULT_LEVEL, LEVELS, Bot, Budget, SearchLevel, make_bot
from ..engine import (
    Event,
    GameOver,
    IllegalAction,
    InvalidAction,
    TilesDrawn,
    TilesSwapped,
    TreasureChoice,
    TurnStarted,
    make_record,
    to_action,
)
from ..stats import game_stats
from ..store import ChatLine, GameRow, StepTaken, Store, UnknownGame
from ..store import clocks as clock_store
from .chat import CHAT_BURST, CHAT_PER_SECOND, chat_frame, read_chat
from .clocks import Clock, Pace, advance, handed, pace_from_dict, returned, start, timed_out
from .cluster import SCAN_SECONDS, Cluster
from .errors import GameError
from .limits import BotWork, BotWorkFull, ClientRates, Limits, TokenBucket
from .mail import Mailer
from .timekeeper import Timekeeper

log = logging.getLogger("tigris_euphrates.server")

T = TypeVar("T")

UNDO = "undo"
#: Bot levels cheap enough to run on a thread next to the event loop: those without a search.
FAST_LEVELS = {name for name, level in LEVELS.items() if not isinstance(level, SearchLevel)}
#: Event types after which an action can no longer be taken back (something was revealed
#: or the turn moved on).
_REVEALING = (TilesDrawn, TilesSwapped, TurnStarted, GameOver, TreasureChoice)
#: How often a seat change is tried when other processes keep writing the same step.
SEAT_CHANGE_TRIES = 5
#: The server's seeds: 128 bits from ``secrets``, beyond any search for the seed that a
#: player's own draws single out.
SEED_BITS = 128


def bot_levels() -> list[str]:
    """The bot levels a seat may be given, weakest first."""
    return list(BOTS)


def default_level() -> str:
    """The level a bot seat gets when none is named."""
    return DEFAULT_LEVEL


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``game_seed``, fixed for the whole
    game: ``game_seed * 10 + seat + 1``, as the tournament seeds a game's bots
    (``tournament.deal``), so a server game and a tournament game with the same seed and
    levels seat the same bots."""
    return game_seed * 10 + seat + 1


def bot_budget(bot: Bot, players: int, seconds: float | None, iterations: int | None) -> Budget:
    """What ``bot`` may think per decision: its level's own budget for ``players``
    (``Bot.default_budget``; only the search levels have one), ``iterations`` (the server's
    ``bot_iterations``), when set, replacing its count, and ``seconds`` (``bot_seconds``)
    capping its time. ``seconds=None`` removes every time cap, the level's too: a decision
    is then a fixed amount of work, the same on any machine (tests, reproducible runs)."""
    own = bot.default_budget(players)
    count = iterations if iterations is not None else own.iterations
    if seconds is None:
        return Budget(seconds=None, iterations=count)
    cap = seconds if own.seconds is None else min(own.seconds, seconds)
    return Budget(seconds=cap, iterations=count)


def frame_text(frame: dict[str, Any]) -> str:
    """A websocket frame as compact JSON text. orjson writes a view in about a tenth of the
    time of the standard library's encoder, whose share of a move's server time came next
    after the database's; what orjson refuses (an integer over 64 bits, a lone surrogate)
    goes through ``json`` as before."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Conn:
    """One websocket: its seat (``None``: spectator) and its outbox.

    The outbox holds the error and pong frames not yet sent and a flag, *a view is due*.
    When half of ``Limits.pending_frames`` wait, the server reads nothing more from the
    client until it reads them, and closes it after ``Limits.unread_seconds``. The view
    itself is built when the connection can take it, so however many steps, syncs or seat
    changes pile up for a slow reader, it gets only the latest one.
    """

    def __init__(self, seat: int | None, limits: Limits) -> None:
        self.seat = seat
        self.frames: deque[dict[str, Any]] = deque()
        self.view_due = False
        self.full_log = False
        self.last_log = 0  # how many log entries this connection has been sent
        self.wake = asyncio.Event()
        self.drained = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.max_frames = limits.pending_frames
        self.rate = TokenBucket(limits.messages_per_second, limits.message_burst)
        #: this connection among all processes' (the cluster's presence messages)
        self.cid = secrets.token_hex(4)
        #: whether its claim of the seat came back in the cluster's common order
        self.announced = False
        self.limited_at = -1.0  # when the last rate-limited error frame was queued
        self.chat_rate = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame that is not a view (an error, a pong)."""
        if self.closing is not None:
            return
        if len(self.frames) >= self.max_frames:
            self.close(1008, "too many unread replies: this connection does not read them")
            return
        self.frames.append(frame)
        self.wake.set()

    def due(self, *, full_log: bool = False) -> None:
        """A fresh view is due (with the whole log when ``full_log``)."""
        self.view_due = True
        self.full_log = self.full_log or full_log
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (``code`` 1001: server leaving; 1008:
        abuse; 4xxx: the game's reasons)."""
        if self.closing is None:
            self.closing = (code, reason)
            self.wake.set()


@dataclass
class SeatBot:
    """The bot playing one seat of a game, kept across its decisions.

    ``heard`` is how many steps of the game's log it has observed (the last of them step
    ``heard_seq``); it hears the rest just before its next decision.
    """

    level: str
    bot: Bot
    heard: int = 0
    heard_seq: int = 0


@dataclass
class Entry:
    seq: int
    seat: int | None
    action: str
    events: list[Event]


def public_action(entry: Entry, seat: int | None) -> str:
    """The action as ``seat`` may read it: others' swaps show only how many tiles."""
    if entry.action.startswith("swap ") and entry.seat != seat:
        n = sum(int(part.split("=")[1]) for part in entry.action[5:].split(","))
        return f"swap {n} tile{'s' if n != 1 else ''}"
    return entry.action


def too_many_bot_games(limits: Limits) -> GameError:
    """The refusal of one more bot game of a client (created, or made by a seat change)."""
    return GameError(
        "too-many-bot-games",
        f"at most {limits.bot_games_per_client} unfinished games with bots from one address "
        "(games created with bots, or whose seats were handed to bots): bots share the "
        "server's workers with everybody's games",
    )


def seat_change(seat: int, kind: str, level: str | None = None, timeout: bool = False) -> str:
    """The log entry of a seat change: ``seat 1 bot hard`` (seat 1 handed to a ``hard``
    bot), ``seat 1 bot easy timeout`` (the same because seat 1's time ran out) or ``seat 1
    human`` (seat 1 taken back by its player)."""
    if kind != "bot":
        return f"seat {seat} human"
    return f"seat {seat} bot {level}" + (" timeout" if timeout else "")


def parse_seat_change(text: str) -> tuple[int, str, str | None, bool] | None:
    """``(seat, kind, level, timeout)`` of a seat change entry; ``None`` for any other
    entry."""
    words = text.split()
    if len(words) < 3 or words[0] != "seat":
        return None
    if words[2] == "bot" and len(words) == 4:
        return int(words[1]), "bot", words[3], False
    if words[2] == "bot" and len(words) == 5 and words[4] == "timeout":
        return int(words[1]), "bot", words[3], True
    if words[2] == "human" and len(words) == 3:
        return int(words[1]), "human", None, False
    raise ValueError(f"not a seat change: {text!r}")


class LiveGame:
    """One game as this process knows it: the replay of its log (actions, undos and seat
    changes), its connections and its bots."""

    def __init__(
        self,
        row: GameRow,
        pace: Pace | None = None,
        times: dict[int, float] | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.id = row.id
        self.options = row.options
        self.seed = row.seed
        self.seed_source = row.seed_source
        self.client = row.client
        self.seats = [dict(s) for s in row.seats]
        self.creator = row.creator
        self.created = row.created
        self.listed = row.listed
        #: the table's settings: who may chat (``chat``), the rematch's id (``rematch``)
        self.settings = dict(row.settings)
        #: the last lines of the table chat (``chat.HISTORY`` at most)
        self.chat: list[ChatLine] = []
        #: the number of the last chat line stored (lines are numbered from 1)
        self.chat_n = 0
        #: the result changes the players' ratings: only accounts take its seats
        self.rated = row.rated
        #: when each human seat's player was last seen (left, or the game was loaded)
        self.away_since: dict[int, float] = {i: time.time() for i in range(len(self.seats))}
        self.lock = asyncio.Lock()
        self.conns: dict[int, Conn] = {}
        self.version = 0
        self._built_for: tuple[int, int] | None = None
        self._texts: dict[tuple[int | None, int], str] = {}
        self._views: dict[int | None, dict[str, Any]] = {}
        self._seats_now: list[dict[str, Any]] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.bots: dict[int, SeatBot] = {}
        #: connections of other processes, by seat: connection id -> process
        self.remote: dict[int, dict[str, str]] = {}
        #: a notification came while this process was reading the log: read again
        self.behind = False
        #: entries announced by other processes, not applied yet: seq -> (seat, action)
        self.pending: dict[int, tuple[int | None, str]] = {}
        #: the last entry announced (a gap below it is read from the log)
        self.announced = 0
        self.seq = 0
        self.entries: list[Entry] = []
        self.state = new_game(self.options, self.seed)
        #: the time as the hub reads it (injectable: tests pass their own)
        self.now = now
        #: the game's clock (``None``: an untimed game), replayed from the steps' times
        self.pace = pace
        self.clock: Clock | None = None
        #: the step after which the person to act now started their move
        self.turn_seq = 0
        #: the seats whose time ran out: ``{"seat", "level", "seq", "back"}`` (``back``: the
        #: step at which the player took the seat back, ``None`` while the bot holds it)
        self.timeouts: list[dict[str, Any]] = []
        times = times or {}
        if pace is not None:
            actor = self.actor()
            person = actor is not None and self.seats[actor]["kind"] == "human"
            self.clock = start(pace, len(self.seats), actor, person, row.created)
        for seq, seat, action in row.actions:
            self._apply_row(seq, seat, action, times.get(seq))

    # --- state ----------------------------------------------------------------------------

    def apply_row(self, seq: int, seat: int | None, action: str, at: float | None = None) -> None:
        """Apply log entry ``seq`` (the next one): an action, an undo or a seat change,
        stored at ``at`` (default: now)."""
        self._apply_row(seq, seat, action, at)

    def _apply_row(self, seq: int, seat: int | None, action: str, at: float | None = None) -> None:
        change = parse_seat_change(action)
        self.seq = seq
        if change is not None:
            self.change_seat(*change, at=at)
            return
        if action == UNDO:
            self.entries.pop()
            self._rebuild()
        else:
            self.state, events = apply(self.state, action)
            self.entries.append(Entry(seq, seat, action, events))
        self.tick(at)

    def tick(self, at: float | None = None) -> None:
        """The clock after a step stored at ``at`` (default: now): the time goes to whoever
        is to act now."""
        if self.clock is None:
            return
        actor = self.actor()
        person = actor is not None and self.seats[actor]["kind"] == "human"
        before = self.clock
        self.clock = advance(self.clock, actor, person, self.now() if at is None else at)
        if self.clock.running and (before.actor != actor or not before.running):
            self.turn_seq = self.seq  # a person's move starts here

    def change_seat(
        self,
        seat: int,
        kind: str,
        level: str | None,
        timeout: bool = False,
        at: float | None = None,
    ) -> None:
        """Apply a seat change: a bot plays the seat (its player's token still opens it, to
        watch or to take it back; ``timeout``: because the player's time ran out), or its
        player takes it back."""
        now = dict(self.seats[seat])
        when = self.now() if at is None else at
        if kind == "bot":
            now["kind"], now["level"] = "bot", level
            if timeout:
                self.timeouts.append({"seat": seat, "level": level, "seq": self.seq, "back": None})
        else:
            now["kind"] = "human"
            now.pop("level", None)
            for note in self.timeouts:
                if note["seat"] == seat and note["back"] is None:
                    note["back"] = self.seq
        self.seats[seat] = now
        if self.clock is not None:
            if kind == "bot":
                change = timed_out if timeout else handed
                self.clock = change(self.clock, seat, when)
            else:
                self.clock = returned(self.clock, seat, when)

    def _rebuild(self) -> None:
        state = new_game(self.options, self.seed)
        for entry in self.entries:
            state, _ = apply(state, entry.action)
        self.state = state

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    def actor(self) -> int | None:
        return None if self.state.over else to_act(self.state)

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or self.over or not self.entries:
            return False
        last = self.entries[-1]
        if last.seat != seat or self.seats[seat]["kind"] != "human":
            return False
        if any(isinstance(e, _REVEALING) for e in last.events):
            return False
        return self.actor() == seat

    def record(self) -> dict[str, Any]:
        """The game's record (``tne-record/1``) with ``seed_source``: ``"server"`` (a
        secret seed) or ``"client"`` (chosen by whoever created the game). Published only
        when the game is over: the seed decides every hand and the bag."""
        record = make_record(
            self.options,
            [e.action for e in self.entries],
            seed=self.seed,
            final=self.state,
        )
        record["seed_source"] = self.seed_source
        return record

    # --- bots -----------------------------------------------------------------------------

    def seat_bot(self, seat: int) -> SeatBot:
        """The bot of ``seat`` (a bot seat), kept from its last decision. A new one, seeded
        ``bot_seed(game seed, seat)``, when the seat has none yet (a new game, a server
        restart, a seat handed to a bot), when its level changed, or when steps it heard
        are no longer in the log (taken back, or the game reloaded with another history);
        it then hears the whole log so far before it decides."""
        level = str(self.seats[seat]["level"])
        kept = self.bots.get(seat)
        if kept is None or kept.level != level or not self._heard_is_log(kept):
            kept = SeatBot(level, make_bot(level, bot_seed(self.seed, seat)))
            self.bots[seat] = kept
        return kept

    def _heard_is_log(self, kept: SeatBot) -> bool:
        """Whether the steps ``kept`` heard are the first steps of the log (steps only ever
        leave the log from its end, and a step's ``seq`` is never reused)."""
        if kept.heard == 0:
            return True
        return (
            kept.heard <= len(self.entries) and self.entries[kept.heard - 1].seq == kept.heard_seq
        )

    def unheard(self, seat: int, kept: SeatBot) -> list[list[dict[str, Any]]]:
        """The events of each step ``kept`` has not heard yet, as ``seat`` heard them."""
        return [[redact_event(ev, seat) for ev in e.events] for e in self.entries[kept.heard :]]

    # --- what a seat may see --------------------------------------------------------------

    def online(self) -> set[int]:
        """The seats with a live connection, in this process or another (spectators come
        and go unseen)."""
        here = {c.seat for c in self.conns.values() if c.seat is not None and c.closing is None}
        return here | {seat for seat, conns in self.remote.items() if conns}

    def public_seats(self) -> list[dict[str, Any]]:
        """Each seat as everybody may see it: kind, bot level, name, whether someone plays
        it now (``online``), whether a bot holds it for its player (``away``) and since when
        its player has been offline (``offline_since``, seconds since the epoch)."""
        online = self.online()
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "level": s.get("level") if s["kind"] == "bot" else None,
                "name": s.get("name")
                or (f"Bot ({s.get('level')})" if s["kind"] == "bot" else f"Player {i + 1}"),
                "online": s["kind"] == "bot" or i in online,
                "away": s["kind"] == "bot" and bool(s.get("token")),
                "offline_since": None
                if i in online or not s.get("token")
                else round(self.away_since[i], 1),
            }
            for i, s in enumerate(self.seats)
        ]

    def log_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        return [
            {
                "seq": e.seq,
                "seat": e.seat,
                "action": public_action(e, seat),
                "events": [redact_event(ev, seat) for ev in e.events],
            }
            for e in self.entries[start:]
        ]

    def view_text(self, conn: Conn) -> str:
        """The view frame due to ``conn``, as JSON text, and the connection marked as sent.

        Each distinct frame — a seat's view with the log from a given entry — is built once
        per version of the game (``touch``) and shared: the spectators that saw the last
        step all get the same text, whatever their number.
        """
        start = 0 if conn.full_log or conn.last_log > len(self.entries) else conn.last_log
        conn.full_log = conn.view_due = False
        conn.last_log = len(self.entries)
        version = (self.version, self.seq)
        if self._built_for != version:
            self._built_for = version
            self._texts.clear()
            self._views.clear()
            self._seats_now = None
        key = (conn.seat, start)
        text = self._texts.get(key)
        if text is None:
            text = frame_text(self.message(conn.seat, start))
            self._texts[key] = text
        if self.clock is not None:
            # the server's time when the frame leaves, from which the page counts the
            # clocks down (a shared frame may be sent long after it was built)
            return f'{text[:-1]},"now":{self.now():.3f}}}'
        return text

    def message(self, seat: int | None, start: int = 0) -> dict[str, Any]:
        """The view frame of ``seat`` with the log from entry ``start`` on."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = player_view(self.state, seat)
        if self._seats_now is None:
            self._seats_now = self.public_seats()
        return {
            "type": "view",
            "game": self.id,
            "seq": self.seq,
            "seat": seat,
            "view": view,
            "seats": self._seats_now,
            "can_undo": self.can_undo(seat),
            "chat": self.settings.get("chat", "players"),
            "rematch": self.settings.get("rematch"),
            "clock": None if self.clock is None else self.clock.public(),
            "timeouts": self.timeouts,
            "log_reset": start == 0,
            "log": self.log_for(seat, start),
            "stats": self.stats() if self.over else None,
        }

    def stats(self) -> dict[str, Any]:
        """The game's statistics (``stats.game_stats``); published once the game is over,
        when every score is public."""
        return game_stats(len(self.seats), [e.events for e in self.entries])

    def touch(self) -> None:
        """Something a view shows changed: the frames built so far are stale."""
        self.version += 1

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "options": self.options,
            "seats": self.public_seats(),
            "status": "over" if self.over else "active",
            "seq": self.seq,
            "to_act": self.actor(),
            "result": result(self.state) if self.over else None,
            "listed": self.listed,
            "rated": self.rated,
            "clock": None if self.clock is None else self.clock.public(),
            "timeouts": self.timeouts,
        }


def _decide(
    bot: Bot, unheard: list[list[dict[str, Any]]], view: dict[str, Any], budget: Budget
) -> tuple[str, Bot]:
    """Run in a worker: ``bot`` hears the steps it has not heard yet (one ``observe`` a
    step, as the referee loop ``tournament.play_game`` makes it), then chooses from ``view``.
    Returns the choice and the bot: in a worker process a copy that replaces the hub's,
    carrying its random state and the search tree it keeps for its next decision."""
    for events in unheard:
        bot.observe(events)
    return bot.choose(view, budget), bot


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
    ) -> None:
        self.store = store
        #: the time (seconds since the epoch) for the games' clocks: injectable for tests
        self.clock = clock
        #: enforces the clocks of the games this process owns and sends the turn e-mails
        self.timekeeper = Timekeeper(self, mailer)
        self.limits = limits or Limits()
        self.client_seeds = client_seeds
        self.game_rates = ClientRates(
            self.limits.games_per_minute, max(1, int(self.limits.games_per_minute))
        )
        #: open websockets per client (an address hash)
        self.client_conns: Counter[str] = Counter()
        self.search_work = BotWork(bot_processes, self.limits.bot_queue)
        self.quick_work = BotWork(2, self.limits.bot_queue)
        self.bot_seconds = bot_seconds
        self.bot_iterations = bot_iterations
        self.bot_delay = bot_delay
        self.bot_processes = bot_processes
        self.games: dict[str, LiveGame] = {}
        self._db = concurrent.futures.ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="tne-db"
        )
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=2, thread_name_prefix="tne-bot"
        )
        self._procs: concurrent.futures.ProcessPoolExecutor | None = None
        self._loading: dict[str, asyncio.Task[LiveGame]] = {}
        self.closing = False
        #: the other processes on the same PostgreSQL database (``None``: SQLite, alone)
        self.cluster: Cluster | None = None
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._scanner: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game and let its bots resume. On PostgreSQL, join the other
        processes: only the games whose lock this process gets are loaded now, and a scan
        every few seconds takes the games whose process died."""
        if not self.store.is_sqlite:
            self.cluster = Cluster(
                self.store.url,
                self.store.channel,
                self.store.prefix,
                self._heard,
                self._resync,
                self._locks_lost,
            )
            await self.cluster.start()
            await self._scan_once()
            self._scanner = asyncio.create_task(self._scan())
            return
        for gid in await self.db(self.store.game_ids, "active"):
            try:
                game = await self.get(gid)
            except Exception:  # a broken record must not stop the server
                log.exception("cannot load game %s", gid)
                continue
            self.kick(game)

    def owns(self, game: LiveGame) -> bool:
        """Whether this process runs the game's bots: alone on SQLite, else while it holds
        the game's advisory lock."""
        return self.cluster is None or game.id in self.cluster.held

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        self.closing = True
        self.timekeeper.disarm_all()
        for task in [self._scanner, *self._catching.values(), *self._background]:
            if task is not None:
                task.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        for game in list(self.games.values()):
            if game.bot_task is not None:
                game.bot_task.cancel()
            for conn in game.conns.values():
                conn.close(1001, "the server is shutting down")
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None]
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)

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
            row = await self.db(self.store.load, game_id)
        except UnknownGame:
            raise GameError("no-game", f"there is no game {game_id!r}") from None
        game = self.games.get(game_id)
        if game is not None:  # created here meanwhile
            return game
        pace_data = await self.db(clock_store.load_pace, self.store, game_id)
        pace = times = None
        if pace_data is not None:
            pace = pace_from_dict(pace_data)
            times = await self.db(clock_store.step_times, self.store, game_id)
        lines = await self.db(self.store.chat_lines, game_id)
        game = self.games.get(game_id)
        if game is not None:  # created here meanwhile
            return game
        # no await from here on: one LiveGame per game in this process, the one registered
        game = LiveGame(row, pace, times, self.clock)
        game.chat, game.chat_n = lines, lines[-1].n if lines else 0
        self.games[game_id] = game
        if game.over and row.status != "over":
            await self.db(self.store.finish, game_id, result(game.state))
        if self.cluster is not None:
            # entries committed while it loaded, and who is connected elsewhere
            self.catch_up_soon(game)
            self.cluster.publish(f"q|{self.cluster.proc}|{game.id}")
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
        """A new game created by ``client`` (a hash of its address; ``""`` for the server's
        own callers, which no per-client limit counts); returns it, each human seat's secret
        token (bots: None) and the creator's secret token (it may hand an absent player's
        seat to a bot). ``listed``: the public lobby shows it; ``settings``: the table's
        settings (who may chat). ``same_people`` (a rematch): each human seat keeps that
        game's token and the creator keeps theirs, so the links people hold open the new
        game too (no new token is returned for them). A ``rated`` game is played between
        accounts only: no bot seat, and the server's secret seed; ``pace`` its clocks."""
        people = sum(1 for seat in seats if seat.get("kind", "human") == "human")
        if rated and (people != len(seats) or people < 2):
            raise GameError(
                "rated-seats", "a rated game is played between accounts only: no bot seats"
            )
        if rated and seed is not None:
            raise GameError("seed-not-allowed", "a rated game gets a secret seed from the server")
        if seed is not None and people > 1 and not self.client_seeds:
            raise GameError(
                "seed-not-allowed",
                "a game with more than one person gets a secret seed from the server: whoever "
                "chooses the seed knows every hand and the bag",
            )
        seed_source = "server" if seed is None else "client"
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        new_game(options, seed)  # validates the options (raises InvalidAction)
        if len(seats) != options.get("players", 2):
            raise GameError("bad-seats", "give exactly one seat per player")
        tokens: list[str | None] = []
        stored = []
        levels = bot_levels()
        for i, seat in enumerate(seats):
            kind = seat.get("kind", "human")
            name = str(seat.get("name") or "")[:40]
            if kind == "bot":
                level = seat.get("level") or default_level()
                if level not in levels:
                    raise GameError(
                        "bad-level", f"unknown bot level {level!r}: {', '.join(levels)}"
                    )
                stored.append({"kind": "bot", "level": level, "name": name})
                tokens.append(None)
            elif kind == "human" and same_people is not None:
                kept = same_people.seats[i]["token"]
                stored.append({"kind": "human", "name": name or f"Player {i + 1}", "token": kept})
                tokens.append(None)
            elif kind == "human":
                token = secrets.token_urlsafe(18)
                stored.append(
                    {"kind": "human", "name": name or f"Player {i + 1}", "token": hash_token(token)}
                )
                tokens.append(token)
            else:
                raise GameError("bad-seats", f"a seat is 'human' or 'bot', not {kind!r}")
        if pace is not None and pace.level not in levels:
            raise GameError("bad-level", f"unknown bot level {pace.level!r}: {', '.join(levels)}")
        if client:
            await self._check_client(client, any(seat["kind"] == "bot" for seat in stored))
        game_id = secrets.token_hex(6)
        creator: str | None = secrets.token_urlsafe(18)
        creator_hash = hash_token(creator) if creator else None
        if same_people is not None:
            creator, creator_hash = None, same_people.creator
        row = GameRow(
            game_id,
            options,
            seed,
            stored,
            "active",
            self.clock(),
            creator=creator_hash,
            seed_source=seed_source,
            client=client,
            listed=listed,
            settings=dict(settings or {}),
            rated=rated,
        )
        if pace is not None:  # before the game: no process ever loads it without its pace
            await self.db(clock_store.save_pace, self.store, game_id, pace.to_dict())
        await self.db(
            self.store.create_game,
            game_id,
            options,
            seed,
            stored,
            row.creator,
            seed_source,
            client or None,
            listed,
            row.settings,
            rated,
            row.created,
        )
        game = LiveGame(row, pace, {}, self.clock)
        self.games[game_id] = game
        if self.cluster is not None:
            await self.cluster.try_locks([game_id])  # the creating process runs its bots
        self.kick(game)
        return game, tokens, creator

    async def _check_client(self, client: str, bots: bool) -> None:
        """Refuse a new game beyond the client's limits: games a minute, unfinished games
        (changed in the last hour) and unfinished games with bots."""
        limits = self.limits
        if not self.game_rates.take(client):
            raise GameError(
                "rate-limited",
                f"at most {limits.games_per_minute:g} new games a minute from one address",
                retry_after=60 / max(limits.games_per_minute, 1e-9),
            )
        games, bot_games = await self.db(self.store.recent_games_of, client, time.time() - 3600)
        if games >= limits.games_per_client:
            raise GameError(
                "too-many-games",
                f"at most {limits.games_per_client} unfinished games from one address: "
                "finish or leave some first",
            )
        if bots and bot_games >= limits.bot_games_per_client:
            raise too_many_bot_games(limits)

    async def _check_bot_games(self, game: LiveGame) -> None:
        """Refuse to make ``game`` a bot game (its first bot seat) when the client that
        created it runs its limit of unfinished games with bots already: handing the seats
        of human games to bots counts like creating bot games."""
        if not game.client or any(seat["kind"] == "bot" for seat in game.seats):
            return
        _, bot_games = await self.db(self.store.recent_games_of, game.client, time.time() - 3600)
        if bot_games >= self.limits.bot_games_per_client:
            raise too_many_bot_games(self.limits)

    @staticmethod
    def is_creator(game: LiveGame, token: str | None) -> bool:
        return bool(
            token and game.creator and secrets.compare_digest(game.creator, hash_token(token))
        )

    def seat_for(self, game: LiveGame, token: str | None) -> int | None:
        """The seat a token opens (``None``: spectator); raises on a wrong token."""
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(game.seats):
            if seat.get("token") and secrets.compare_digest(seat["token"], digest):
                return i
        raise GameError("bad-token", "this link's token does not open any seat of this game")

    # --- connections ----------------------------------------------------------------------

    def adopt(self, game: LiveGame) -> LiveGame:
        """The copy of ``game`` this process holds, to attach a connection to after an
        await: a finished game nobody watched may have left memory meanwhile (``_evict``);
        it is registered again (and its table read again: announcements to a game not held
        are not heard), or a copy loaded since is used instead."""
        held = self.games.get(game.id)
        if held is not None:
            return held
        self.games[game.id] = game
        if self.cluster is not None:
            self.catch_up_soon(game)
            self._spawn(self._reread_table(game))
        return game

    def attach(self, game: LiveGame, seat: int | None) -> tuple[int, Conn]:
        conn = Conn(seat, self.limits)
        key = id(conn)
        online = game.online()
        if seat is not None:
            self._take_over(game, seat)
        game.conns[key] = conn
        if game.online() != online:
            self.broadcast(game, exclude=key)  # the others see the seat come online
        conn.due(full_log=True)
        if game.chat:
            conn.send(chat_frame(game.chat, reset=True))  # the chat so far (none: no frame)
        if self.cluster is not None and seat is not None:
            self.cluster.publish(f"c|{self.cluster.proc}|{game.id}|{seat}|{conn.cid}")
        return key, conn

    @staticmethod
    def _take_over(game: LiveGame, seat: int, *, announced_only: bool = False) -> None:
        """One live connection a seat: the older ones are told why and closed (4409).
        ``announced_only``: a newer connection opened in another process, which makes
        older only the connections whose claim came before its claim."""
        for old in game.conns.values():
            if old.seat == seat and old.closing is None and (old.announced or not announced_only):
                old.send(
                    {
                        "type": "error",
                        "code": "taken-over",
                        "message": "this seat was opened in another window or device, "
                        "which plays it now: this connection is closed",
                        "seq": game.seq,
                    }
                )
                old.close(4409, "taken-over")

    def detach(self, game: LiveGame, key: int) -> None:
        online = game.online()
        conn = game.conns.pop(key, None)
        gone = conn is not None
        if conn is not None and conn.seat is not None and conn.seat not in game.online():
            game.away_since[conn.seat] = time.time()
        if gone and not self.closing and game.online() != online:
            self.broadcast(game)
        if conn is not None and conn.seat is not None and self.cluster is not None:
            proc = self.cluster.proc
            self.cluster.publish(f"g|{proc}|{game.id}|{conn.seat}|{conn.cid}")
        self._evict(game)

    def _evict(self, game: LiveGame) -> None:
        """Finished games nobody watches leave memory (they reload from the store)."""
        if game.over and not game.conns and self.games.get(game.id) is game:
            del self.games[game.id]
            if self.cluster is not None and game.id in self.cluster.held:
                self._spawn(self.cluster.unlock(game.id))

    def broadcast(self, game: LiveGame, exclude: int | None = None) -> None:
        """A fresh view is due to every connection (but ``exclude``): the players' first.
        Their writers then run first, so that a move's acknowledgement and the opponent's
        view do not wait behind the frames of the game's spectators, whenever they joined."""
        self.timekeeper.arm(game)
        game.touch()
        for key, conn in game.conns.items():
            if key != exclude and conn.seat is not None:
                conn.due()
        for key, conn in game.conns.items():
            if key != exclude and conn.seat is None:
                conn.due()

    def send_error(
        self, game: LiveGame, conn: Conn, err: GameError, *, with_view: bool = True
    ) -> None:
        """An error frame to ``conn`` only, then (``with_view``) a fresh view."""
        conn.send({"type": "error", "code": err.code, "message": err.message, "seq": game.seq})
        if with_view:
            conn.due(full_log=True)

    # --- the one path that changes a game -------------------------------------------------

    async def submit(
        self, game: LiveGame, seat: int | None, seq: Any, action: Any, *, bot: bool = False
    ) -> None:
        """Play ``action`` for ``seat`` against step ``seq`` (``bot``: the seat's bot plays
        it); raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot act")
        async with game.lock:
            self._check_turn(game, seat, seq)
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
            at = await self._store_step(game, seat, notation)
            game.seq += 1
            game.state = state
            game.entries.append(Entry(game.seq, seat, notation, events))
            game.tick(at)
            if game.over:
                game.bots.clear()
                await self.db(self.store.finish, game.id, result(state))
            self.broadcast(game)
        self.kick(game)
        self._evict(game)

    async def undo(self, game: LiveGame, seat: int | None, seq: Any) -> None:
        if seat is None:
            raise GameError("spectator", "spectators cannot act")
        async with game.lock:
            if not isinstance(seq, int) or seq != game.seq:
                raise GameError("stale", self._stale_message(seq, game.seq))
            if not game.can_undo(seat):
                raise GameError(
                    "no-undo",
                    "only your own last action can be taken back, and only while it revealed "
                    "nothing (no tile drawn, no other player asked)",
                )
            at = await self._store_step(game, seat, UNDO)
            game.seq += 1
            game.entries.pop()
            game._rebuild()
            game.tick(at)
            for conn in game.conns.values():
                conn.last_log = 0  # the log shrank: send it whole
            self.broadcast(game)

    async def hand_to_bot(
        self,
        game: LiveGame,
        token: str | None,
        target: int,
        level: str | None,
        holder: int | None = None,
    ) -> None:
        """Give the human seat ``target`` to a bot of ``level``. Allowed to the seat's own
        player (its token, or ``holder``: the seat the caller's account holds), and to the
        game's creator (the creator's token) once the seat's player has been away
        ``Limits.seat_absence_seconds``; the player's token keeps opening the seat, and
        ``take_back`` returns it. The game's first bot seat makes it a bot game of the client
        that created it, refused beyond ``Limits.bot_games_per_client`` (a clock's timeout,
        ``time_out``, is never refused, but counts)."""
        if not 0 <= target < len(game.seats):
            raise GameError("bad-seat", f"there is no seat {target}")
        level = level or default_level()
        if level not in bot_levels():
            raise GameError("bad-level", f"unknown bot level {level!r}: {', '.join(bot_levels())}")
        by = holder if holder is not None else self._seat_or_none(game, token)
        creator = by != target and self.is_creator(game, token)
        if by != target and not creator:
            raise GameError(
                "not-your-seat",
                f"only seat {target}'s player, or the game's creator after "
                f"{self.limits.seat_absence_seconds:g} s of absence, may hand seat {target} "
                "to a bot",
            )
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                if game.over:
                    raise GameError("game-over", "the game is over")
                if game.seats[target]["kind"] == "bot":
                    raise GameError("bad-seat", "that seat is already played by a bot")
                if creator:
                    if target in game.online():
                        raise GameError("seat-online", f"seat {target}'s player is connected")
                    away = time.time() - game.away_since[target]
                    if away < self.limits.seat_absence_seconds:
                        raise GameError(
                            "seat-away-briefly",
                            f"seat {target}'s player has been away {away:.0f} s; the creator "
                            f"may hand the seat to a bot after "
                            f"{self.limits.seat_absence_seconds:g} s",
                        )
                await self._check_bot_games(game)
                if await self._log_seat_change(game, by, target, "bot", level, attempt):
                    break
        self.kick(game)

    async def take_back(
        self, game: LiveGame, token: str | None, target: int, holder: int | None = None
    ) -> None:
        """The player of seat ``target`` (its token, or ``holder``: the seat the caller's
        account holds) takes it back from the bot that held it."""
        if not 0 <= target < len(game.seats):
            raise GameError("bad-seat", f"there is no seat {target}")
        by = holder if holder is not None else self._seat_or_none(game, token)
        if by != target:
            raise GameError("not-your-seat", f"only seat {target}'s player may take it back")
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                if game.over:
                    raise GameError("game-over", "the game is over")
                if game.seats[target]["kind"] != "bot":
                    raise GameError("bad-seat", "a person already plays that seat")
                if await self._log_seat_change(game, target, target, "human", None, attempt):
                    break

    async def time_out(self, game: LiveGame) -> bool:
        """If the clock of the person to act ran out (``self.clock()``), a bot of the pace's
        level takes the seat (``seat N bot LEVEL timeout``); the player may take it back.
        Returns whether it did. Called by the process that enforces the game's clock."""
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                clock = game.clock
                if game.over or clock is None or clock.actor is None:
                    return False
                seat = clock.actor
                if game.seats[seat]["kind"] != "human" or not clock.expired(self.clock()):
                    return False
                level = clock.pace.level
                if await self._log_seat_change(game, None, seat, "bot", level, attempt, True):
                    log.info(
                        "game %s: seat %d ran out of time, a %s bot plays it", game.id, seat, level
                    )
                    break
        self.kick(game)
        return True

    def _seat_or_none(self, game: LiveGame, token: str | None) -> int | None:
        try:
            return self.seat_for(game, token)
        except GameError:
            return None

    async def _log_seat_change(
        self,
        game: LiveGame,
        by: int | None,
        seat: int,
        kind: str,
        level: str | None,
        attempt: int,
        timeout: bool = False,
    ) -> bool:
        """Store the seat change as the game's next log entry (``by``: the seat whose player
        made it, ``None`` for the creator), then apply it; under the game's lock. Nothing
        changes unless the entry is stored. A seat change does not depend on the position:
        when another process stored that step first, this copy reads the log on and the
        caller checks and tries again (``False``; the last attempt raises ``stale``). The
        game's count of bot seats is stored with the entry."""
        others = sum(1 for i, s in enumerate(game.seats) if i != seat and s["kind"] == "bot")
        bots = others + (kind == "bot")
        try:
            at = await self._store_step(game, by, seat_change(seat, kind, level, timeout), bots)
        except GameError as err:
            if err.code == "stale" and attempt + 1 < SEAT_CHANGE_TRIES:
                return False
            raise
        game.seq += 1
        game.change_seat(seat, kind, level, timeout, at)
        self.broadcast(game)
        return True

    def _check_turn(self, game: LiveGame, seat: int, seq: Any) -> None:
        if game.over:
            raise GameError("game-over", "the game is over")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != game.seq:
            raise GameError("stale", self._stale_message(seq, game.seq))
        actor = game.actor()
        if actor != seat:
            raise GameError("not-your-turn", f"it is not your turn: seat {actor} is to act")

    @staticmethod
    def _stale_message(seq: Any, now: int) -> str:
        return (
            f"your move was made against step {seq!r} but the game is at step {now}: "
            "here is the current position, please choose again"
        )

    async def _store_step(
        self, game: LiveGame, seat: int | None, action: str, bots: int | None = None
    ) -> float:
        """Store the game's next log entry (``bots``: the bot seats after a seat change);
        returns the time it was stored at (the clock's)."""
        origin = self.cluster.proc if self.cluster is not None else ""
        at = self.clock()
        try:
            await self.db(self.store.append, game.id, game.seq + 1, seat, action, origin, at, bots)
            return at
        except StepTaken:
            # Another process stored this step: our copy is behind, read the log on.
            await self._catch_up_locked(game)
            raise GameError("stale", "another move was stored for this step first") from None

    # --- several processes ----------------------------------------------------------------

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
                    await self._catch_up_locked(game, read_log=game.announced <= game.seq)
                self.kick(game)
                self._evict(game)
                if not game.behind:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot read the log of game %s", game.id)
        finally:
            if self._catching.get(game.id) is asyncio.current_task():
                del self._catching[game.id]

    async def _catch_up_locked(self, game: LiveGame, *, read_log: bool = True) -> None:
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
            rows += await self.db(self.store.rows_after, game.id, after)
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
            await self.db(self.store.finish, game.id, result(game.state))
        self.broadcast(game)

    def _heard(self, payload: str) -> None:
        """A notification of another process (see ``cluster``)."""
        assert self.cluster is not None
        kind, proc, *rest = payload.split("|", 5)
        if kind == "s" and len(rest) == 4 and rest[1].isdigit():
            game = self.games.get(rest[0])
            seq = int(rest[1])
            if game is not None and seq > game.seq:
                # the entry comes with its announcement: no need to read it back
                seat = int(rest[2]) if rest[2].isdigit() else None
                game.pending[seq] = (seat, rest[3])
                game.announced = max(game.announced, seq)
                self.catch_up_soon(game)
        elif kind in ("c", "h", "g") and len(rest) == 3 and rest[1].isdigit():
            game = self.games.get(rest[0])
            if game is not None:
                self._presence(game, kind, proc, int(rest[1]), rest[2])
        elif kind == "m" and len(rest) == 2 and rest[1].isdigit():
            game = self.games.get(rest[0])
            if game is not None and int(rest[1]) > game.chat_n:
                self._spawn(read_chat(self, game))
        elif kind == "r" and len(rest) == 2:
            game = self.games.get(rest[0])
            if game is not None and game.settings.get("rematch") != rest[1]:
                game.settings["rematch"] = rest[1]
                self.broadcast(game)
        elif kind == "q" and len(rest) == 1:
            game = self.games.get(rest[0])
            if game is not None:
                for conn in game.conns.values():
                    if conn.seat is not None and conn.closing is None:
                        msg = f"h|{self.cluster.proc}|{game.id}|{conn.seat}|{conn.cid}"
                        self.cluster.publish(msg)

    def _presence(self, game: LiveGame, kind: str, proc: str, seat: int, cid: str) -> None:
        assert self.cluster is not None
        if not 0 <= seat < len(game.seats):
            return
        if proc == self.cluster.proc:  # our own claim, back in the common order
            for conn in game.conns.values():
                if conn.cid == cid:
                    conn.announced = True
            return
        online = game.online()
        conns = game.remote.setdefault(seat, {})
        if kind == "g":
            conns.pop(cid, None)
        else:
            conns[cid] = proc
            if kind == "c":
                self._take_over(game, seat, announced_only=True)
        if seat not in game.online():
            game.away_since[seat] = time.time()
        if game.online() != online:
            self.broadcast(game)

    async def _resync(self) -> None:
        """Notifications may have been missed: read every game held up to the log's end,
        read its table again (a rematch, the chat) and ask again who is connected."""
        assert self.cluster is not None
        for game in list(self.games.values()):
            self.catch_up_soon(game)
            self._spawn(self._reread_table(game))
            self.cluster.publish(f"q|{self.cluster.proc}|{game.id}")

    async def _reread_table(self, game: LiveGame) -> None:
        """What other processes may have announced while this one was not listening: the
        game's rematch (its settings) and its chat lines."""
        try:
            stored = await self.db(self.store.settings, game.id)
        except UnknownGame:
            return
        rematch = stored.get("rematch")
        if isinstance(rematch, str) and game.settings.get("rematch") != rematch:
            game.settings["rematch"] = rematch
            self.broadcast(game)
        await read_chat(self, game)

    def _locks_lost(self) -> None:
        """The session holding the games' locks ended: stop running their bots and
        enforcing their clocks."""
        self.timekeeper.disarm_all()
        for game in self.games.values():
            if game.bot_task is not None and not game.bot_task.done():
                game.bot_task.cancel()

    async def _scan(self) -> None:
        while not self.closing:
            await asyncio.sleep(SCAN_SECONDS)
            try:
                await self._scan_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the scan of the games failed")

    async def _scan_once(self) -> None:
        """Forget the connections of dead processes; take the lock of every unfinished
        game nobody holds (its process died, or none ever held it) and run its bots; read
        on the games whose log grew without a notification reaching this process."""
        assert self.cluster is not None
        dead = self.cluster.dead()
        if dead:
            for game in self.games.values():
                online = game.online()
                for conns in game.remote.values():
                    for cid in [c for c, p in conns.items() if p in dead]:
                        del conns[cid]
                if game.online() != online:
                    for seat in online - game.online():
                        game.away_since[seat] = time.time()
                    self.broadcast(game)
        active = await self.db(self.store.game_ids, "active")
        for gid in await self.cluster.try_locks(active):
            try:
                game = await self.get(gid)
            except Exception:
                log.exception("cannot load game %s", gid)
                continue
            self.catch_up_soon(game)
        loaded = [g.id for g in self.games.values() if g.conns or self.owns(g)]
        last = await self.db(self.store.last_seqs, loaded)
        for gid, seq in last.items():
            behind = self.games.get(gid)
            if behind is not None and seq > behind.seq:
                self.catch_up_soon(behind)
        for game in list(self.games.values()):
            if self.owns(game):
                self.kick(game)

    # --- bots -----------------------------------------------------------------------------

    def kick(self, game: LiveGame) -> None:
        """Start the game's bot loop if a bot is to act and none is running (and watch its
        clock)."""
        self.timekeeper.arm(game)
        if self.closing or game.over or not self.owns(game):
            return
        actor = game.actor()
        if actor is None or game.seats[actor]["kind"] != "bot":
            return
        if game.bot_task is None or game.bot_task.done():
            game.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(game))

    def _executor(self, level: str) -> concurrent.futures.Executor:
        if level in FAST_LEVELS or self.bot_processes <= 0:
            return self._threads
        if self._procs is None:
            self._procs = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.bot_processes, mp_context=multiprocessing.get_context("spawn")
            )
        return self._procs

    async def _bot_loop(self, game: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while not self.closing and not game.over and self.owns(game):
            actor = game.actor()
            if actor is None or game.seats[actor]["kind"] != "bot":
                return
            kept = game.seat_bot(actor)
            level = kept.level
            seq = game.seq
            view = player_view(game.state, actor)
            unheard = game.unheard(actor, kept)
            heard, heard_seq = len(game.entries), game.entries[-1].seq if game.entries else 0
            budget = bot_budget(kept.bot, len(game.seats), self.bot_seconds, self.bot_iterations)
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            executor = self._executor(level)
            work = self.quick_work if executor is self._threads else self.search_work
            try:
                choice, bot = await work.run(
                    game.client,
                    partial(
                        loop.run_in_executor, executor, _decide, kept.bot, unheard, view, budget
                    ),
                )
            except asyncio.CancelledError:
                raise
            except BotWorkFull:
                log.warning("bot work queue full; game %s waits", game.id)
                await asyncio.sleep(1.0)
                continue
            except concurrent.futures.BrokenExecutor:
                # a worker process died (killed, out of memory): start a new pool, try again
                log.error("bot workers broke in game %s; restarting them", game.id)
                if self._procs is not None:
                    self._procs.shutdown(wait=False, cancel_futures=True)
                    self._procs = None
                failures += 1
                if failures > 3:
                    return
                continue
            except Exception:
                log.exception(
                    "bot %s failed in game %s; playing its first legal action", level, game.id
                )
                self._drop_bot(game, actor, kept)
                choice = view["legal_actions"][0]
            else:
                kept.bot, kept.heard, kept.heard_seq = bot, heard, heard_seq
            try:
                await self.submit(game, actor, seq, choice, bot=True)
                failures = 0
            except GameError as err:
                self._drop_bot(game, actor, kept)  # its choice was not played
                if err.code != "stale":
                    failures += 1
                    log.error("bot move %r refused in game %s: %s", choice, game.id, err.message)
                    if failures > 3:
                        return

    @staticmethod
    def _drop_bot(game: LiveGame, seat: int, kept: SeatBot) -> None:
        """Forget ``kept``, the bot of ``seat``, if it still is: it is rebuilt when next needed."""
        if game.bots.get(seat) is kept:
            del game.bots[seat]
