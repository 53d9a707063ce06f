"""Run a real server for tests and benchmarks: in a thread, or as a process one can kill.

Not part of the package (nothing here is for players): the tests and the server benchmarks
(bench/server.py, page.py, hostile.py) import it from support/.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from tigris_euphrates.server import create_app
from tigris_euphrates.server.launch import uvicorn_options
from tigris_euphrates.server.settings import Settings
from tigris_euphrates.store import Store

#: How long a test waits for an event (a frame, a page drawn, a request answered) before it
#: calls it lost, in seconds. A bound for a broken server, not a speed requirement: on a
#: machine loaded several times over its cores a page can take many seconds to draw, so the
#: tests wait for what they need and never for a time (speed is measured in bench/).
PATIENCE = 120.0
#: ``PATIENCE`` in milliseconds, as Playwright takes it.
PATIENCE_MS = PATIENCE * 1000

#: What a test server is built with unless a test says otherwise: bots move at once, and the
#: garbage collector of the test process is left as it is.
TEST_SETTINGS = Settings(bot_delay=0.0, tune_gc=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Until the server listens on ``port`` (not past ``timeout``, nor once ``proc`` died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server process exited ({proc.returncode}) before listening")
        time.sleep(0.05)
    raise TimeoutError(f"no server on port {port} after {timeout}s")


def make_app(**app_kwargs: Any) -> Any:
    """``create_app`` for a test: the ``Settings`` fields of ``app_kwargs`` replace those of
    ``TEST_SETTINGS``; the others (``clock``, ``mail``) are handed to ``create_app``."""
    names = {f.name for f in fields(Settings)}
    settings = TEST_SETTINGS.replace(**{k: v for k, v in app_kwargs.items() if k in names})
    return create_app(settings, **{k: v for k, v in app_kwargs.items() if k not in names})


class LiveServer:
    """``make_app(**app_kwargs)`` served by uvicorn on a free port in a background thread."""

    def __init__(self, **app_kwargs: Any) -> None:
        self.app_kwargs = app_kwargs
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LiveServer:
        app = make_app(**self.app_kwargs)
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            **uvicorn_options(
                self.app_kwargs.get("limits"), self.app_kwargs.get("forwarded_allow_ips", "")
            ),
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + PATIENCE
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    @property
    def app(self) -> Any:
        assert self._server is not None
        return self._server.config.app

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=PATIENCE)


class ServerProcess:
    """``python -m tigris_euphrates.server`` in its own process (``kill()``: SIGKILL;
    ``terminate()``: SIGTERM, the graceful stop; ``start()`` again: the same server on the
    same port). ``log``: a file that gets its stdout and stderr."""

    def __init__(
        self,
        data_dir: str | Path,
        database_url: str | None = None,
        table_prefix: str = "",
        extra: list[str] | None = None,
        client_seeds: bool = False,
        limits: dict[str, float] | None = None,
        log: Path | None = None,
    ) -> None:
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "tigris_euphrates.server", "--port", str(self.port)]
        args += ["--data-dir", str(data_dir), "--bot-delay", "0"]
        if database_url:
            args += ["--database-url", database_url]
        if table_prefix:
            args += ["--table-prefix", table_prefix]
        if client_seeds:
            args += ["--client-seeds"]
        for name, value in (limits or {}).items():
            args += ["--limit", f"{name}={value}"]
        self.args = args + (extra or [])
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        env = {k: v for k, v in os.environ.items() if k != "TNE_DATABASE_URL"}
        if self.log is None:
            self.proc = subprocess.Popen(self.args, env=env)
        else:
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen(self.args, env=env, stdout=out, stderr=out)
        _wait_port(self.port, PATIENCE, self.proc)
        return self

    def terminate(self, timeout: float = PATIENCE) -> int:
        """SIGTERM, then wait for the process to end; returns its exit code."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()


class Player:
    """A browser's worth of HTTP state against a live server (a thread's or a process's):
    cookies (session, CSRF) and the CSRF header."""

    def __init__(self, server: LiveServer | ServerProcess) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=PATIENCE)
        self.csrf = self.http.get("/api/account").json()["csrf"]

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        return self.http.post(path, json=body if body is not None else {}, headers=headers)

    def sign_up(self, name: str, password: str, seats: list[dict[str, str]] | None = None) -> Any:
        r = self.post(
            "/api/account/signup", {"name": name, "password": password, "seats": seats or []}
        )
        assert r.status_code == 200, r.text
        return r.json()

    def sign_in(self, name: str, password: str) -> httpx.Response:
        return self.post("/api/account/signin", {"name": name, "password": password})

    def me(self) -> Any:
        return self.http.get("/api/account").json()["account"]

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    def close(self) -> None:
        self.http.close()


class SeatClient:
    """A websocket client for one seat (``token=None``: spectator); records every frame."""

    def __init__(self, ws_url: str, game_id: str, token: str | None) -> None:
        from websockets.sync.client import connect

        self._cm = connect(f"{ws_url}/ws/games/{game_id}", max_size=2**24, open_timeout=PATIENCE)
        self.ws = self._cm.__enter__()
        self.ws.send(json.dumps({"type": "join", "token": token}))
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None  # the last view frame

    def recv(self, timeout: float = PATIENCE) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(msg)
        if msg.get("type") == "view":
            self.last = msg
        return msg

    def try_recv(self, timeout: float = 0.3) -> dict[str, Any] | None:
        try:
            return self.recv(timeout)
        except TimeoutError:
            return None

    def drain(self, timeout: float = 0.05) -> None:
        while self.try_recv(timeout) is not None:
            pass

    def wait_view(self, pred: Any = None, timeout: float = PATIENCE) -> dict[str, Any]:
        """Receive until a view frame satisfying ``pred`` (default: any) arrives."""
        deadline = time.monotonic() + timeout
        if self.last is not None and pred is not None and pred(self.last):
            return self.last
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching view")
            msg = self.recv(left)
            if msg.get("type") == "view" and (pred is None or pred(msg)):
                return msg

    def wait_pong(self, t: Any, timeout: float = PATIENCE) -> dict[str, Any]:
        """Receive until the pong answering ``{"type": "ping", "t": t}``."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if msg.get("type") == "pong" and msg.get("t") == t:
                return msg

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def move(self, action: Any, seq: int | None = None) -> None:
        assert self.last is not None
        self.send(
            {"type": "move", "seq": self.last["seq"] if seq is None else seq, "action": action}
        )

    def close(self) -> None:
        self.ws.close()


POSTGRES_TEST_URL = "postgresql://postgres@127.0.0.1:5432/test"


#: Set to 1 (``make test`` does), an unreachable test PostgreSQL fails the PostgreSQL tests
#: instead of skipping them: a suite that needs it cannot pass without running them.
REQUIRE_POSTGRES = "TNE_REQUIRE_POSTGRES"


def postgres_target() -> str:
    """The test PostgreSQL's URL ($TNE_TEST_POSTGRES_URL or the default), reachable or not."""
    return os.environ.get("TNE_TEST_POSTGRES_URL", POSTGRES_TEST_URL)


def postgres_url() -> str | None:
    """The test PostgreSQL ($TNE_TEST_POSTGRES_URL or the default) if it answers, else None."""
    url = postgres_target()
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception:
        return None
    return url


def postgres_or_skip() -> str:
    """The test PostgreSQL's URL for a test that needs it. When it does not answer the test
    is skipped, with a message; with ``TNE_REQUIRE_POSTGRES=1`` it fails instead. Every
    PostgreSQL test goes through here (or through the ``db`` fixture, which does)."""
    import pytest

    url = postgres_url()
    if url is not None:
        return url
    if os.environ.get(REQUIRE_POSTGRES) == "1":
        pytest.fail(
            f"PostgreSQL is not reachable at {postgres_target()} and {REQUIRE_POSTGRES}=1: "
            "start it (or point TNE_TEST_POSTGRES_URL at one); the PostgreSQL tests must run",
            pytrace=False,
        )
    pytest.skip(f"PostgreSQL is not reachable at {postgres_target()}: PostgreSQL tests skipped")


def live_server_on(database: str, data: Path, *, stem: str, **options: Any) -> Iterator[LiveServer]:
    """A ``LiveServer`` (with ``options``) on a fresh SQLite file in ``data`` (``database``
    "sqlite") or on the test PostgreSQL under a table prefix of its own starting with
    ``stem``, whose tables are dropped afterwards ("postgresql"): the body of the tests'
    server fixtures that run on both databases."""
    if database == "sqlite":
        with LiveServer(
            data_dir=data, database_url=f"sqlite:///{data}/t.sqlite3", **options
        ) as srv:
            yield srv
        return
    url = postgres_or_skip()
    prefix = f"{stem}{uuid.uuid4().hex[:10]}_"
    try:
        with LiveServer(data_dir=data, database_url=url, table_prefix=prefix, **options) as srv:
            yield srv
    finally:
        Store(url, prefix).drop_all()


def cut_listeners(url: str, prefix: str) -> int:
    """End (on the database's side) the listening connections of the server processes on the
    tables of ``prefix``, as a network failure would; the servers of other tests, on other
    prefixes, keep theirs. Returns how many were ended."""
    import psycopg

    name = f"tne-listen-{prefix[:32]}-"
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE left(application_name, %s) = %s",
            (len(name), name),
        ).fetchall()
    return len(rows)


def lock_holder(url: str, prefix: str, game_id: str) -> int | None:
    """The PostgreSQL backend holding the advisory lock of a game (the process that runs its
    bots), if any."""
    import psycopg

    from tigris_euphrates.server.cluster import lock_key

    key = lock_key(prefix, game_id) & (2**64 - 1)
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid::bigint = %s AND objid::bigint = %s AND objsubid = 1",
            (key >> 32, key & 0xFFFFFFFF),
        ).fetchone()
    return None if row is None else int(row[0])
