"""The answers of the bot accounts' routes (``routes/bots.py``): an account made a bot, its
API tokens, the challenges between accounts (``store.bots.PublicChallenge``)."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.bots import PublicChallenge


class BotAccount(TypedDict):
    """The account, a bot account since ``since``."""

    id: int
    name: str
    bot: bool
    since: float


class BotMade(TypedDict):
    account: BotAccount


class TokenLine(TypedDict):
    """An API token as its owner's list shows it: its name, when made and last used; never
    its secret."""

    id: int
    name: str
    created: float
    last_used: float | None


class MadeToken(TokenLine):
    """A new API token: its secret (``token``) is in this answer only."""

    token: str


class Tokens(TypedDict):
    tokens: list[TokenLine]


class TokenRevoked(TypedDict):
    revoked: int


class Challenges(TypedDict):
    """The account's challenges, sent and received: the open ones and those of the last
    hour."""

    challenges: list[PublicChallenge]
