"""Account e-mail flows: password-reset tokens (only their SHA-256 is stored, each used once
and expiring) and e-mail changes waiting for the new address's confirmation.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}resets",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index(f"ix_{p}resets_account_id", f"{p}resets", ["account_id"])
    op.create_index(f"ix_{p}resets_expires", f"{p}resets", ["expires"])
    op.create_table(
        f"{p}email_changes",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}email_changes")
    op.drop_index(f"ix_{p}resets_expires", f"{p}resets")
    op.drop_index(f"ix_{p}resets_account_id", f"{p}resets")
    op.drop_table(f"{p}resets")
