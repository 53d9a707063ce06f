"""The answers of the account routes (``routes/accounts.py``, ``routes/credentials.py``,
``routes/notify.py``): who is signed in, the seats bound to an account, "My games", the
account's address and its e-mail settings."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.rows import SentOptions
from .games import Ranking


class PublicAccount(TypedDict):
    """An account as anybody may see it (``bot``: a bot account)."""

    id: int
    name: str
    created: float
    bot: bool


class OwnAccount(PublicAccount):
    """The signed-in account, and whether it moderates (the page then links the admins'
    page)."""

    admin: bool


class Who(TypedDict):
    """The signed-in account (``None``: a guest) and the CSRF token the page sends back."""

    account: OwnAccount | None
    csrf: str


class ClaimedSeat(TypedDict):
    game: str
    seat: int


class SignedIn(TypedDict):
    """The account now signed in, and the seats of this browser bound to it."""

    account: PublicAccount
    claimed: list[ClaimedSeat]


class Claimed(TypedDict):
    """The seats of this browser now bound to the account."""

    claimed: list[ClaimedSeat]


class SignedOut(TypedDict):
    """Nobody is signed in any more (``account`` is always ``None``)."""

    account: None


class AccountOnly(TypedDict):
    """The account (after a change of its password)."""

    account: PublicAccount


class MySeats(TypedDict):
    """The seats of a game bound to the signed-in account."""

    seats: list[int]


class LineSeat(TypedDict):
    """A seat of a game in "My games": its kind, its bot's level, its name, whether the
    name was chosen, and the account holding it (``None``: none)."""

    seat: int
    kind: str | None
    level: str | None
    name: str
    named: bool
    account: str | None


class GameLine(TypedDict):
    """A game of an account as "My games" and the profiles list it: its seat, status,
    seats, ranking and final scores once over, who is to act (``my_turn``: the account)."""

    id: str
    seat: int
    status: str
    rated: bool
    created: float
    updated: float
    options: SentOptions
    seats: list[LineSeat]
    ranking: Ranking | None
    scores: list[int] | None
    to_act: int | None
    my_turn: bool


class MyGames(TypedDict):
    """Every game of the signed-in account: its turn first, then the other unfinished
    ones, then the finished ones."""

    account: PublicAccount
    games: list[GameLine]


class Address(TypedDict):
    """The account's e-mail address, whether confirmed, the new one waiting for its
    confirmation, and whether this server sends e-mail at all."""

    email: str | None
    confirmed: bool
    pending: str | None
    configured: bool


class EmailChanged(TypedDict):
    """The account's new address, confirmed."""

    email: str


class Told(TypedDict):
    """What the page shows (the same whether the name or address is known)."""

    message: str


class NamedAccount(TypedDict):
    """The account a reset link opens (``None``: it is gone)."""

    name: str | None


class LinkAccount(TypedDict):
    """The account a reset link opens."""

    name: str


class NotifySettings(TypedDict):
    """The "your move" e-mails of turn-based games: the address, on or off, whether it is
    confirmed, and whether this server sends e-mail at all."""

    email: str | None
    enabled: bool
    confirmed: bool
    configured: bool
