"""Which results of a rated game count: a game is rated only for the moves its people made.

Read from the game's log (``logentry.py``), where a seat change is an entry of its own
(``seat 1 bot hard``, ``seat 1 bot easy timeout``, ``seat 1 human``), written by the seat whose
player asked for it (``None``: the game's creator or the clock). Every other entry but an
``undo`` is a decision of the seat that made it, by its person or by the bot holding it.

The rule (docs/web.md, *Accounts, ratings and statistics*). A seat **forfeits**, and is
rated below every seat that did not, whatever its score, when

- its clock ran out (a player who let their time run out lost it, as in chess), or
- a bot its own player called to the seat made a decision (taking the seat back does not
  undo that: a player's own bot, an ``expert`` in the hard moments, is no rated play), or
- a bot holds it when the game ends, or
- bots given to it in its player's absence (by the game's creator) made more than
  ``ABSENCE_SHARE`` of its decisions (a short absence is forgiven; a long one is not), or
- its player resigned (``resign 1 hard``: in a game of three or four a bot of that level
  plays the seat out; in a game of two the game ends there).

If every seat forfeits, nobody's play decided the game and it is not rated at all. So a
player who is losing cannot void a rated game by leaving (they lose it, their opponents are
rated as they finished), and two accounts cannot farm ratings from games that bots play for
them (such a game counts for nobody).

Before that, the opening: a seat that gives up a rated game (resigns, goes to a bot, runs
out of time) before every seat has completed its first turn does not forfeit, it aborts
the game (the server writes ``abort SEAT WHY`` instead: ``server/endings.py``). An aborted
game is never rated, so a resignation before anyone played wins nobody a rating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .logentry import Abort, HandOver, LogEntry, Resign, TakeBack, Undo

#: The share of a seat's decisions that bots given to it in its player's absence may make
#: without the seat forfeiting.
ABSENCE_SHARE = 0.2

#: who made a decision: the seat's person, a bot its player called, another bot
PERSON, CALLED, OTHER = "person", "called", "other"


@dataclass
class SeatPlay:
    """Who made one seat's decisions (its person's: those the game kept; bots': all)."""

    person: int = 0
    #: decisions of bots the seat's own player handed it to
    called: int = 0
    #: decisions of bots given it otherwise: by the creator in its absence, after a timeout
    other: int = 0
    timed_out: bool = False
    bot_at_end: bool = False
    resigned: bool = False

    @property
    def decisions(self) -> int:
        return self.person + self.called + self.other

    @property
    def forfeits(self) -> bool:
        """Whether the seat's result is not its person's (the module's rule)."""
        return (
            self.timed_out
            or self.resigned
            or self.bot_at_end
            or self.called > 0
            or self.other > ABSENCE_SHARE * self.decisions
        )


class Tally:
    """Who made the decisions of each seat of a game, read from its log entry by entry
    (``step``); every seat starts with its person (a rated game has no bot seat)."""

    def __init__(self, players: int) -> None:
        self.players = players
        #: who holds each seat now: ``PERSON`` or the kind of bot
        self.holder = [PERSON] * players
        self.counts = [SeatPlay() for _ in range(players)]
        #: each decision so far: (seat, who made it); an undo removes the last one
        self.made: list[tuple[int, str]] = []

    def step(self, seat: int | None, entry: LogEntry) -> None:
        """The next log entry, written by ``seat``. A person's decision that is undone does
        not count; a bot's still does (its player saw it: advice)."""
        match entry:
            case Abort():
                return  # the game stopped: no decision
            case Resign(target):
                if 0 <= target < self.players:
                    self.counts[target].resigned = True
                    self.holder[target] = OTHER
            case TakeBack(target):
                self.holder[target] = PERSON
            case HandOver(fallback=True):
                pass  # the same holder's bot, of another level
            case HandOver(target, timeout=timeout):
                self.holder[target] = CALLED if seat == target and not timeout else OTHER
                self.counts[target].timed_out |= timeout
            case Undo():
                if self.made:
                    undone, who = self.made.pop()
                    if who == PERSON:
                        self.counts[undone].person -= 1
            case _:
                self._decided(seat)

    def _decided(self, seat: int | None) -> None:
        """A decision of ``seat``, made by whoever holds it."""
        if seat is None or not 0 <= seat < self.players:
            return
        who = self.holder[seat]
        self.made.append((seat, who))
        play = self.counts[seat]
        if who == PERSON:
            play.person += 1
        elif who == CALLED:
            play.called += 1
        else:
            play.other += 1

    def plays(self) -> list[SeatPlay]:
        """Each seat's play so far (``bot_at_end``: a bot holds it now)."""
        return [
            replace(play, bot_at_end=self.holder[i] != PERSON) for i, play in enumerate(self.counts)
        ]


def tally(players: int, rows: Iterable[tuple[int | None, LogEntry]]) -> list[SeatPlay]:
    """Each seat's play in a log of ``(seat, entry)`` entries, in order."""
    t = Tally(players)
    for seat, entry in rows:
        t.step(seat, entry)
    return t.plays()


@dataclass(frozen=True)
class Verdict:
    """What a finished rated game counts for: ``counted`` (``False``: rated for nobody),
    the places the ratings use, and the seats that forfeited."""

    counted: bool
    places: list[int]
    forfeits: list[int]


def judge(plays: list[SeatPlay], places: list[int]) -> Verdict:
    """The verdict on a finished rated game from each seat's play and its place on the
    scores (1 = best, shared places equal). The seats that did not forfeit keep their order
    (and their ties); those that did share the place after them."""
    forfeits = [i for i, play in enumerate(plays) if play.forfeits]
    if len(forfeits) == len(plays):
        return Verdict(False, list(places), forfeits)
    kept = [i for i in range(len(plays)) if i not in forfeits]
    out = [len(kept) + 1] * len(plays)
    for i in kept:
        out[i] = 1 + sum(1 for j in kept if places[j] < places[i])
    return Verdict(True, out, forfeits)
