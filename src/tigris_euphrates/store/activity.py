"""What the lobby shows of everybody's activity (``store.activity``): how many people are
online, who waits in quick match for what, and the games under way that anyone may watch.
Read from the database only (presence rows, the quick-match queue, the games), so that
every server process shows the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Connection

from .database import Database, repair_text
from .ratings import family_of, size_of
from .rows import GameOptions


@dataclass
class Seek:
    """A player waiting in quick match: for which family, players and pace, since when,
    and their rating there (``None``: not rated there yet)."""

    name: str
    family: str
    players: int
    pace: str
    joined: float
    ordinal: float | None


@dataclass
class GameSeat:
    """A seat of a game under way: its name, and for an account its rating in the game's
    family and size (``None``: a guest, a bot, an account not rated there)."""

    name: str
    account: bool
    ordinal: float | None


@dataclass
class Ongoing:
    """A listed game under way between people."""

    id: str
    options: GameOptions
    rated: bool
    updated: float
    seats: list[GameSeat]


class Activity:
    """The lobby's view of everybody's activity in one database (``Store.activity``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    def online(self, since: float) -> int:
        """How many people (bot accounts not counted) were seen connected since ``since``."""
        p, a = self.t.presence, self.t.accounts
        query = (
            select(func.count())
            .select_from(p.join(a, a.c.id == p.c.account_id))
            .where(p.c.seen >= since, a.c.bot.is_(None))
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def seeks(self, limit: int = 50) -> list[Seek]:
        """The players waiting in quick match, the longest waiting first."""
        q, a = self.t.match_queue, self.t.accounts
        query = (
            select(q.c.account_id, q.c.family, q.c.players, q.c.pace, q.c.joined, a.c.name)
            .join(a, a.c.id == q.c.account_id)
            .where(q.c.state == "waiting")
            .order_by(q.c.joined, q.c.account_id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            wanted = {(int(r.account_id), str(r.family), size_of(int(r.players))) for r in rows}
            ratings = self._ordinals(conn, wanted)
        return [
            Seek(
                str(repair_text(r.name)),
                str(r.family),
                int(r.players),
                str(r.pace),
                float(r.joined),
                ratings.get((int(r.account_id), str(r.family), size_of(int(r.players)))),
            )
            for r in rows
        ]

    def ongoing(self, limit: int = 100) -> list[Ongoing]:
        """The listed games under way with at least two people at them, the most lately
        moved first, each account's rating at its game."""
        g, s, a = self.t.games, self.t.account_seats, self.t.accounts
        query = (
            select(g.c.id, g.c.options, g.c.seats, g.c.rated, g.c.updated)
            .where(g.c.status == "active", or_(g.c.listed.is_(None), g.c.listed != 0))
            .order_by(g.c.updated.desc(), g.c.id)
            .limit(limit * 4)
        )
        out: list[Ongoing] = []
        with self.engine.connect() as conn:
            games = []
            for r in conn.execute(query):
                seats = json.loads(r.seats)
                if sum(1 for x in seats if x.get("kind") == "human") >= 2:
                    games.append((r, seats))
                if len(games) >= limit:
                    break
            ids = [r.id for r, _ in games]
            bound: dict[tuple[str, int], tuple[int, str]] = {}
            if ids:
                rows = conn.execute(
                    select(s.c.game_id, s.c.seat, s.c.account_id, a.c.name)
                    .join(a, a.c.id == s.c.account_id)
                    .where(s.c.game_id.in_(ids))
                )
                for x in rows:
                    bound[(str(x.game_id), int(x.seat))] = (
                        int(x.account_id),
                        str(repair_text(x.name)),
                    )
            wanted: set[tuple[int, str, str]] = set()
            for r, seats in games:
                options = json.loads(r.options)
                kind = (family_of(options), size_of(len(seats)))
                for n in range(len(seats)):
                    if (r.id, n) in bound:
                        wanted.add((bound[(r.id, n)][0], *kind))
            ratings = self._ordinals(conn, wanted)
        for r, seats in games:
            options = json.loads(r.options)
            kind = (family_of(options), size_of(len(seats)))
            shown: list[GameSeat] = []
            for n, seat in enumerate(seats):
                held = bound.get((r.id, n))
                if held is None:
                    name = str(repair_text(seat.get("name") or ""))
                    shown.append(GameSeat(name, False, None))
                else:
                    shown.append(GameSeat(held[1], True, ratings.get((held[0], *kind))))
            out.append(Ongoing(str(r.id), options, bool(r.rated), float(r.updated), shown))
        return out

    def _ordinals(
        self, conn: Connection, wanted: set[tuple[int, str, str]]
    ) -> dict[tuple[int, str, str], float]:
        """(account, family, size) -> ordinal of those of ``wanted`` that are rated."""
        if not wanted:
            return {}
        r = self.t.ratings
        query = select(r.c.account_id, r.c.family, r.c.size, r.c.ordinal).where(
            r.c.account_id.in_({x[0] for x in wanted})
        )
        found: dict[tuple[int, str, str], float] = {}
        for x in conn.execute(query):
            key = (int(x.account_id), str(x.family), str(x.size))
            if key in wanted:
                found[key] = float(x.ordinal)
        return found
