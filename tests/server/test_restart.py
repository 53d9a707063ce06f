"""Kill the server at any moment, start it again: every game is there and bots resume.

Runs on SQLite and on the real PostgreSQL (skipped with a message when none answers).
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from support.serving import (
    LiveServer,
    SeatClient,
    ServerProcess,
    postgres_or_skip,
)
from tigris_euphrates import replay, result
from tigris_euphrates.store import Store


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
        while min(len(store.games.load(gid).actions) for gid in ids) < 5:  # every game under way
            assert time.monotonic() < deadline, "the bots did not start"
            time.sleep(0.05)
    finally:
        srv.kill()  # SIGKILL: no shutdown code runs
    stored = {gid: len(store.games.load(gid).actions) for gid in ids}
    assert all(n > 0 for n in stored.values()), stored
    assert all(store.games.load(gid).status == "active" for gid in ids)
    with ServerProcess(tmp_path, url, prefix) as srv2:
        deadline = time.monotonic() + 60
        for gid in ids:
            while httpx.get(f"{srv2.url}/api/games/{gid}").json()["status"] != "over":
                assert time.monotonic() < deadline, "bots did not finish after the restart"
                time.sleep(0.1)
            record = httpx.get(f"{srv2.url}/api/games/{gid}/record").json()
            assert len(record["actions"]) > stored[gid]
            assert result(replay(record)) == record["result"]
            row = store.games.load(gid)
            assert row.status == "over" and [a[2] for a in row.actions] == record["actions"]
    store.close()


def test_two_server_processes_writing_one_step(tmp_path: Path) -> None:
    """Through two processes on PostgreSQL, at the same moment, Ann (on A) moves and Bob
    (on B) hands his seat to a bot: both want step 1. Whatever the order, each change is
    stored at most once, a refused move is answered ``stale`` with the winner's position,
    and both processes end with the same game. (On SQLite a second process is refused:
    tests/server/test_cluster.py.)"""
    url = postgres_or_skip()
    prefix = f"r{uuid.uuid4().hex[:10]}_"
    fast = {"messages_per_second": 1000}
    try:
        with (
            ServerProcess(tmp_path / "a", url, prefix, limits=fast) as one,
            ServerProcess(tmp_path / "b", url, prefix, limits=fast) as two,
        ):
            for _ in range(4):
                g = httpx.post(
                    f"{one.url}/api/games",
                    json={"seats": [{"kind": "human"}, {"kind": "human"}]},
                ).json()
                gid, ann_token, bob_token = g["id"], *(s["token"] for s in g["seats"])
                ann = SeatClient(one.ws_url, gid, ann_token)
                move = ann.wait_view()["view"]["legal_actions"][0]
                barrier = threading.Barrier(2)
                answers: dict[str, int] = {}
                path = f"{two.url}/api/games/{gid}/seats/1/bot"
                body = {"token": bob_token, "level": "random"}
                bob = threading.Thread(target=post_after, args=(barrier, path, body, answers))
                bob.start()
                barrier.wait()
                ann.move(move, seq=0)
                bob.join()
                assert answers["bob"] == 200  # a seat change is tried again on a later step
                ann.wait_view(lambda m: m["seq"] >= 1)
                ann.drain(0.5)
                stale = [f for f in ann.frames if f.get("code") == "stale"]
                actions = [a for _, _, a in Store(url, prefix).games.load(gid).actions]
                assert actions.count("seat 1 bot random") == 1
                assert actions.count(move) == (0 if stale else 1)
                if stale:
                    assert ann.last is not None and ann.last["seq"] == 1
                deadline = time.monotonic() + 10
                while True:
                    seqs = {httpx.get(f"{s.url}/api/games/{gid}").json()["seq"] for s in (one, two)}
                    if seqs == {len(actions)} or time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
                assert seqs == {len(actions)}
                ann.close()
    finally:
        Store(url, prefix).drop_all()


def post_after(
    barrier: threading.Barrier, url: str, body: dict[str, Any], answers: dict[str, int]
) -> None:
    """POST ``body`` to ``url`` as soon as the other side reaches ``barrier``."""
    barrier.wait()
    answers["bob"] = httpx.post(url, json=body).status_code
