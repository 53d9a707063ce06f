"""The answers of players in public (``routes/players.py``): a player's page (ratings,
rating history, statistics, recent games) and the leaderboards."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.ratings import RatingChange
from .accounts import GameLine, PublicAccount


class RatingLine(TypedDict):
    """A rating of the player in one family and size: OpenSkill's μ and σ, the ordinal
    (μ − 3σ), the rating shown (``display``), rated games and the rank on its board."""

    family: str
    size: str
    mu: float
    sigma: float
    ordinal: float
    display: int
    games: int
    rank: int


class Record(TypedDict):
    """Games finished, won (first place, shared or not), the win rate, the average score."""

    games: int
    wins: int
    win_rate: float
    average_score: float


class KindRecord(Record):
    """The record of one ruleset and player count."""

    ruleset: str
    players: int


class Conflicts(TypedDict):
    won: int
    lost: int


class PlayerStats(Record):
    """A player's finished games summed up: by ruleset and player count, points by source,
    revolts and wars won and lost, catastrophes placed."""

    by_kind: list[KindRecord]
    points: dict[str, int]
    conflicts: dict[str, Conflicts]
    catastrophes: int


class Profile(TypedDict):
    """A player's public page (an unfinished game shows only who plays)."""

    account: PublicAccount
    ratings: list[RatingLine]
    history: list[RatingChange]
    stats: PlayerStats
    games: list[GameLine]


class BoardLine(TypedDict):
    """A line of a leaderboard (``me``: the signed-in player)."""

    rank: int
    name: str
    ordinal: float
    display: int
    mu: float
    sigma: float
    games: int
    me: bool


class Leaderboard(TypedDict):
    """A page of a leaderboard, best first, and the signed-in player's neighbourhood."""

    family: str
    size: str
    bots: bool
    families: list[str]
    sizes: list[str]
    total: int
    offset: int
    top: list[BoardLine]
    around: list[BoardLine]
    updated: float
