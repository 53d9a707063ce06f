"""Signs of life in the lobby (``ActivityFrame``): how many people are online, who waits
in quick match for which game, the games under way between people to watch and the best
of them to watch now.

Everything is read from the database (``store.activity``), so that every server process
shows the same: presence rows written by every process (``lobbyfeed.keep_presence``), the
quick-match queue's waiting rows, the listed active games. ``LobbyFeed`` sends the frame
when a lobby connects, when a quick match changes anywhere (its ``LobbyNote``), and every
``PRESENCE_SECONDS`` when it differs from the last one sent (people come and go, games
move and end).
"""

from __future__ import annotations

from ..store import Store
from ..store.activity import Ongoing
from ..store.ratings import displayed
from .dbthread import DatabaseThread
from .frames import ActivityFrame, SeekInfo, WatchInfo

#: The games under way the lobby lists (the best first), and the seeks.
WATCH_GAMES = 8
SEEKS_SHOWN = 30


def watch_info(game: Ongoing) -> WatchInfo:
    """A game under way as the lobby lists it."""
    # an account not rated there yet counts as a newcomer (1500, as the tables show it)
    rated = [displayed(s.ordinal or 0.0) for s in game.seats if s.account]
    return {
        "game": game.id,
        "options": game.options,
        "rated": game.rated,
        "seats": [
            {
                "name": s.name,
                "account": s.account,
                "rating": None if s.ordinal is None else displayed(s.ordinal),
            }
            for s in game.seats
        ],
        "average": round(sum(rated) / len(rated)) if rated else None,
    }


def best_of(games: list[WatchInfo]) -> WatchInfo | None:
    """The rated game whose rated players' average rating is the highest (the most
    lately moved of equals: the list's order)."""
    rated = [g for g in games if g["rated"] and g["average"] is not None]
    return max(rated, key=lambda g: g["average"] or 0, default=None)


async def activity_frame(store: Store, db: DatabaseThread, online_since: float) -> ActivityFrame:
    """The lobby's activity now (people seen since ``online_since`` count as online)."""
    online: int = await db(store.activity.online, online_since)
    seeks = await db(store.activity.seeks, SEEKS_SHOWN)
    ongoing: list[Ongoing] = await db(store.activity.ongoing)
    games = [watch_info(g) for g in ongoing]
    best = best_of(games)
    games.sort(key=lambda g: -(g["average"] or 0))  # stable: the most lately moved first
    shown: list[SeekInfo] = [
        {
            "name": s.name,
            "family": s.family,
            "players": s.players,
            "pace": s.pace,
            "since": s.joined,
            "rating": None if s.ordinal is None else displayed(s.ordinal),
        }
        for s in seeks
    ]
    return {
        "type": "activity",
        "online": online,
        "seeks": shown,
        "games": games[:WATCH_GAMES],
        "best": best,
    }
