"""Alembic's environment: migrations run on the connection that ``store.migrate`` hands over
(``config.attributes["connection"]``), never from an ``alembic.ini`` URL."""

from __future__ import annotations

from alembic import context

config = context.config
connection = config.attributes["connection"]
prefix: str = config.attributes.get("table_prefix", "")

context.configure(
    connection=connection,
    version_table=f"{prefix}alembic_version",
    # SQLite changes columns by copying the table ("batch" mode)
    render_as_batch=True,
    transaction_per_migration=True,
)
with context.begin_transaction():
    context.run_migrations()
