"""The accounts' name skeletons computed again, by the skeleton that folds every look-alike
of a Latin letter or digit of Unicode's confusables (``store/names.py``, ``lookalikes.txt``):
of two accounts whose names look alike now, the older keeps its skeleton and the newer has
NULL (it keeps its name and signs in as before; nobody can take a third look-alike).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from tigris_euphrates.store.names import skeleton

revision = "0014"
down_revision: str | None = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    p: str = context.config.attributes.get("table_prefix", "")
    accounts = sa.table(
        f"{p}accounts",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.name_skeleton).order_by(accounts.c.id)
    ).all()
    shapes: dict[int, str | None] = {}
    seen: set[str] = set()
    for row in rows:
        shape = skeleton(str(row.name))
        shapes[int(row.id)] = None if shape in seen else shape
        seen.add(shape)
    changed = [i for i, row in zip(shapes, rows, strict=True) if shapes[i] != row.name_skeleton]
    # the changed rows let go of theirs first: the unique index holds at every statement
    for i in changed:
        conn.execute(accounts.update().where(accounts.c.id == i).values(name_skeleton=None))
    for i in changed:
        if shapes[i] is not None:
            conn.execute(
                accounts.update().where(accounts.c.id == i).values(name_skeleton=shapes[i])
            )


def downgrade() -> None:
    """The skeletons stay as they are: each is still unique."""
