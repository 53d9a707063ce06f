"""The account holes closed: attempts counted atomically (``attempts``, replacing
``login_failures``, whose counts are dropped), sessions kept on the server (``sessions``:
signing out ends one; the cookies of the version before name no session and are signed
out once), the accounts' name skeletons (unique; the accounts' names are filled in, and an
account whose name looks like an older account's keeps NULL), and whether a notification
address is confirmed (every address stored before is unconfirmed: no turn e-mail goes to it
until its owner confirms it).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from tigris_euphrates.store.names import skeleton

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    op.drop_table(f"{p}login_failures")
    op.create_table(
        f"{p}attempts",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index(f"ix_{p}attempts_until", f"{p}attempts", ["until"])
    op.create_table(
        f"{p}sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{p}sessions_account_id", f"{p}sessions", ["account_id"])
    op.add_column(f"{p}accounts", sa.Column("name_skeleton", sa.String(128), nullable=True))
    accounts = sa.table(f"{p}accounts", sa.column("id", sa.Integer), sa.column("name", sa.String))
    conn = op.get_bind()
    seen: set[str] = set()
    for row in conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        key = skeleton(str(row.name))
        if key in seen:
            continue
        seen.add(key)
        conn.execute(
            sa.text(f'UPDATE "{p}accounts" SET name_skeleton = :k WHERE id = :i'),
            {"k": key, "i": row.id},
        )
    op.create_index(f"ux_{p}accounts_name_skeleton", f"{p}accounts", ["name_skeleton"], unique=True)
    op.add_column(
        f"{p}notify",
        sa.Column("confirmed", sa.Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    with op.batch_alter_table(f"{p}notify") as batch:
        batch.drop_column("confirmed")
    op.drop_index(f"ux_{p}accounts_name_skeleton", f"{p}accounts")
    with op.batch_alter_table(f"{p}accounts") as batch:
        batch.drop_column("name_skeleton")
    op.drop_table(f"{p}sessions")
    op.drop_table(f"{p}attempts")
    op.create_table(
        f"{p}login_failures",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
