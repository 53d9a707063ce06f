"""A live game's log and state: the entries kept (``Entry``), the position they lead to, the
clock replayed from the steps' times, and what the log says of the game's end (resigned
seats, an abort, who made a rated game's decisions).

Every log entry reaches the game through ``GameLog.apply``, the one apply path: a step this
process stored (the hub's write path, which hands over the position the engine already
computed), a step another process stored (heard with its announcement, or read from the
store) and the replay of the stored log when the game loads. A hand-over or a take-back
changes the table's seats (``table.Table``) on the same path.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import (
    Event,
    GameOver,
    State,
    TilesDrawn,
    TilesSwapped,
    TreasureChoice,
    TurnStarted,
    make_record,
    new_game,
    to_act,
)
from .. import apply as engine_apply
from ..stats import game_stats
from ..store.fairplay import Tally, judge
from ..store.jsontypes import JsonDict
from ..store.logentry import Abort, HandOver, LogEntry, Move, Resign, TakeBack, Undo
from ..store.rows import GameOptions, GameResult
from .clocks import Clock, Pace, advance, handed, returned, start, timed_out
from .endings import aborted_result, conceded, final_result, opening, seat_note
from .errors import GameError
from .frames import SeatNote, TimeoutNote
from .table import Table

#: Event types after which an action can no longer be taken back (something was revealed
#: or the turn moved on).
_REVEALING = (TilesDrawn, TilesSwapped, TurnStarted, GameOver, TreasureChoice)

#: The position after a move and the events that led there, as the engine gave them.
Played = tuple[State, list[Event]]


@dataclass
class Entry:
    """A move kept in the log (undone moves leave): its step, its seat, its notation and
    what happened."""

    seq: int
    seat: int | None
    action: str
    events: list[Event]


class GameLog:
    """The log of one game as this process knows it, and the state it leads to."""

    def __init__(
        self,
        options: GameOptions,
        seed: int,
        table: Table,
        *,
        rated: bool = False,
        seed_source: str = "server",
        pace: Pace | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.options = options
        self.seed = seed
        self.seed_source = seed_source
        #: the table whose seats the hand-overs change
        self.table = table
        #: the result changes the players' ratings: only accounts take its seats
        self.rated = rated
        #: the game was stopped (its log ends with an abort): nobody is to act
        self.aborted = False
        #: the seat whose player aborted it, or that gave up in a rated opening (``None``:
        #: a moderator, or not aborted)
        self.aborted_by: int | None = None
        #: how that seat gave up in a rated opening (``resign``, ``bot``, ``timeout``:
        #: ``endings.py``); ``None``: a player's or a moderator's plain abort
        self.aborted_why: str | None = None
        #: the seats whose players resigned, in order (``endings.py``)
        self.resigned: list[int] = []
        #: the log's seat changes, resignations and players' aborts (``endings.seat_note``)
        self.seat_log: list[SeatNote] = []
        players = len(table.seats)
        #: who made each seat's decisions (a rated game's): whether its end is rated
        self.tally = Tally(players) if rated else None
        #: the last step applied, and the moves kept
        self.seq = 0
        self.entries: list[Entry] = []
        self.state = new_game(dict(options), seed)
        #: entries announced by other processes, not applied yet: seq -> (seat, entry)
        self.pending: dict[int, tuple[int | None, LogEntry]] = {}
        #: the last entry announced (a gap below it is read from the log)
        self.announced = 0
        #: the time as the hub reads it (injectable: tests pass their own)
        self.now = now
        #: the game's clock (``None``: an untimed game), replayed from the steps' times
        self.pace = pace
        self.clock: Clock | None = None
        #: the step after which the person to act now started their move
        self.turn_seq = 0
        #: the seats whose time ran out: ``{"seat", "level", "seq", "back"}`` (``back``: the
        #: step at which the player took the seat back, ``None`` while the bot holds it)
        self.timeouts: list[TimeoutNote] = []

    def start_clock(self, at: float) -> None:
        """Start the clock of a timed game, created at ``at``."""
        if self.pace is not None:
            actor = self.actor()
            self.clock = start(self.pace, len(self.table.seats), actor, self._person(actor), at)

    # --- the one apply path ---------------------------------------------------------------

    def apply(
        self,
        seq: int,
        seat: int | None,
        entry: LogEntry,
        at: float | None = None,
        played: Played | None = None,
    ) -> None:
        """Apply log entry ``seq`` (the next one), written by ``seat`` and stored at ``at``
        (default: now): a move (``played``: its position and events when the engine already
        computed them), an undo, a seat change, a resignation or an abort. The clock then
        goes to whoever is to act (a seat change moves it itself)."""
        self.seq = seq
        if self.tally is not None:
            self.tally.step(seat, entry)
        note = seat_note(seq, seat, entry)
        if note is not None:
            self.seat_log.append(note)
        match entry:
            case Move(action):
                state, events = engine_apply(self.state, action) if played is None else played
                self.state = state
                self.entries.append(Entry(seq, seat, action, events))
            case Undo():
                self.entries.pop()
                self.rebuild()
            case HandOver() | TakeBack():
                # the seat's clock stops or runs again at once: no step of the game's time
                self._seat_changed(entry, self.now() if at is None else at)
                return
            case Resign(target, level):
                self._resigned(target, level, self.now() if at is None else at)
            case Abort(target, why):
                self.aborted, self.rated = True, False
                self.aborted_by = seat if target is None else target
                self.aborted_why = why
        self.tick(at)

    def _seat_changed(self, entry: HandOver | TakeBack, when: float) -> None:
        """A bot plays the seat (its player's token still opens it, to watch or to take it
        back; ``timeout``: because the player's time ran out), or its player takes it back."""
        if isinstance(entry, HandOver):
            self.table.to_bot(entry.seat, entry.level)
            if entry.timeout:
                note: TimeoutNote = {
                    "seat": entry.seat,
                    "level": entry.level,
                    "seq": self.seq,
                    "back": None,
                }
                self.timeouts.append(note)
            if self.clock is not None:
                change = timed_out if entry.timeout else handed
                self.clock = change(self.clock, entry.seat, when)
            return
        self.table.to_person(entry.seat)
        for note in self.timeouts:
            if note["seat"] == entry.seat and note["back"] is None:
                note["back"] = self.seq
        if self.clock is not None:
            self.clock = returned(self.clock, entry.seat, when)

    def _resigned(self, seat: int, level: str, when: float) -> None:
        """Seat ``seat`` resigned (``endings.py``): it ranks last; a bot of ``level`` plays
        it out unless the game is over now."""
        if seat in self.resigned or not 0 <= seat < len(self.table.seats):
            return
        self.resigned.append(seat)
        if not self.over and self.table.seats[seat]["kind"] != "bot":
            self._seat_changed(HandOver(seat, level), when)

    def tick(self, at: float | None = None) -> None:
        """The clock after a step stored at ``at`` (default: now): the time goes to whoever
        is to act now."""
        if self.clock is None:
            return
        actor = self.actor()
        before = self.clock
        self.clock = advance(
            self.clock, actor, self._person(actor), self.now() if at is None else at
        )
        if self.clock.running and (before.actor != actor or not before.running):
            self.turn_seq = self.seq  # a person's move starts here

    def _person(self, seat: int | None) -> bool:
        return seat is not None and self.table.seats[seat]["kind"] == "human"

    def rebuild(self) -> None:
        """The state replayed from the entries (after an undo)."""
        state = new_game(self.state.options, self.seed)
        for entry in self.entries:
            state, _ = engine_apply(state, entry.action)
        self.state = state

    # --- what the log says ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        return bool(self.state.over) or conceded(len(self.table.seats), self.resigned)

    @property
    def ended(self) -> bool:
        """Over, or stopped by a moderator: nothing more happens in the game."""
        return self.over or self.aborted

    def actor(self) -> int | None:
        return None if self.over or self.aborted else to_act(self.state)

    def in_opening(self) -> bool:
        """Whether the game is rated and in its opening (``endings.opening``): a seat that
        gives up now aborts it."""
        return (
            self.rated
            and self.tally is not None
            and not self.ended
            and opening(len(self.table.seats), (e.events for e in self.entries))
        )

    def rated_now(self) -> bool:
        """Whether the game is rated: created so, not aborted by a moderator, and, once it
        is over, not rated for nobody (every seat forfeited to bots: ``store/fairplay.py``)."""
        if self.tally is None or not self.rated:
            return False
        if not self.over:
            return True
        return judge(self.tally.plays(), [1] * len(self.table.seats)).counted

    def result(self) -> GameResult | None:
        """The game's result once it is over (``endings.final_result``)."""
        return final_result(self.state, self.resigned)

    def check_ongoing(self) -> None:
        """Raise unless the game goes on (neither over nor stopped by a moderator)."""
        if self.aborted:
            raise GameError("game-aborted", "this game was stopped (aborted): nobody moves now")
        if self.over:
            raise GameError("game-over", "the game is over")

    def check_turn(self, seat: int, seq: Any) -> None:
        """Raise unless ``seat`` may act now against step ``seq``."""
        self.check_ongoing()
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq:
            raise GameError("stale", self.stale_message(seq))
        actor = self.actor()
        if actor != seat:
            raise GameError("not-your-turn", f"it is not your turn: seat {actor} is to act")

    def stale_message(self, seq: Any) -> str:
        """Why a message made against step ``seq`` is refused now."""
        return (
            f"your move was made against step {seq!r} but the game is at step {self.seq}: "
            "here is the current position, please choose again"
        )

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or self.over or not self.entries:
            return False
        last = self.entries[-1]
        if last.seat != seat or self.table.seats[seat]["kind"] != "human":
            return False
        if any(isinstance(e, _REVEALING) for e in last.events):
            return False
        return self.actor() == seat

    def record(self) -> JsonDict:
        """The game's record (``tne-record/1``) with ``seed_source``: ``"server"`` (a
        secret seed) or ``"client"`` (chosen by whoever created the game). Published only
        when the game is over: the seed decides every hand and the bag. A game every seat
        but one resigned has the result the rules did not give: ``end`` is ``"resign"``
        (its actions replay to the position where it stopped, as a forfeit's do); an
        aborted game's ``end`` is ``"abort"``, nobody ranked."""
        record = make_record(
            self.state.options,
            [e.action for e in self.entries],
            seed=self.seed,
            final=self.state,
        )
        if not self.state.over and conceded(len(self.table.seats), self.resigned):
            record["result"] = self.result()
        elif self.aborted and not self.state.over:
            record["result"] = aborted_result(self.state)
        record["seed_source"] = self.seed_source
        return record

    def stats(self) -> JsonDict:
        """The game's statistics (``stats.game_stats``); published once the game is over,
        when every score is public."""
        return game_stats(len(self.table.seats), [e.events for e in self.entries])
