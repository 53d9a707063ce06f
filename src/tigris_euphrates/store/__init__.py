"""Game persistence: the action log in a database (SQLite by default, PostgreSQL by URL).

A game is a ``games`` row (options, seed, seats) plus its ``actions`` rows keyed by
``PRIMARY KEY (game_id, seq)``: the state is always the replay of the log, and a second
writer of the same step fails at the database (``StepTaken``), even across processes.
"""

from .db import (
    ChatLine,
    GameRow,
    ServerLock,
    StepTaken,
    Store,
    StoreInUse,
    UnknownGame,
    database_url_for,
    normalise_url,
)

__all__ = [
    "ChatLine",
    "GameRow",
    "ServerLock",
    "StepTaken",
    "Store",
    "StoreInUse",
    "UnknownGame",
    "database_url_for",
    "normalise_url",
]
