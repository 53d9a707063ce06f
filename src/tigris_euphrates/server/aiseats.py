"""The bots' scheduling: which game's bot is to act, on which worker it thinks, and how its
choice is played.

Each bot seat has one bot object for the whole game (``SeatBot``), which hears every step as
its seat heard it and chooses on a worker (a thread for the levels without a search, else a
process) from its seat's view, as in the tournament's referee loop (``tournament.play_game``);
its choice is played through the same path as people's moves (``play``). Only the process
that owns a game (``owns``) runs its bots.

A bot that cannot move (its worker processes broke, it raised, its choice was refused) is
tried again ``BOT_TRIES`` times in all; then the seat goes to a simpler level computed in
this process's threads (``fallback_level``: ``greedy``, then ``random``), through a seat
change the log shows the players (``seat N bot greedy fallback``: "the bot in seat N could
not move: a bot (greedy) plays for it from now on"). When not even ``random`` can move, the
seat's first legal action is played. A bot seat never leaves its game waiting in silence.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from .. import player_view, redact_event
from ..ai import BOTS, DEFAULT_LEVEL, LEVELS, Bot, Budget, SearchLevel, make_bot
from ..store.jsontypes import JsonDict
from .errors import GameError
from .events import GameChanged
from .frames import Suggestion
from .limits import BotWork, BotWorkFull, Limits
from .live import LiveGame, SeatBot
from .metrics import Metrics
from .suggest import HINT_LEVEL, suggest
from .workers import process_pool

log = logging.getLogger("tigris_euphrates.server")

#: Bot levels cheap enough to run on a thread next to the event loop: those without a search.
FAST_LEVELS = {name for name, level in LEVELS.items() if not isinstance(level, SearchLevel)}
#: The levels a bot seat whose bot cannot move falls back to, in turn: computed on this
#: process's threads (no worker process), the strongest of those first.
FALLBACK_LEVELS = ("greedy", "random")
#: How many times in a row a bot seat's level is tried before the seat falls back.
BOT_TRIES = 3
#: After this many failures in a row, even of the first legal action, the loop stops (the
#: game's next change starts it again): something other than the bot is broken.
BOT_GIVE_UP = 12


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


def fallback_level(level: str) -> str | None:
    """The level a bot seat of ``level`` falls back to when its bot cannot move: the first
    of ``FALLBACK_LEVELS`` after ``level`` (``greedy`` for any search level); ``None``
    after ``random``, the last."""
    if level not in FALLBACK_LEVELS:
        return FALLBACK_LEVELS[0] if level not in FAST_LEVELS else FALLBACK_LEVELS[-1]
    after = FALLBACK_LEVELS.index(level) + 1
    return FALLBACK_LEVELS[after] if after < len(FALLBACK_LEVELS) else None


def seat_bot(game: LiveGame, seat: int) -> SeatBot:
    """The bot of ``seat`` (a bot seat), kept from its last decision. A new one, seeded
    ``bot_seed(game seed, seat)``, when the seat has none yet (a new game, a server
    restart, a seat handed to a bot), when its level changed, or when steps it heard
    are no longer in the log (taken back, or the game reloaded with another history);
    it then hears the whole log so far before it decides."""
    level = str(game.seats[seat]["level"])
    kept = game.table.bots.get(seat)
    if kept is None or kept.level != level or not _heard_is_log(game, kept):
        kept = SeatBot(level, make_bot(level, bot_seed(game.log.seed, seat)))
        game.table.bots[seat] = kept
    return kept


def _heard_is_log(game: LiveGame, kept: SeatBot) -> bool:
    """Whether the steps ``kept`` heard are the first steps of the log (steps only ever
    leave the log from its end, and a step's ``seq`` is never reused)."""
    if kept.heard == 0:
        return True
    return kept.heard <= len(game.entries) and game.entries[kept.heard - 1].seq == kept.heard_seq


def unheard_steps(game: LiveGame, seat: int, kept: SeatBot) -> list[list[JsonDict]]:
    """The events of each step ``kept`` has not heard yet, as ``seat`` heard them."""
    return [[redact_event(ev, seat) for ev in e.events] for e in game.entries[kept.heard :]]


def _decide(
    bot: Bot, unheard: list[list[JsonDict]], view: JsonDict, budget: Budget
) -> tuple[str, Bot]:
    """Run in a worker: ``bot`` hears the steps it has not heard yet (one ``observe`` a
    step, as the referee loop ``tournament.play_game`` makes it), then chooses from ``view``.
    Returns the choice and the bot: in a worker process a copy that replaces the hub's,
    carrying its random state and the search tree it keeps for its next decision."""
    for events in unheard:
        bot.observe(events)
    return bot.choose(view, budget), bot


def _drop_bot(game: LiveGame, seat: int, kept: SeatBot) -> None:
    """Forget ``kept``, the bot of ``seat``, if it still is: it is rebuilt when next needed."""
    if game.table.bots.get(seat) is kept:
        del game.table.bots[seat]


#: Plays a bot's choice for a seat against a step: ``play(game, seat, seq, action)``.
Play = Callable[[LiveGame, int, int, str], Awaitable[None]]
#: Gives a bot seat whose bot could not move to another level, told in the game's log:
#: ``fall_back(game, seat, failed level, new level)``, whether it did (``Seats.fall_back``).
FallBack = Callable[[LiveGame, int, str, str], Awaitable[bool]]
#: What a worker runs for a decision (``_decide``; replaceable, to test a failing one).
Decide = Callable[[Bot, list[list[JsonDict]], JsonDict, Budget], tuple[str, Bot]]


class BotRunner:
    """Runs the bots of the games this process owns."""

    def __init__(
        self,
        limits: Limits,
        play: Play,
        owns: Callable[[LiveGame], bool],
        *,
        seconds: float | None,
        iterations: int | None,
        delay: float,
        processes: int,
        metrics: Metrics | None = None,
        fall_back: FallBack | None = None,
    ) -> None:
        self.play = play
        self.fall_back = fall_back
        #: the decision a worker runs
        self.decide: Decide = _decide
        self.metrics = metrics or Metrics()
        self.owns = owns
        self.bot_seconds = seconds
        self.bot_iterations = iterations
        self.bot_delay = delay
        self.bot_processes = processes
        self.search_work = BotWork(processes, limits.bot_queue)
        self.quick_work = BotWork(2, limits.bot_queue)
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=2, thread_name_prefix="tne-bot"
        )
        self._procs: concurrent.futures.ProcessPoolExecutor | None = None
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False

    def game_changed(self, event: GameChanged) -> None:
        """A game changed (``events.py``): its bot plays if it is to act."""
        self.kick(event.game)

    def kick(self, game: LiveGame) -> None:
        """Start the game's bot loop if a bot is to act and none is running."""
        if self.closing or game.over or not self.owns(game):
            return
        actor = game.log.actor()
        if actor is None or game.seats[actor]["kind"] != "bot":
            return
        task = self.tasks.get(game.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_loop(game))
            self.tasks[game.id] = task
            task.add_done_callback(partial(self._forget, game.id))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self.tasks.get(game_id) is task:
            del self.tasks[game_id]

    def halt(self) -> None:
        """Stop every bot loop (the games' locks were lost: another process runs them)."""
        for task in self.tasks.values():
            task.cancel()

    async def stop(self) -> None:
        """Stop every bot loop and the workers."""
        self.closing = True
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)

    def _executor(self, level: str) -> concurrent.futures.Executor:
        if level in FAST_LEVELS or self.bot_processes <= 0:
            return self._threads
        if self._procs is None:
            self._procs = process_pool(self.bot_processes)
        return self._procs

    async def _timed(self, level: str, think: Callable[[], Awaitable[Any]]) -> Any:
        """``think()``, its time counted by ``level`` (once a worker runs it: not its wait
        in the queue)."""
        start = time.perf_counter()
        try:
            return await think()
        finally:
            self.metrics.bot_seconds.labels(level).observe(time.perf_counter() - start)

    async def suggest(self, client: str, view: JsonDict, budget: Budget) -> Suggestion:
        """A hint for the seat of ``view`` (``hints.suggest``), thought on the search
        workers in ``client``'s line of their queue, as a bot decision is; raises
        ``BotWorkFull``."""
        loop = asyncio.get_running_loop()
        executor = self._executor(HINT_LEVEL)
        work = self.quick_work if executor is self._threads else self.search_work
        think = partial(loop.run_in_executor, executor, suggest, view, budget)
        result: Suggestion = await work.run(client, partial(self._timed, "hint", think))
        return result

    async def _bot_loop(self, game: LiveGame) -> None:
        failures = 0  # the acting bot's failures in a row
        while not self.closing and not game.over and self.owns(game):
            actor = game.log.actor()
            if actor is None or game.seats[actor]["kind"] != "bot":
                return
            if failures >= BOT_GIVE_UP:
                log.error("the bot of seat %d cannot move in game %s; it stops", actor, game.id)
                return
            kept = seat_bot(game, actor)
            level = kept.level
            seq = game.seq
            view = player_view(game.state, actor)
            if failures >= BOT_TRIES and fallback_level(level) is None:
                # not even the simplest level moves (the log told its fallbacks): the seat's
                # first legal action
                log.error(
                    "bot %s cannot move in game %s; playing its first legal action", level, game.id
                )
                choice = view["legal_actions"][0]
            else:
                chosen = await self._think(game, actor, kept, view)
                if chosen is None:
                    _drop_bot(game, actor, kept)
                    failures = await self._failed(game, actor, level, failures + 1)
                    continue
                choice = chosen
            try:
                # a move on its way is stored even when the loop is stopped meanwhile
                await asyncio.shield(self.play(game, actor, seq, choice))
                failures = 0
            except GameError as err:
                _drop_bot(game, actor, kept)  # its choice was not played
                if err.code != "stale":
                    log.error("bot move %r refused in game %s: %s", choice, game.id, err.message)
                    failures = await self._failed(game, actor, level, failures + 1)

    async def _think(self, game: LiveGame, actor: int, kept: SeatBot, view: JsonDict) -> str | None:
        """The choice of ``kept``, the bot of seat ``actor``, thought on its worker (the
        bot's state kept for its next decision); ``None`` when it could not choose (its
        workers broke: they are started again; it raised). Waits while the work queue is
        full."""
        loop = asyncio.get_running_loop()
        level = kept.level
        unheard = unheard_steps(game, actor, kept)
        heard, heard_seq = len(game.entries), game.entries[-1].seq if game.entries else 0
        budget = bot_budget(kept.bot, len(game.seats), self.bot_seconds, self.bot_iterations)
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        executor = self._executor(level)
        work = self.quick_work if executor is self._threads else self.search_work
        think = partial(
            loop.run_in_executor, executor, self.decide, kept.bot, unheard, view, budget
        )
        while True:
            try:
                choice, bot = await work.run(game.table.client, partial(self._timed, level, think))
            except asyncio.CancelledError:
                raise
            except BotWorkFull:
                self.metrics.limit("bot_queue")
                log.warning("bot work queue full; game %s waits", game.id)
                await asyncio.sleep(1.0)
                continue
            except concurrent.futures.BrokenExecutor:
                # a worker process died (killed, out of memory): a new pool for the next try
                log.error("bot workers broke in game %s; restarting them", game.id)
                if self._procs is not None and executor is self._procs:
                    self._procs.shutdown(wait=False, cancel_futures=True)
                    self._procs = None
                return None
            except Exception:
                log.exception("bot %s failed in game %s", level, game.id)
                return None
            kept.bot, kept.heard, kept.heard_seq = bot, heard, heard_seq
            return str(choice)

    async def _failed(self, game: LiveGame, seat: int, level: str, failures: int) -> int:
        """The bot of ``seat`` (``level``) failed ``failures`` times in a row: after
        ``BOT_TRIES`` the seat falls back to a simpler level, told in the log (then its
        count starts again). Returns the count of failures from now on."""
        simpler = fallback_level(level)
        if failures < BOT_TRIES or simpler is None or self.fall_back is None:
            return failures
        try:
            handed = await self.fall_back(game, seat, level, simpler)
        except GameError as err:
            log.error(
                "cannot give seat %d of game %s to a %s bot: %s",
                seat,
                game.id,
                simpler,
                err.message,
            )
            return failures
        if handed:
            log.warning(
                "game %s: the %s bot of seat %d could not move; a %s bot plays it",
                game.id,
                level,
                seat,
                simpler,
            )
        return 0
