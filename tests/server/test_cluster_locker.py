"""A server process's locking connection to PostgreSQL comes back after it broke: the call
that finds it down says the locks are lost, and the calls after it run again (game locks and
notifications depend on it, so a database blip must not leave a process without them)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from support.serving import postgres_or_skip
from tigris_euphrates.server.cluster import Cluster


async def _broken_and_back(url: str) -> tuple[list[str], list[tuple[int]]]:
    cluster = Cluster(url, f"tne_test_{uuid.uuid4().hex[:8]}", "locker_")
    lost: list[str] = []
    cluster.on_locks_lost = lambda: lost.append("lost")
    await cluster._connect_locker()
    assert cluster._locker is not None
    await cluster._locker.close()  # as a network failure would leave it
    with pytest.raises(ConnectionError):
        await cluster._locked("SELECT 1", ())
    rows = [await cluster._locked("SELECT 1", ()) for _ in range(2)]
    assert cluster._locker is not None
    await cluster._locker.close()
    return lost, [r[0] for r in rows]


def test_the_locking_connection_comes_back_after_it_broke() -> None:
    url = postgres_or_skip()
    lost, rows = asyncio.run(_broken_and_back(url))
    assert lost == ["lost"]
    assert rows == [(1,), (1,)]
