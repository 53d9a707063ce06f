"""Bring a store's database up to the newest schema with Alembic, at every start.

The revisions live in ``store/migrations/versions``; the version table is
``{prefix}alembic_version``. On PostgreSQL an advisory lock makes the processes that start
together upgrade one after the other (the later ones find nothing left to do).
"""

from __future__ import annotations

import zlib
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def config(prefix: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["table_prefix"] = prefix
    return cfg


@cache
def head() -> str | None:
    """The newest revision (read once: the code of a running process does not change)."""
    return ScriptDirectory.from_config(config("")).get_current_head()


@cache
def known() -> frozenset[str]:
    """Every revision this code has."""
    return frozenset(r.revision for r in ScriptDirectory.from_config(config("")).walk_revisions())


def current(connection: Connection, prefix: str = "") -> str | None:
    """The revision the database is at (``None``: never upgraded by Alembic)."""
    context = MigrationContext.configure(
        connection, opts={"version_table": f"{prefix}alembic_version"}
    )
    return context.get_current_revision()


def mismatch(engine: Engine, prefix: str = "") -> str | None:
    """Why the database's schema is not the one this code works with (``None``: it is at
    the head): it is behind (restored or downgraded since this process upgraded it) or
    ahead (a newer version of the server upgraded it)."""
    with engine.connect() as connection:
        at = current(connection, prefix)
    want = head()
    if at == want:
        return None
    if at is None:
        return f"the database has no schema version; this server needs revision {want}"
    if at not in known():
        return (
            f"the database's schema is at revision {at}, newer than this server's {want}"
            " (a newer version of the server upgraded it)"
        )
    return f"the database's schema is at revision {at}, behind this server's {want}"


def upgrade(engine: Engine, prefix: str = "", revision: str = "head") -> None:
    """Run every revision the database lacks, up to ``revision``."""
    cfg = config(prefix)
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            key = zlib.crc32(f"tne-migrate:{prefix}".encode())
            connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
            connection.commit()
        try:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)
            connection.commit()
        finally:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                connection.commit()
