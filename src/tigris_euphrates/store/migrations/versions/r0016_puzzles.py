"""Puzzles from real mistakes: the puzzles, the attempts at them, the puzzle ratings and the
consent that lets an account's games become puzzles.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0016"
down_revision: str | None = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.create_table(
        f"{p}puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, index=True),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "ply", name=f"uq_{p}puzzles_game_ply"),
    )
    op.create_index(f"ix_{p}puzzles_mu", f"{p}puzzles", ["mu"])
    op.create_table(
        f"{p}puzzle_attempts",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False, index=True),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("correct", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("puzzle_mu_before", sa.Float, nullable=False),
        sa.Column("puzzle_sigma_before", sa.Float, nullable=False),
        sa.Column("puzzle_mu", sa.Float, nullable=False),
        sa.Column("puzzle_sigma", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}puzzle_ratings",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        f"{p}puzzle_consent",
        sa.Column("account_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("allowed", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    for name in ("puzzle_consent", "puzzle_ratings", "puzzle_attempts", "puzzles"):
        op.drop_table(f"{p}{name}")
