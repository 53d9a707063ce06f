"""Attempts counted in the database: the limits of the account endpoints (sign-ins, sign-ups,
confirmation e-mails), shared by every process of the database (``store.attempts``).

An attempt is *taken* before the work it limits (a password check, a new account), by a
compare-and-set on the key's row: the row is read, the key's ``Rule`` decides, and the
new count is written only if the row has not changed since (its ``version``); otherwise
the decision is made again on the newer row. However many requests arrive together, in one
process or several, at most the rule's number of them are let through. An attempt that
turns out not to count (a sign-in that succeeded) is given back (``release``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database

#: The most compare-and-set rounds one ``take`` makes (each loss means another request
#: took an attempt of the same key meanwhile).
ROUNDS = 200


@dataclass(frozen=True)
class Rule:
    """What a key allows: ``most`` attempts in a ``window`` of seconds, then

    - nothing more until the window ends (the window starts at the first attempt), or
    - with ``backoff``: one more attempt after waiting ``backoff`` seconds since the last
      one, the wait doubling with each further attempt (at most ``window``); the count
      starts again after ``window`` seconds without an attempt; or
    - with ``spacing``: attempts ``spacing`` seconds apart, each waiting for its turn when
      that comes within ``queue`` seconds (a delay), refused when it is further away.
    """

    most: int
    window: float
    backoff: float = 0.0
    spacing: float = 0.0
    queue: float = 0.0


@dataclass(frozen=True)
class State:
    """A key's row: attempts counted in the window that started at ``since``, the last one
    at ``last``, the next turn of a spaced key at ``next_at``."""

    count: int = 0
    since: float = 0.0
    last: float = 0.0
    next_at: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """Whether an attempt was taken; ``wait``: the delay before its work (taken) or how long
    until one may be (refused); ``since``: the window it counts in (for ``release``)."""

    ok: bool
    wait: float
    since: float = 0.0


def decide(rule: Rule, state: State | None, now: float) -> tuple[State | None, float]:
    """The key's next state if one more attempt is allowed now, with the delay before its
    work, else ``None`` with how long until one would be."""
    if state is None or now - (state.last if rule.backoff else state.since) >= rule.window:
        state = State(since=now)
    n = state.count
    taken = replace(state, count=n + 1, last=now)
    if n < rule.most:
        return taken, 0.0
    if rule.backoff:
        until = state.last + min(rule.backoff * 2.0 ** min(n - rule.most, 40), rule.window)
        return (taken, 0.0) if now >= until else (None, until - now)
    if rule.spacing:
        turn = max(now, state.next_at)
        if turn - now > rule.queue:
            return None, turn - now - rule.queue
        return replace(taken, next_at=turn + rule.spacing), turn - now
    return None, state.since + rule.window - now


def expiry(rule: Rule, state: State) -> float:
    """When the row stops meaning anything (it may be deleted)."""
    return max(
        (state.last if rule.backoff else state.since) + rule.window, state.next_at, state.last
    )


def _state(row: Any) -> State:
    return State(int(row["count"]), float(row["since"]), float(row["last"]), float(row["next_at"]))


class Attempts:
    """The attempt counters of one database."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.t = db.tables

    def take(self, key: str, rule: Rule) -> Verdict:
        """Take one attempt of ``key`` under ``rule``, atomically across processes."""
        a = self.t.attempts
        for _ in range(ROUNDS):
            now = time.time()
            try:
                with self.engine.begin() as conn:
                    row = conn.execute(select(a).where(a.c.key == key)).first()
                    state = None if row is None else _state(row._mapping)
                    new, wait = decide(rule, state, now)
                    if new is None:
                        return Verdict(False, wait)
                    values = {
                        "count": new.count,
                        "since": new.since,
                        "last": new.last,
                        "next_at": new.next_at,
                        "until": expiry(rule, new),
                    }
                    if row is None:
                        conn.execute(delete(a).where(a.c.until < now))
                        conn.execute(insert(a).values(key=key, version=1, **values))
                        return Verdict(True, wait, new.since)
                    done = conn.execute(
                        update(a)
                        .where(a.c.key == key, a.c.version == row.version)
                        .values(version=row.version + 1, **values)
                    )
                    if done.rowcount == 1:
                        return Verdict(True, wait, new.since)
            except IntegrityError:
                pass  # another request made the key's row first: decide again on it
        raise RuntimeError(f"attempts: no decision for {key!r} after {ROUNDS} rounds")

    def release(self, key: str, since: float) -> None:
        """Give back an attempt taken in the window that started at ``since`` (a sign-in
        that succeeded is no failure); nothing once that window is over."""
        a = self.t.attempts
        with self.engine.begin() as conn:
            conn.execute(
                update(a)
                .where(a.c.key == key, a.c.since == since, a.c.count > 0)
                .values(count=a.c.count - 1, version=a.c.version + 1)
            )

    def forget(self, key: str) -> None:
        """Drop the key's count (the owner signed in: their own failures are forgiven)."""
        with self.engine.begin() as conn:
            conn.execute(delete(self.t.attempts).where(self.t.attempts.c.key == key))
