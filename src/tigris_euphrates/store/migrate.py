"""Bring a store's database up to the newest schema with Alembic, at every start.

The revisions live in ``store/migrations/versions``; the version table is
``{prefix}alembic_version``. On PostgreSQL an advisory lock makes the processes that start
together upgrade one after the other (the later ones find nothing left to do).
"""

from __future__ import annotations

import zlib
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


def head() -> str | None:
    """The newest revision."""
    return ScriptDirectory.from_config(config("")).get_current_head()


def current(connection: Connection, prefix: str = "") -> str | None:
    """The revision the database is at (``None``: never upgraded by Alembic)."""
    context = MigrationContext.configure(
        connection, opts={"version_table": f"{prefix}alembic_version"}
    )
    return context.get_current_revision()


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
