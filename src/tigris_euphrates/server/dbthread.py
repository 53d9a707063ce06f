"""The thread(s) on which the server runs the store's blocking calls, timed by operation."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, TypeVar

from .metrics import DbTimer, Metrics

T = TypeVar("T")


class DatabaseThread:
    """Runs the store's calls off the event loop: one thread for SQLite (one writer at a
    time), a few for PostgreSQL. ``await db(fn, *args)`` is ``fn(*args)`` on a worker;
    each call is counted and timed on its worker by its name (``metrics``)."""

    def __init__(self, workers: int, metrics: Metrics | None = None) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="tne-db"
        )
        self.metrics = metrics or Metrics()

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        timer = self.metrics.db_timer(getattr(fn, "__qualname__", "other"))
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, _timed, timer, fn, *args
        )

    def shutdown(self) -> None:
        """Wait for the calls under way, then stop the workers."""
        self._pool.shutdown(wait=True)


def _timed(timer: DbTimer, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, its time counted (on the worker: the call itself, not its wait)."""
    start = time.perf_counter()
    try:
        return fn(*args)
    finally:
        timer.observe(time.perf_counter() - start)
