"""Game clocks: the pace a game is played at and each seat's time, as pure functions.

Two paces are chosen when a game is created:

- ``realtime``: every seat has a bank of ``base`` seconds that runs while it is to act; when
  the turn passes to another seat, ``increment`` seconds are added to it (10 min + 30 s);
- ``turn`` (turn-based): whoever is to act has ``base`` seconds (24 h, 72 h) for that move;
  the time starts afresh at each move.

A seat's clock runs while it is to act and a person plays it; a bot holding the seat uses no
time. When a person's time runs out, a bot of the game's ``level`` takes the seat (a seat
change in the log, ``seat N bot LEVEL timeout``); when the player takes the seat back, the
clock gives them at least ``grace`` seconds.

Every function takes the time (``now``, seconds since the epoch) as an argument: the hub
reads it from an injectable clock, the tests pass any time they like. A clock is rebuilt
from the log's step times after a restart, so it survives restarts and every process
computes the same one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from typing_extensions import TypedDict

from ..ai.levels import TIMEOUT_LEVEL
from ..store.rows import PaceData

PACES = ("realtime", "turn")
#: The shortest and longest times a pace may give (seconds): above zero, at most 30 days.
MIN_SECONDS = 0.5
MAX_SECONDS = 30 * 24 * 3600.0
#: The least time a player who takes their seat back from the bot gets (realtime).
MIN_GRACE = 60.0


class PaceError(ValueError):
    """A pace that cannot be played (unknown kind, times out of range)."""


@dataclass(frozen=True)
class Pace:
    """How fast a game is played: ``kind`` ``realtime`` (``base`` seconds a seat plus
    ``increment`` a turn) or ``turn`` (``base`` seconds a move), and the bot ``level`` that
    takes the seat of a player whose time ran out."""

    kind: str
    base: float
    increment: float = 0.0
    level: str = TIMEOUT_LEVEL

    def to_dict(self) -> PaceData:
        return {
            "kind": self.kind,
            "base": self.base,
            "increment": self.increment,
            "level": self.level,
        }

    @property
    def grace(self) -> float:
        """The least time a player taking their seat back gets: a whole move (turn-based),
        else the base time's tenth, at least ``MIN_GRACE`` (or the base, when shorter)."""
        if self.kind == "turn":
            return self.base
        return max(self.increment, min(self.base, max(MIN_GRACE, self.base / 10)))


def pace_from_dict(data: Mapping[str, object]) -> Pace:
    """A pace from its stored or posted form; raises ``PaceError`` on anything else."""
    kind = data.get("kind")
    if kind not in PACES:
        raise PaceError(f"a pace is {' or '.join(repr(p) for p in PACES)}, not {kind!r}")
    base = data.get("base")
    increment = data.get("increment", 0.0) or 0.0
    level = data.get("level") or TIMEOUT_LEVEL
    if isinstance(base, bool) or not isinstance(base, (int, float)):
        raise PaceError("the pace's base time is a number of seconds")
    if isinstance(increment, bool) or not isinstance(increment, (int, float)):
        raise PaceError("the pace's increment is a number of seconds")
    if not MIN_SECONDS <= base <= MAX_SECONDS:
        raise PaceError(f"the pace's base time is between {MIN_SECONDS:g} s and 30 days")
    if not 0 <= increment <= MAX_SECONDS:
        raise PaceError("the pace's increment is between 0 and 30 days")
    if kind == "turn" and increment:
        raise PaceError("a turn-based pace has no increment: each move gets the base time")
    if not isinstance(level, str):
        raise PaceError("the pace's bot level is a level's name")
    return Pace(str(kind), float(base), float(increment), level)


class ClockData(TypedDict):
    """A clock as every seat may see it (``Clock.public``)."""

    pace: PaceData
    banks: list[float]
    actor: int | None
    running: bool
    since: float
    deadline: float | None


@dataclass(frozen=True)
class Clock:
    """Each seat's time at ``since``: ``banks[seat]`` seconds left, ``actor`` the seat to
    act then (``None``: nobody, the game is over), ``running`` whether the actor's time
    runs (a person plays it)."""

    pace: Pace
    banks: tuple[float, ...]
    actor: int | None
    running: bool
    since: float

    def left(self, seat: int, now: float) -> float:
        """The seconds ``seat`` has left at ``now`` (never below zero)."""
        bank = self.banks[seat]
        if self.running and seat == self.actor:
            bank -= max(0.0, now - self.since)
        return max(0.0, bank)

    @property
    def deadline(self) -> float | None:
        """When the running clock reaches zero (``None``: no clock runs)."""
        if not self.running or self.actor is None:
            return None
        return self.since + self.banks[self.actor]

    def expired(self, now: float) -> bool:
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def public(self) -> ClockData:
        """The clock as every seat may see it (times are public at the table): the pace,
        each seat's seconds left at ``since``, who is to act and whether that clock runs
        (the page counts it down from ``since`` with the server's time sent beside it)."""
        return {
            "pace": self.pace.to_dict(),
            "banks": [round(b, 3) for b in self.banks],
            "actor": self.actor,
            "running": self.running,
            "since": self.since,
            "deadline": self.deadline,
        }


def start(pace: Pace, seats: int, actor: int | None, person: bool, now: float) -> Clock:
    """The clock of a new game: every seat's full time; the first actor's runs when a
    person plays it."""
    return Clock(pace, (pace.base,) * seats, actor, person and actor is not None, now)


def advance(clock: Clock, actor: int | None, person: bool, now: float) -> Clock:
    """The clock after a step stored at ``now``, after which ``actor`` is to act (``None``:
    the game is over) and ``person`` says whether a person plays that seat.

    The seat that was to act is charged the time since ``since`` (when its clock ran); if
    the turn passed to another seat it gets the increment (realtime). The new actor's clock
    starts: with the time it has left (realtime), or a whole move (turn-based). The same
    actor acting again (the second action of a turn, a choice in a conflict) keeps its clock
    running from where it was."""
    banks = _charged(clock, now)
    before = clock.actor
    if actor == before and person and clock.running:
        return replace(clock, banks=tuple(banks), since=now)
    if before is not None and before != actor and clock.running:
        banks[before] += clock.pace.increment
    if actor is not None and person and actor != before and clock.pace.kind == "turn":
        banks[actor] = clock.pace.base
    running = person and actor is not None
    return Clock(clock.pace, tuple(banks), actor, running, now)


def _charged(clock: Clock, now: float) -> list[float]:
    """The banks at ``now``: the running clock's time since ``since`` taken off."""
    banks = list(clock.banks)
    if clock.running and clock.actor is not None:
        banks[clock.actor] = max(0.0, banks[clock.actor] - max(0.0, now - clock.since))
    return banks


def handed(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once its player handed ``seat`` to a bot at ``now``: the seat keeps the
    time it has left, and its clock stops."""
    if clock.actor != seat or not clock.running:
        return clock
    return Clock(clock.pace, tuple(_charged(clock, now)), seat, False, now)


def timed_out(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once a bot took ``seat``, whose time ran out at ``now``: the seat has no
    time left, and its clock stops."""
    banks = _charged(clock, now)
    banks[seat] = 0.0
    if clock.actor == seat:
        return Clock(clock.pace, tuple(banks), seat, False, now)
    return Clock(clock.pace, tuple(banks), clock.actor, clock.running, now)


def returned(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once the player of ``seat`` took it back from the bot at ``now``: the
    seat has at least ``pace.grace`` seconds, and its clock runs if it is to act."""
    banks = _charged(clock, now)
    banks[seat] = max(banks[seat], clock.pace.grace)
    running = clock.running or clock.actor == seat
    return Clock(clock.pace, tuple(banks), clock.actor, running, now)
