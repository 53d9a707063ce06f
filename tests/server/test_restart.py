"""Kill the server at any moment, start it again: every game is there and bots resume.

Runs on SQLite and on the real PostgreSQL (skipped with a message when none answers).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serving import (
    POSTGRES_TEST_URL,
    LiveServer,
    SeatClient,
    ServerProcess,
    postgres_url,
)
from tigris_euphrates import replay, result
from tigris_euphrates.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'restart.sqlite3'}", ""
        return
    url = postgres_url()
    if url is None:
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_TEST_URL}: PostgreSQL tests skipped")
    prefix = f"r{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def test_new_app_on_the_same_database_resumes_the_game(db: tuple[str, str], tmp_path: Path) -> None:
    url, prefix = db
    kwargs = {"database_url": url, "table_prefix": prefix, "data_dir": tmp_path}
    with LiveServer(**kwargs) as srv:
        g = httpx.post(
            f"{srv.url}/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 9},
        ).json()
        token = g["seats"][0]["token"]
        c = SeatClient(srv.ws_url, g["id"], token)
        for _ in range(6):  # three turns of ours, the bot answering in between
            v = c.wait_view(lambda m: bool(m["view"]["legal_actions"]))
            c.move(v["view"]["legal_actions"][-1])
            c.wait_view(lambda m, s=v["seq"]: m["seq"] > s)
        c.wait_view(lambda m: bool(m["view"]["legal_actions"]))
        c.send({"type": "sync"})  # the whole log
        before = c.wait_view(lambda m: m["log_reset"])
        c.close()
    with LiveServer(**kwargs) as srv:
        c = SeatClient(srv.ws_url, g["id"], token)
        after = c.wait_view()
        assert after["seq"] == before["seq"] and after["view"] == before["view"]
        assert [e["action"] for e in after["log"]] == [e["action"] for e in before["log"]]
        c.move(after["view"]["legal_actions"][0])
        assert c.wait_view(lambda m: m["seq"] > after["seq"])
        c.close()


def test_killed_server_loses_nothing_and_bots_resume(db: tuple[str, str], tmp_path: Path) -> None:
    url, prefix = db
    store = Store(url, prefix)
    srv = ServerProcess(tmp_path, url, prefix, extra=["--bot-delay", "0.01"]).start()
    try:
        bots = [{"kind": "bot", "level": "random"}] * 3
        ids = [
            httpx.post(f"{srv.url}/api/games", json={"seats": bots, "seed": s}).json()["id"]
            for s in range(3)
        ]
        deadline = time.monotonic() + 30
        while min(len(store.load(gid).actions) for gid in ids) < 5:  # every game under way
            assert time.monotonic() < deadline, "the bots did not start"
            time.sleep(0.05)
    finally:
        srv.kill()  # SIGKILL: no shutdown code runs
    stored = {gid: len(store.load(gid).actions) for gid in ids}
    assert all(n > 0 for n in stored.values()), stored
    assert all(store.load(gid).status == "active" for gid in ids)
    with ServerProcess(tmp_path, url, prefix) as srv2:
        deadline = time.monotonic() + 60
        for gid in ids:
            while httpx.get(f"{srv2.url}/api/games/{gid}").json()["status"] != "over":
                assert time.monotonic() < deadline, "bots did not finish after the restart"
                time.sleep(0.1)
            record = httpx.get(f"{srv2.url}/api/games/{gid}/record").json()
            assert len(record["actions"]) > stored[gid]
            assert result(replay(record)) == record["result"]
            row = store.load(gid)
            assert row.status == "over" and [a[2] for a in row.actions] == record["actions"]
    store.close()


def test_two_server_processes_racing_for_one_step(db: tuple[str, str], tmp_path: Path) -> None:
    """The same seat moves through two servers on one database: one move wins, the other
    server answers ``stale`` and shows the winner's position."""
    url, prefix = db
    with ServerProcess(tmp_path, url, prefix) as one, ServerProcess(tmp_path, url, prefix) as two:
        g = httpx.post(
            f"{one.url}/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "human"}]},
        ).json()
        token = g["seats"][0]["token"]
        a = SeatClient(one.ws_url, g["id"], token)
        b = SeatClient(two.ws_url, g["id"], token)
        legal = a.wait_view()["view"]["legal_actions"]
        b.wait_view()
        a.move(legal[0], seq=0)
        b.move(legal[-1], seq=0)
        a.wait_view(lambda m: m["seq"] == 1)
        b.wait_view(lambda m: m["seq"] == 1)
        a.drain(0.3)
        b.drain(0.3)
        errors = {k: [f for f in c.frames if f["type"] == "error"] for k, c in (("a", a), ("b", b))}
        assert sorted(len(v) for v in errors.values()) == [0, 1], errors
        loser = "a" if errors["a"] else "b"
        assert errors[loser][0]["code"] == "stale"
        assert a.last is not None and b.last is not None
        assert a.last["seq"] == b.last["seq"] == 1 and a.last["view"] == b.last["view"]
        winner_action = legal[0] if loser == "b" else legal[-1]
        row = Store(url, prefix).load(g["id"])
        assert [x[2] for x in row.actions] == [winner_action]
        a.close()
        b.close()
