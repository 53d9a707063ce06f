"""Whether this process should get traffic (``/readyz``) and the gauges it reports
(``/metrics``): the health of one server process, read from its hub."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .metrics import CENSUS_SECONDS, Metrics

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("tigris_euphrates.server")

#: How long the readiness check waits for the database's answer.
READY_SECONDS = 2.0


class Readiness:
    """The readiness check and the census of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._ping: asyncio.Task[None] | None = None

    async def unready(self) -> str | None:
        """Why this process should get no traffic now (``None``: it is ready): it is
        stopping, its database did not answer a cheap query within ``READY_SECONDS``, or
        (PostgreSQL) it does not hear the other processes."""
        hub = self.hub
        if hub.closing or hub.draining:
            return "the server is stopping"
        if self._ping is None or self._ping.done():
            # one query at a time: checks asked while one hangs do not pile up on the thread
            self._ping = asyncio.get_running_loop().create_task(hub.db(hub.store.ping))
        try:
            await asyncio.wait_for(asyncio.shield(self._ping), READY_SECONDS)
        except TimeoutError:
            return f"the database did not answer within {READY_SECONDS:g} s"
        except Exception as exc:
            log.warning("readiness: the database cannot be reached: %s", exc)
            return f"the database cannot be reached ({type(exc).__name__})"
        if hub.cluster is not None and not hub.cluster.listening:
            return "the listening connection to the database is down"
        return None

    def census(self) -> Metrics:
        """The gauges counted now (games held and owned, connections, bot queues)."""
        hub = self.hub
        players = spectators = 0
        for game in hub.games.values():
            for conn in game.conns.values():
                if conn.seat is None:
                    spectators += 1
                else:
                    players += 1
        owned = sum(1 for game in hub.games.values() if hub.owns(game))
        hub.metrics.census(
            len(hub.games),
            owned,
            players,
            spectators,
            hub.bots.search_work.waiting,
            hub.bots.quick_work.waiting,
        )
        return hub.metrics

    async def census_loop(self) -> None:
        """With several processes on one port, each counts its gauges every second (the
        worker that answers a scrape cannot count the others')."""
        while not self.hub.closing:
            self.census()
            await asyncio.sleep(CENSUS_SECONDS)
