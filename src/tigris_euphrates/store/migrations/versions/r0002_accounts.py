"""Accounts: players with a name and a password, the seats bound to them, their ratings and
the history of their rating changes, failed sign-ins (rate limits), the server's secrets
(the key that signs session cookies, shared by every process), rated games, and the
statistics of finished games (kept for the players' statistics).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.add_column(f"{p}games", sa.Column("rated", sa.Integer, nullable=True))
    op.add_column(f"{p}games", sa.Column("stats", sa.Text, nullable=True))
    op.create_table(
        f"{p}accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("generation", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        f"{p}account_seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{p}account_seats_account_id", f"{p}account_seats", ["account_id"])
    op.create_table(
        f"{p}ratings",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("size", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{p}ratings_board", f"{p}ratings", ["family", "size", "ordinal"])
    op.create_table(
        f"{p}rating_changes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("size", sa.String(8), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{p}rating_changes_account_id", f"{p}rating_changes", ["account_id"])
    op.create_table(
        f"{p}login_failures",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    for table in ("secrets", "login_failures", "rating_changes", "ratings", "account_seats"):
        op.drop_table(f"{p}{table}")
    op.drop_table(f"{p}accounts")
    with op.batch_alter_table(f"{p}games") as batch:
        batch.drop_column("stats")
        batch.drop_column("rated")
