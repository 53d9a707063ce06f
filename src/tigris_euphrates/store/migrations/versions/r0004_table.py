"""The table around a game: whether the public lobby lists it, its settings (who may write
in the chat, the rematch's id) and the table chat's lines.

Games stored before this revision have no ``listed`` value and count as listed, as they
were shown in the lobby then.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.add_column(f"{p}games", sa.Column("listed", sa.Integer, nullable=True))
    op.add_column(f"{p}games", sa.Column("settings", sa.Text, nullable=True))
    op.create_table(
        f"{p}chat",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}chat")
    with op.batch_alter_table(f"{p}games") as batch:
        batch.drop_column("settings")
        batch.drop_column("listed")
