"""The answers of moderation (``routes/moderation.py``): a report made, the reports, the
flagged accounts, the pairs of accounts with repeated short rated results, a sanction, a
chat line hidden, a game stopped."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.moderation import ReportedLine
from .games import GameSummary


class ReportMade(TypedDict):
    id: int
    kind: str
    state: str


class ReportMadeAnswer(TypedDict):
    report: ReportMade


class ReportLine(TypedDict):
    """A report as an admin reads it: who reported what, when, why, its state, and the
    reported chat line (``{seat, name, text, at, hidden}``) or account."""

    id: int
    kind: str
    reporter: str
    reason: str
    created: float
    state: str
    game: str | None
    n: int | None
    account: str | None
    line: ReportedLine | None
    closed_by: str | None
    closed: float | None


class Reports(TypedDict):
    reports: list[ReportLine]


class ReportNewState(TypedDict):
    id: int
    state: str


class ReportClosed(TypedDict):
    report: ReportNewState


class Standing(TypedDict):
    """An account's flags: an admin, banned since, muted since (``None``: not)."""

    name: str
    admin: bool
    banned: float | None
    muted: float | None


class Flagged(TypedDict):
    accounts: list[Standing]


class ShortPair(TypedDict):
    """Two accounts with repeated short rated results between them: how many such games,
    their plies together, when the last was counted, how many each finished ahead, and the
    games (newest first)."""

    accounts: list[str]
    games: int
    plies: int
    last: float
    wins: list[int]
    game_ids: list[str]


class Collusion(TypedDict):
    """The pairs, the most first, and what counts: ``repeated`` games of fewer than
    ``short_plies`` plies."""

    short_plies: int
    repeated: int
    pairs: list[ShortPair]


class HandedSeat(TypedDict):
    game: str
    seat: int


class Sanction(TypedDict):
    """The account's flags now, and the seats a ban handed to bots."""

    account: Standing
    seats: list[HandedSeat]


class LineHidden(TypedDict):
    game: str
    n: int
    hidden: bool


class GameStopped(TypedDict):
    game: GameSummary
