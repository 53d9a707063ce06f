"""Seats and hand-overs: a seat handed to a bot by its player or, after an absence, by the
game's creator; taken back by its player; taken by a bot when its player's time ran out.

A seat change is the game's next log entry (``seat 1 bot hard``, ``seat 1 human``), stored
like a move under the game's lock, so every process replays the same seats. In a rated
game's opening a seat going to a bot, by anyone's hand or its clock's, aborts the game
instead (``leaving.abort_opening``, ``endings.py``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from ..store import Store
from ..store.logentry import HandOver, LogEntry, TakeBack
from .aiseats import bot_levels, default_level
from .dbthread import DatabaseThread
from .errors import GameError
from .leaving import abort_opening
from .limits import Limits
from .live import LiveGame

log = logging.getLogger("tigris_euphrates.server")

#: How often a seat change is tried when other processes keep writing the same step.
SEAT_CHANGE_TRIES = 5


class StepWriter(Protocol):
    """What the seat changes need of the hub: its store, limits and time, and the write of
    a game's next log entry (``Hub.write``)."""

    store: Store
    db: DatabaseThread
    limits: Limits
    clock: Callable[[], float]

    async def write(
        self, game: LiveGame, seat: int | None, entry: LogEntry, *, bots: int | None = None
    ) -> None: ...


def too_many_bot_games(limits: Limits) -> GameError:
    """The refusal of one more bot game of a client (created, or made by a seat change)."""
    return GameError(
        "too-many-bot-games",
        f"at most {limits.bot_games_per_client} unfinished games with bots from one address "
        "(games created with bots, or whose seats were handed to bots): bots share the "
        "server's workers with everybody's games",
        limit="bot_games_per_client",
    )


class Seats:
    """The seat changes of the live games."""

    def __init__(self, hub: StepWriter) -> None:
        self.hub = hub

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
        ``time_out``, is never refused, but counts). In a rated game's opening the game is
        aborted instead."""
        if not 0 <= target < len(game.seats):
            raise GameError("bad-seat", f"there is no seat {target}")
        level = level or default_level()
        if level not in bot_levels():
            raise GameError("bad-level", f"unknown bot level {level!r}: {', '.join(bot_levels())}")
        by = holder if holder is not None else game.table.seat_or_none(token)
        creator = by != target and game.table.is_creator(token)
        if by != target and not creator:
            raise GameError(
                "not-your-seat",
                f"only seat {target}'s player, or the game's creator after "
                f"{self.hub.limits.seat_absence_seconds:g} s of absence, may hand seat {target} "
                "to a bot",
            )
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                game.log.check_ongoing()
                if game.seats[target]["kind"] == "bot":
                    raise GameError("bad-seat", "that seat is already played by a bot")
                if creator:
                    self._check_absence(game, target)
                if game.log.in_opening():
                    last = attempt + 1 == SEAT_CHANGE_TRIES
                    if await abort_opening(self.hub, game, by, target, "bot", last):
                        break
                    continue
                await self._check_bot_games(game)
                if await self._log_seat_change(game, by, target, "bot", level, attempt):
                    break

    def absence_seconds(self, game: LiveGame) -> float:
        """How long a seat's player must be away before the creator may hand the seat to a
        bot: the server's absence time, or a turn-based game's own time for a move (an
        absence of hours is normal there)."""
        wait = self.hub.limits.seat_absence_seconds
        if game.log.clock is not None and game.log.clock.pace.kind == "turn":
            wait = max(wait, game.log.clock.pace.base)
        return wait

    def _check_absence(self, game: LiveGame, target: int) -> None:
        """Raise unless the creator may hand seat ``target`` to a bot now: its player is
        offline long enough, and the game is not rated with a clock (there the clock's own
        timeout rule decides, not an instant loss by the creator's hand)."""
        if game.rated and game.log.clock is not None:
            raise GameError(
                "clock-decides",
                "in a rated game with a clock an absent player's seat goes to a bot only when "
                "their time runs out",
            )
        if target in game.audience.online():
            raise GameError("seat-online", f"seat {target}'s player is connected")
        away = time.time() - game.table.away_since[target]
        wait = self.absence_seconds(game)
        if away < wait:
            raise GameError(
                "seat-away-briefly",
                f"seat {target}'s player has been away {away:.0f} s; the creator may hand the "
                f"seat to a bot after {wait:g} s",
            )

    async def take_back(
        self, game: LiveGame, token: str | None, target: int, holder: int | None = None
    ) -> None:
        """The player of seat ``target`` (its token, or ``holder``: the seat the caller's
        account holds) takes it back from the bot that held it."""
        if not 0 <= target < len(game.seats):
            raise GameError("bad-seat", f"there is no seat {target}")
        by = holder if holder is not None else game.table.seat_or_none(token)
        if by != target:
            raise GameError("not-your-seat", f"only seat {target}'s player may take it back")
        if target in game.log.resigned:
            raise GameError("resigned", "this seat's player resigned: a bot plays it out")
        if await self.hub.db(self.hub.store.moderation.banned_seat, game.id, target):
            raise GameError("banned", "this seat's account is banned: a bot plays it")
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                game.log.check_ongoing()
                if game.seats[target]["kind"] != "bot":
                    raise GameError("bad-seat", "a person already plays that seat")
                if await self._log_seat_change(game, target, target, "human", None, attempt):
                    break

    async def hand_over(self, game: LiveGame, target: int, level: str) -> bool:
        """A bot of ``level`` takes the human seat ``target`` by the server's authority (a
        moderator banned the seat's account): nobody's permission, no limit (in a rated
        game's opening the game is aborted instead). Returns whether it did (``False``: a
        bot plays it already, or the game has ended)."""
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                if game.ended or game.seats[target]["kind"] == "bot":
                    return False
                if game.log.in_opening():
                    last = attempt + 1 == SEAT_CHANGE_TRIES
                    if await abort_opening(self.hub, game, None, target, "bot", last):
                        return True
                    continue
                if await self._log_seat_change(game, None, target, "bot", level, attempt):
                    return True
        return False

    async def fall_back(self, game: LiveGame, seat: int, failed: str, level: str) -> bool:
        """The bot of ``seat``, of level ``failed``, could not move: a bot of ``level`` plays
        the seat from now on, by the server's authority (``seat N bot LEVEL fallback``:
        the log tells the players; the seat keeps its holder for the fair-play rule).
        Returns whether it did (``False``: the seat is no longer that bot's, or the game has
        ended); raises ``GameError`` when other processes kept writing the same step."""
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                now = game.seats[seat]
                if game.ended or now["kind"] != "bot" or now.get("level") != failed:
                    return False
                if await self._log_seat_change(
                    game, None, seat, "bot", level, attempt, fallback=True
                ):
                    return True
        return False

    async def time_out(self, game: LiveGame) -> bool:
        """If the clock of the person to act ran out (``self.hub.clock()``), a bot of the pace's
        level takes the seat (``seat N bot LEVEL timeout``); the player may take it back. In
        a rated game's opening the game is aborted instead (``abort N timeout``). Returns
        whether it did. Called by the process that enforces the game's clock."""
        for attempt in range(SEAT_CHANGE_TRIES):
            async with game.lock:
                clock = game.log.clock
                if game.over or clock is None or clock.actor is None:
                    return False
                seat = clock.actor
                if game.seats[seat]["kind"] != "human" or not clock.expired(self.hub.clock()):
                    return False
                if game.log.in_opening():
                    last = attempt + 1 == SEAT_CHANGE_TRIES
                    if await abort_opening(self.hub, game, None, seat, "timeout", last):
                        log.info("game %s: seat %d ran out of time in the opening", game.id, seat)
                        break
                    continue
                level = clock.pace.level
                if await self._log_seat_change(game, None, seat, "bot", level, attempt, True):
                    log.info(
                        "game %s: seat %d ran out of time, a %s bot plays it", game.id, seat, level
                    )
                    break
        return True

    async def _log_seat_change(
        self,
        game: LiveGame,
        by: int | None,
        seat: int,
        kind: str,
        level: str | None,
        attempt: int,
        timeout: bool = False,
        *,
        fallback: bool = False,
    ) -> bool:
        """Write the seat change as the game's next log entry (``by``: the seat whose player
        made it, ``None`` for the creator: ``Hub.write``); under the game's lock. Nothing
        changes unless the entry is stored. A seat change does not depend on the position:
        when another process stored that step first, this copy reads the log on and the
        caller checks and tries again (``False``; the last attempt raises ``stale``). The
        game's count of bot seats is stored with the entry."""
        entry: HandOver | TakeBack = (
            HandOver(seat, str(level), timeout, fallback) if kind == "bot" else TakeBack(seat)
        )
        try:
            await self.hub.write(game, by, entry, bots=game.table.bot_seats(seat, kind))
        except GameError as err:
            if err.code == "stale" and attempt + 1 < SEAT_CHANGE_TRIES:
                return False
            raise
        return True

    async def _check_bot_games(self, game: LiveGame) -> None:
        """Refuse to make ``game`` a bot game (its first bot seat) when the client that
        created it runs its limit of unfinished games with bots already: handing the seats
        of human games to bots counts like creating bot games."""
        if not game.table.client or any(seat["kind"] == "bot" for seat in game.seats):
            return
        _, bot_games = await self.hub.db(
            self.hub.store.games.recent_of, game.table.client, time.time() - 3600
        )
        if bot_games >= self.hub.limits.bot_games_per_client:
            raise too_many_bot_games(self.hub.limits)
