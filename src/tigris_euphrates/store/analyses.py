"""The post-game analyses (``store.analyses``): a queue in the database that every server
process takes work from, and the results, stored once per game and shared by everyone who
opens its replay.

``request`` queues a finished game's analysis (once: asking again returns the row there
is). ``claim`` hands the oldest queued analysis to one worker, exactly once across every
process: on PostgreSQL the row is picked with ``FOR UPDATE SKIP LOCKED`` (two claims never
wait for nor take the same row), on SQLite the one ``UPDATE`` that picks and takes it is
atomic; both return the row taken. A running analysis whose
worker stopped reporting for ``stale`` seconds (its process died) is queued again by the
next claim. ``progress``, ``finish`` and ``fail`` are the worker's, and only change a row
its token still holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NotRequired

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from typing_extensions import TypedDict

from .database import Database
from .jsontypes import JsonDict

#: The states of an analysis, in order.
STATES = ("queued", "running", "done", "failed")


class AnalysisState(TypedDict):
    """A game's analysis as the page is told it (``state``: ``none``, never asked for;
    ``queued``, ``running``, ``done``, ``failed``), its progress, and once done the analysis
    (``tne-analysis/1``) and its time, once failed the error."""

    game_id: str
    state: str
    done: int
    total: int
    analysis: NotRequired[JsonDict | None]
    seconds: NotRequired[float | None]
    error: NotRequired[str | None]


@dataclass(frozen=True)
class AnalysisRow:
    """One game's analysis as stored: its state, progress and (done) result."""

    game_id: str
    state: str
    requested: float
    worker: str | None = None
    attempts: int = 0
    done: int = 0
    total: int = 0
    seconds: float | None = None
    error: str | None = None
    result: JsonDict | None = None

    def public(self) -> AnalysisState:
        """What the page is told: the state, the progress and the analysis once done."""
        out: AnalysisState = {
            "game_id": self.game_id,
            "state": self.state,
            "done": self.done,
            "total": self.total,
        }
        if self.state == "done":
            out["analysis"] = self.result
            out["seconds"] = self.seconds
        if self.state == "failed":
            out["error"] = self.error
        return out


class Analyses:
    """The analyses of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.table = db.tables.analyses

    def request(self, game_id: str, now: float) -> AnalysisRow:
        """Queue the analysis of ``game_id`` unless it is queued, running or done already
        (a failed one is queued again); the row as it now stands."""
        t = self.table
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(t).values(game_id=game_id, state="queued", requested=now))
        except IntegrityError:
            pass  # asked before: the row there is stands (a failed one is asked again below)
        with self.db.engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.state == "failed")
                .values(state="queued", requested=now, worker=None, error=None, done=0, total=0)
            )
        row = self.get(game_id)
        assert row is not None
        return row

    def get(self, game_id: str) -> AnalysisRow | None:
        """The analysis of ``game_id``, or None if none was asked for."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(self.table).where(self.table.c.game_id == game_id)).first()
        return None if row is None else _row(row)

    def done(self, after: str | None = None, limit: int = 100) -> list[tuple[str, JsonDict]]:
        """A page of the finished analyses, by game id after ``after``: each game's id and
        its analysis (``tne admin puzzles`` reads them all, a page at a time)."""
        t = self.table
        query = select(t.c.game_id, t.c.result).where(t.c.state == "done", t.c.result.is_not(None))
        if after is not None:
            query = query.where(t.c.game_id > after)
        with self.db.engine.connect() as conn:
            rows = conn.execute(query.order_by(t.c.game_id).limit(limit)).all()
        return [(str(r.game_id), json.loads(r.result)) for r in rows]

    def claim(self, worker: str, now: float, stale: float) -> str | None:
        """Take the oldest queued analysis (or one whose worker went silent ``stale``
        seconds ago) for ``worker`` (a name unique to the process); its game id, or None
        when there is nothing to do."""
        t = self.table
        takeable = or_(
            t.c.state == "queued", and_(t.c.state == "running", t.c.claimed < now - stale)
        )
        pick = (
            select(t.c.game_id)
            .where(takeable)
            .order_by(t.c.requested, t.c.game_id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        with self.db.engine.begin() as conn:
            taken = conn.execute(
                update(t)
                .where(t.c.game_id == pick, takeable)
                .values(
                    state="running",
                    worker=worker,
                    claimed=now,
                    done=0,
                    total=0,
                    attempts=t.c.attempts + 1,
                )
                .returning(t.c.game_id)
            ).first()
        return None if taken is None else str(taken[0])

    def progress(self, game_id: str, worker: str, done: int, total: int, now: float) -> bool:
        """Record ``done`` of ``total`` decisions judged; False when the row is no longer
        this worker's (it was given to another after a silence)."""
        return self._update(game_id, worker, done=done, total=total, claimed=now)

    def finish(self, game_id: str, worker: str, result: JsonDict, seconds: float) -> bool:
        """Store the analysis, once: False when the row is no longer this worker's."""
        return self._update(
            game_id, worker, state="done", result=json.dumps(result), seconds=seconds
        )

    def fail(self, game_id: str, worker: str, error: str) -> bool:
        """Give the analysis up with a reason (over its CPU budget, a record that does not
        replay)."""
        return self._update(game_id, worker, state="failed", error=error[:200])

    def _update(self, game_id: str, worker: str, **values: Any) -> bool:
        t = self.table
        with self.db.engine.begin() as conn:
            changed = conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.worker == worker, t.c.state == "running")
                .values(**values)
            ).rowcount
        return bool(changed)


def _row(row: Any) -> AnalysisRow:
    return AnalysisRow(
        game_id=row.game_id,
        state=row.state,
        requested=row.requested,
        worker=row.worker,
        attempts=row.attempts,
        done=row.done,
        total=row.total,
        seconds=row.seconds,
        error=row.error,
        result=json.loads(row.result) if row.result else None,
    )
