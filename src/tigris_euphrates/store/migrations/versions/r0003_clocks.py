"""Clocks and notifications: each timed game's pace and its running deadline (which one
process enforces), and the accounts' e-mail notification settings.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}clocks",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("pace", sa.Text, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("seq", sa.Integer, nullable=False, server_default="0"),
        sa.Column("notified", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index(f"ix_{p}clocks_deadline", f"{p}clocks", ["deadline"])
    op.create_table(
        f"{p}notify",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("enabled", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}notify")
    op.drop_index(f"ix_{p}clocks_deadline", f"{p}clocks")
    op.drop_table(f"{p}clocks")
