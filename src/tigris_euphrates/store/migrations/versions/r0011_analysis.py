"""The post-game analyses: one row per analysed game, the queue of the analyses asked for
and the result once done.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}analyses",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("requested", sa.Float, nullable=False),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("result", sa.Text, nullable=True),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}analyses")
