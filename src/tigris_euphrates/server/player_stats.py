"""A player's statistics over their finished games: games, wins and win rate by player count
and ruleset, average score, points by source and conflicts, and the same game by game as
CSV.

Each finished game's own statistics (``stats.game_stats``: points by source, revolts and
wars, catastrophes) are computed once from its log and kept with the game
(``games.stats``). A win is first place, shared or not; the score is the final score (the
weakest colour after the treasures, RULES.md §9).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict

from typing_extensions import TypedDict

from ..stats import SOURCES
from ..store import Store
from ..store.accounts import AccountGame
from ..store.jsontypes import JsonDict, int_at
from ..store.ratings import family_of, places
from .answers.players import Conflicts, KindRecord, PlayerStats, Record
from .live import LiveGame


def game_stats_of(store: Store, game_id: str) -> JsonDict:
    """The statistics of a finished game, computed from its log on first use and kept."""
    game = LiveGame(store.games.load(game_id))
    stats = game.stats()
    store.accounts.set_game_stats(game_id, stats)
    return stats


def fill_stats(store: Store, games: list[AccountGame]) -> None:
    """Give each finished game its statistics (computing those not kept yet)."""
    for g in games:
        if g.status == "over" and g.stats is None:
            g.stats = game_stats_of(store, g.id)


class Finished(TypedDict):
    """One finished game as the account's seat lived it (a line of the CSV)."""

    game: str
    finished: float
    ruleset: str
    players: int
    rated: bool
    seat: int
    place: int
    won: bool
    score: int
    points: dict[str, int]
    revolts: dict[str, int]
    wars: dict[str, int]
    catastrophes: int
    opponents: list[str]


def _row(g: AccountGame) -> Finished | None:
    """One finished game as the account's seat lived it (``None``: not finished)."""
    if g.status != "over" or not g.result:
        return None
    players = len(g.seats)
    place = places(g.result["ranking"], players)[g.seat]
    scores = g.result.get("scores") or []
    score = min(scores[g.seat]) if g.seat < len(scores) and scores[g.seat] else 0
    seat = _seat_stats(g.stats, g.seat)
    return {
        "game": g.id,
        "finished": g.updated,
        "ruleset": family_of(g.options),
        "players": players,
        "rated": g.rated,
        "seat": g.seat,
        "place": place,
        "won": place == 1,
        "score": score,
        "points": _counts(seat, "points") or dict.fromkeys(SOURCES, 0),
        "revolts": _counts(seat, "revolts"),
        "wars": _counts(seat, "wars"),
        "catastrophes": int_at(seat, "catastrophes") if seat.get("catastrophes") else 0,
        "opponents": [name for s, name in sorted(g.players.items()) if s != g.seat],
    }


def _seat_stats(stats: JsonDict | None, seat: int) -> JsonDict:
    """The statistics of ``seat`` in a game's statistics (``{}``: none kept)."""
    seats = stats.get("seats") if stats else None
    row = seats[seat] if isinstance(seats, list) and seat < len(seats) else None
    return row if isinstance(row, dict) else {}


def _counts(seat: JsonDict, key: str) -> dict[str, int]:
    """The counts under ``key`` of a seat's statistics (``{}``: none)."""
    counts = seat.get(key)
    if not counts:
        return {}
    if not isinstance(counts, dict):
        raise TypeError(f"{key!r} is not an object of counts: {counts!r}")
    return {k: int_at(counts, k) for k in counts}


def player_stats(games: list[AccountGame]) -> PlayerStats:
    """The summary of an account's finished games (``games`` with their statistics)."""
    rows = [r for r in (_row(g) for g in games) if r is not None]
    groups: dict[tuple[str, int], list[Finished]] = defaultdict(list)
    for r in rows:
        groups[(r["ruleset"], r["players"])].append(r)

    def summary(part: list[Finished]) -> Record:
        n = len(part)
        wins = sum(1 for r in part if r["won"])
        return {
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "average_score": sum(r["score"] for r in part) / n if n else 0.0,
        }

    points = {source: sum(r["points"].get(source, 0) for r in rows) for source in SOURCES}
    conflicts: dict[str, Conflicts] = {
        "revolts": _conflicts([r["revolts"] for r in rows]),
        "wars": _conflicts([r["wars"] for r in rows]),
    }
    by_kind: list[KindRecord] = [
        {"ruleset": ruleset, "players": players, **summary(part)}
        for (ruleset, players), part in sorted(groups.items())
    ]
    return {
        **summary(rows),
        "by_kind": by_kind,
        "points": points,
        "conflicts": conflicts,
        "catastrophes": sum(r["catastrophes"] for r in rows),
    }


def _conflicts(counts: list[dict[str, int]]) -> Conflicts:
    """Conflicts of one kind won and lost, summed over games."""
    return {
        "won": sum(c.get("won", 0) for c in counts),
        "lost": sum(c.get("lost", 0) for c in counts),
    }


#: the CSV's columns, in order
CSV_COLUMNS = [
    "game",
    "finished_utc",
    "ruleset",
    "players",
    "rated",
    "seat",
    "place",
    "won",
    "score",
    *(f"points_{s}" for s in SOURCES),
    "revolts_won",
    "revolts_lost",
    "wars_won",
    "wars_lost",
    "catastrophes",
    "opponents",
]


def stats_csv(games: list[AccountGame]) -> str:
    """One line per finished game, newest first (a spreadsheet's header on top)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in (_row(g) for g in games):
        if r is None:
            continue
        when = dt.datetime.fromtimestamp(r["finished"], dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
        writer.writerow(
            [
                r["game"],
                when,
                r["ruleset"],
                r["players"],
                int(r["rated"]),
                r["seat"] + 1,
                r["place"],
                int(r["won"]),
                r["score"],
                *(r["points"].get(s, 0) for s in SOURCES),
                r["revolts"].get("won", 0),
                r["revolts"].get("lost", 0),
                r["wars"].get("won", 0),
                r["wars"].get("lost", 0),
                r["catastrophes"],
                # a name is text, never a formula in a spreadsheet
                "; ".join(_cell(n) for n in r["opponents"]),
            ]
        )
    return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
