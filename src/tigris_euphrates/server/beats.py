"""A background job's beat: run it every so many seconds, and at once when kicked (the
matchmaker after a join, the events' pairing after an entry); a beat that fails is logged
and the next one comes as usual, so one bad moment (the database away) stops nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("tigris_euphrates.server")


async def every(
    seconds: float,
    beat: Callable[[], Awaitable[Any]],
    what: str,
    kick: asyncio.Event | None = None,
) -> None:
    """Run ``beat`` every ``seconds`` (and at once when ``kick`` is set) until cancelled;
    ``what`` names the job in the log when a beat fails."""
    while True:
        if kick is None:
            await asyncio.sleep(seconds)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(kick.wait(), seconds)
            kick.clear()
        try:
            await beat()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed", what)
