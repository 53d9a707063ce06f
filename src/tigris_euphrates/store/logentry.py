"""The entries of a game's log, one typed value each, and their one codec.

Every entry is stored as one line of text in the ``action`` column of the ``actions`` rows
(``games.py``), in the format every release has written, so that old games load:

============  ==========================================  ====================================
entry         stored text                                 meaning
============  ==========================================  ====================================
``Move``      ``tile red e4``, ``swap red=2,blue=1``, ...  an action of the rules, in notation
``Undo``      ``undo``                                    the last move taken back
``Resign``    ``resign 1 hard``                           seat 1 resigned, a ``hard`` bot
                                                          plays it out (``server/endings.py``)
``Abort``     ``abort``, ``abort 1 timeout``              the game stopped: by a moderator or
                                                          a player, or because seat 1 gave up
                                                          in a rated game's opening (``WHY``:
                                                          ``resign``, ``bot``, ``timeout``)
``HandOver``  ``seat 1 bot hard``,                        a bot plays seat 1: its player's or
              ``seat 1 bot easy timeout``,                the creator's, its time ran out, or
              ``seat 1 bot greedy fallback``              its bot could not move
``TakeBack``  ``seat 1 human``                            seat 1's player took it back
============  ==========================================  ====================================

``encode`` and ``decode`` are the only places where that text is written or read: the store
(who made the decisions, ratings, short games), the replay of a live game, the notices between
processes and the backup all go through them. A text that is no other entry is a ``Move``
(the rules judge it when it is applied); a ``seat`` entry that is none of the forms above is
refused (``ValueError``): the server never wrote one.
"""

from __future__ import annotations

from dataclasses import dataclass

#: How a seat gave up in a rated game's opening, which aborted it (``abort 1 resign``): its
#: player resigned, it went to a bot (its player's, the creator's after an absence, a
#: moderator's ban), its clock ran out.
ABORT_WHYS = ("resign", "bot", "timeout")

_UNDO = "undo"
_RESIGN = "resign"
_ABORT = "abort"
_SEAT = "seat"
_TIMEOUT = "timeout"
_FALLBACK = "fallback"

#: The stored entries that are not moves, as SQL ``LIKE`` patterns (``undo`` aside): the
#: plies of a game counted in the database (``moderation.py``).
NOT_MOVES = (f"{_SEAT} %", f"{_RESIGN} %", f"{_ABORT}%")
#: The stored text of ``Undo``, for the same count.
UNDO_TEXT = _UNDO


@dataclass(frozen=True, slots=True)
class Move:
    """An action of the rules, in its notation (``str`` of the engine's action)."""

    action: str

    def shown_to(self, seat: int | None, by: int | None) -> str:
        """The action as ``seat`` may read it, ``by`` having made it: another seat's swap
        shows only how many tiles went back to the bag."""
        if self.action.startswith("swap ") and by != seat:
            n = sum(int(part.split("=")[1]) for part in self.action[5:].split(","))
            return f"swap {n} tile{'s' if n != 1 else ''}"
        return self.action


@dataclass(frozen=True, slots=True)
class Undo:
    """The seat's last move taken back."""


@dataclass(frozen=True, slots=True)
class Resign:
    """Seat ``seat`` resigned; a bot of ``level`` plays it out while others play on."""

    seat: int
    level: str


@dataclass(frozen=True, slots=True)
class Abort:
    """The game stopped, unrated: ``seat`` and ``why`` when that seat gave up in a rated
    game's opening (``why`` one of ``ABORT_WHYS``), both ``None`` for a moderator's or a
    player's plain abort (the entry's writer tells which)."""

    seat: int | None = None
    why: str | None = None

    def __post_init__(self) -> None:
        if (self.seat is None) != (self.why is None) or (
            self.why is not None and self.why not in ABORT_WHYS
        ):
            raise ValueError(f"not an abort: seat {self.seat!r}, why {self.why!r}")


@dataclass(frozen=True, slots=True)
class HandOver:
    """A bot of ``level`` plays seat ``seat`` from now on: handed to it by its player or the
    game's creator, or because its time ran out (``timeout``), or because its bot could not
    move (``fallback``: the seat keeps its holder, only the level changes)."""

    seat: int
    level: str
    timeout: bool = False
    fallback: bool = False

    def __post_init__(self) -> None:
        if self.timeout and self.fallback:
            raise ValueError("a hand-over is a timeout or a fallback, not both")


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Seat ``seat``'s player plays it again (its bot leaves)."""

    seat: int


#: One entry of a game's log.
LogEntry = Move | Undo | Resign | Abort | HandOver | TakeBack


def encode(entry: LogEntry) -> str:
    """The stored text of ``entry``."""
    match entry:
        case Move(action):
            return action
        case Undo():
            return _UNDO
        case Resign(seat, level):
            return f"{_RESIGN} {seat} {level}"
        case Abort(None, None):
            return _ABORT
        case Abort(seat, why):
            return f"{_ABORT} {seat} {why}"
        case HandOver(seat, level, timeout, fallback):
            tail = f" {_TIMEOUT}" if timeout else f" {_FALLBACK}" if fallback else ""
            return f"{_SEAT} {seat} bot {level}{tail}"
        case TakeBack(seat):
            return f"{_SEAT} {seat} human"
    raise TypeError(f"not a log entry: {entry!r}")


def decode(text: str) -> LogEntry:
    """The entry stored as ``text``; raises ``ValueError`` for a ``seat`` entry of no known
    form."""
    if text == _UNDO:
        return Undo()
    if text == _ABORT:
        return Abort()
    words = text.split()
    if len(words) == 3 and words[1].isdigit():
        if words[0] == _RESIGN:
            return Resign(int(words[1]), words[2])
        if words[0] == _ABORT and words[2] in ABORT_WHYS:
            return Abort(int(words[1]), words[2])
    if len(words) >= 3 and words[0] == _SEAT:
        return _seat_change(text, words)
    return Move(text)


def _seat_change(text: str, words: list[str]) -> HandOver | TakeBack:
    """A ``seat`` entry (``seat 1 bot hard [timeout|fallback]``, ``seat 1 human``)."""
    seat = int(words[1])
    if words[2] == "bot" and len(words) == 4:
        return HandOver(seat, words[3])
    if words[2] == "bot" and len(words) == 5 and words[4] in (_TIMEOUT, _FALLBACK):
        return HandOver(seat, words[3], timeout=words[4] == _TIMEOUT, fallback=words[4] != _TIMEOUT)
    if words[2] == "human" and len(words) == 3:
        return TakeBack(seat)
    raise ValueError(f"not a seat change: {text!r}")
