"""A live game: one game as this process holds it, in three parts.

- ``log`` (``gamelog.GameLog``): the game's log and the state it leads to, its clock and
  what the log says of its end; every entry, stored here or heard from another process, is
  applied on its one path (``GameLog.apply``);
- ``table`` (``table.Table``): the seats (a person or a bot), the tokens that open them, the
  people, the settings and the chat;
- ``audience`` (``audience.Audience``): the connections, here and in other processes, and
  the frames built for them (``viewframes.py``).

The hub's write path (``hub.Hub.write``) is the only writer of a game's log; the names below
the parts are what the routes read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from .. import State
from ..store import GameRow
from ..store.jsontypes import JsonDict
from ..store.logentry import decode
from ..store.rows import GameOptions, StoredSeat, TableSettings
from .answers.games import GameSummary
from .audience import Audience
from .clocks import Pace
from .conn import Conn
from .errors import GameError
from .frames import SeatInfo, SeatNote
from .gamelog import Entry, GameLog
from .table import SeatBot as SeatBot  # the bots' keeping, for aiseats.py
from .table import Table
from .table import hash_token as hash_token  # what the store keeps of a token, for routes
from .viewframes import seats_shown, summary, view_text


class LiveGame:
    """One game as this process knows it: its log and state, its table, its audience."""

    def __init__(
        self,
        row: GameRow,
        pace: Pace | None = None,
        times: dict[int, float] | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.id = row.id
        self.lock = asyncio.Lock()
        self.table = Table(row)
        self.log = GameLog(
            row.options,
            row.seed,
            self.table,
            rated=row.rated,
            seed_source=row.seed_source,
            pace=pace,
            now=now,
        )
        self.audience = Audience()
        #: a notification came while this process was reading the log: read again
        self.behind = False
        self._replay(row, times or {})

    def _replay(self, row: GameRow, times: dict[int, float]) -> None:
        """Start the clock (a timed game) and replay the stored log (``times``: when each
        step was made, by step)."""
        self.log.start_clock(row.created)
        for seq, seat, action in row.actions:
            self.log.apply(seq, seat, decode(action), times.get(seq))

    # --- what the routes read -------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.log.seq

    @property
    def state(self) -> State:
        return self.log.state

    @property
    def entries(self) -> list[Entry]:
        return self.log.entries

    @property
    def over(self) -> bool:
        return self.log.over

    @property
    def ended(self) -> bool:
        return self.log.ended

    @property
    def aborted(self) -> bool:
        return self.log.aborted

    @property
    def rated(self) -> bool:
        return self.log.rated

    @property
    def options(self) -> GameOptions:
        return self.log.options

    @property
    def seat_log(self) -> list[SeatNote]:
        return self.log.seat_log

    @property
    def seats(self) -> list[StoredSeat]:
        return self.table.seats

    @property
    def settings(self) -> TableSettings:
        return self.table.settings

    @property
    def conns(self) -> dict[int, Conn]:
        return self.audience.conns

    def record(self) -> JsonDict:
        """The game's record (``GameLog.record``)."""
        return self.log.record()

    def stats(self) -> JsonDict:
        """The game's statistics (``GameLog.stats``)."""
        return self.log.stats()

    def public_seats(self) -> list[SeatInfo]:
        """Each seat as everybody may see it (``viewframes.seats_shown``)."""
        return seats_shown(self)

    def summary(self) -> GameSummary:
        """The game as the lists of games show it (``viewframes.summary``)."""
        return summary(self)

    def view_text(self, conn: Conn) -> str:
        """The view frame due to ``conn`` (``viewframes.view_text``)."""
        return view_text(self, conn)

    def send_error(self, conn: Conn, err: GameError, *, with_view: bool = True) -> None:
        """An error frame to ``conn`` only, then (``with_view``) a fresh view."""
        self.audience.send_error(conn, err, self.log.seq, with_view=with_view)
