"""What a referee does when a program's seat fails (``BotFault``), in one place for the
tournament's referee and the research environment's opponents.

The fault is noted and the program started again (``ProtocolBot.restart``: told the game so
far, then asked the same decision), at most ``restarts`` times a game and seat, counted over
the whole game rather than per decision, so a program that fails every few decisions is not
restarted forever. At its next fault either the game ends there (no ``fallback``: the seat
forfeits) or a bot of the ``fallback`` level takes the seat for the rest of the game.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..ai import Bot
from .client import BotFault, ProtocolBot
from .players import stand_in

#: How many times a program is started again after a fault in one game, unless told.
RESTARTS = 1


class Seats(Protocol):
    """The bots by seat (a list or a mapping of seat numbers): a failed seat's bot is read
    and replaced through it."""

    def __getitem__(self, seat: int, /) -> object: ...
    def __setitem__(self, seat: int, bot: Bot, /) -> None: ...


class Faults:
    """The faults of one game and what was done about them (``faults``, the record's list:
    seat, ply, fault, detail, then), and the seat that forfeited, if any."""

    def __init__(self, fallback: str | None, restarts: int = RESTARTS) -> None:
        if restarts < 0:
            raise ValueError(f"restarts is a number of at least 0, not {restarts}")
        self.fallback = fallback
        self.restarts = restarts
        self.restarted: dict[int, int] = {}
        self.faults: list[dict[str, Any]] = []
        self.forfeit: int | None = None

    def _note(self, seat: int, ply: int, e: BotFault, then: str) -> None:
        self.faults.append(
            {"seat": seat, "ply": ply, "fault": e.kind, "detail": e.detail, "then": then}
        )

    def handle(self, bots: Seats, seat: int, ply: int, e: BotFault) -> None:
        """Start the seat's program again if it has restarts left this game; otherwise end
        the game for it (``forfeit``) or seat a bot of the fallback level in ``bots``."""
        bot = bots[seat]
        while isinstance(bot, ProtocolBot) and self.restarted.get(seat, 0) < self.restarts:
            self.restarted[seat] = self.restarted.get(seat, 0) + 1
            self._note(seat, ply, e, "restart")
            try:
                bot.restart()
                return
            except BotFault as again:
                e = again
        then = "forfeit" if self.fallback is None else f"fallback {self.fallback}"
        self._note(seat, ply, e, then)
        if self.fallback is None:
            self.forfeit = seat
            return
        bots[seat] = stand_in(bot, self.fallback, seat)
