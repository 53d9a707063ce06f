"""Direct challenges between people: a challenger invites one to three named accounts to a
game (its options, pace and rating), each invited account answers; the game is made once
every one of them accepted.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0012"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}direct_challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger", sa.Integer, nullable=False, index=True),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("pace", sa.Text, nullable=True),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("closed_by", sa.Integer, nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}direct_invitees",
        sa.Column("challenge_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False, index=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("answer", sa.String(16), nullable=False),
        sa.Column("answered", sa.Float, nullable=True),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}direct_invitees")
    op.drop_table(f"{p}direct_challenges")
