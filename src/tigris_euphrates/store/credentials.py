"""An account's way back in and its address: password-reset links and e-mail changes
(``store.credentials``). Synchronous, like every area of the store.

A reset link's token is never stored, only its SHA-256 (a copy of the database opens no
account); a link works once (``use_reset`` marks it used in the same statement that checks
it, so two requests sent together cannot both use it) and until it expires. A password set
through one ends every other link of the account.

An account's address is its notification address (``store.notifications``), confirmed by
its owner. A change (``ask_change``) waits here until the new address's owner follows the
link sent to it (``confirm_change``); the old address serves until then.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database

#: The most accounts one reset request by e-mail address sends links for.
MOST_ACCOUNTS_BY_EMAIL = 5


@dataclass(frozen=True)
class Changed:
    """A confirmed change of an account's address: the old one (``None``: none was
    confirmed) and the new one."""

    old: str | None
    new: str


class Credentials:
    """The reset links and pending address changes of one database."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.t = db.tables

    # --- password resets ------------------------------------------------------------------

    def add_reset(self, account_id: int, digest: str, seconds: float) -> None:
        """Keep a new reset link of the account (``digest``: its token's SHA-256), working
        for ``seconds``; links that expired (anyone's) are dropped."""
        r = self.t.resets
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(r).where(r.c.expires < now))
            conn.execute(
                insert(r).values(
                    id=digest, account_id=account_id, created=now, expires=now + seconds
                )
            )

    def reset_account(self, digest: str) -> int | None:
        """The account of a reset link that still works (unused, unexpired), else ``None``."""
        r = self.t.resets
        query = select(r.c.account_id).where(
            r.c.id == digest, r.c.used.is_(None), r.c.expires > time.time()
        )
        with self.engine.connect() as conn:
            account = conn.execute(query).scalar()
        return None if account is None else int(account)

    def use_reset(self, digest: str) -> int | None:
        """Use a reset link: its account if it still worked (it works no more), else
        ``None``. Every other link of the account stops working too."""
        r = self.t.resets
        now = time.time()
        with self.engine.begin() as conn:
            account = conn.execute(select(r.c.account_id).where(r.c.id == digest)).scalar()
            if account is None:
                return None
            done = conn.execute(
                update(r)
                .where(r.c.id == digest, r.c.used.is_(None), r.c.expires > now)
                .values(used=now)
            )
            if done.rowcount != 1:
                return None
            conn.execute(delete(r).where(r.c.account_id == account, r.c.id != digest))
        return int(account)

    def drop_resets(self, account_id: int) -> None:
        """Every reset link of the account stops working (its password was changed)."""
        r = self.t.resets
        with self.engine.begin() as conn:
            conn.execute(delete(r).where(r.c.account_id == account_id))

    def accounts_by_email(self, email: str) -> list[int]:
        """The accounts whose confirmed address is ``email`` (case-insensitive), oldest
        first, at most ``MOST_ACCOUNTS_BY_EMAIL``."""
        n = self.t.notify.c
        query = (
            select(n.account_id)
            .where(func.lower(n.email) == email.lower(), n.confirmed == 1)
            .order_by(n.account_id)
            .limit(MOST_ACCOUNTS_BY_EMAIL)
        )
        with self.engine.connect() as conn:
            return [int(x) for x in conn.execute(query).scalars()]

    # --- address changes ------------------------------------------------------------------

    def ask_change(self, account_id: int, email: str) -> None:
        """The account asks for ``email`` as its address (replacing a change asked before)."""
        c = self.t.email_changes
        values = {"email": email, "created": time.time()}
        with self.engine.begin() as conn:
            done = conn.execute(update(c).where(c.c.account_id == account_id).values(**values))
            if done.rowcount:
                return
            try:
                with conn.begin_nested():
                    conn.execute(insert(c).values(account_id=account_id, **values))
            except IntegrityError:  # asked meanwhile by another request
                conn.execute(update(c).where(c.c.account_id == account_id).values(**values))

    def pending(self, account_id: int, max_age: float) -> str | None:
        """The address the account asked for and has not confirmed yet (asked within
        ``max_age`` seconds), if any."""
        c = self.t.email_changes.c
        query = select(c.email).where(c.account_id == account_id, c.created > time.time() - max_age)
        with self.engine.connect() as conn:
            email = conn.execute(query).scalar()
        return None if email is None else str(email)

    def confirm_change(self, account_id: int, email: str, max_age: float) -> Changed | None:
        """The owner of ``email`` followed its link: if it is still the change the account
        asked for (within ``max_age`` seconds), it becomes the account's confirmed address
        (its e-mail notifications keep their setting, or stay off). ``None``: nothing
        changed."""
        c, n = self.t.email_changes, self.t.notify
        now = time.time()
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(c).where(
                    c.c.account_id == account_id, c.c.email == email, c.c.created > now - max_age
                )
            )
            if gone.rowcount != 1:
                return None
            row = conn.execute(
                select(n.c.email, n.c.confirmed).where(n.c.account_id == account_id)
            ).first()
            values = {"email": email, "confirmed": 1, "updated": now}
            if row is None:
                conn.execute(insert(n).values(account_id=account_id, enabled=0, **values))
                return Changed(None, email)
            conn.execute(update(n).where(n.c.account_id == account_id).values(**values))
            old = str(row.email) if row.confirmed and row.email != email else None
            return Changed(old, email)
