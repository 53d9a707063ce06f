"""Moderation: the accounts' standing (admin, banned, muted), the players' reports, and the
chat lines a moderator hid.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}account_flags",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("admin", sa.Integer, nullable=False, server_default="0"),
        sa.Column("banned", sa.Float, nullable=True),
        sa.Column("muted", sa.Float, nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("n", sa.Integer, nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("closed_by", sa.String(40), nullable=True),
        sa.Column("closed", sa.Float, nullable=True),
        sa.UniqueConstraint("reporter", "target", name=f"uq_{p}reports_reporter_target"),
    )
    op.add_column(f"{p}chat", sa.Column("hidden", sa.Float, nullable=True))


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    with op.batch_alter_table(f"{p}chat") as batch:
        batch.drop_column("hidden")
    op.drop_table(f"{p}reports")
    op.drop_table(f"{p}account_flags")
