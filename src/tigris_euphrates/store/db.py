"""The store: SQLAlchemy Core tables (``store/schema.py``) and a small synchronous API.

Calls are blocking; the server runs them on a worker thread. Rows hold only what a replay
needs (options, seed, the actions in notation) plus the seats (kind, bot level, name and the
SHA-256 of each seat's secret token: the tokens themselves are never stored).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    and_,
    case,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import migrate
from .schema import make_tables

if TYPE_CHECKING:
    import psycopg

ENV_URL = "TNE_DATABASE_URL"
log = logging.getLogger("tigris_euphrates.store")


class StepTaken(Exception):
    """Another writer already stored this step of the game (the (game, seq) key exists)."""

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"step {seq} of game {game_id} is already stored")
        self.game_id = game_id
        self.seq = seq


class UnknownGame(KeyError):
    pass


@dataclass
class GameRow:
    id: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str
    created: float
    result: dict[str, Any] | None = None
    actions: list[tuple[int, int | None, str]] = field(default_factory=list)
    #: SHA-256 of the creator's secret token (``None``: a game without one)
    creator: str | None = None
    #: who chose the seed: ``"server"`` (secret) or ``"client"``
    seed_source: str = "server"
    #: who created the game (a hash of its address; ``""``: unknown)
    client: str = ""
    #: the result changes the players' ratings (``store/ratings.py``)
    rated: bool = False
    #: whether the public lobby lists the game (its creator chose so)
    listed: bool = True
    #: the table's settings: ``chat`` (who may write) and ``rematch`` (the rematch's id)
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class ChatLine:
    """One line of a game's table chat: its number in the game, the writer's seat
    (``None``: a spectator), the name shown, the text and when it was said."""

    n: int
    seat: int | None
    name: str
    text: str
    at: float


def normalise_url(url: str) -> str:
    """Plain ``postgresql://`` URLs use psycopg 3 (the driver this project installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def libpq_url(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://``) as libpq reads it."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def database_url_for(data_dir: str | os.PathLike[str] | None = None, url: str | None = None) -> str:
    """The URL to use: ``url``, else $TNE_DATABASE_URL, else SQLite in ``data_dir``."""
    if url:
        return normalise_url(url)
    env = os.environ.get(ENV_URL)
    if env:
        return normalise_url(env)
    folder = Path(data_dir or "data")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(folder / 'tne.sqlite3').resolve()}"


class Store:
    """The games and their action logs in one database."""

    def __init__(self, url: str, table_prefix: str = "") -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        #: the PostgreSQL channel on which committed log entries are announced
        self.channel = f"{table_prefix}tne"
        self.prefix = table_prefix
        #: called with a game's id after it is stored as finished (the ratings)
        self.finish_hooks: list[Callable[[str], object]] = []
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
            # how the database lists the store's connections (``pg_stat_activity``)
            kwargs["connect_args"] = {"application_name": f"tne-store-{table_prefix[:32]}"}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        tables = make_tables(table_prefix)
        self.tables = tables
        self.meta = tables.meta
        self.games = tables.games
        self.by_client = tables.by_client
        self.actions = tables.actions
        self.chat = tables.chat
        #: the log's write on PostgreSQL, one statement: the entry, the game's time of
        #: change (and bot seats), and the announcement with the entry itself (the other
        #: processes need not read it back); sent by psycopg as a prepared statement
        self._append_sql = (
            f'WITH entry AS (INSERT INTO "{self.actions.name}" (game_id, seq, seat, action, '
            "created) VALUES (%s, %s, %s, %s, %s) RETURNING game_id), "
            f'changed AS (UPDATE "{self.games.name}" SET updated = %s, '
            "bots = COALESCE(CAST(%s AS INTEGER), bots) "
            "WHERE id = (SELECT game_id FROM entry) RETURNING id) "
            "SELECT pg_notify(%s, %s) FROM changed"
        )
        #: each database thread's own connection for ``append`` (PostgreSQL)
        self._appender = threading.local()
        self._appender_conns: list[psycopg.Connection[Any]] = []
        # the schema is Alembic's: a new database is created, an older one upgraded in place
        migrate.upgrade(self.engine, table_prefix)

    # --- writes ---------------------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        options: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        creator: str | None = None,
        seed_source: str | None = None,
        client: str | None = None,
        listed: bool = True,
        settings: dict[str, Any] | None = None,
        rated: bool = False,
        now: float | None = None,
    ) -> None:
        """A new game; ``seats`` are the seats it starts with (changes go to the log),
        ``creator`` the hash of the creator's token, ``seed_source`` ``"client"`` when a
        client chose the seed, ``client`` who created it (for the per-client limits),
        ``listed`` whether the public lobby shows it, ``settings`` the table's settings;
        ``rated`` whether its result changes the players' ratings; ``now`` when (default:
        the time now; the clocks of timed games start then)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(
                insert(self.games).values(
                    id=game_id,
                    created=now,
                    updated=now,
                    options=json.dumps(options),
                    seed=str(seed),
                    seats=json.dumps(seats),
                    status="active",
                    result=None,
                    creator=creator,
                    seed_source=seed_source,
                    client=client,
                    bots=sum(1 for seat in seats if seat.get("kind") == "bot"),
                    listed=1 if listed else 0,
                    settings=json.dumps(settings or {}),
                    rated=1 if rated else None,
                )
            )

    def append(
        self,
        game_id: str,
        seq: int,
        seat: int | None,
        action: str,
        origin: str = "",
        now: float | None = None,
        bots: int | None = None,
    ) -> None:
        """Store entry ``seq`` (1-based) of the game's log: an action, an ``undo`` or a seat
        change; raises ``StepTaken`` if it exists already. On PostgreSQL the same
        transaction announces ``(game_id, seq)`` on ``channel`` (``NOTIFY``, delivered when
        it commits), with ``origin``, the process that wrote it. ``now``: when (default: the
        time now; the clocks of timed games are replayed from these times). ``bots``: the
        game's bot seats after a seat change, stored with it (the per-client limit on bot
        games counts the games that run a bot now)."""
        now = time.time() if now is None else now
        changed: dict[str, Any] = {"updated": now}
        if bots is not None:
            changed["bots"] = bots
        try:
            if self.is_sqlite:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(self.actions).values(
                            game_id=game_id, seq=seq, seat=seat, action=action, created=now
                        )
                    )
                    conn.execute(
                        update(self.games).where(self.games.c.id == game_id).values(**changed)
                    )
                return
            payload = f"s|{origin}|{game_id}|{seq}|{'' if seat is None else seat}|{action}"
            self._append_pg((game_id, seq, seat, action, now, now, bots, self.channel, payload))
        except IntegrityError as exc:
            raise StepTaken(game_id, seq) from exc

    def _append_pg(self, params: tuple[Any, ...]) -> None:
        """Run the log's write on this thread's own psycopg connection, in one round trip
        and one transaction (autocommit). The pool's checkout, its ping (a second round trip)
        and SQLAlchemy's statement handling cost more server time than the write itself: a
        move is the hottest path of the server. A connection found broken is replaced and
        the write tried once more on the new one; if the first try had committed after all,
        the second finds the step taken (``StepTaken``) and the caller reads the log on, as
        it does when another process wrote the step."""
        import psycopg

        for attempt in (0, 1):
            conn = self._append_connection()
            try:
                conn.execute(self._append_sql, params, prepare=True)
                return
            except psycopg.IntegrityError as exc:
                raise StepTaken(str(params[0]), int(params[1])) from exc
            except psycopg.OperationalError:
                if not conn.closed and not conn.broken:
                    raise
                self._appender.conn = None
                if attempt:
                    raise

    def _append_connection(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._appender, "conn", None)
        if conn is None or conn.closed or conn.broken:
            import psycopg

            conn = psycopg.connect(
                libpq_url(self.url), autocommit=True, application_name=f"tne-log-{self.prefix[:32]}"
            )
            self._appender.conn = conn
            self._appender_conns.append(conn)
        return conn

    def finish(self, game_id: str, result: dict[str, Any] | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(self.games)
                .where(self.games.c.id == game_id)
                .values(status="over", result=json.dumps(result), updated=time.time())
            )
        for hook in self.finish_hooks:
            try:
                hook(game_id)
            except Exception:  # the game is over whatever a hook does; the hook retries
                log.exception("after the end of game %s", game_id)

    def set_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        """Replace the game's table settings (e.g. when a rematch is created)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(self.games)
                .where(self.games.c.id == game_id)
                .values(settings=json.dumps(settings))
            )

    def settings(self, game_id: str) -> dict[str, Any]:
        """The game's table settings as stored (``set_settings``); raises ``UnknownGame``."""
        with self.engine.connect() as conn:
            query = select(self.games.c.settings).where(self.games.c.id == game_id)
            row = conn.execute(query).first()
        if row is None:
            raise UnknownGame(game_id)
        data = json.loads(row.settings) if row.settings else {}
        return data if isinstance(data, dict) else {}

    def add_chat(self, game_id: str, n: int, seat: int | None, name: str, said: str) -> float:
        """Store line ``n`` (1-based) of the game's chat; raises ``StepTaken`` when another
        writer stored that line first. Returns when it was said."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(self.chat).values(
                        game_id=game_id, n=n, seat=seat, name=name, text=said, created=now
                    )
                )
        except IntegrityError as exc:
            raise StepTaken(game_id, n) from exc
        return now

    def chat_lines(self, game_id: str, after: int = 0, limit: int = 200) -> list[ChatLine]:
        """The game's chat lines after line ``after``, oldest first; at most the last
        ``limit`` of them."""
        c = self.chat.c
        query = (
            select(c.n, c.seat, c.name, c.text, c.created)
            .where(c.game_id == game_id, c.n > after)
            .order_by(c.n.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            ChatLine(int(r.n), r.seat, repair_text(r.name), repair_text(r.text), float(r.created))
            for r in reversed(rows)
        ]

    # --- reads ----------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRow:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.games).where(self.games.c.id == game_id)).first()
            if row is None:
                raise UnknownGame(game_id)
            acts = conn.execute(
                select(self.actions.c.seq, self.actions.c.seat, self.actions.c.action)
                .where(self.actions.c.game_id == game_id)
                .order_by(self.actions.c.seq)
            ).all()
        game = _row(row)
        game.actions = [(int(a.seq), a.seat, str(a.action)) for a in acts]
        return game

    def has_game(self, game_id: str) -> bool:
        """Whether a game ``game_id`` exists (one indexed lookup, nothing loaded)."""
        with self.engine.connect() as conn:
            query = select(self.games.c.id).where(self.games.c.id == game_id)
            return conn.execute(query).first() is not None

    def rows_after(self, game_id: str, seq: int) -> list[tuple[int, int | None, str]]:
        """The game's log entries after ``seq``, in order: what a process whose copy is at
        ``seq`` has not applied yet."""
        a = self.actions.c
        query = (
            select(a.seq, a.seat, a.action).where(a.game_id == game_id, a.seq > seq).order_by(a.seq)
        )
        with self.engine.connect() as conn:
            return [(int(r.seq), r.seat, str(r.action)) for r in conn.execute(query)]

    def last_seqs(self, game_ids: list[str]) -> dict[str, int]:
        """The last log entry of each game (games without entries are left out)."""
        if not game_ids:
            return {}
        a = self.actions.c
        query = (
            select(a.game_id, func.max(a.seq)).where(a.game_id.in_(game_ids)).group_by(a.game_id)
        )
        with self.engine.connect() as conn:
            return {str(gid): int(seq) for gid, seq in conn.execute(query)}

    def game_ids(self, status: str | None = None) -> list[str]:
        query = select(self.games.c.id).order_by(self.games.c.created)
        if status is not None:
            query = query.where(self.games.c.status == status)
        with self.engine.connect() as conn:
            return [str(r.id) for r in conn.execute(query)]

    def list_games(self, limit: int = 50, before: tuple[float, str] | None = None) -> list[GameRow]:
        """A page of the games the lobby lists (``listed``), newest first: at most ``limit``
        created before ``before`` (the ``(created, id)`` of the last game of the previous
        page)."""
        g = self.games.c
        query = (
            select(self.games)
            .where(or_(g.listed.is_(None), g.listed != 0))
            .order_by(g.created.desc(), g.id.desc())
        )
        if before is not None:
            created, game_id = before
            query = query.where(
                or_(
                    self.games.c.created < created,
                    and_(self.games.c.created == created, self.games.c.id < game_id),
                )
            )
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query.limit(limit))]

    def recent_games_of(self, client: str, since: float) -> tuple[int, int]:
        """How many unfinished games ``client`` created that changed after ``since``, and
        how many of them have a bot seat now (``bots`` follows the seat changes)."""
        g = self.games.c
        query = select(
            func.count(), func.coalesce(func.sum(case((g.bots > 0, 1), else_=0)), 0)
        ).where(g.client == client, g.status == "active", g.updated > since)
        with self.engine.connect() as conn:
            games, bots = conn.execute(query).one()
        return int(games), int(bots)

    def close(self) -> None:
        for conn in self._appender_conns:
            conn.close()
        self._appender_conns.clear()
        self.engine.dispose()

    def drop_all(self) -> None:
        """Drop this store's tables and its version table (tests)."""
        self.meta.drop_all(self.engine)
        with self.engine.begin() as conn:
            conn.execute(text(f'DROP TABLE IF EXISTS "{self.prefix}alembic_version"'))


def repair_text(value: Any) -> Any:
    """A stored string made safe to show: lone surrogates (which no encoding accepts) and
    control characters become U+FFFD. Rows written before the server checked its inputs
    may hold them; one such row must not break a page for everybody."""
    if not isinstance(value, str):
        return value
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cs", "Cc") else ch for ch in value)


def _seats(text: str) -> list[dict[str, Any]]:
    seats = json.loads(text)
    return [{k: repair_text(v) for k, v in seat.items()} for seat in seats]


def _row(row: Any) -> GameRow:
    return GameRow(
        id=str(row.id),
        options=json.loads(row.options),
        seed=int(row.seed),
        seats=_seats(row.seats),
        status=str(row.status),
        created=float(row.created),
        result=json.loads(row.result) if row.result else None,
        creator=row.creator,
        seed_source=row.seed_source or "server",
        client=row.client or "",
        listed=row.listed is None or bool(row.listed),
        settings=json.loads(row.settings) if row.settings else {},
        rated=bool(row.rated),
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


class StoreInUse(RuntimeError):
    """Another server process serves this SQLite database."""


class ServerLock:
    """The one server process of a SQLite database: an exclusive lock on a file next to it
    (``tne.sqlite3.server-lock``), held while the server runs and released by the system
    when the process ends, however it ends. SQLite serves one process: a second one would
    never hear of the first one's moves. PostgreSQL needs no such lock (processes announce
    their moves to each other)."""

    def __init__(self, url: str) -> None:
        self.path: Path | None = None
        self._file: Any = None
        url = normalise_url(url)
        if url.startswith("sqlite:///") and ":memory:" not in url:
            self.path = Path(url[len("sqlite:///") :].split("?")[0])

    def acquire(self) -> None:
        """Take the lock; raises ``StoreInUse`` with a message saying what to do."""
        if self.path is None:
            return
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        lock = self.path.with_name(self.path.name + ".server-lock")
        handle = open(lock, "a+")  # noqa: SIM115 - held open as long as the lock
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreInUse(
                f"another server process is using the SQLite database {self.path}: SQLite "
                "serves one process. Stop the other one, or run several processes on "
                "PostgreSQL (--database-url postgresql://...)."
            ) from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
