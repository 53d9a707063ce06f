"""Persistence: the games' action logs, chat, clocks, accounts and ratings in one database
(SQLite by default, PostgreSQL by URL), reached as ``Store(url).<area>.<verb>(...)``.

A game is a ``games`` row (options, seed, seats) plus its ``actions`` rows keyed by
``PRIMARY KEY (game_id, seq)``: the state is always the replay of the log, and a second
writer of the same step fails at the database (``StepTaken``), even across processes.
"""

from .accounts import Account, AccountGame, NameTaken, name_key
from .chat import ChatLine
from .clocks import NotifySettings
from .database import (
    ServerLock,
    StoreInUse,
    database_url_for,
    libpq_url,
    normalise_url,
    repair_text,
)
from .games import GameRow, RematchTaken, StepTaken, UnknownGame
from .moderation import REPORT_STATES, AlreadyReported, Report, Standing
from .ratings import FAMILIES, SIZES, family_of
from .store import Store

__all__ = [
    "FAMILIES",
    "REPORT_STATES",
    "SIZES",
    "Account",
    "AccountGame",
    "AlreadyReported",
    "ChatLine",
    "GameRow",
    "NameTaken",
    "NotifySettings",
    "RematchTaken",
    "Report",
    "ServerLock",
    "Standing",
    "StepTaken",
    "Store",
    "StoreInUse",
    "UnknownGame",
    "database_url_for",
    "family_of",
    "libpq_url",
    "name_key",
    "normalise_url",
    "repair_text",
]
