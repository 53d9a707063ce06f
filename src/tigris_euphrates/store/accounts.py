"""Accounts in the store: players, their sessions, the seats bound to them and the server's
secrets. Synchronous, like every area of the store (``store.accounts``).

Passwords are never stored, only their argon2id hashes (``server/passwords.py`` makes them).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .backuprows import AccountRow, BoundRow
from .database import Database, continue_ids, repair_text
from .jsontypes import JsonDict
from .names import name_key, normal, skeleton
from .rows import GameOptions, GameResult, StoredSeat, read_seats

__all__ = ["Account", "AccountGame", "Accounts", "GameInProgress", "NameTaken", "name_key"]

#: The password hash of an account restored from a backup (``tne import``): no argon2 hash,
#: so it matches no password, until the operator sets one (``tne set-password``). The
#: backup holds no password hash.
NO_PASSWORD = "!restored"


class NameTaken(Exception):
    """Another account has this name, whatever its case, or one that looks like it (its
    skeleton: ``store/names.py``)."""


@dataclass
class Account:
    id: int
    name: str
    password_hash: str
    created: float
    generation: int
    #: when it became a bot account (``None``: a person's account)
    bot: float | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass
class AccountGame:
    """One game of an account, as its "My games" list shows it."""

    id: str
    seat: int
    status: str
    created: float
    updated: float
    options: GameOptions
    #: the seats it started with, without their tokens' hashes
    seats: list[StoredSeat]
    result: GameResult | None
    rated: bool
    #: the seats of the game bound to accounts: seat -> account name
    players: dict[int, str]
    #: the statistics of the finished game (``stats.game_stats``), once computed
    stats: JsonDict | None = None


@dataclass
class GameInProgress:
    """An unfinished game of an account, as its lobby lists it: its seat, every seat's name
    (the account's where bound), whether it is rated, its pace's kind and whose clock runs
    (``None``: no clock runs, or the game has none)."""

    id: str
    seat: int
    names: list[str]
    rated: bool
    pace: str | None
    running: int | None


class Accounts:
    """The account tables of one database (``Store.accounts``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    # --- accounts -------------------------------------------------------------------------

    def create(self, name: str, password_hash: str) -> Account:
        """A new account (its name stored in NFKC); raises ``NameTaken``."""
        now = time.time()
        name = normal(name)
        accounts = self.t.accounts
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(accounts)
                    .values(
                        name=name,
                        name_key=name_key(name),
                        name_skeleton=skeleton(name),
                        password_hash=password_hash,
                        created=now,
                        generation=0,
                    )
                    .returning(accounts.c.id)
                )
                account_id = int(result.scalar_one())
        except IntegrityError:
            raise NameTaken(name) from None
        return Account(account_id, name, password_hash, now, 0)

    def by_name(self, name: str) -> Account | None:
        return self._one(self.t.accounts.c.name_key == name_key(name))

    def by_id(self, account_id: int) -> Account | None:
        return self._one(self.t.accounts.c.id == account_id)

    def _one(self, where: Any) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(where)).first()
        return None if row is None else _account(row)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        """A new hash of the same password (argon2's parameters changed since)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(self.t.accounts)
                .where(self.t.accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def next_generation(self, account_id: int) -> int:
        """Sign out everywhere: every session cookie issued so far stops working."""
        a = self.t.accounts
        with self.engine.begin() as conn:
            conn.execute(
                update(a).where(a.c.id == account_id).values(generation=a.c.generation + 1)
            )
            return int(
                conn.execute(select(a.c.generation).where(a.c.id == account_id)).scalar_one()
            )

    def names(self, account_ids: list[int]) -> dict[int, str]:
        if not account_ids:
            return {}
        a = self.t.accounts
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.c.id, a.c.name).where(a.c.id.in_(account_ids)))
            return {int(r.id): str(repair_text(r.name)) for r in rows}

    # --- seats ----------------------------------------------------------------------------

    def bind_seat(self, game_id: str, seat: int, account_id: int) -> int:
        """Bind the seat to the account unless it is bound already; returns the account the
        seat is bound to (another one's if it was first)."""
        s = self.t.account_seats
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(s).values(
                        game_id=game_id, seat=seat, account_id=account_id, created=time.time()
                    )
                )
            return account_id
        except IntegrityError:
            with self.engine.connect() as conn:
                owner = conn.execute(
                    select(s.c.account_id).where(s.c.game_id == game_id, s.c.seat == seat)
                ).scalar_one()
            return int(owner)

    def seats_of_game(self, game_id: str) -> dict[int, int]:
        """seat -> account of the game's bound seats."""
        s = self.t.account_seats
        with self.engine.connect() as conn:
            rows = conn.execute(select(s.c.seat, s.c.account_id).where(s.c.game_id == game_id))
            return {int(r.seat): int(r.account_id) for r in rows}

    def _bound_names(self, conn: Connection, game_ids: list[str]) -> dict[str, dict[int, str]]:
        """The games' seats bound to accounts: game -> seat -> account name."""
        s, a = self.t.account_seats, self.t.accounts
        names: dict[str, dict[int, str]] = {}
        if not game_ids:
            return names
        bound = conn.execute(
            select(s.c.game_id, s.c.seat, a.c.name)
            .join(a, a.c.id == s.c.account_id)
            .where(s.c.game_id.in_(game_ids))
        )
        for b in bound:
            names.setdefault(str(b.game_id), {})[int(b.seat)] = str(repair_text(b.name))
        return names

    def in_progress(self, account_id: int, limit: int = 8) -> list[GameInProgress]:
        """The account's unfinished games, the most recently changed first: what its lobby
        shows as "in progress" (with whose clock runs, when the game has clocks)."""
        s, g, c = self.t.account_seats, self.t.games, self.t.clocks
        query = (
            select(
                s.c.seat,
                g.c.id,
                g.c.seats,
                g.c.rated,
                g.c.updated,
                c.c.pace,
                c.c.seat.label("running"),
            )
            .join(g, g.c.id == s.c.game_id)
            .outerjoin(c, c.c.game_id == g.c.id)
            .where(s.c.account_id == account_id, g.c.status == "active")
            .order_by(g.c.updated.desc(), g.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            names = self._bound_names(conn, [str(r.id) for r in rows])
        out: list[GameInProgress] = []
        for r in rows:
            seats = json.loads(r.seats)
            bound_names = names.get(str(r.id), {})
            pace = json.loads(r.pace) if r.pace else None
            out.append(
                GameInProgress(
                    id=str(r.id),
                    seat=int(r.seat),
                    names=[
                        bound_names.get(i) or str(repair_text(seat.get("name") or ""))
                        for i, seat in enumerate(seats)
                    ],
                    rated=bool(r.rated),
                    pace=None if pace is None else str(pace.get("kind") or ""),
                    running=None if r.running is None else int(r.running),
                )
            )
        return out

    def games_of(self, account_id: int, limit: int = 200) -> list[AccountGame]:
        """The account's games, the most recently changed first."""
        s, g = self.t.account_seats, self.t.games
        query = (
            select(s.c.seat, g)
            .join(g, g.c.id == s.c.game_id)
            .where(s.c.account_id == account_id)
            .order_by(g.c.updated.desc(), g.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            players = self._bound_names(conn, [str(r.id) for r in rows])
        return [
            AccountGame(
                id=str(r.id),
                seat=int(r.seat),
                status=str(r.status),
                created=float(r.created),
                updated=float(r.updated),
                options=json.loads(r.options),
                seats=read_seats(r.seats, tokens=False),
                result=json.loads(r.result) if r.result else None,
                rated=bool(r.rated),
                players=players.get(str(r.id), {}),
                stats=json.loads(r.stats) if r.stats else None,
            )
            for r in rows
        ]

    def set_game_stats(self, game_id: str, stats: JsonDict) -> None:
        g = self.t.games
        with self.engine.begin() as conn:
            conn.execute(update(g).where(g.c.id == game_id).values(stats=json.dumps(stats)))

    def claim(self, account_id: int, pairs: list[tuple[str, str]]) -> list[tuple[str, int]]:
        """Bind to the account the seats whose secret tokens it shows (``(game, token
        hash)`` pairs: a guest's games, from the browser that played them); a seat bound to
        another account stays so, and in a rated game an account takes one seat at most.
        Returns the ``(game, seat)`` pairs bound to it now."""
        g = self.t.games
        ids = sorted({game for game, _ in pairs})
        if not ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(select(g.c.id, g.c.seats, g.c.rated).where(g.c.id.in_(ids)))
            games = {str(r.id): (json.loads(r.seats), bool(r.rated)) for r in rows}
        bound: list[tuple[str, int]] = []
        for game_id, digest in pairs:
            if game_id not in games:
                continue
            seats, rated = games[game_id]
            for i, seat in enumerate(seats):
                token = seat.get("token")
                if not (token and secrets.compare_digest(str(token), digest)):
                    continue
                if rated:
                    mine = self.seats_of_game(game_id)
                    if any(a == account_id and s != i for s, a in mine.items()):
                        continue
                if self.bind_seat(game_id, i, account_id) == account_id:
                    bound.append((game_id, i))
        return bound

    # --- the operator's backup (``tne export``, ``tne import``) ---------------------------

    def dump(self) -> list[AccountRow]:
        """Every account without its secrets: ``id``, ``name``, ``created`` and ``bot``
        (when it became a bot account, else ``None``; no password hash, no session
        generation, no API token), in the order of their ids."""
        a = self.t.accounts.c
        query = select(a.id, a.name, a.created, a.bot).order_by(a.id)
        with self.engine.connect() as conn:
            return [
                {
                    "id": int(r.id),
                    "name": str(r.name),
                    "created": float(r.created),
                    "bot": None if r.bot is None else float(r.bot),
                }
                for r in conn.execute(query)
            ]

    def restore(self, accounts: list[AccountRow]) -> None:
        """Write the accounts ``dump`` read (a bot account stays one), with their ids and
        ``NO_PASSWORD``: each signs
        in once the operator has set it a password (``set_password_hash``). On PostgreSQL
        the ids' sequence then continues after the highest id."""
        if not accounts:
            return
        table = self.t.accounts
        seen: set[str] = set()
        skeletons: list[str | None] = []
        for x in accounts:  # a look-alike of an earlier name keeps none, as the migration did
            shape = skeleton(x["name"])
            skeletons.append(None if shape in seen else shape)
            seen.add(shape)
        rows = [
            {
                "id": x["id"],
                "name": x["name"],
                "name_key": name_key(x["name"]),
                "name_skeleton": shape,
                "password_hash": NO_PASSWORD,
                "created": x["created"],
                "generation": 0,
                "bot": x.get("bot"),
            }
            for x, shape in zip(accounts, skeletons, strict=True)
        ]
        with self.engine.begin() as conn:
            conn.execute(insert(table), rows)
            continue_ids(conn, table)

    def dump_seats(self, game_ids: list[str]) -> dict[str, list[BoundRow]]:
        """The seats of the games ``game_ids`` bound to accounts: by game, ``[seat,
        account, created]`` in seat order (games without any left out)."""
        if not game_ids:
            return {}
        s = self.t.account_seats.c
        query = (
            select(s.game_id, s.seat, s.account_id, s.created)
            .where(s.game_id.in_(game_ids))
            .order_by(s.game_id, s.seat)
        )
        out: dict[str, list[BoundRow]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                bound = (int(r.seat), int(r.account_id), float(r.created))
                out.setdefault(str(r.game_id), []).append(bound)
        return out

    def restore_seats(self, game_id: str, seats: list[BoundRow]) -> None:
        """Write a game's bound seats as ``dump_seats`` read them."""
        if not seats:
            return
        rows = [
            {"game_id": game_id, "seat": seat, "account_id": account, "created": at}
            for seat, account, at in seats
        ]
        with self.engine.begin() as conn:
            conn.execute(insert(self.t.account_seats), rows)

    # --- sessions -------------------------------------------------------------------------

    def open_session(self, account_id: int, digest: str, max_age: float) -> None:
        """Keep a new session of the account (``digest``: the SHA-256 of its secret), and
        drop the sessions older than ``max_age`` seconds, whose cookies have expired."""
        s = self.t.sessions
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(s).where(s.c.created < now - max_age))
            conn.execute(insert(s).values(id=digest, account_id=account_id, created=now))

    def session_account(self, digest: str, max_age: float) -> Account | None:
        """The account of a session still open (not signed out, younger than ``max_age``)."""
        s, a = self.t.sessions, self.t.accounts
        query = (
            select(a)
            .join(s, s.c.account_id == a.c.id)
            .where(s.c.id == digest, s.c.created > time.time() - max_age)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _account(row)

    def close_session(self, digest: str) -> None:
        """Sign out: the session's cookie, wherever it was copied, opens nothing any more."""
        with self.engine.begin() as conn:
            conn.execute(delete(self.t.sessions).where(self.t.sessions.c.id == digest))

    def close_sessions(self, account_id: int) -> None:
        """Sign out everywhere: every session of the account ends."""
        s = self.t.sessions
        with self.engine.begin() as conn:
            conn.execute(delete(s).where(s.c.account_id == account_id))

    # --- secrets --------------------------------------------------------------------------

    def secret(self, name: str) -> str:
        """The server's secret ``name``, made on first use and then shared by every process
        of the database (the key that signs session cookies)."""
        s = self.t.secrets
        with self.engine.connect() as conn:
            value = conn.execute(select(s.c.value).where(s.c.name == name)).scalar()
        if value is not None:
            return str(value)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(s).values(name=name, value=secrets.token_urlsafe(48)))
        except IntegrityError:
            pass  # another process made it first: use that one
        with self.engine.connect() as conn:
            return str(conn.execute(select(s.c.value).where(s.c.name == name)).scalar_one())

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(self.t.accounts)).scalar_one())


def _account(row: Any) -> Account:
    return Account(
        int(row.id),
        str(repair_text(row.name)),
        str(row.password_hash),
        float(row.created),
        int(row.generation),
        None if row.bot is None else float(row.bot),
    )
