"""Baseline: the ``games`` and ``actions`` tables as they were before Alembic.

A new database gets them; a database of an earlier version (made by the hand-written upgrade
that this replaces, without a version table) keeps its rows and gets what it lacks: the
nullable columns added over time, and the seed as decimal text instead of an integer.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

#: the nullable columns of ``games`` added after its first version
LATER_COLUMNS: dict[str, sa.types.TypeEngine[Any]] = {
    "creator": sa.String(64),
    "seed_source": sa.String(16),
    "client": sa.String(64),
    "bots": sa.Integer(),
}


def upgrade() -> None:
    prefix: str = context.config.attributes.get("table_prefix", "")
    games, actions = f"{prefix}games", f"{prefix}actions"
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table(games):
        op.create_table(
            games,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seed", sa.Text, nullable=False),
            sa.Column("seats", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("result", sa.Text, nullable=True),
            *(sa.Column(name, kind, nullable=True) for name, kind in LATER_COLUMNS.items()),
        )
        op.create_index(f"ix_{games}_status", games, ["status"])
    else:
        have = {c["name"]: c for c in inspector.get_columns(games)}
        for name, kind in LATER_COLUMNS.items():
            if name not in have:
                op.add_column(games, sa.Column(name, kind, nullable=True))
        if isinstance(have["seed"]["type"], sa.Integer):
            # 31-bit seeds in an integer column become decimal text (128-bit seeds fit)
            with op.batch_alter_table(games) as batch:
                batch.alter_column(
                    "seed",
                    type_=sa.Text(),
                    existing_type=sa.Integer(),
                    existing_nullable=False,
                    postgresql_using="seed::text",
                )
    indexes = {ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes(games)}
    if f"ix_{prefix}games_client" not in indexes:
        op.create_index(f"ix_{prefix}games_client", games, ["client"])
    if not inspector.has_table(actions):
        op.create_table(
            actions,
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("action", sa.String(200), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )


def downgrade() -> None:
    prefix: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{prefix}actions")
    op.drop_table(f"{prefix}games")
