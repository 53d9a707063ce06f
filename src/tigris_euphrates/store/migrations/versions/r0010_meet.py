"""Meeting people: open tables and their seats, the quick-match queue, follows, blocks,
invitations and who is online.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}open_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False, index=True),
        sa.Column("creator", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("pace", sa.Text, nullable=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("min_rating", sa.Float, nullable=True),
        sa.Column("max_rating", sa.Float, nullable=True),
        sa.Column("allow_bots", sa.Integer, nullable=False),
        sa.Column("chat", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}table_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "account_id", name=f"uq_{p}table_seats_account"),
    )
    op.create_table(
        f"{p}match_queue",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("pace", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("bot_after", sa.Float, nullable=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("matched", sa.Float, nullable=True),
    )
    for name in ("follows", "blocks"):
        op.create_table(
            f"{p}{name}",
            sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("other_id", sa.Integer, primary_key=True, autoincrement=False, index=True),
            sa.Column("created", sa.Float, nullable=False),
        )
    op.create_table(
        f"{p}invites",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("from_id", sa.Integer, nullable=False),
        sa.Column("to_id", sa.Integer, nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "to_id", name=f"uq_{p}invites_table_to"),
    )
    op.create_table(
        f"{p}presence",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seen", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    for name in (
        "presence",
        "invites",
        "blocks",
        "follows",
        "match_queue",
        "table_seats",
        "open_tables",
    ):
        op.drop_table(f"{p}{name}")
