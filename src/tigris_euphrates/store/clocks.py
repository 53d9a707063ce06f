"""Timed games in the store: each game's pace, its running deadline, the steps' times, and
the accounts' e-mail notification settings. Synchronous, like ``Store``.

The deadline row is written by the one process that enforces the game's clock (the holder
of the game's lock, ``server/cluster.py``); every process can read it. ``claim_notice``
makes the "your turn" e-mail of a step go out once, whichever process asks.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from .db import Store


def save_pace(store: Store, game_id: str, pace: dict[str, Any]) -> None:
    """Store the pace of a new game (before the game itself: a game never lacks its pace)."""
    with store.engine.begin() as conn:
        conn.execute(insert(store.tables.clocks).values(game_id=game_id, pace=json.dumps(pace)))


def load_pace(store: Store, game_id: str) -> dict[str, Any] | None:
    """The game's pace (``None``: an untimed game)."""
    c = store.tables.clocks.c
    with store.engine.connect() as conn:
        row = conn.execute(select(c.pace).where(c.game_id == game_id)).first()
    return None if row is None else dict(json.loads(row.pace))


def paces(store: Store, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The pace of each timed game of ``game_ids`` (untimed games are left out)."""
    if not game_ids:
        return {}
    c = store.tables.clocks.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(c.game_id, c.pace).where(c.game_id.in_(game_ids)))
        return {str(r.game_id): dict(json.loads(r.pace)) for r in rows}


def step_times(store: Store, game_id: str) -> dict[int, float]:
    """When each log entry of the game was stored, by ``seq``: the clocks are their replay."""
    a = store.actions.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(a.seq, a.created).where(a.game_id == game_id))
        return {int(r.seq): float(r.created) for r in rows}


def save_deadline(
    store: Store, game_id: str, deadline: float | None, seat: int | None, seq: int
) -> None:
    """The game's running deadline after step ``seq`` (only a newer step overwrites it)."""
    c = store.tables.clocks.c
    with store.engine.begin() as conn:
        conn.execute(
            update(store.tables.clocks)
            .where(c.game_id == game_id, c.seq <= seq)
            .values(deadline=deadline, seat=seat, seq=seq)
        )


def claim_notice(store: Store, game_id: str, seq: int) -> bool:
    """Whether the "your turn" notice of step ``seq`` is this caller's to send: true once
    per step, across every process (an update that only one writer can win)."""
    c = store.tables.clocks.c
    with store.engine.begin() as conn:
        done = conn.execute(
            update(store.tables.clocks)
            .where(c.game_id == game_id, c.notified < seq)
            .values(notified=seq)
        )
        return bool(done.rowcount)


# --- notification settings ----------------------------------------------------------------


@dataclass
class NotifySettings:
    account_id: int
    email: str
    enabled: bool


def notify_settings(store: Store, account_id: int) -> NotifySettings | None:
    n = store.tables.notify.c
    with store.engine.connect() as conn:
        row = conn.execute(select(store.tables.notify).where(n.account_id == account_id)).first()
    if row is None:
        return None
    return NotifySettings(int(row.account_id), str(row.email), bool(row.enabled))


def set_notify(store: Store, account_id: int, email: str | None, enabled: bool) -> None:
    """Turn an account's e-mail notifications on (to ``email``) or off (``email`` ``None``
    keeps the address already stored)."""
    table = store.tables.notify
    n = table.c
    now = time.time()
    values: dict[str, Any] = {"enabled": int(enabled), "updated": now}
    if email is not None:
        values["email"] = email
    with store.engine.begin() as conn:
        changed = conn.execute(update(table).where(n.account_id == account_id).values(**values))
        if changed.rowcount or email is None:
            return
        try:
            with conn.begin_nested():
                conn.execute(insert(table).values(account_id=account_id, **values))
        except IntegrityError:  # written meanwhile by another request
            conn.execute(update(table).where(n.account_id == account_id).values(**values))
