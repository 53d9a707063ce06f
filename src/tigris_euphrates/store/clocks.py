"""Timed games in the store: each game's pace, its running deadline, the steps' times, and
the accounts' e-mail notification settings. Synchronous, like every area of the store.

The deadline row is written by the one process that enforces the game's clock (the holder
of the game's lock, ``server/cluster.py``); every process can read it. ``claim_notice``
makes the "your turn" e-mail of a step go out once, whichever process asks.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from .backuprows import ClockRow, NotifyRow
from .database import Database
from .rows import PaceData


class Clocks:
    """The paces, deadlines and step times of the timed games of one database."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.t = db.tables

    def save_pace(self, game_id: str, pace: PaceData) -> None:
        """Store the pace of a new game (before the game itself: a game never lacks its pace)."""
        with self.engine.begin() as conn:
            conn.execute(insert(self.t.clocks).values(game_id=game_id, pace=json.dumps(pace)))

    def pace(self, game_id: str) -> PaceData | None:
        """The game's pace (``None``: an untimed game)."""
        c = self.t.clocks.c
        with self.engine.connect() as conn:
            row = conn.execute(select(c.pace).where(c.game_id == game_id)).first()
        return None if row is None else _pace(row.pace)

    def paces(self, game_ids: list[str]) -> dict[str, PaceData]:
        """The pace of each timed game of ``game_ids`` (untimed games are left out)."""
        if not game_ids:
            return {}
        c = self.t.clocks.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.game_id, c.pace).where(c.game_id.in_(game_ids)))
            return {str(r.game_id): _pace(r.pace) for r in rows}

    def step_times(self, game_id: str) -> dict[int, float]:
        """When each log entry of the game was stored, by ``seq``: the clocks are their replay."""
        a = self.t.actions.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.seq, a.created).where(a.game_id == game_id))
            return {int(r.seq): float(r.created) for r in rows}

    def save_deadline(
        self, game_id: str, deadline: float | None, seat: int | None, seq: int
    ) -> None:
        """The game's running deadline after step ``seq`` (only a newer step overwrites it)."""
        c = self.t.clocks.c
        with self.engine.begin() as conn:
            conn.execute(
                update(self.t.clocks)
                .where(c.game_id == game_id, c.seq <= seq)
                .values(deadline=deadline, seat=seat, seq=seq)
            )

    def claim_notice(self, game_id: str, seq: int) -> bool:
        """Whether the "your turn" notice of step ``seq`` is this caller's to send: true once
        per step, across every process (an update that only one writer can win)."""
        c = self.t.clocks.c
        with self.engine.begin() as conn:
            done = conn.execute(
                update(self.t.clocks)
                .where(c.game_id == game_id, c.notified < seq)
                .values(notified=seq)
            )
            return bool(done.rowcount)

    def dump(self, game_ids: list[str]) -> dict[str, ClockRow]:
        """The clock rows of the timed games of ``game_ids`` (the operator's backup):
        ``pace``, the running ``deadline``, its ``seat`` and step ``seq``, and ``notified``
        (the last step whose turn e-mail went out)."""
        if not game_ids:
            return {}
        c = self.t.clocks.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(self.t.clocks).where(c.game_id.in_(game_ids)))
            return {
                str(r.game_id): {
                    "pace": _pace(r.pace),
                    "deadline": None if r.deadline is None else float(r.deadline),
                    "seat": r.seat,
                    "seq": int(r.seq),
                    "notified": int(r.notified),
                }
                for r in rows
            }

    def restore(self, game_id: str, clock: ClockRow) -> None:
        """Write a game's clock row as ``dump`` read it."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(self.t.clocks).values(
                    game_id=game_id,
                    pace=json.dumps(clock["pace"]),
                    deadline=clock["deadline"],
                    seat=clock["seat"],
                    seq=clock["seq"],
                    notified=clock["notified"],
                )
            )


@dataclass
class NotifySettings:
    account_id: int
    email: str
    enabled: bool
    #: the address's owner followed the confirmation link: only then do turn e-mails go out
    confirmed: bool = False


class Notifications:
    """The accounts' e-mail notification settings. A new address is unconfirmed until its
    owner follows the link sent to it (``confirm``); changing the address unconfirms it."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.t = db.tables

    def get(self, account_id: int) -> NotifySettings | None:
        n = self.t.notify.c
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.notify).where(n.account_id == account_id)).first()
        if row is None:
            return None
        return NotifySettings(
            int(row.account_id), str(row.email), bool(row.enabled), bool(row.confirmed)
        )

    def set(self, account_id: int, email: str | None, enabled: bool) -> None:
        """Turn an account's e-mail notifications on (to ``email``) or off (``email`` ``None``
        keeps the address already stored). A new address is unconfirmed; the same address
        again keeps its confirmation."""
        table = self.t.notify
        n = table.c
        now = time.time()
        values: dict[str, int | float | str] = {"enabled": int(enabled), "updated": now}
        if email is not None:
            values["email"] = email
        with self.engine.begin() as conn:
            if email is not None:
                conn.execute(
                    update(table)
                    .where(n.account_id == account_id, n.email != email)
                    .values(confirmed=0)
                )
            changed = conn.execute(update(table).where(n.account_id == account_id).values(**values))
            if changed.rowcount or email is None:
                return
            try:
                with conn.begin_nested():
                    conn.execute(insert(table).values(account_id=account_id, **values))
            except IntegrityError:  # written meanwhile by another request
                conn.execute(update(table).where(n.account_id == account_id).values(**values))

    def dump(self) -> dict[int, NotifyRow]:
        """Every account's notification settings, by account (the operator's backup)."""
        with self.engine.connect() as conn:
            return {
                int(r.account_id): {
                    "email": str(r.email),
                    "enabled": bool(r.enabled),
                    "updated": float(r.updated),
                }
                for r in conn.execute(select(self.t.notify).order_by(self.t.notify.c.account_id))
            }

    def restore(self, account_id: int, settings: NotifyRow) -> None:
        """Write an account's notification settings as ``dump`` read them."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(self.t.notify).values(
                    account_id=account_id,
                    email=settings["email"],
                    enabled=int(bool(settings["enabled"])),
                    updated=settings["updated"],
                )
            )

    def confirm(self, account_id: int, email: str) -> bool:
        """The owner of ``email`` followed its confirmation link: whether it is still the
        account's address (a link sent to an address changed since confirms nothing)."""
        n = self.t.notify.c
        with self.engine.begin() as conn:
            done = conn.execute(
                update(self.t.notify)
                .where(n.account_id == account_id, n.email == email)
                .values(confirmed=1)
            )
            return bool(done.rowcount)


def _pace(text: str) -> PaceData:
    pace: PaceData = json.loads(text)
    return pace
