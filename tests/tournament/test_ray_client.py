"""``tne tournament --ray ray://HEAD:PORT``: a tournament on a Ray head started apart (two
CPUs, loopback), joined through the Ray client as from another machine, gives the same
records as the local pool of processes. It needs the ``cluster`` extra's ``ray[client]``."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tigris_euphrates.tournament import run_tournament

#: Fixed work, so the games are the same wherever they run (docs/ai.md).
BOTS = ["hard:iterations=20", "random"]
#: How long the head may take to start on a busy machine.
START_SECONDS = 180


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture
def ray_head() -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """``ray start --head --block`` in a session of its own: the process, the Ray client's
    port and its folder. Stopped afterwards by signalling its session (the head and the
    processes it started), never by ``ray stop`` (which would stop any Ray on the machine)."""
    pytest.importorskip("ray.util.client")
    folder = Path(tempfile.mkdtemp(prefix="tne-ray-", dir="/tmp"))  # short: Ray's sockets
    client = free_port()
    command = [
        *(str(Path(sys.executable).parent / "ray"), "start", "--head", "--block"),
        *("--num-cpus", "2", "--node-ip-address", "127.0.0.1", "--port", str(free_port())),
        *("--ray-client-server-port", str(client), "--include-dashboard", "false"),
        *("--temp-dir", str(folder), "--disable-usage-stats"),
    ]
    # on a busy machine the client's own server may take longer than Ray's 30 s to start;
    # a loopback head without token authentication, which Ray turns on by itself once a
    # token sits in ~/.ray (an earlier head wrote one) and a plain client does not send
    env = {
        **os.environ,
        "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": str(START_SECONDS),
        "RAY_AUTH_MODE": "disabled",
    }
    log = (folder / "head.log").open("wb")
    head = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    try:
        yield head, client, folder
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(head.pid, sig)
                head.wait(timeout=5)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_tournament_through_the_ray_client_matches_the_local_pool(
    ray_head: tuple[subprocess.Popen[bytes], int, Path],
) -> None:
    head, client, folder = ray_head
    kwargs: dict[str, Any] = {"players": 2, "games": 2, "seed": 12, "records": True}
    local = run_tournament(BOTS, jobs=2, **kwargs)  # while the head starts
    deadline = time.monotonic() + START_SECONDS
    while not listening(client):
        log = (folder / "head.log").read_text(errors="replace")
        assert head.poll() is None, f"the Ray head stopped:\n{log[-2000:]}"
        assert time.monotonic() < deadline, f"the Ray head did not start:\n{log[-2000:]}"
        time.sleep(0.5)
    on_ray = run_tournament(BOTS, ray=f"ray://127.0.0.1:{client}", **kwargs)
    assert on_ray["_records"] == local["_records"]
    assert on_ray["results"] == local["results"] and on_ray["ratings"] == local["ratings"]
    assert len(on_ray["_records"]) == 2


def test_the_cluster_extra_installs_the_ray_client() -> None:
    """``ray://`` needs ``ray[client]`` (grpcio): the ``cluster`` extra pins it."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert any(r.startswith("ray[client]==") for r in extras["cluster"]), extras["cluster"]
    assert any(r.startswith("grpcio==") for r in extras["cluster"]), extras["cluster"]
