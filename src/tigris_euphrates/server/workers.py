"""The server's worker processes: bots' decisions and post-game analyses run in their own
processes (``spawn``: a fresh interpreter, no copy of the server's event loop, sockets or
database connections).

A worker that outlives its server would hold memory and CPU for nobody: a pool's workers wait
on a queue whose writing end they hold themselves, so a server killed with SIGKILL (or by
the out-of-memory killer) never closes it. Each worker therefore watches its parent: once the
process that started it is gone (the worker has been handed to another parent), it exits
within ``PARENT_CHECK_SECONDS``, whatever it was doing.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import threading
import time
from typing import Final

#: How often a worker looks whether the server that started it still runs.
PARENT_CHECK_SECONDS: Final = 1.0


def process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that exit by themselves when the server dies."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def watch_parent(parent: int) -> None:
    """In a worker: start a daemon thread that ends the process once ``parent`` no longer is
    its parent (on POSIX an orphan is adopted by another process: its parent id changes)."""
    threading.Thread(
        target=_exit_when_orphaned, args=(parent,), name="tne-parent-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
