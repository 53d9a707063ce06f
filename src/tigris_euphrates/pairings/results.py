"""What a live event (an arena or a Swiss tournament) records of its games: who entered, who
sat where, how each game ended, and who had a bye. Plain frozen data, no behaviour beyond
reading it, so that the pairing and scoring rules beside it stay pure functions.

A game's ``seats`` are in playing order (seat 0 moves first); its ``ranks`` are the final
places, 0 for first, equal ranks for a tie, ``None`` while it is being played. Every rule
here counts a game only once it is finished.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction

#: An entrant is an account: its id.
EntrantId = int
#: A seeded tie-break order (smaller comes first when everything else is equal).
Lot = int


def lot_of(seed: int, entrant: EntrantId) -> Lot:
    """The entrant's lot in the event drawn with ``seed``: the first eight bytes of
    SHA-256 of ``"{seed}:{entrant}"``, read big-endian, so it is the same on every machine
    and every run (unlike ``hash`` or ``random``)."""
    digest = hashlib.sha256(f"{seed}:{entrant}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class Entrant:
    """One entrant as the pairing sees it: its rating when it entered and its lot."""

    id: EntrantId
    rating: float
    lot: Lot


@dataclass(frozen=True)
class Game:
    """One game of an event: the entrants in seat order and, once over, their final
    places (``ranks[i]`` is the place of ``seats[i]``)."""

    seats: tuple[EntrantId, ...]
    ranks: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.seats) < 2 or len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a game needs two or more distinct entrants: {self.seats}")
        if self.ranks is not None and len(self.ranks) != len(self.seats):
            raise ValueError(f"one rank per seat: {self.seats} {self.ranks}")

    @property
    def finished(self) -> bool:
        """Whether the game is over (its ranks are known)."""
        return self.ranks is not None

    def rank_of(self, entrant: EntrantId) -> int:
        """The final place of ``entrant`` in this finished game."""
        if self.ranks is None:
            raise ValueError("the game is not finished")
        return self.ranks[self.seats.index(entrant)]

    def opponents(self, entrant: EntrantId) -> tuple[EntrantId, ...]:
        """The other entrants of the game, in seat order."""
        return tuple(e for e in self.seats if e != entrant)


@dataclass(frozen=True)
class Bye:
    """A round without a game for ``entrant``, worth ``points``."""

    entrant: EntrantId
    points: Fraction


@dataclass(frozen=True)
class Round:
    """One round of a Swiss tournament: its games and its byes."""

    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()

    def entrants(self) -> tuple[EntrantId, ...]:
        """Everyone in the round, the games' seats first, then the byes."""
        return tuple(e for g in self.games for e in g.seats) + tuple(b.entrant for b in self.byes)
