"""The thread(s) on which the server runs the store's blocking calls."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class DatabaseThread:
    """Runs the store's calls off the event loop: one thread for SQLite (one writer at a
    time), a few for PostgreSQL. ``await db(fn, *args)`` is ``fn(*args)`` on a worker."""

    def __init__(self, workers: int) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="tne-db"
        )

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def shutdown(self) -> None:
        """Wait for the calls under way, then stop the workers."""
        self._pool.shutdown(wait=True)
