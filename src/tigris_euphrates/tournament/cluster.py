"""A tournament's games as Ray tasks (``tne tournament --ray ADDRESS``, the ``cluster`` extra).

Each game is one task running the same ``play_task`` as the local pool, on the same task
description (seats, game seed, bot seeds, options, budget), so its result is the same; the
results come back as they finish and go to the same ``finished`` callback (journal,
progress). At most ``window`` games are in flight at once, so a 100,000-game evaluation holds
a bounded number of pending tasks. Ray is imported only here, only when asked for: the local
run needs none of it.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from typing import Any

Task = dict[str, Any]
Result = dict[str, Any]

#: How many times a Ray client (``ray://``) tries to open its session, and the pause between
#: tries.
CONNECT_TRIES = 3
CONNECT_PAUSE = 2.0
#: The environment a worker inherits from the organiser's (the engine's choice of build).
INHERITED = ("TNE_PURE_PYTHON",)


def _ray() -> Any:
    """The ``ray`` module, or a clear error naming the extra to install."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ValueError(
            "--ray needs the 'cluster' extra: pip install 'tigris-euphrates[cluster]'"
        ) from None


def connect(address: str) -> tuple[Any, bool]:
    """Join the Ray cluster at ``address`` (``auto``: start a local instance, or join the one
    this machine already runs; ``local``: always a new local instance, as the tests want): the
    ``ray`` module, and whether this call joined (a caller that had joined already keeps its
    connection)."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    env = {k: os.environ[k] for k in INHERITED if k in os.environ}
    for attempt in range(1, CONNECT_TRIES + 1):
        try:
            ray.init(
                address=None if address == "auto" else address,
                runtime_env={"env_vars": env} if env else None,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
            return ray, True
        except ConnectionAbortedError:
            # the head's client server failed to start this connection's own server (a
            # busy head): a new connection starts another
            if attempt == CONNECT_TRIES or not address.startswith("ray://"):
                raise
            ray.shutdown()
            time.sleep(CONNECT_PAUSE)
    raise AssertionError("unreachable")


def run_on_ray(
    play: Callable[[Task], Result],
    tasks: list[Task],
    address: str,
    finished: Callable[[Result], None],
    window: int | None = None,
) -> None:
    """Run ``play`` on every task as a Ray task, calling ``finished`` with each result as it
    comes back; ``window`` games in flight at most (default: twice the cluster's CPUs)."""
    if not tasks:
        return
    ray, joined = connect(address)
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play)
        if window is None:
            window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        todo = list(reversed(tasks))
        pending: list[Any] = []
        while todo or pending:
            while todo and len(pending) < window:
                pending.append(remote.remote(todo.pop()))
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                finished(ray.get(ref))
    finally:
        if joined:
            ray.shutdown()
