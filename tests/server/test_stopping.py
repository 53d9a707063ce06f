"""A stopping server tells every client to come back: ``tne serve`` (one process on SQLite,
and two worker processes on PostgreSQL) is sent SIGTERM while players, spectators, the
lobby of a guest and of a signed-in person, and a bot account's event socket are connected;
each of them gets the close frame "service restart" (1012), which the page and
``tne bot connect`` answer by connecting again, and the process ends without a traceback.
One process closes them itself (the reason "service restart" says so) before uvicorn cuts
what is left; uvicorn's workers are closed by uvicorn, with the same code."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support.serving import PATIENCE, LiveServer, Player, free_port, postgres_or_skip
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
#: room for the test's games and sockets, all from one address
LIMITS = [
    *("--limit", "games_per_client=100", "--limit", "bot_games_per_client=100"),
    *("--limit", "connections_per_client=100"),
]


class Listener(threading.Thread):
    """One open websocket that reads every frame until its connection closes, and keeps
    the close code the server sent (``None``: no close frame came, the socket was cut)."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        super().__init__(daemon=True)
        self.ws, self.name = ws, name
        self.frames: list[dict[str, Any]] = []
        self.code: int | None = None
        self.reason = ""
        self.ended = threading.Event()

    def run(self) -> None:
        try:
            while True:
                self.frames.append(json.loads(self.ws.recv()))
        except ConnectionClosed:
            rcvd = self.ws.protocol.close_rcvd
            self.code = None if rcvd is None else rcvd.code
            self.reason = "" if rcvd is None else rcvd.reason
        finally:
            self.ended.set()

    def wait_frame(self, kind: str, timeout: float = PATIENCE) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.frames:
                if frame.get("type") == kind:
                    return frame
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no {kind} frame")


class Served:
    """``tne serve`` in its own process, its output in ``log``."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log = log
        tne = Path(sys.executable).with_name("tne")
        base = {k: v for k, v in os.environ.items() if k != "TNE_DATABASE_URL"}
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [str(tne), "serve", "--port", str(self.port), "--bot-delay", "0", *LIMITS, *args],
                env={**base, **(env or {})},
                stdout=out,
                stderr=out,
            )
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{self.url}/readyz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"tne serve did not start:\n{log.read_text()}")
            time.sleep(0.1)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(60)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def everyone(srv: Served, workers: int, stack: ExitStack) -> list[Listener]:
    """A player and a spectator of a game against a bot, a guest's and a signed-in
    person's lobby, and a bot account's event socket; on several workers, enough of each
    that every worker (the kernel spreads the connections) holds some."""
    listeners: list[Listener] = []

    def open_socket(path: str, **headers: str) -> ClientConnection:
        ws = connect(f"{srv.ws_url}{path}", open_timeout=PATIENCE, additional_headers=headers)
        return stack.enter_context(ws)

    person = Player(srv)  # type: ignore[arg-type]
    person.sign_up(f"Ann{uuid.uuid4().hex[:6]}", PASSWORD)
    owner = Player(srv)  # type: ignore[arg-type]
    owner.sign_up(f"Bot{uuid.uuid4().hex[:6]}", PASSWORD)
    assert owner.post("/api/account/bot", {"confirm": True}).status_code == 200
    token = owner.post("/api/account/tokens", {"name": "bridge"}).json()["token"]
    for i in range(3 * workers):
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        made = httpx.post(f"{srv.url}/api/games", json={"seats": seats})
        assert made.status_code == 200, made.text
        game = made.json()
        for who, join in (("player", game["seats"][0]["token"]), ("spectator", None)):
            ws = open_socket(f"/ws/games/{game['id']}")
            ws.send(json.dumps({"type": "join", "token": join}))
            listeners.append(Listener(ws, f"{who} {i}"))
        listeners.append(Listener(open_socket("/ws/lobby"), f"guest's lobby {i}"))
        signed_in = open_socket("/ws/lobby", Cookie=person.cookie_header(), Origin=srv.url)
        listeners.append(Listener(signed_in, f"signed-in lobby {i}"))
        bot = open_socket("/ws/bot", Authorization=f"Bearer {token}")
        listeners.append(Listener(bot, f"bot events {i}"))
    person.close()
    owner.close()
    for listener in listeners:
        listener.start()
    for listener in listeners:
        kind = "view" if "player" in listener.name or "spectator" in listener.name else None
        kind = kind or ("hello" if "bot" in listener.name else "tables")
        listener.wait_frame(kind)
    return listeners


def check_stop(srv: Served, workers: int, said: str | None) -> None:
    """SIGTERM: every socket gets 1012, with the reason ``said`` (``None``: any)."""
    with ExitStack() as stack:
        listeners = everyone(srv, workers, stack)
        assert srv.stop() in (0, -signal.SIGTERM)
        for listener in listeners:
            assert listener.ended.wait(20), listener.name
    wrong = {
        listener.name: (listener.code, listener.reason)
        for listener in listeners
        if listener.code != 1012 or said not in (None, listener.reason)
    }
    assert wrong == {}
    assert "Traceback" not in srv.log.read_text()


def test_sigterm_closes_every_websocket_of_one_process_with_service_restart(
    tmp_path: Path,
) -> None:
    srv = Served(["--data-dir", str(tmp_path)], tmp_path / "serve.log")
    try:
        # the server's own close, sent before uvicorn cuts what is left (its close says
        # no reason): the games', the lobby's and the bots' event sockets alike
        check_stop(srv, 1, "service restart")
    finally:
        srv.kill()


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"s{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def test_sigterm_closes_every_websocket_of_each_worker_with_service_restart(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    args = ["--workers", "2", "--database-url", url, "--data-dir", str(tmp_path)]
    srv = Served(args, tmp_path / "serve.log", {"TNE_TABLE_PREFIX": prefix})
    try:
        # uvicorn's workers: uvicorn closes the sockets itself (1012)
        check_stop(srv, 2, None)
    finally:
        srv.kill()


def test_a_client_that_comes_while_the_process_drains_is_told_to_come_back(tmp_path: Path) -> None:
    """A seat or lobby socket opened in the moment between the drain's sweep and the end:
    it gets "service restart" (1012) as the others did, never a cut connection (the page
    would show an error instead of connecting again)."""
    with LiveServer(data_dir=tmp_path) as srv:
        made = httpx.post(
            f"{srv.url}/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "human"}]},
            timeout=PATIENCE,
        ).json()
        token = made["seats"][0]["token"]
        srv.app.state.hub.draining = True
        with connect(f"{srv.ws_url}/ws/games/{made['id']}", open_timeout=PATIENCE) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            seat = Listener(ws, "seat")
            seat.start()
            assert seat.ended.wait(PATIENCE)
        with connect(f"{srv.ws_url}/ws/lobby", open_timeout=PATIENCE) as ws:
            lobby = Listener(ws, "lobby")
            lobby.start()
            assert lobby.ended.wait(PATIENCE)
        srv.app.state.hub.draining = False
    assert (seat.code, seat.reason) == (1012, "service restart")
    assert (lobby.code, lobby.reason) == (1012, "service restart")
