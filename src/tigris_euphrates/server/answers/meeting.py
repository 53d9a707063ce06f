"""The answers of meeting people (``routes/meet.py``, ``routes/social.py``,
``routes/direct.py``): a seat at an open table, a table started or left, an invitation, the
quick match, friends and blocks, direct challenges. The lobby's own frames (``TablesFrame``,
``MeFrame``) are in ``frames.py``: the routes that answer them send what the lobby's socket
sends."""

from __future__ import annotations

from typing_extensions import TypedDict

from ..frames import ChallengeInfo, QuickMatch


class Ticket(TypedDict):
    """A seat taken at an open table: its secret token (given once), and the game and its
    link once the table started."""

    table: str
    seat: int
    token: str
    game: str | None
    link: str | None


class TableStarted(TypedDict):
    """The table's game, and the creator's link to its seat."""

    game: str
    link: str


class TableLeft(TypedDict):
    """What became of the table (``open``, or ``closed`` when its creator left)."""

    state: str


class Invited(TypedDict):
    """The account invited, and whether it was told by e-mail."""

    invited: str
    mailed: bool


class MatchState(TypedDict):
    """The account's quick match (``None``: not queued)."""

    match: QuickMatch | None


class Queued(TypedDict):
    """The secret token of the seat the quick match's game will give."""

    token: str


class Unqueued(TypedDict):
    """Whether the account was waiting for a quick match (and no longer is)."""

    left: bool


class Following(TypedDict):
    following: str


class Unfollowed(TypedDict):
    unfollowed: str


class Blocked(TypedDict):
    blocked: str


class Unblocked(TypedDict):
    unblocked: str


class InviteDeclined(TypedDict):
    declined: int


class DirectChallenges(TypedDict):
    """The account's direct challenges, sent and received."""

    challenges: list[ChallengeInfo]


class DirectMade(TypedDict):
    """The new challenge, and the people told of it by e-mail."""

    challenge: ChallengeInfo
    mailed: list[str]


class DirectAccepted(TypedDict):
    """The challenge, and its game once every invited person accepted (``None`` before)."""

    challenge: ChallengeInfo
    game: str | None
    link: str | None


class DirectClosed(TypedDict):
    """The challenge, declined or cancelled."""

    challenge: ChallengeInfo
