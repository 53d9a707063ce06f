"""The puzzles (``store.puzzles``): puzzles made from the blunders of finished games
(``coach/puzzles.py``), the accounts' attempts at them, the puzzle ratings, and the account
setting that lets an account's games become puzzles.

A rated attempt is a one-on-one game between the account and the puzzle (openskill's
Plackett–Luce, as ``store/ratings.py`` rates games): solving it wins, anything else loses,
and both ratings move. It counts once per account and puzzle whatever happens: the attempt
is stored under the key ``(puzzle, account)`` in the same transaction as both new ratings,
so a second attempt (a double click, two tabs, two processes) fails on that key and changes
nothing; it is answered the attempt stored first. The attempts are written one at a time
(PostgreSQL: a transaction-scoped advisory lock; SQLite: the attempt's row is the
transaction's first write, which holds the database's write lock), so two attempts of one
account at two puzzles never start from the same old rating.
"""

from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..coach.puzzles import DEFAULT_MU, DEFAULT_SIGMA
from .database import Database
from .puzzlebackup import PuzzleBackup

#: The shown puzzle rating: ``DISPLAY_BASE + DISPLAY_SCALE * (μ − 25)``, never below 0: a
#: newcomer (and a puzzle of the default difficulty) shows 1500, solving raises it and
#: failing lowers it (the uncertainty σ is not subtracted, unlike a game rating's).
DISPLAY_BASE = 1500
DISPLAY_SCALE = 40


def shown(mu: float) -> int:
    """The puzzle rating shown for ``mu``."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DEFAULT_MU)))


@dataclass(frozen=True)
class PuzzleRow:
    """A stored puzzle: its ``data`` (``tne-puzzle/1``), its game and ply, its rating and
    the rated attempts at it."""

    id: str
    game_id: str
    ply: int
    family: str
    players: int
    data: dict[str, Any]
    mu: float
    sigma: float
    attempts: int
    solved: int


@dataclass(frozen=True)
class PuzzleRating:
    """An account's puzzle rating (the default for one that never tried a puzzle)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    attempts: int = 0
    solved: int = 0


@dataclass(frozen=True)
class Attempt:
    """An account's rated attempt at a puzzle, as stored: the action, whether it solved
    it, the account's rating before and after; ``first`` whether this call stored it (False:
    an attempt stored before is answered)."""

    puzzle_id: str
    account_id: int
    action: str
    correct: bool
    mu_before: float
    mu: float
    sigma: float
    first: bool = False


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


class Puzzles:
    """The puzzle tables of one database (``Store.puzzles``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables
        #: the puzzle tables read and written whole for the operator's backup
        self.backup = PuzzleBackup(self)

    # --- the puzzles ----------------------------------------------------------------------

    def add(self, game_id: str, puzzles: list[tuple[str, dict[str, Any]]], now: float) -> int:
        """Store a game's puzzles (``(id, tne-puzzle/1)``), each at most once (a game's
        analysis stored again adds nothing); how many were new."""
        p, added = self.t.puzzles, 0
        for puzzle_id, data in puzzles:
            rating = data["rating"]
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(p).values(
                            id=puzzle_id,
                            game_id=game_id,
                            ply=int(data["ply"]),
                            family=str(data["family"]),
                            players=int(data["options"].get("players", 2)),
                            data=json.dumps(data, separators=(",", ":")),
                            mu=float(rating["mu"]),
                            sigma=float(rating["sigma"]),
                            attempts=0,
                            solved=0,
                            created=now,
                        )
                    )
                added += 1
            except IntegrityError:
                continue  # stored before
        return added

    def get(self, puzzle_id: str) -> PuzzleRow | None:
        """The puzzle ``puzzle_id`` (None: there is none)."""
        p = self.t.puzzles
        with self.engine.connect() as conn:
            row = conn.execute(select(p).where(p.c.id == puzzle_id)).first()
        return None if row is None else _puzzle(row)

    def of_game(self, game_id: str) -> list[PuzzleRow]:
        """The puzzles made from ``game_id``, by ply."""
        p = self.t.puzzles
        with self.engine.connect() as conn:
            rows = conn.execute(select(p).where(p.c.game_id == game_id).order_by(p.c.ply))
            return [_puzzle(r) for r in rows]

    def next_for(self, account_id: int | None, skip: list[str]) -> PuzzleRow | None:
        """The puzzle nearest the account's puzzle rating (a guest: the default) that it
        never attempted and that is not in ``skip`` (the page's last ones); ties by id."""
        p, a = self.t.puzzles, self.t.puzzle_attempts
        target = self.rating_of(account_id).mu if account_id is not None else DEFAULT_MU
        query = select(p)
        if account_id is not None:
            done = select(a.c.puzzle_id).where(
                a.c.account_id == account_id, a.c.puzzle_id == p.c.id
            )
            query = query.where(~done.exists())
        if skip:
            query = query.where(p.c.id.notin_(skip))
        query = query.order_by(func.abs(p.c.mu - target), p.c.id).limit(1)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _puzzle(row)

    def count(self) -> int:
        """How many puzzles there are."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(self.t.puzzles)).scalar_one())

    # --- the ratings and attempts ---------------------------------------------------------

    def rating_of(self, account_id: int) -> PuzzleRating:
        """The account's puzzle rating (the default before its first attempt)."""
        r = self.t.puzzle_ratings
        with self.engine.connect() as conn:
            row = conn.execute(select(r).where(r.c.account_id == account_id)).first()
        if row is None:
            return PuzzleRating()
        return PuzzleRating(float(row.mu), float(row.sigma), int(row.attempts), int(row.solved))

    def attempt_of(self, puzzle_id: str, account_id: int) -> Attempt | None:
        """The account's stored attempt at the puzzle (None: it never tried it)."""
        a = self.t.puzzle_attempts
        where = (a.c.puzzle_id == puzzle_id, a.c.account_id == account_id)
        with self.engine.connect() as conn:
            row = conn.execute(select(a).where(*where)).first()
        if row is None:
            return None
        return Attempt(
            puzzle_id,
            account_id,
            str(row.action),
            bool(row.correct),
            float(row.mu_before),
            float(row.mu),
            float(row.sigma),
        )

    def attempt(
        self, puzzle_id: str, account_id: int, action: str, correct: bool, now: float | None = None
    ) -> Attempt:
        """Record the account's attempt at the puzzle and rate it, once (see the module):
        the attempt stored, ``first`` when this call stored it. ``LookupError``: no such
        puzzle."""
        now = time.time() if now is None else now
        try:
            with self.engine.begin() as conn:
                self._serialise(conn)
                # the attempt's key first: a second attempt stops here, changing nothing
                conn.execute(insert(self.t.puzzle_attempts).values(
                    puzzle_id=puzzle_id, account_id=account_id, action=action[:200],
                    correct=int(correct), mu_before=0.0, sigma_before=0.0, mu=0.0, sigma=0.0,
                    puzzle_mu_before=0.0, puzzle_sigma_before=0.0, puzzle_mu=0.0,
                    puzzle_sigma=0.0, created=now,
                ))  # fmt: skip
                self._rate(conn, puzzle_id, account_id, correct, now)
        except IntegrityError:
            pass  # attempted before (the (puzzle, account) key): the stored one answers
        else:
            stored = self.attempt_of(puzzle_id, account_id)
            assert stored is not None
            return Attempt(**{**stored.__dict__, "first": True})
        stored = self.attempt_of(puzzle_id, account_id)
        if stored is None:
            raise LookupError(f"no puzzle {puzzle_id!r}")
        return stored

    def _serialise(self, conn: Connection) -> None:
        """One attempt written at a time across processes (PostgreSQL; on SQLite the
        attempt's insert takes the database's write lock)."""
        if self.engine.dialect.name == "postgresql":
            key = zlib.crc32(f"tne-puzzles:{self.db.prefix}".encode())
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})

    def _rate(
        self, conn: Connection, puzzle_id: str, account_id: int, won: bool, now: float
    ) -> None:
        """Both ratings after one attempt (a one-on-one game: the solver wins if ``won``),
        written with the attempt's row."""
        p, r, a = self.t.puzzles, self.t.puzzle_ratings, self.t.puzzle_attempts
        puzzle = conn.execute(select(p.c.mu, p.c.sigma).where(p.c.id == puzzle_id)).first()
        if puzzle is None:
            raise LookupError(f"no puzzle {puzzle_id!r}")
        mine = conn.execute(select(r).where(r.c.account_id == account_id)).first()
        model = _model()
        me = model.rating(mu=mine.mu, sigma=mine.sigma) if mine else model.rating()
        it = model.rating(mu=puzzle.mu, sigma=puzzle.sigma)
        [[me2], [it2]] = model.rate([[me], [it]], ranks=[1, 2] if won else [2, 1])
        conn.execute(
            update(a)
            .where(a.c.puzzle_id == puzzle_id, a.c.account_id == account_id)
            .values(
                mu_before=me.mu, sigma_before=me.sigma, mu=me2.mu, sigma=me2.sigma,
                puzzle_mu_before=it.mu, puzzle_sigma_before=it.sigma,
                puzzle_mu=it2.mu, puzzle_sigma=it2.sigma,
            )
        )  # fmt: skip
        conn.execute(
            update(p)
            .where(p.c.id == puzzle_id)
            .values(mu=it2.mu, sigma=it2.sigma, attempts=p.c.attempts + 1,
                    solved=p.c.solved + int(won))
        )  # fmt: skip
        values = {"mu": me2.mu, "sigma": me2.sigma, "updated": now}
        if mine is None:
            conn.execute(
                insert(r).values(account_id=account_id, attempts=1, solved=int(won), **values)
            )
        else:
            conn.execute(
                update(r)
                .where(r.c.account_id == account_id)
                .values(attempts=r.c.attempts + 1, solved=r.c.solved + int(won), **values)
            )

    # --- the setting "my games may become puzzles" -----------------------------------------

    def consent(self, account_id: int) -> bool:
        """Whether the account lets its games become puzzles (off until it says so)."""
        return self.consents([account_id]).get(account_id, False)

    def consents(self, account_ids: list[int]) -> dict[int, bool]:
        """Each account's setting (an account that never chose is missing: off)."""
        c = self.t.puzzle_consent
        if not account_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(c).where(c.c.account_id.in_(account_ids)))
            return {int(x.account_id): bool(x.allowed) for x in rows}

    def set_consent(self, account_id: int, allowed: bool, now: float) -> None:
        """Set the account's setting (from now on: games analysed later follow it)."""
        c = self.t.puzzle_consent
        values = {"allowed": int(allowed), "updated": now}
        for _ in range(2):  # a first setting written at once elsewhere: update that one
            try:
                with self.engine.begin() as conn:
                    mine = c.c.account_id == account_id
                    if not conn.execute(update(c).where(mine).values(**values)).rowcount:
                        conn.execute(insert(c).values(account_id=account_id, **values))
                return
            except IntegrityError:
                continue


def _puzzle(row: Any) -> PuzzleRow:
    return PuzzleRow(
        id=str(row.id),
        game_id=str(row.game_id),
        ply=int(row.ply),
        family=str(row.family),
        players=int(row.players),
        data=json.loads(row.data),
        mu=float(row.mu),
        sigma=float(row.sigma),
        attempts=int(row.attempts),
        solved=int(row.solved),
    )
