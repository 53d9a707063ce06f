"""Several server processes on one PostgreSQL database, for real: separate processes, the
test PostgreSQL, websockets and HTTP.

A move made through one process reaches the players on the others (LISTEN/NOTIFY, then
each process reads the log); the bots of a game run in exactly one process (an advisory
lock) and another takes over when it is killed, leaving a log without gap or duplicate;
seat changes made through different processes are all kept; a process that missed
notifications reads on from the log; one live connection a seat across processes; and a
second process on one SQLite file is refused.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import (
    SeatClient,
    ServerProcess,
    cut_listeners,
    free_port,
    lock_holder,
    postgres_or_skip,
)
from tigris_euphrates import replay, result
from tigris_euphrates.store import Store

#: the scripted players move far faster than people
FAST = {"messages_per_second": 10_000, "message_burst": 10_000}


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"c{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def two(tmp_path: Path, pg: tuple[str, str], **kwargs: Any) -> tuple[ServerProcess, ServerProcess]:
    url, prefix = pg
    return (
        ServerProcess(tmp_path / "a", url, prefix, limits=FAST, **kwargs),
        ServerProcess(tmp_path / "b", url, prefix, limits=FAST, **kwargs),
    )


def create(srv: ServerProcess, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{srv.url}/api/games", json={"seats": seats, **body})
    assert r.status_code == 200, r.text
    return dict(r.json())


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_players_on_two_processes_play_a_whole_game(tmp_path: Path, pg: tuple[str, str]) -> None:
    """Ann plays through process A, Bob and a spectator through process B: every move
    reaches the other side, the game ends, and both processes hold the same record."""
    a, b = two(tmp_path, pg)
    with a, b:
        g = create(a, HUMANS)
        gid = g["id"]
        ann = SeatClient(a.ws_url, gid, g["seats"][0]["token"])
        bob = SeatClient(b.ws_url, gid, g["seats"][1]["token"])
        watcher = SeatClient(b.ws_url, gid, None)
        players = [ann, bob]
        rng = random.Random(3)
        seq = 0
        for c in [*players, watcher]:
            c.wait_view()
        while True:
            views = [c.wait_view(lambda m, s=seq: m["seq"] == s) for c in players]
            watcher.wait_view(lambda m, s=seq: m["seq"] == s)
            if views[0]["view"]["over"]:
                break
            actor = views[0]["view"]["to_act"]
            legal = views[actor]["view"]["legal_actions"]
            players[actor].move(rng.choice(legal), seq=seq)
            seq += 1
        assert views[1]["view"]["over"] and watcher.last is not None
        assert watcher.last["view"]["over"] and seq > 50
        record_a = httpx.get(f"{a.url}/api/games/{gid}/record").json()
        record_b = httpx.get(f"{b.url}/api/games/{gid}/record").json()
        assert record_a == record_b and len(record_a["actions"]) == seq
        assert result(replay(record_a)) == record_a["result"]
        for c in [*players, watcher]:
            c.close()


def test_killing_the_process_that_runs_the_bots_hands_them_to_another(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """A bot game created through A (A holds its lock and runs its bots), watched through
    B. A is killed (SIGKILL) mid-game: B takes the lock within seconds and its bots finish
    the game; the log has every step once, numbered without a gap, and replays to the
    result."""
    url, prefix = pg
    a, b = two(tmp_path, pg, extra=["--bot-delay", "0.02"])
    with a, b:
        g = create(a, [{"kind": "bot", "level": "random"}] * 3, seed=11)
        gid = g["id"]
        watcher = SeatClient(b.ws_url, gid, None)
        watcher.wait_view(lambda m: m["seq"] >= 15)
        holder = lock_holder(url, prefix, gid)
        assert holder is not None
        a.kill()
        end = watcher.wait_view(lambda m: m["view"]["over"])
        # B holds the lock now (until the game is over and nobody watches it)
        assert end["view"]["over"] and lock_holder(url, prefix, gid) not in (None, holder)
        watcher.close()
        row = Store(url, prefix).games.load(gid)
        seqs = [seq for seq, _, _ in row.actions]
        assert seqs == list(range(1, len(seqs) + 1))
        record = httpx.get(f"{b.url}/api/games/{gid}/record").json()
        assert record["actions"] == [action for _, _, action in row.actions]
        assert result(replay(record)) == record["result"] and row.status == "over"


def test_seat_changes_made_through_both_processes_are_all_kept(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """Three players (not the one to act) leave their seats to bots and take them back,
    one through A, two through B, at the same time: every change is in the log, and both
    processes show the same seats."""
    url, prefix = pg
    a, b = two(tmp_path, pg)
    with a, b:
        g = create(a, [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy", "Di")])
        gid = g["id"]
        tokens = [s["token"] for s in g["seats"]]
        answers: list[int] = []

        def leave_and_return(srv: ServerProcess, seat: int) -> None:
            for what in ("bot", "human"):
                body = {"token": tokens[seat]} | ({"level": "random"} if what == "bot" else {})
                r = httpx.post(f"{srv.url}/api/games/{gid}/seats/{seat}/{what}", json=body)
                answers.append(r.status_code)

        threads = [
            threading.Thread(target=leave_and_return, args=(srv, seat))
            for srv, seat in ((a, 1), (b, 2), (b, 3))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert answers == [200] * 6
        deadline = time.monotonic() + 10
        while True:
            seen = [httpx.get(f"{s.url}/api/games/{gid}").json() for s in (a, b)]
            if seen[0]["seq"] == seen[1]["seq"] == 6 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert [s["seq"] for s in seen] == [6, 6]
        assert [x["kind"] for x in seen[0]["seats"]] == ["human"] * 4
        assert [x["kind"] for x in seen[1]["seats"]] == ["human"] * 4
        logged = sorted(action for _, _, action in Store(url, prefix).games.load(gid).actions)
        assert logged == sorted(
            f"seat {seat} {what}" for seat in (1, 2, 3) for what in ("bot random", "human")
        )


def test_a_process_that_missed_notifications_reads_on_from_the_log(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """The listening connections are cut (the database ends those sessions) while moves
    are made through A: Bob, on B, still gets every move."""
    url, _ = pg
    a, b = two(tmp_path, pg)
    with a, b:
        g = create(a, HUMANS)
        gid = g["id"]
        ann = SeatClient(a.ws_url, gid, g["seats"][0]["token"])
        bob = SeatClient(b.ws_url, gid, g["seats"][1]["token"])
        ann.wait_view()
        bob.wait_view()
        cut = cut_listeners(url, pg[1])
        assert cut == 2
        for seq in range(3):  # Ann's two actions, then Bob has a turn
            v = ann.wait_view(lambda m, s=seq: m["seq"] == s)
            if v["view"]["to_act"] != 0:
                break
            ann.move(v["view"]["legal_actions"][0], seq=seq)
        assert bob.wait_view(lambda m: m["seq"] >= 2)["view"]["to_act"] == 1
        ann.close()
        bob.close()


def test_one_live_connection_a_seat_across_processes(tmp_path: Path, pg: tuple[str, str]) -> None:
    a, b = two(tmp_path, pg)
    with a, b:
        g = create(a, HUMANS)
        gid, token = g["id"], g["seats"][0]["token"]
        watcher = SeatClient(b.ws_url, gid, None)
        watcher.wait_view()
        old = SeatClient(a.ws_url, gid, token)
        old.wait_view()
        watcher.wait_view(lambda m: m["seats"][0]["online"])  # B sees Ann online on A
        time.sleep(0.5)  # A's claim of the seat has gone round
        new = SeatClient(b.ws_url, gid, token)
        first = new.wait_view()
        assert first["seat"] == 0
        err = old.recv()
        while err["type"] != "error":
            err = old.recv()
        assert err["code"] == "taken-over"
        new.move(first["view"]["legal_actions"][0], seq=0)
        assert new.wait_view(lambda m: m["seq"] == 1)
        new.close()
        # Ann is gone: B's spectator sees her seat offline
        watcher.wait_view(lambda m: not m["seats"][0]["online"])
        watcher.close()


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    with ServerProcess(tmp_path):
        env = {k: v for k, v in os.environ.items() if k != "TNE_DATABASE_URL"}
        args = ["--data-dir", str(tmp_path), "--port", str(free_port())]
        second = subprocess.run(
            [sys.executable, "-m", "tigris_euphrates.server", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        assert second.returncode != 0
        assert "another server process" in second.stderr and "PostgreSQL" in second.stderr
        tne = Path(sys.executable).with_name("tne")
        second = subprocess.run(
            [str(tne), "serve", *args], capture_output=True, text=True, timeout=60, env=env
        )
        assert second.returncode != 0 and "another server process" in second.stderr


def test_tne_serve_workers_runs_several_processes_on_postgresql(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """``tne serve --workers 2``: two processes share the port; a game played through
    connections spread over them goes on."""
    url, prefix = pg
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "TNE_DATABASE_URL"}
    tne = Path(sys.executable).with_name("tne")
    args = ["serve", "--workers", "2", "--port", str(port), "--database-url", url]
    args += ["--limit", "messages_per_second=1000"]
    # the tables of this test: every worker reads TNE_TABLE_PREFIX
    env["TNE_TABLE_PREFIX"] = prefix
    proc = subprocess.Popen([str(tne), *args], env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/meta").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "tne serve --workers 2 did not start"
            time.sleep(0.2)
        g = httpx.post(f"{base}/api/games", json={"seats": HUMANS}).json()
        clients = [
            SeatClient(f"ws://127.0.0.1:{port}", g["id"], s["token"]) for s in g["seats"]
        ] + [SeatClient(f"ws://127.0.0.1:{port}", g["id"], None) for _ in range(4)]
        for seq in range(4):
            actor = clients[0].wait_view(lambda m, s=seq: m["seq"] == s)["view"]["to_act"]
            mover = clients[actor]
            v = mover.wait_view(lambda m, s=seq: m["seq"] == s)
            mover.move(v["view"]["legal_actions"][0], seq=seq)
        for c in clients:
            assert c.wait_view(lambda m: m["seq"] == 4)
            c.close()
    finally:
        proc.terminate()
        proc.wait(30)
    bad = subprocess.run(
        [str(tne), "serve", "--workers", "2", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert bad.returncode != 0 and "PostgreSQL" in bad.stderr
