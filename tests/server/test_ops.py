"""Running the server in public: health, readiness, the Prometheus figures and the logs.

``/healthz`` answers without the database; ``/readyz`` fails while the database cannot be
reached (a PostgreSQL behind a connection we cut) and comes back with it; ``/metrics`` is a
404 unless turned on, and its figures move when a game is played over the websocket; the
JSON logs are one object a line; a text frame that is not UTF-8 logs no traceback.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from support.serving import (
    PATIENCE,
    LiveServer,
    SeatClient,
    ServerProcess,
    free_port,
    postgres_or_skip,
)
from tigris_euphrates.store import Store

HUMAN_AND_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    r = httpx.get(f"{url}/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_health_and_readiness_answer(db: tuple[str, str]) -> None:
    url, prefix = db
    with LiveServer(database_url=url, table_prefix=prefix) as srv:
        r = httpx.get(f"{srv.url}/healthz")
        assert r.status_code == 200 and r.json() == {"alive": True}
        r = httpx.get(f"{srv.url}/readyz")
        assert r.status_code == 200 and r.json() == {"ready": True}


class Proxy:
    """A TCP relay to PostgreSQL that the test can cut (as a network failure would) and
    bring back on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.socks: list[socket.socket] = []
        self.listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Refuse new connections and break the open ones."""
        assert self.listener is not None
        self.listener.close()
        for s in self.socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.socks = []


@pytest.fixture
def proxied() -> Iterator[tuple[str, str]]:
    """(url through a relay that the test cuts, table prefix) of fresh PostgreSQL tables."""
    url = postgres_or_skip()
    prefix = f"o{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def wait_ready(url: str, ready: bool, timeout: float = PATIENCE) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{url}/readyz", timeout=10)
        if (r.status_code == 200) == ready or time.monotonic() > deadline:
            return r
        time.sleep(0.1)


def test_readiness_fails_while_the_database_is_unreachable(proxied: tuple[str, str]) -> None:
    """A server on PostgreSQL through a relay: ready; the relay cut (connections broken,
    new ones refused): 503 with a reason, while ``/healthz`` still answers 200; the relay
    back: ready again."""
    url, prefix = proxied
    proxy = Proxy(("127.0.0.1", 5432))
    proxy.start()
    relayed = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
    assert relayed != url
    with LiveServer(database_url=relayed, table_prefix=prefix) as srv:
        assert wait_ready(srv.url, True).status_code == 200
        proxy.cut()
        r = wait_ready(srv.url, False)
        assert r.status_code == 503
        body = r.json()
        assert body["ready"] is False and "database" in body["reason"]
        assert httpx.get(f"{srv.url}/healthz").status_code == 200
        proxy.start()
        assert wait_ready(srv.url, True).status_code == 200


def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    with LiveServer(data_dir=tmp_path) as srv:
        assert httpx.get(f"{srv.url}/metrics").status_code == 404


def play_moves(ann: SeatClient, moves: int) -> int:
    """Ann plays ``moves`` of her actions (the bot plays between them); returns how many
    she played."""
    played = 0
    while played < moves:
        view = ann.wait_view(lambda m: m["view"]["to_act"] == 0 or m["view"]["over"])
        if view["view"]["over"]:
            break
        seq = view["seq"]
        ann.move(view["view"]["legal_actions"][0], seq=seq)
        ann.wait_view(lambda m, s=seq: m["seq"] > s)
        played += 1
    return played


def test_metrics_move_when_games_are_played(tmp_path: Path) -> None:
    """With ``metrics`` on: a person plays against a bot over the websocket, watched by a
    spectator. The figures count the actions stored, the acknowledgements, the bot's
    decisions, the database's calls, the games and connections, a refusal and a limit."""
    with LiveServer(metrics=True, data_dir=tmp_path) as srv:
        before = scrape(srv.url)
        g = httpx.post(f"{srv.url}/api/games", json={"seats": HUMAN_AND_BOT}).json()
        ann = SeatClient(srv.ws_url, g["id"], g["seats"][0]["token"])
        watcher = SeatClient(srv.ws_url, g["id"], None)
        watcher.wait_view()
        played = play_moves(ann, 6)
        assert played == 6
        for refused in [
            {"type": "move", "seq": 0, "action": "pass"},  # stale
            {"type": "chat", "text": "x" * 5000},  # over frame_bytes
        ]:
            ann.drain()
            ann.send(refused)
            assert ann.recv()["type"] == "error"
        during = scrape(srv.url)
        ann.close()
        watcher.close()
    grew = {
        (name, *labels.values()): value(during, name, **labels) - value(before, name, **labels)
        for name, labels in [
            ("tne_actions_stored_total", {}),
            ("tne_ack_seconds_count", {}),
            ("tne_bot_decision_seconds_count", {"level": "random"}),
            ("tne_db_calls_total", {"operation": "Games.append"}),
            ("tne_db_seconds_count", {"operation": "Games.append"}),
            ("tne_refusals_total", {"code": "stale"}),
            ("tne_refusals_total", {"code": "too-large"}),
            ("tne_limits_hit_total", {"limit": "frame_bytes"}),
        ]
    }
    stored = grew[("tne_actions_stored_total",)]
    assert stored >= 2 * played  # hers and the bot's
    assert grew[("tne_ack_seconds_count",)] == played and value(during, "tne_ack_seconds_sum") > 0
    assert grew[("tne_bot_decision_seconds_count", "random")] >= played
    appends = grew[("tne_db_calls_total", "Games.append")]
    assert appends == stored == grew[("tne_db_seconds_count", "Games.append")]
    assert grew[("tne_refusals_total", "stale")] == 1
    assert grew[("tne_refusals_total", "too-large")] == 1
    assert grew[("tne_limits_hit_total", "frame_bytes")] == 1
    assert value(during, "tne_live_games", state="held") == 1
    assert value(during, "tne_live_games", state="owned") == 1
    assert value(during, "tne_connections", role="player") == 1
    assert value(during, "tne_connections", role="spectator") == 1
    assert ("tne_bot_queue", (("pool", "search"),)) in during


def test_failed_sign_ins_count_under_their_limit(tmp_path: Path) -> None:
    """A guesser stopped by the sign-in limit shows in ``tne_limits_hit_total`` under the
    limit's name, beside the refusal."""
    with LiveServer(metrics=True, data_dir=tmp_path) as srv:
        http = httpx.Client(base_url=srv.url)
        csrf = http.get("/api/account").json()["csrf"]
        name = f"Guessed{uuid.uuid4().hex[:6]}"
        assert http.post(
            "/api/account/signup",
            json={"name": name, "password": "correct horse battery"},
            headers={"X-CSRF-Token": csrf},
        ).is_success
        http.post("/api/account/signout", headers={"X-CSRF-Token": csrf})
        before = scrape(srv.url)
        statuses = [
            http.post(
                "/api/account/signin",
                json={"name": name, "password": f"wrong {i}"},
                headers={"X-CSRF-Token": csrf},
            ).status_code
            for i in range(7)
        ]
        after = scrape(srv.url)
        http.close()
    assert statuses == [401] * 5 + [429] * 2
    limit = "sign_in_failures_per_name"
    hit = value(after, "tne_limits_hit_total", limit=limit) - value(
        before, "tne_limits_hit_total", limit=limit
    )
    refused = value(after, "tne_refusals_total", code="rate-limited") - value(
        before, "tne_refusals_total", code="rate-limited"
    )
    assert hit == refused == 2


def server_log(tmp_path: Path, extra: list[str], act: Any, name: str = "server.log") -> list[str]:
    """Run a server process with ``extra`` flags, ``act(server)``, stop it (SIGTERM), and
    return the lines it logged."""
    log = tmp_path / name
    srv = ServerProcess(tmp_path / "data", extra=extra, log=log)
    with srv:
        act(srv)
        assert srv.terminate() in (0, -15)  # uvicorn ends by its signal once it stopped
    return [line for line in log.read_text().splitlines() if line.strip()]


def test_json_logs_are_one_object_a_line(tmp_path: Path) -> None:
    """``--log-format json --log-level info``: every line the process writes is a JSON
    object with the time, level, logger and message; a new game's line names the game."""
    created: list[str] = []

    def act(srv: ServerProcess) -> None:
        g = httpx.post(f"{srv.url}/api/games", json={"seats": HUMAN_AND_BOT}).json()
        created.append(g["id"])
        assert httpx.get(f"{srv.url}/healthz").status_code == 200

    lines = server_log(tmp_path, ["--log-format", "json", "--log-level", "info"], act)
    records = [json.loads(line) for line in lines]
    assert len(records) >= 3
    for record in records:
        assert {"time", "level", "logger", "message"} <= set(record), record
        assert record["level"] in ("debug", "info", "warning", "error", "critical")
    game_lines = [r for r in records if r["message"] == "game created"]
    assert [r["game"] for r in game_lines] == created
    assert game_lines[0]["logger"] == "tigris_euphrates.server"
    assert any("GET /healthz" in r["message"] for r in records)  # uvicorn's access log


def send_not_utf8(srv: ServerProcess) -> None:
    """A spectator sends a text frame that is not UTF-8: the server closes it (1007) and
    goes on serving."""
    g = httpx.post(f"{srv.url}/api/games", json={"seats": HUMAN_AND_BOT}).json()
    with connect(f"{srv.ws_url}/ws/games/{g['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "view"
        with ws.protocol_mutex:
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe not text"))
            ws.send_data()
        with pytest.raises(Exception):  # noqa: B017 - closed by the server
            while True:
                ws.recv(timeout=PATIENCE)
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1007
    assert httpx.get(f"{srv.url}/readyz").status_code == 200


@pytest.mark.parametrize("level", ["warning", "info"])
def test_a_frame_that_is_not_utf8_logs_no_traceback(tmp_path: Path, level: str) -> None:
    """At the default level nothing is logged; at ``info`` one short line."""
    lines = server_log(tmp_path, ["--log-level", level], send_not_utf8)
    text = "\n".join(lines)
    assert "Traceback" not in text and "UnicodeDecodeError" not in text
    said = [line for line in lines if "UTF-8" in line]
    assert len(said) == (1 if level == "info" else 0), lines
    assert all(len(line) < 120 for line in said)
