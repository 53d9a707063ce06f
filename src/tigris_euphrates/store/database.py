"""The store's database: one SQLAlchemy engine over the tables of ``schema`` (SQLite by
default, PostgreSQL by URL), brought to the current schema by Alembic when opened, and the
helpers every area of the store shares.

Calls are blocking; the server runs them on a worker thread.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, create_engine, event, select, text
from sqlalchemy.engine import Engine

from . import migrate
from .schema import Tables, make_tables

ENV_URL = "TNE_DATABASE_URL"
#: How long a new PostgreSQL connection may take before it counts as failed (seconds).
CONNECT_SECONDS = 10


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


class Database:
    """One database's engine and tables (``table_prefix``: several stores in one database,
    for tests), created or upgraded in place when opened."""

    def __init__(self, url: str, table_prefix: str = "") -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        #: the PostgreSQL channel on which the processes announce what they changed
        self.channel = f"{table_prefix}tne"
        self.prefix = table_prefix
        connect_args: dict[str, bool | int | str]
        if self.is_sqlite:
            connect_args = {"check_same_thread": False, "timeout": 30}
        else:
            # how the database lists the store's connections (``pg_stat_activity``); a
            # database that does not answer fails a request within CONNECT_SECONDS (503)
            connect_args = {
                "application_name": f"tne-store-{table_prefix[:32]}",
                "connect_timeout": CONNECT_SECONDS,
            }
        self.engine: Engine = create_engine(
            self.url, future=True, connect_args=connect_args, pool_pre_ping=not self.is_sqlite
        )
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.tables: Tables = make_tables(table_prefix)
        # the schema is Alembic's: a new database is created, an older one upgraded in place
        migrate.upgrade(self.engine, table_prefix)

    def close(self) -> None:
        self.engine.dispose()

    def holding(self) -> list[str]:
        """The tables that hold a game, a player, a rating, a puzzle or a live event (a
        backup is restored only into a database where this is empty; the server's key and
        failed sign-ins do not count)."""
        t = self.tables
        tables = [t.games, t.actions, t.chat, t.clocks, t.accounts, t.account_seats]
        tables += [t.ratings, t.rating_changes, t.notify, t.follows, t.blocks]
        tables += [t.puzzles, t.puzzle_attempts, t.puzzle_ratings, t.puzzle_consent]
        tables += [t.events, t.event_entrants, t.event_games, t.event_byes]
        with self.engine.connect() as conn:
            return [
                table.name
                for table in tables
                if conn.execute(select(table).limit(1)).first() is not None
            ]

    def ping(self) -> None:
        """One cheap query (the readiness check): raises when the database does not answer."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def drop_all(self) -> None:
        """Drop this store's tables and its version table (tests)."""
        self.tables.meta.drop_all(self.engine)
        with self.engine.begin() as conn:
            conn.execute(text(f'DROP TABLE IF EXISTS "{self.prefix}alembic_version"'))


def repair_text(value: Any) -> Any:
    """A stored string made safe to show: lone surrogates (which no encoding accepts) and
    control characters become U+FFFD. Rows written before the server checked its inputs
    may hold them; one such row must not break a page for everybody."""
    if not isinstance(value, str):
        return value
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cs", "Cc") else ch for ch in value)


def continue_ids(conn: Connection, table: Table) -> None:
    """After rows were written with their own ids (a restored backup): on PostgreSQL the
    table's id sequence continues after the highest id (SQLite's ``INTEGER PRIMARY KEY``
    does so by itself)."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                f'(SELECT MAX(id) FROM "{table.name}"))'
            )
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
