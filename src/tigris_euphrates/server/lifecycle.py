"""The life of one server process's hub: starting (loading the unfinished games, joining the
other processes), draining (stopping on purpose, its clients told to connect again) and
stopping (closing what is left).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .metrics import multiprocess_mode

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("tigris_euphrates.server")

#: How long a stopping process waits for its clients to close after telling them to go.
DRAIN_SECONDS = 5.0
#: The close of a websocket whose process stops on purpose: the page connects again.
RESTART = (1012, "service restart")


async def start(hub: Hub) -> None:
    """Load every unfinished game and let its bots resume. On PostgreSQL, join the other
    processes: only the games whose lock this process gets are loaded now, and a scan
    every few seconds takes the games whose process died."""
    if multiprocess_mode():
        hub.spawn(hub.readiness.census_loop())
    hub.spawn(hub.meeting.run())
    hub.spawn(hub.lobby.keep_presence())
    hub.spawn(hub.direct.run())
    hub.spawn(hub.eventrunner.run())
    hub.spawn(hub.analyst.run())
    if hub.sync is not None:
        await hub.sync.start()
        return
    for gid in await hub.db(hub.store.games.ids, "active"):
        try:
            game = await hub.get(gid)
        except Exception:  # a broken record must not stop the server
            log.exception("cannot load game %s", gid, extra={"game": gid})
            continue
        hub.changed(game)


async def drain(hub: Hub) -> None:
    """Stop on purpose (SIGTERM), before the connections are cut: no bot starts a
    decision, the moves under way are stored and their views sent, then every client is
    told to connect again (close 1012, which the page answers by reconnecting — to
    another process behind a load balancer): the games', the lobby's and the bots' event
    sockets, each by this server before uvicorn cuts what is left; after they went
    (``DRAIN_SECONDS`` at most), the games' locks are let go and the other processes
    told so, so that they take the bots at once. ``stop`` follows."""
    if hub.draining or hub.closing:
        return
    hub.draining = True
    hub.timekeeper.closing = True
    hub.timekeeper.disarm_all()
    await hub.bots.stop()
    hub.lobby.close_all(*RESTART)
    for poke in hub.event_sockets:  # each closes itself (1012) once woken
        poke.set()
    for game in list(hub.games.values()):
        async with game.lock:  # a move under way is stored and its views due first
            for conn in game.audience.conns.values():
                conn.close(*RESTART)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DRAIN_SECONDS
    while loop.time() < deadline and (
        any(game.audience.conns for game in hub.games.values())
        or hub.lobby.conns
        or hub.event_sockets
    ):
        await asyncio.sleep(0.02)
    if hub.sync is not None:
        await hub.sync.stop()  # lets go of the locks and says so


async def stop(hub: Hub) -> None:
    """Close what is left: the connections (1001), the bots, the link to the other
    processes (letting go of the games' locks), then the database thread once the
    writes under way are done."""
    hub.closing = True
    hub.timekeeper.closing = True
    hub.timekeeper.disarm_all()
    hub.cancel_background()
    hub.bots.closing = True
    hub.lobby.close_all(1001, "the server is shutting down")
    for game in list(hub.games.values()):
        for conn in game.audience.conns.values():
            conn.close(1001, "the server is shutting down")
    await hub.bots.stop()
    hub.analyst.stop()
    await hub.eventrunner.stop()  # another process pairs the events from now
    if hub.sync is not None:
        await hub.sync.stop()
    hub.db.shutdown()
    hub.metrics.process_gone()
