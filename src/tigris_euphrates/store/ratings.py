"""Players' ratings: openskill (Plackett–Luce) per ruleset family (``Ruleset.family``)
and player count class (``2p``, ``multi``), updated when a rated game ends.

A game counts once per account whatever happens: its rating changes are stored under the key
``(game, account)`` in the same transaction as the new ratings, so a second processing of the
same end (a replayed end, another process, a restart) fails on that key and changes nothing.
Players who share a place (equal final scores) tie in the update. A game is rated only for
the moves its people made (``fairplay``): a seat played by bots forfeits (it is rated last),
and a game every seat of which forfeited is rated for nobody (stored as ``rated = 0``).
"""

from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from typing_extensions import TypedDict

from .. import DEFAULT_RULESET, RULESETS
from .backuprows import RatingChangeRow, RatingRow
from .database import Database, repair_text
from .fairplay import judge, tally
from .logentry import Abort, decode
from .rows import GameOptions

#: the classes of player count a rating is kept for
SIZES = ("2p", "multi")


def size_of(players: int) -> str:
    return "2p" if players == 2 else "multi"


#: the rating families, one leaderboard each (a fact of each ruleset), the default first
FAMILIES = tuple(
    dict.fromkeys([RULESETS[DEFAULT_RULESET].family, *(r.family for r in RULESETS.values())])
)


#: The displayed rating: ``DISPLAY_BASE + DISPLAY_SCALE * ordinal``, rounded, never below 0
#: (docs/web.md). The ordinal (μ − 3σ) of a newcomer is 0 and goes below 0 after a first
#: loss; shown as such it would greet a new player with a negative number.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 40


class RatingChange(TypedDict):
    """A rating change by a rated game (the profile's plot): the place, the rating after
    and before (ordinal and shown), when."""

    game: str
    family: str
    size: str
    place: int
    mu: float
    sigma: float
    ordinal: float
    before: float
    display: int
    display_before: int
    time: float


def displayed(ordinal: float) -> int:
    """The rating a player is shown for an ordinal (μ − 3σ): a newcomer's is 1500."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * ordinal))


def family_of(options: GameOptions) -> str:
    """The rating family of a game with ``options`` (its ruleset's)."""
    return RULESETS[str(options.get("ruleset") or DEFAULT_RULESET)].family


def places(ranking: list[int | list[int]], players: int) -> list[int]:
    """Each seat's place (1 = best) from a result's ranking, where seats sharing a place
    form a nested list: ``[[0, 2], 1]`` gives seats 0 and 2 place 1, seat 1 place 3."""
    out = [0] * players
    place = 1
    for group in ranking:
        seats = group if isinstance(group, list) else [group]
        for seat in seats:
            out[seat] = place
        place += len(seats)
    return out


@dataclass
class Rating:
    account_id: int
    name: str
    family: str
    size: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int = 0


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


class Ratings:
    """The rating tables of one database (``Store.ratings``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    def rate_game(self, game_id: str) -> bool:
        """Apply the result of the finished rated game ``game_id`` to its players' ratings;
        ``False`` when there is nothing to do (not rated, not over, a seat without an
        account, already counted, or every seat forfeited to bots: then the game is marked
        unrated, ``rated = 0``)."""
        g, s, a = self.t.games, self.t.account_seats, self.t.actions
        with self.engine.connect() as conn:
            row = conn.execute(select(g).where(g.c.id == game_id)).first()
            if row is None or not row.rated or row.status != "over" or not row.result:
                return False
            bound = {
                int(r.seat): int(r.account_id)
                for r in conn.execute(
                    select(s.c.seat, s.c.account_id).where(s.c.game_id == game_id)
                )
            }
            log = conn.execute(
                select(a.c.seat, a.c.action).where(a.c.game_id == game_id).order_by(a.c.seq)
            ).all()
            kinds = {
                x is not None
                for x in conn.execute(
                    select(self.t.accounts.c.bot).where(
                        self.t.accounts.c.id.in_(list(bound.values()))
                    )
                ).scalars()
            }
        options = json.loads(row.options)
        result = json.loads(row.result)
        players = len(json.loads(row.seats))
        seats = list(range(players))
        if any(seat not in bound for seat in seats) or len(set(bound.values())) != players:
            return False
        entries = [(r.seat, decode(str(r.action))) for r in log]
        if any(isinstance(entry, Abort) for _, entry in entries):
            return False  # an aborted game is never rated (``fairplay``: the opening)
        verdict = judge(
            tally(players, entries),
            places(result["ranking"], players),
        )
        family, size = family_of(options), size_of(players)
        try:
            with self.engine.begin() as conn:
                if not verdict.counted or len(kinds) > 1:
                    conn.execute(update(g).where(g.c.id == game_id).values(rated=0))
                    return False
                self._serialise(conn)
                self._apply(conn, game_id, family, size, [bound[i] for i in seats], verdict.places)
        except IntegrityError:
            return False  # counted already (the (game, account) key)
        return True

    def _serialise(self, conn: Connection) -> None:
        """One rating update at a time across processes (PostgreSQL): two games ending at
        once for the same player must not both start from the same old rating."""
        if self.engine.dialect.name == "postgresql":
            key = zlib.crc32(f"tne-ratings:{self.db.prefix}".encode())
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})

    def _apply(
        self,
        conn: Connection,
        game_id: str,
        family: str,
        size: str,
        accounts: list[int],
        place: list[int],
    ) -> None:
        r, c = self.t.ratings, self.t.rating_changes
        model = _model()
        now = time.time()
        old = {
            int(x.account_id): x
            for x in conn.execute(
                select(r).where(
                    r.c.account_id.in_(accounts), r.c.family == family, r.c.size == size
                )
            )
        }
        before = [
            model.rating(mu=old[a].mu, sigma=old[a].sigma) if a in old else model.rating()
            for a in accounts
        ]
        after = model.rate([[x] for x in before], ranks=place)
        for account, was, team, p in zip(accounts, before, after, place, strict=True):
            new = team[0]
            conn.execute(
                insert(c).values(
                    game_id=game_id,
                    account_id=account,
                    family=family,
                    size=size,
                    place=p,
                    mu_before=was.mu,
                    sigma_before=was.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    created=now,
                )
            )
            values = {
                "mu": new.mu,
                "sigma": new.sigma,
                "ordinal": new.mu - 3 * new.sigma,
                "updated": now,
            }
            if account in old:
                conn.execute(
                    update(r)
                    .where(r.c.account_id == account, r.c.family == family, r.c.size == size)
                    .values(games=r.c.games + 1, **values)
                )
            else:
                conn.execute(
                    insert(r).values(
                        account_id=account, family=family, size=size, games=1, **values
                    )
                )

    def unrated_finished(self) -> list[str]:
        """Rated games that ended but were not counted (the server stopped in between)."""
        g, c = self.t.games, self.t.rating_changes
        counted = select(c.c.game_id).where(c.c.game_id == g.c.id).exists()
        query = select(g.c.id).where(g.c.rated == 1, g.c.status == "over", ~counted)
        with self.engine.connect() as conn:
            return [str(x) for x in conn.execute(query).scalars()]

    # --- reads ----------------------------------------------------------------------------

    def _ratings_query(self) -> Any:
        r, a = self.t.ratings, self.t.accounts
        return select(r, a.c.name).join(a, a.c.id == r.c.account_id)

    def _kind(self, bots: bool) -> Any:
        """The accounts of one leaderboard: bot accounts or people's, never a banned one (a
        ban takes the account off every board, and unbanning brings it back as it was:
        its rating is kept)."""
        a, f = self.t.accounts, self.t.account_flags
        banned = select(f.c.account_id).where(f.c.account_id == a.c.id, f.c.banned.isnot(None))
        return and_(a.c.bot.isnot(None) if bots else a.c.bot.is_(None), ~banned.exists())

    def _count(self, *where: Any) -> Any:
        """How many ratings match ``where`` (which may name the accounts' columns)."""
        r, a = self.t.ratings, self.t.accounts
        return select(func.count()).select_from(r.join(a, a.c.id == r.c.account_id)).where(*where)

    @staticmethod
    def _rating(x: Any, rank: int = 0) -> Rating:
        return Rating(
            int(x.account_id),
            str(repair_text(x.name)),
            str(x.family),
            str(x.size),
            float(x.mu),
            float(x.sigma),
            float(x.ordinal),
            int(x.games),
            rank,
        )

    def of_account(self, account_id: int) -> list[Rating]:
        """The account's ratings, each with its rank on its board (people's or bots')."""
        r, a = self.t.ratings, self.t.accounts
        query = self._ratings_query().add_columns(a.c.bot).where(r.c.account_id == account_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(r.c.family, r.c.size)).all()
            out = []
            for x in rows:
                better = conn.execute(
                    self._count(
                        r.c.family == x.family,
                        r.c.size == x.size,
                        r.c.ordinal > x.ordinal,
                        self._kind(x.bot is not None),
                    )
                ).scalar()
                out.append(self._rating(x, int(better or 0) + 1))
        return out

    def board(
        self, family: str, size: str, limit: int = 20, offset: int = 0, bots: bool = False
    ) -> tuple[list[Rating], int]:
        """A page of the leaderboard, best first (rank = 1 + players with a higher ordinal,
        so equal ratings share a rank), and how many players it has (``bots``: the bot
        accounts' board, else the people's)."""
        r = self.t.ratings
        where = and_(r.c.family == family, r.c.size == size, self._kind(bots))
        query = (
            self._ratings_query()
            .where(where)
            .order_by(r.c.ordinal.desc(), r.c.account_id)
            .offset(offset)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            total = int(conn.execute(self._count(where)).scalar_one())
            out = []
            for x in rows:
                better = conn.execute(self._count(where, r.c.ordinal > x.ordinal)).scalar()
                out.append(self._rating(x, int(better or 0) + 1))
        return out, total

    def position(self, account_id: int, family: str, size: str, bots: bool = False) -> int | None:
        """The account's 0-based row in the board's order (``None``: not on it)."""
        r, a = self.t.ratings, self.t.accounts
        with self.engine.connect() as conn:
            mine = conn.execute(
                select(r.c.ordinal)
                .join(a, a.c.id == r.c.account_id)
                .where(
                    r.c.account_id == account_id,
                    r.c.family == family,
                    r.c.size == size,
                    self._kind(bots),
                )
            ).first()
            if mine is None:
                return None
            ahead = conn.execute(
                self._count(
                    r.c.family == family,
                    r.c.size == size,
                    self._kind(bots),
                    (r.c.ordinal > mine.ordinal)
                    | and_(r.c.ordinal == mine.ordinal, r.c.account_id < account_id),
                )
            ).scalar()
        return int(ahead or 0)

    def history(self, account_id: int) -> list[RatingChange]:
        """The account's rating changes, oldest first (the profile's plot)."""
        c = self.t.rating_changes
        query = select(c).where(c.c.account_id == account_id).order_by(c.c.created, c.c.game_id)
        with self.engine.connect() as conn:
            return [
                {
                    "game": str(x.game_id),
                    "family": str(x.family),
                    "size": str(x.size),
                    "place": int(x.place),
                    "mu": float(x.mu),
                    "sigma": float(x.sigma),
                    "ordinal": float(x.mu - 3 * x.sigma),
                    "before": float(x.mu_before - 3 * x.sigma_before),
                    "display": displayed(float(x.mu - 3 * x.sigma)),
                    "display_before": displayed(float(x.mu_before - 3 * x.sigma_before)),
                    "time": float(x.created),
                }
                for x in conn.execute(query)
            ]

    def ordinals(self, account_ids: list[int], family: str, size: str) -> dict[int, float]:
        """The accounts' ordinals (μ − 3σ) of one kind; an account without a rated game of
        that kind is missing (a newcomer: ordinal 0)."""
        if not account_ids:
            return {}
        r = self.t.ratings
        query = select(r.c.account_id, r.c.ordinal).where(
            r.c.account_id.in_(account_ids), r.c.family == family, r.c.size == size
        )
        with self.engine.connect() as conn:
            return {int(x.account_id): float(x.ordinal) for x in conn.execute(query)}

    def changes_of(self, game_id: str) -> dict[int, tuple[float, float]]:
        """account -> (ordinal before, ordinal after) of the game's counted rating changes
        (empty: not counted, or not rated)."""
        c = self.t.rating_changes
        query = select(c).where(c.c.game_id == game_id)
        with self.engine.connect() as conn:
            return {
                int(x.account_id): (
                    float(x.mu_before - 3 * x.sigma_before),
                    float(x.mu - 3 * x.sigma),
                )
                for x in conn.execute(query)
            }

    # --- the operator's backup (``tne export``, ``tne import``) ---------------------------

    def dump(self) -> tuple[list[RatingRow], list[RatingChangeRow]]:
        """Every rating and every rating change (each row's columns), in key order."""
        r, c = self.t.ratings, self.t.rating_changes
        with self.engine.connect() as conn:
            ratings = conn.execute(select(r).order_by(r.c.account_id, r.c.family, r.c.size))
            rows: list[RatingRow] = [
                {
                    "account_id": x.account_id,
                    "family": x.family,
                    "size": x.size,
                    "mu": x.mu,
                    "sigma": x.sigma,
                    "ordinal": x.ordinal,
                    "games": x.games,
                    "updated": x.updated,
                }
                for x in ratings
            ]
            changes = conn.execute(select(c).order_by(c.c.game_id, c.c.account_id))
            return rows, [
                {
                    "game_id": x.game_id,
                    "account_id": x.account_id,
                    "family": x.family,
                    "size": x.size,
                    "place": x.place,
                    "mu_before": x.mu_before,
                    "sigma_before": x.sigma_before,
                    "mu": x.mu,
                    "sigma": x.sigma,
                    "created": x.created,
                }
                for x in changes
            ]

    def restore(self, ratings: list[RatingRow], changes: list[RatingChangeRow]) -> None:
        """Write the ratings and rating changes ``dump`` read, in one transaction."""
        with self.engine.begin() as conn:
            if ratings:
                conn.execute(insert(self.t.ratings), ratings)
            if changes:
                conn.execute(insert(self.t.rating_changes), changes)
