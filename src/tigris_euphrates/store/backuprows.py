"""The rows of the operator's backup (``tne export``, ``tne import``: server/backup.py and
server/restore.py), typed: what each area of the store dumps and restores, in the order of
the fields of the export's lines (``tne-export/1``, docs/formats.md).
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from .jsontypes import JsonDict
from .rows import GameOptions, GameResult, PaceData, StoredSeat, TableSettings

#: A step of a game's log with the time it was stored: ``[seq, seat, action, created]``
#: (a JSON array).
LogRow = tuple[int, int | None, str, float]


class GameDump(TypedDict):
    """Every fact of a ``games`` row and its whole log (``GameBackup.dump``). ``stats``:
    the statistics (``tne-stats/1``, ``stats.game_stats``) once computed."""

    id: str
    created: float
    updated: float
    status: str
    options: GameOptions
    seed: int
    seed_source: str
    seats: list[StoredSeat]
    creator: str | None
    client: str
    bots: int | None
    rated: bool
    listed: bool
    settings: TableSettings
    result: GameResult | None
    stats: JsonDict | None
    log: list[LogRow]


#: A chat line of a game: ``[n, seat, name, text, created, hidden]`` (``Chat.dump``).
ChatRow = tuple[int, int | None, str, str, float, float | None]
#: A seat bound to an account: ``[seat, account id, created]`` (``Accounts.dump_seats``).
BoundRow = tuple[int, int, float]


class GameLine(GameDump):
    """A game as its export line holds it (without its ``kind``): its row and log, its
    chat, its clock (a timed game's), its seats bound to accounts, the hints each seat
    had (``[seat, used]``; absent in files of older versions) and its record
    (``tne-record/1``, the replay of its log; ``None`` when it did not replay)."""

    chat: list[ChatRow]
    clock: ClockRow | None
    players: list[BoundRow]
    hints: NotRequired[list[list[int]]]
    record: JsonDict | None


class AccountRow(TypedDict):
    """An account without its secrets (``Accounts.dump``): ``bot``, when it became a bot
    account (``None``: a person)."""

    id: int
    name: str
    created: float
    bot: float | None


class AccountLine(TypedDict):
    """An account as its export line holds it (without its ``kind``): its row, with its
    turn e-mail settings (``None``: none); ``bot`` is absent in files of older versions."""

    id: int
    name: str
    created: float
    notify: NotifyRow | None
    bot: NotRequired[float | None]


class RatingRow(TypedDict):
    """A rating: an account's in a family and a size of game."""

    account_id: int
    family: str
    size: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    updated: float


class RatingChangeRow(TypedDict):
    """A rated game's change of one account's rating."""

    game_id: str
    account_id: int
    family: str
    size: str
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    created: float


class SocialRow(TypedDict):
    """Whom an account follows and whom it blocked (account ids)."""

    account_id: int
    follows: list[int]
    blocks: list[int]


class StandingRow(TypedDict):
    """An account's flags: a moderator (``admin``), banned or muted since when (or
    ``None``)."""

    account_id: int
    admin: bool
    banned: float | None
    muted: float | None
    updated: float


class ReportRow(TypedDict):
    """A player's report (``about``: ``chat``, a line of ``game_id`` numbered ``n``, or
    ``account``)."""

    id: int
    reporter: int
    target: str
    game_id: str | None
    n: int | None
    account_id: int | None
    reason: str
    created: float
    state: str
    closed_by: str | None
    closed: float | None
    about: str


class ClockRow(TypedDict):
    """A timed game's clock row, as the operator's backup holds it: its pace, the running
    deadline, the seat whose time runs and the step it was set at, and the last step whose
    turn e-mail went out."""

    pace: PaceData
    deadline: float | None
    seat: int | None
    seq: int
    notified: int


class NotifyRow(TypedDict):
    """An account's turn e-mail settings, as the operator's backup holds them."""

    email: str
    enabled: bool
    updated: float


class PuzzleLine(TypedDict):
    """A puzzle as the operator's backup holds it (``puzzles``): its ``data``
    (``tne-puzzle/1``) as the JSON object it is, its rating and rated attempts."""

    id: str
    game_id: str
    ply: int
    family: str
    players: int
    data: JsonDict
    mu: float
    sigma: float
    attempts: int
    solved: int
    created: float


class PuzzleAttemptRow(TypedDict):
    """An account's rated attempt at a puzzle (``puzzle_attempts``): the action, whether it
    solved it, both ratings before and after."""

    puzzle_id: str
    account_id: int
    action: str
    correct: bool
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    puzzle_mu_before: float
    puzzle_sigma_before: float
    puzzle_mu: float
    puzzle_sigma: float
    created: float


class PuzzleRatingRow(TypedDict):
    """An account's puzzle rating (``puzzle_ratings``)."""

    account_id: int
    mu: float
    sigma: float
    attempts: int
    solved: int
    updated: float


class PuzzleConsentRow(TypedDict):
    """An account's setting "my games may become puzzles" (``puzzle_consent``)."""

    account_id: int
    allowed: bool
    updated: float


class EventLine(TypedDict):
    """A live event as the operator's backup holds it (``events``): ``type`` is its kind,
    ``arena`` or ``swiss`` (the line's ``kind`` names the line), ``settings`` the JSON
    object of its rules as stored."""

    id: str
    name: str
    type: str
    maker: int
    state: str
    settings: JsonDict
    starts: float
    ends: float | None
    round: int
    seed: int
    invite: str | None
    next_id: str | None
    created: float


class EventEntrantLine(TypedDict):
    """An account entered in an event (``event_entrants``)."""

    event_id: str
    account_id: int
    state: str
    rating: float
    bot: bool
    joined: float


class EventGameLine(TypedDict):
    """A game of an event (``event_games``): its accounts in seat order, its Swiss round,
    its state and, once over, each seat's place (0 = first)."""

    game_id: str
    event_id: str
    round: int | None
    seats: list[int]
    state: str
    ranks: list[int] | None
    created: float
    ended: float | None


class EventByeLine(TypedDict):
    """A Swiss round an entrant did not play, and what it was worth (``event_byes``)."""

    event_id: str
    round: int
    account_id: int
    points: float
