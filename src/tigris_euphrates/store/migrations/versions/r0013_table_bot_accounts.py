"""An open table's second choice about bots: whether bot accounts may take its seats
(``bot_accounts``, off for the tables opened before: ``allow_bots`` now says only that its
creator may start early with AI players in the free seats).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0013"
down_revision: str | None = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.add_column(
        f"{p}open_tables",
        sa.Column("bot_accounts", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    with op.batch_alter_table(f"{p}open_tables") as batch:
        batch.drop_column("bot_accounts")
