"""Bot accounts: when an account became a bot (``accounts.bot``; NULL: a person), its API
tokens (``bot_tokens``: only their SHA-256 is kept) and the challenges between accounts
(``challenges``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.add_column(f"{p}accounts", sa.Column("bot", sa.Float, nullable=True))
    op.create_table(
        f"{p}bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_table(
        f"{p}challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger", sa.Integer, nullable=False, index=True),
        sa.Column("challenged", sa.Integer, nullable=False, index=True),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}challenges")
    op.drop_table(f"{p}bot_tokens")
    with op.batch_alter_table(f"{p}accounts") as batch:
        batch.drop_column("bot")
