"""The server's worker processes (bots' decisions, analyses) end with the server: a server
killed with SIGKILL leaves no process behind to hold memory and CPU for nobody."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from support.serving import PATIENCE, ServerProcess

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state != "Z":
            found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(check: Callable[[], object], what: str, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.2)


def test_a_killed_server_leaves_no_worker_process_behind(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        assert srv.proc is not None
        server = srv.proc.pid
        before = children(server)
        seats = [{"kind": "bot", "level": "medium"}] * 2  # searches: they think in workers
        r = httpx.post(f"{srv.url}/api/games", json={"seats": seats, "seed": 3}, timeout=PATIENCE)
        assert r.status_code == 200, r.text
        wait_for(lambda: children(server) - before, "no bot worker process started")
        workers = children(server) - before
    finally:
        srv.kill()
    wait_for(
        lambda: not any(alive(p) for p in workers),
        f"worker processes {sorted(workers)} outlived their server",
    )
