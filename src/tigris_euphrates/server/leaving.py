"""Leaving a table for good: a player resigns, or aborts a game that has not started yet
(``endings.py`` says what each means for the result and the ratings).

Both are the game's next log entry, stored like a move under the game's lock, so every
process replays the same end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..store import Store
from ..store.fairplay import resign_entry
from .bots import default_level
from .dbthread import DatabaseThread
from .endings import may_abort
from .errors import GameError
from .live import ABORT, LiveGame

#: How often a resignation or an abort is tried when other processes keep writing the
#: game's next step.
TRIES = 5


class Writer(Protocol):
    """What leaving needs of the hub: the write of a game's next log entry and the end of
    a game."""

    store: Store
    db: DatabaseThread
    clock: Callable[[], float]

    async def store_step(
        self, game: LiveGame, seat: int | None, action: str, bots: int | None = None
    ) -> float: ...

    async def finished(self, game: LiveGame) -> None: ...


class Leaving:
    """Resignations and players' aborts of the live games."""

    def __init__(self, hub: Writer) -> None:
        self.hub = hub

    async def resign(self, game: LiveGame, seat: int | None) -> None:
        """Seat ``seat`` resigns: in a game of two the other wins; of three or four it ranks
        last and a bot (the server's default level) plays it out. Raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators have no seat to resign")
        for attempt in range(TRIES):
            async with game.lock:
                game.check_ongoing()
                if seat in game.resigned:
                    raise GameError("resigned", "you resigned already")
                level = default_level()
                if await self._write(game, seat, resign_entry(seat, level), attempt):
                    return

    async def abort(self, game: LiveGame, seat: int | None) -> None:
        """Seat ``seat``'s player stops the game, unrated, while some player has not moved
        yet. Raises ``GameError``."""
        if seat is None:
            raise GameError("spectator", "spectators cannot abort a game")
        for attempt in range(TRIES):
            async with game.lock:
                game.check_ongoing()
                if not may_abort(len(game.seats), {e.seat for e in game.entries}):
                    raise GameError(
                        "too-late-to-abort",
                        "every player has moved: the game can no longer be aborted "
                        "(resign instead)",
                    )
                if await self._write(game, seat, ABORT, attempt):
                    await self.hub.db(self.hub.store.games.mark_aborted, game.id)
                    return

    async def _write(self, game: LiveGame, seat: int, action: str, attempt: int) -> bool:
        """Store ``action`` as the game's next entry and apply it (under the game's lock);
        ``False`` when another process stored that step first (the caller checks again)."""
        bots = sum(1 for i, s in enumerate(game.seats) if i == seat or s["kind"] == "bot")
        try:
            at = await self.hub.store_step(game, seat, action, bots if action != ABORT else None)
        except GameError as err:
            if err.code == "stale" and attempt + 1 < TRIES:
                return False
            raise
        game.seq += 1
        if action == ABORT:
            game.aborted, game.rated, game.aborted_by = True, False, seat
        else:
            game.resign(seat, action.split()[2], at)
        game.tick(at)
        if game.over:
            game.bots.clear()
            await self.hub.finished(game)
        game.broadcast()
        return True
