"""The post-game analyses this process runs: background work taken from the queue in the
database (``store.analyses``), so that whichever process is free takes the next one and
each is done once, and stored once for everyone who opens the replay.

A loop asks the queue for a job every ``POLL_SECONDS`` (at once when this process queued
one), replays the game's record and judges its decisions (``coach.analysis``) in parts of
``SPAN`` actions on a worker process of its own, so that the event loop stays free. After
each part the progress goes to the database (the page polls it), and the CPU time spent
is added up: past ``seconds`` (the ``analysis_seconds`` setting) the analysis is given up
as over its budget. Once an analysis is stored, ``finished`` is told (the game's puzzles are
made from it: ``puzzles.PuzzleDesk.harvest``). A process that dies leaves its job running
without progress; after ``STALE_SECONDS`` another process takes it (``Analyses.claim``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable

from ..coach.analysis import AnalysisBudget, assemble, judge_span
from ..store import Store
from ..store.jsontypes import JsonDict, list_at
from .dbthread import DatabaseThread
from .workers import process_pool

log = logging.getLogger("tigris_euphrates.server")

#: How often an idle process asks the queue for work.
POLL_SECONDS = 2.0
#: A running analysis without progress for this long is taken over by another process.
STALE_SECONDS = 120.0
#: The actions judged in one part (progress is reported between parts).
SPAN = 12


def timed_span(
    record: JsonDict, budget: AnalysisBudget, first: int, last: int
) -> tuple[list[JsonDict], float]:
    """One part of an analysis, on the worker process, with the CPU seconds it took."""
    started = time.process_time()
    part = judge_span(record, budget, first, last)
    return part, time.process_time() - started


class Analyst:
    """Takes analyses from the queue and runs them, one at a time (see the module)."""

    def __init__(
        self,
        db: DatabaseThread,
        store: Store,
        record_of: Callable[[str], Awaitable[JsonDict]],
        seconds: float,
        budget: AnalysisBudget | None = None,
        clock: Callable[[], float] = time.time,
        finished: Callable[[str, JsonDict, JsonDict], Awaitable[object]] | None = None,
    ) -> None:
        self.db = db
        self.store = store
        self.record_of = record_of
        self.seconds = seconds
        self.budget = budget or AnalysisBudget()
        self.clock = clock
        #: told of each analysis this process stored: its game, record and analysis
        self.finished = finished
        #: this process's name in the queue
        self.worker = f"{socket.gethostname()[:32]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._wake = asyncio.Event()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def wake(self) -> None:
        """Look at the queue now (this process just queued an analysis)."""
        self._wake.set()

    async def run(self) -> None:
        """The loop: take the next job, run it; when there is none, wait."""
        while True:
            try:
                job = await self.db(
                    self.store.analyses.claim, self.worker, self.clock(), STALE_SECONDS
                )
            except Exception:  # the database is away: try again later
                log.exception("cannot read the analyses' queue")
                job = None
            if job is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
                continue
            try:
                await self.analyse(job)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("the analysis of %s failed", job, extra={"game": job})
                await self.db(self.store.analyses.fail, job, self.worker, str(exc) or "failed")

    async def analyse(self, game_id: str) -> None:
        """Run one claimed analysis to its end, or until it is over its budget or no longer
        this process's."""
        record = await self.record_of(game_id)
        plies = len(list_at(record, "actions"))
        loop = asyncio.get_running_loop()
        pool = self.pool()
        decisions: list[JsonDict] = []
        spent = 0.0
        for first in range(0, plies, SPAN):
            last = min(first + SPAN, plies)
            part, cpu = await loop.run_in_executor(
                pool, timed_span, record, self.budget, first, last
            )
            decisions += part
            spent += cpu
            if spent > self.seconds:
                message = f"over its CPU budget of {self.seconds:g} s"
                await self.db(self.store.analyses.fail, game_id, self.worker, message)
                return
            mine = await self.db(
                self.store.analyses.progress, game_id, self.worker, last, plies, self.clock()
            )
            if not mine:
                return
        result = assemble(record, self.budget, decisions)
        stored = await self.db(
            self.store.analyses.finish, game_id, self.worker, result, round(spent, 3)
        )
        if stored and self.finished is not None:
            await self.finished(game_id, record, result)

    def pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """The worker process, started on first use."""
        if self._pool is None:
            self._pool = process_pool(1)
        return self._pool

    def stop(self) -> None:
        """Stop the worker process (a job under way is taken over later by another)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
