"""People and each other in the store (``store.social``): whom an account follows, whom it
blocked, its invitations to open tables, and who is online.

Presence is a time per account, written every few seconds by every server process for the
accounts connected to it (the lobby or a game): an account is online while that time is
recent, whichever process it is connected to.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .backuprows import SocialRow
from .database import Database, repair_text


class TooManyInvites(Exception):
    """The table has as many invitations as it may."""


@dataclass
class Invite:
    """An invitation of ``to_id`` to the open table ``table_id`` by ``by`` (a name)."""

    id: int
    table_id: str
    by: str
    created: float


class Social:
    """Follows, blocks, invitations and presence of one database (``Store.social``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    # --- follows and blocks ---------------------------------------------------------------

    def _add(self, table: Table, account_id: int, other_id: int, now: float) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(table).values(account_id=account_id, other_id=other_id, created=now)
                )
            return True
        except IntegrityError:
            return False  # there already

    def _remove(self, table: Table, account_id: int, other_id: int) -> bool:
        with self.engine.begin() as conn:
            where = (table.c.account_id == account_id, table.c.other_id == other_id)
            return bool(conn.execute(delete(table).where(*where)).rowcount)

    def _list(self, table: Table, account_id: int) -> list[tuple[int, str]]:
        a = self.t.accounts
        query = (
            select(a.c.id, a.c.name)
            .join(table, table.c.other_id == a.c.id)
            .where(table.c.account_id == account_id)
            .order_by(a.c.name_key)
        )
        with self.engine.connect() as conn:
            return [(int(r.id), str(repair_text(r.name))) for r in conn.execute(query)]

    def follow(self, account_id: int, other_id: int, now: float) -> bool:
        return self._add(self.t.follows, account_id, other_id, now)

    def unfollow(self, account_id: int, other_id: int) -> bool:
        return self._remove(self.t.follows, account_id, other_id)

    def following(self, account_id: int) -> list[tuple[int, str]]:
        """(id, name) of the accounts ``account_id`` follows, by name."""
        return self._list(self.t.follows, account_id)

    def followers(self, account_id: int) -> list[int]:
        """The accounts that follow ``account_id``."""
        f = self.t.follows
        query = select(f.c.account_id).where(f.c.other_id == account_id)
        with self.engine.connect() as conn:
            return [int(x) for x in conn.execute(query).scalars()]

    def block(self, account_id: int, other_id: int, now: float) -> bool:
        """Block ``other_id``: it is unfollowed too, and its invitations go."""
        added = self._add(self.t.blocks, account_id, other_id, now)
        self.unfollow(account_id, other_id)
        i = self.t.invites
        with self.engine.begin() as conn:
            conn.execute(delete(i).where(i.c.to_id == account_id, i.c.from_id == other_id))
        return added

    def unblock(self, account_id: int, other_id: int) -> bool:
        return self._remove(self.t.blocks, account_id, other_id)

    def blocked(self, account_id: int) -> list[tuple[int, str]]:
        """(id, name) of the accounts ``account_id`` blocked, by name."""
        return self._list(self.t.blocks, account_id)

    def blocks_either(self, account_id: int, other_id: int) -> bool:
        """Whether either account blocked the other."""
        b = self.t.blocks
        query = select(b.c.account_id).where(
            ((b.c.account_id == account_id) & (b.c.other_id == other_id))
            | ((b.c.account_id == other_id) & (b.c.other_id == account_id))
        )
        with self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def dump(self) -> list[SocialRow]:
        """Each account's follows and blocks (``tne export``), by account: ``{account_id,
        follows, blocks}`` for the accounts with any."""
        out: dict[int, SocialRow] = {}
        with self.engine.connect() as conn:
            for kind, table in (("follows", self.t.follows), ("blocks", self.t.blocks)):
                rows = conn.execute(
                    select(table.c.account_id, table.c.other_id).order_by(
                        table.c.account_id, table.c.other_id
                    )
                )
                for a, b in rows:
                    entry = out.setdefault(
                        int(a), {"account_id": int(a), "follows": [], "blocks": []}
                    )
                    (entry["follows"] if kind == "follows" else entry["blocks"]).append(int(b))
        return [out[a] for a in sorted(out)]

    def restore(self, rows: list[SocialRow], now: float) -> None:
        """Store the follows and blocks of an export (``dump``'s rows)."""
        values = {
            kind: [
                {"account_id": r["account_id"], "other_id": other, "created": now}
                for r in rows
                for other in (r["follows"] if kind == "follows" else r["blocks"])
            ]
            for kind in ("follows", "blocks")
        }
        with self.engine.begin() as conn:
            for kind, table in (("follows", self.t.follows), ("blocks", self.t.blocks)):
                if values[kind]:
                    conn.execute(insert(table), values[kind])

    # --- invitations ----------------------------------------------------------------------

    def invite(self, table_id: str, from_id: int, to_id: int, now: float, most: int) -> bool:
        """Invite ``to_id`` to the table; ``False`` if it was invited there already. Raises
        ``TooManyInvites`` when the table has ``most`` invitations already."""
        i = self.t.invites
        try:
            with self.engine.begin() as conn:
                have = conn.execute(
                    select(func.count()).select_from(i).where(i.c.table_id == table_id)
                ).scalar_one()
                if have >= most:
                    raise TooManyInvites(table_id)
                conn.execute(
                    insert(self.t.invites).values(
                        table_id=table_id, from_id=from_id, to_id=to_id, created=now
                    )
                )
            return True
        except IntegrityError:
            return False

    def invites_of(self, account_id: int, now: float) -> list[Invite]:
        """The account's invitations to tables still open, newest first."""
        i, o, a = self.t.invites, self.t.open_tables, self.t.accounts
        query = (
            select(i.c.id, i.c.table_id, i.c.created, a.c.name)
            .join(o, o.c.id == i.c.table_id)
            .join(a, a.c.id == i.c.from_id)
            .where(i.c.to_id == account_id, o.c.state == "open", o.c.expires > now)
            .order_by(i.c.created.desc())
            .limit(50)
        )
        with self.engine.connect() as conn:
            return [
                Invite(int(r.id), str(r.table_id), str(repair_text(r.name)), float(r.created))
                for r in conn.execute(query)
            ]

    def decline(self, invite_id: int, account_id: int) -> bool:
        i = self.t.invites
        with self.engine.begin() as conn:
            where = (i.c.id == invite_id, i.c.to_id == account_id)
            return bool(conn.execute(delete(i).where(*where)).rowcount)

    # --- presence -------------------------------------------------------------------------

    def seen(self, account_ids: list[int], now: float) -> None:
        """These accounts are connected now."""
        if not account_ids:
            return
        p = self.t.presence
        with self.engine.begin() as conn:
            known = set(
                conn.execute(select(p.c.account_id).where(p.c.account_id.in_(account_ids)))
                .scalars()
                .all()
            )
            if known:
                conn.execute(update(p).where(p.c.account_id.in_(known)).values(seen=now))
            new = [x for x in set(account_ids) if x not in known]
            if new:
                _insert_new(conn, p, new, now)

    def online(self, account_ids: list[int], since: float) -> set[int]:
        """Those of ``account_ids`` seen connected since ``since``."""
        if not account_ids:
            return set()
        p = self.t.presence
        query = select(p.c.account_id).where(p.c.account_id.in_(account_ids), p.c.seen >= since)
        with self.engine.connect() as conn:
            return {int(x) for x in conn.execute(query).scalars()}


def _insert_new(conn: Connection, p: Table, new: list[int], now: float) -> None:
    """Insert presence rows; one another process inserted meanwhile is updated instead."""
    for account_id in new:
        try:
            with conn.begin_nested():
                conn.execute(insert(p).values(account_id=account_id, seen=now))
        except IntegrityError:
            conn.execute(update(p).where(p.c.account_id == account_id).values(seen=now))
