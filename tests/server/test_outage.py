"""The database from the operator's side: ``/readyz`` says not ready while the schema is not
at the code's newest migration (behind or ahead); a request during a PostgreSQL outage (the
server reaches it through a TCP proxy the test cuts) answers JSON 503
``database-unavailable`` with Retry-After, and the server serves again once the database is
back; ``tne serve`` against a database that does not answer says so in one line, without a
traceback or the URL's password."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from sqlalchemy import create_engine, text

from support.serving import LiveServer, free_port, live_server_on, postgres_or_skip
from tigris_euphrates.store import Store, migrate, normalise_url


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    yield from live_server_on(request.param, tmp_path, stem="o")


def stamp(srv: LiveServer, revision: str) -> None:
    """Set the revision the database's version table names, as a restore or another
    version of the server would leave it."""
    store: Store = srv.app.state.hub.store
    engine = create_engine(normalise_url(store.url))
    with engine.begin() as conn:
        conn.execute(text(f'UPDATE "{store.prefix}alembic_version" SET version_num = :v'),
                     {"v": revision})  # fmt: skip
    engine.dispose()


def test_readyz_is_not_ready_while_the_schema_is_not_at_the_head(server: LiveServer) -> None:
    head = migrate.head()
    assert head is not None
    assert httpx.get(f"{server.url}/readyz", timeout=30).json() == {"ready": True}
    older = sorted(migrate.known())[-2]
    for revision, words in ((older, "behind"), ("9999", "newer")):
        stamp(server, revision)
        r = httpx.get(f"{server.url}/readyz", timeout=30)
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["ready"] is False
        assert revision in body["reason"] and head in body["reason"] and words in body["reason"]
    stamp(server, head)
    assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200


class Proxy:
    """A TCP proxy on a free local port to ``target`` (host, port) that the test can cut
    (every connection through it closed, new ones refused, as when the database's machine
    goes away) and mend (it listens again on the same port)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.socks: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None

    def start(self) -> Proxy:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                if listener is not self.listener:  # cut meanwhile: this one goes too
                    client.close()
                    upstream.close()
                    continue
                self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut(self) -> None:
        assert self.listener is not None
        with self.lock:
            self.listener.close()
            self.listener = None
            socks, self.socks = self.socks, []
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def through(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{self.port}" if auth else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))


def test_a_request_during_a_database_outage_answers_json_503(tmp_path: Path) -> None:
    url = postgres_or_skip()
    parts = urlsplit(url)
    proxy = Proxy((parts.hostname or "127.0.0.1", parts.port or 5432)).start()
    prefix = f"o{os.urandom(5).hex()}_"
    options = {"database_url": proxy.through(url), "table_prefix": prefix}
    try:
        with LiveServer(data_dir=tmp_path, **options) as srv:
            ann = httpx.Client(base_url=srv.url, timeout=30)
            csrf = ann.get("/api/account").json()["csrf"]
            signup = {"name": "Ann" + os.urandom(3).hex(), "password": "correct horse battery"}
            assert ann.get("/api/leaderboard").status_code == 200
            proxy.cut()
            for r in (
                ann.get("/api/leaderboard"),
                ann.post("/api/account/signup", json=signup, headers={"X-CSRF-Token": csrf}),
            ):
                assert r.status_code == 503, r.text
                assert r.headers["content-type"].startswith("application/json")
                assert r.json()["error"] == "database-unavailable" and r.json()["message"]
                assert int(r.headers["Retry-After"]) > 0
            assert httpx.get(f"{srv.url}/readyz", timeout=30).status_code == 503
            proxy.start()  # the database is back: the same requests succeed
            assert ann.get("/api/leaderboard").status_code == 200
            r = ann.post("/api/account/signup", json=signup, headers={"X-CSRF-Token": csrf})
            assert r.status_code == 200, r.text
            ann.close()
    finally:
        if proxy.listener is not None:
            proxy.cut()
        Store(url, prefix).drop_all()


def test_tne_serve_against_a_database_that_does_not_answer_says_so_in_one_line() -> None:
    port = free_port()  # nothing listens there
    env = {k: v for k, v in os.environ.items() if k != "TNE_DATABASE_URL"}
    tne = [str(Path(sys.executable).with_name("tne")), "serve", "--port", str(free_port())]
    server = [sys.executable, "-m", "tigris_euphrates.server", "--port", str(free_port())]
    for args, extra in (
        ([*tne, "--database-url", f"postgresql://tne:s3cret@127.0.0.1:{port}/x"], {}),
        (tne, {"TNE_DATABASE_URL": f"postgresql://tne:s3cret@127.0.0.1:{port}/x"}),
        ([*server, "--database-url", f"postgresql://tne:s3cret@127.0.0.1:{port}/x"], {}),
    ):
        done = subprocess.run(
            args, capture_output=True, text=True, timeout=60, env={**env, **extra}
        )
        assert done.returncode != 0
        said = f"cannot reach the database at postgresql://tne:***@127.0.0.1:{port}/x: "
        assert said + "connection refused" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "s3cret" not in done.stdout + done.stderr
