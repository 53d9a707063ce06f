"""Hints: "Suggest a move" for a seat of a game that is not rated (against bots, hotseat,
practice), never in a rated game and never to a spectator.

The server refuses what the page would not offer: a hint in a rated game (``rated``), to a
spectator (``spectator``), for a seat its bot plays, for another seat's decision or a stale
step. A seat gets ``Limits.hints_per_seat`` hints a game, counted in the database before
the work (every process shares the count: ``store.hints``); each is a fixed amount of
search (``hint_iterations``, no wall-clock cap) on the bots' workers (``suggest.py`` says
how the move and its reason come from the seat's view alone).
"""

from __future__ import annotations

from .. import player_view
from ..ai import Budget
from ..store import Store
from .aiseats import BotRunner
from .conn import Conn
from .dbthread import DatabaseThread
from .errors import GameError
from .limits import BotWorkFull, Limits
from .live import LiveGame


class HintDesk:
    """Answers the ``hint`` messages of one process's connections: who may ask, the seat's
    count (in the database), the work on the bots' workers, the frame to the asker."""

    def __init__(self, db: DatabaseThread, store: Store, bots: BotRunner, limits: Limits) -> None:
        self.db = db
        self.store = store
        self.bots = bots
        self.limits = limits

    async def answer(self, game: LiveGame, seat: int | None, conn: Conn, seq: int) -> None:
        """Send ``conn`` a hint for ``seat``'s decision at step ``seq``; raises
        ``GameError`` (nothing counted) for a spectator, a rated game, a seat its bot
        plays, a stale step or another seat's decision, and when the seat has had its
        ``hints_per_seat``."""
        if seat is None:
            raise GameError("spectator", "spectators get no hints")
        if game.rated:
            raise GameError("rated", "a rated game gives no hints: each player plays alone")
        if game.seats[seat]["kind"] == "bot":
            raise GameError("seat-is-bot", "a bot plays this seat: take it back to ask")
        game.log.check_turn(seat, seq)
        view = player_view(game.state, seat)
        limit = self.limits.hints_per_seat
        used = await self.db(self.store.hints.take, game.id, seat, limit)
        if used is None:
            raise GameError(
                "rate-limited",
                f"a seat gets at most {limit} hints a game",
                limit="hints_per_seat",
            )
        budget = Budget(seconds=None, iterations=self.limits.hint_iterations)
        try:
            found = await self.bots.suggest(game.table.client, view, budget)
        except BotWorkFull:
            await self.db(self.store.hints.give_back, game.id, seat)  # not a hint given
            raise GameError("busy", "the server is busy thinking: ask again soon") from None
        conn.send(
            {
                "type": "hint",
                "seq": seq,
                "seat": seat,
                "action": found["action"],
                "reason": found["reason"],
                "left": limit - used,
            }
        )
