"""Leaving a table for good: a player resigns, or aborts a game that has not started yet
(``endings.py`` says what each means for the result and the ratings); in a rated game's
opening a seat that gives up in any way aborts it (``abort_opening``).

Each is the game's next log entry, stored like a move under the game's lock, so every
process replays the same end: whether the game is still in its opening is read from the
copy of the log the entry is written after, and the entry is stored only as that log's next
step (another process's step stored first makes this one stale: it reads on and decides
again).
"""

from __future__ import annotations

from typing import Protocol

from ..store.logentry import Abort, LogEntry, Resign
from .aiseats import default_level
from .endings import may_abort
from .errors import GameError
from .live import LiveGame

#: How often a resignation or an abort is tried when other processes keep writing the
#: game's next step.
TRIES = 5


class Writer(Protocol):
    """What leaving needs of the hub: the write of a game's next log entry (``Hub.write``,
    which applies it, stores the end of a game over and marks a stopped one)."""

    async def write(
        self, game: LiveGame, seat: int | None, entry: LogEntry, *, bots: int | None = None
    ) -> None: ...


async def abort_opening(
    hub: Writer, game: LiveGame, by: int | None, seat: int, why: str, last_try: bool
) -> bool:
    """Seat ``seat`` gave up in the rated game's opening (``why``: ``resign``, ``bot``,
    ``timeout``; ``by``: the seat that asked, ``None`` for the creator, the clock or the
    server): store ``abort SEAT WHY`` as the next entry and stop the game, unrated. Under
    the game's lock, after checking ``game.log.in_opening()``. ``False`` when another process
    stored that step first (the caller checks again); on the ``last_try`` that raises
    ``stale``."""
    try:
        await hub.write(game, by, Abort(seat, why))
    except GameError as err:
        if err.code == "stale" and not last_try:
            return False
        raise
    return True


class Leaving:
    """Resignations and players' aborts of the live games."""

    def __init__(self, hub: Writer) -> None:
        self.hub = hub

    async def resign(self, game: LiveGame, seat: int | None) -> None:
        """Seat ``seat`` resigns: in a game of two the other wins; of three or four it ranks
        last and a bot (the server's default level) plays it out; in a rated game's
        opening it aborts the game instead. Raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators have no seat to resign")
        for attempt in range(TRIES):
            async with game.lock:
                game.log.check_ongoing()
                if seat in game.log.resigned:
                    raise GameError("resigned", "you resigned already")
                if game.log.in_opening():
                    last = attempt + 1 == TRIES
                    if await abort_opening(self.hub, game, seat, seat, "resign", last):
                        return
                    continue
                level = default_level()
                if await self._write(game, seat, Resign(seat, level), attempt):
                    return

    async def abort(self, game: LiveGame, seat: int | None) -> None:
        """Seat ``seat``'s player stops the game, unrated, while some player has not moved
        yet. Raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot abort a game")
        for attempt in range(TRIES):
            async with game.lock:
                game.log.check_ongoing()
                if not may_abort(len(game.seats), {e.seat for e in game.entries}):
                    raise GameError(
                        "too-late-to-abort",
                        "every player has moved: the game can no longer be aborted "
                        "(resign instead)",
                    )
                if await self._write(game, seat, Abort(), attempt):
                    return

    async def _write(self, game: LiveGame, seat: int, entry: Resign | Abort, attempt: int) -> bool:
        """Write ``entry`` as the game's next entry (under the game's lock: ``Hub.write``);
        ``False`` when another process stored that step first (the caller checks again)."""
        bots = game.table.bot_seats(seat, "bot") if isinstance(entry, Resign) else None
        try:
            await self.hub.write(game, seat, entry, bots=bots)
        except GameError as err:
            if err.code == "stale" and attempt + 1 < TRIES:
                return False
            raise
        return True
