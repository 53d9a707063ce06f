"""Live events: arenas and Swiss tournaments, their entrants, games and byes.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0015"
down_revision: str | None = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}events",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("maker", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("ends", sa.Float, nullable=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("next_id", sa.String(16), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}event_entrants",
        sa.Column("event_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False, index=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("bot", sa.Integer, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}event_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(16), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("ranks", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_table(
        f"{p}event_byes",
        sa.Column("event_id", sa.String(16), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("points", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    for name in ("event_byes", "event_games", "event_entrants", "events"):
        op.drop_table(f"{p}{name}")
