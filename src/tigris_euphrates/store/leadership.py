"""One process at a time does a job (``Leadership``): on PostgreSQL whoever holds a session
advisory lock on a connection it keeps open; when that process dies, its connection closes,
the lock is let go and the next process that asks takes it. SQLite has one process only.
"""

from __future__ import annotations

import zlib

from sqlalchemy import text
from sqlalchemy.engine import Connection

from .database import Database

#: The first key of the leadership advisory locks (the second names the job).
LEADER_LOCK = 0x7E49


class Leadership:
    """The right to do ``job`` for the store's tables (several stores of one database, as
    tests have, each have their own)."""

    def __init__(self, db: Database, job: str) -> None:
        self.db = db
        self.key = zlib.crc32(f"{db.prefix}:{job}".encode()) & 0x7FFFFFFF
        self._conn: Connection | None = None

    def __repr__(self) -> str:
        return f"<Leadership of {self.db.prefix!r}: key {self.key}>"

    def hold(self) -> bool:
        """Whether this process does the job now: it still holds the lock, or took it."""
        if self.db.is_sqlite:
            return True
        if self._conn is not None:
            try:
                self._conn.execute(text("SELECT 1"))
                return True
            except Exception:  # the connection broke: the lock went with it
                self._drop()
        conn = self.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            got = conn.execute(
                text("SELECT pg_try_advisory_lock(:space, :key)"),
                {"space": LEADER_LOCK, "key": self.key},
            ).scalar()
        except Exception:
            conn.close()
            raise
        if got:
            self._conn = conn
            return True
        conn.close()
        return False

    def release(self) -> None:
        """Let the job go (a stopping process): the next process takes it at once."""
        if self._conn is None:
            return
        try:
            self._conn.execute(
                text("SELECT pg_advisory_unlock(:space, :key)"),
                {"space": LEADER_LOCK, "key": self.key},
            )
        finally:
            self._drop()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.invalidate()  # never back to the pool with a lock on it
            finally:
                conn.close()
