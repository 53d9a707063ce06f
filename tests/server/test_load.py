"""Load from one client stays that client's problem: bounded outgoing queues (only the
latest view matters), message rate limits, replies no larger than warranted, and the
work of a step does not grow with the number of spectators."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from support.serving import LiveServer, SeatClient, ServerProcess
from tigris_euphrates.server.limits import Limits


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def humans_game(url: str) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 200, r.text
    return r.json()


def play_steps(ws_url: str, game: dict[str, Any], steps: int, seed: int = 1) -> None:
    """Both seats play random legal moves until the game is at ``steps`` (or over)."""
    rng = random.Random(seed)
    clients = [SeatClient(ws_url, game["id"], s["token"]) for s in game["seats"]]
    for c in clients:
        c.wait_view()
    seq = 0
    while seq < steps:
        for c in clients:
            c.drain(0.002)
        acting = [c for c in clients if c.last and c.last["seq"] == seq]
        acting = [c for c in acting if c.last and c.last["view"]["legal_actions"]]
        if not acting:
            if any(c.last and c.last["view"]["over"] for c in clients):
                break
            continue
        c = acting[0]
        assert c.last is not None
        c.move(rng.choice(c.last["view"]["legal_actions"]))
        c.wait_view(lambda m, s=seq: m["seq"] > s)
        seq = c.last["seq"]
    for c in clients:
        c.close()


@pytest.fixture
def process(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path) as srv:
        yield srv


def test_a_spectator_that_never_reads_cannot_grow_the_server(process: ServerProcess) -> None:
    """A spectator joins a long game and sends thousands of ``sync`` without reading a
    reply: the server keeps at most the latest view for it (and closes it when it will
    not read), so its memory stays flat."""
    assert process.proc is not None
    game = humans_game(process.url)
    play_steps(process.ws_url, game, 150)
    before = rss_mib(process.proc.pid)
    frame = json.dumps({"type": "sync"})
    with connect(f"{process.ws_url}/ws/games/{game['id']}", max_size=2**24) as ws:
        ws.send(json.dumps({"type": "join"}))

        def flood() -> None:
            try:
                for _ in range(3000):
                    ws.send(frame)
            except Exception:  # the server may close a client that never reads
                pass

        sender = threading.Thread(target=flood, daemon=True)
        sender.start()
        peak = before
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and sender.is_alive():
            peak = max(peak, rss_mib(process.proc.pid))
            time.sleep(0.1)
        for _ in range(30):  # the server works through what it received
            peak = max(peak, rss_mib(process.proc.pid))
            time.sleep(0.1)
    assert peak - before < 48, f"the server grew by {peak - before:.0f} MiB"
    # and it still serves everybody else
    assert httpx.get(f"{process.url}/api/games/{game['id']}").status_code == 200


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("load")
    limits = Limits(connections_per_client=1000)  # 200 spectators from this one address
    with LiveServer(
        data_dir=data, database_url=f"sqlite:///{data}/t.sqlite3", limits=limits
    ) as srv:
        yield srv


def test_messages_beyond_the_rate_limit_are_refused_with_an_error(server: LiveServer) -> None:
    game = humans_game(server.url)
    c = SeatClient(server.ws_url, game["id"], None)
    c.wait_view()
    for i in range(300):
        c.send({"type": "ping", "t": i})
    pongs, limited = 0, 0
    # every answer is awaited (a loaded server may pause longer than a second between two),
    # then what else comes within a second
    while pongs + limited < 300:
        msg = c.recv() if limited == 0 else c.try_recv(1.0)
        if msg is None:
            break
        pongs += msg["type"] == "pong"
        limited += msg.get("code") == "rate-limited"
    assert limited > 0 and pongs < 300
    assert "per second" in next(f for f in c.frames if f.get("code") == "rate-limited")["message"]
    time.sleep(2)  # the allowance refills: the connection is still usable
    c.send({"type": "ping", "t": "again"})
    assert c.recv(5) == {"type": "pong", "t": "again"}
    c.close()


def test_a_reply_is_not_much_larger_than_the_message(server: LiveServer) -> None:
    game = humans_game(server.url)
    c = SeatClient(server.ws_url, game["id"], None)
    c.wait_view()
    c.send({"type": "ping", "t": "x" * 3000})
    reply = c.recv()
    assert reply["type"] == "error" and len(json.dumps(reply)) < 1000
    c.close()


def test_a_step_builds_each_distinct_view_once_however_many_watch(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 spectators and two players watch a move: the server builds the spectators'
    view once and each player's once, not once per connection, and what the three share
    (the board, the turn) once for them."""
    import asyncio

    import websockets

    from tigris_euphrates.server import viewframes

    game = humans_game(server.url)
    a = SeatClient(server.ws_url, game["id"], game["seats"][0]["token"])
    b = SeatClient(server.ws_url, game["id"], game["seats"][1]["token"])
    first = a.wait_view()
    b.wait_view()
    built: list[int | None] = []
    shared: list[int] = []
    original, original_shared = viewframes.player_view, viewframes.shared_view

    def counting(state: Any, seat: int | None, common: Any = None) -> dict[str, Any]:
        built.append(seat)
        return original(state, seat, common)

    def counting_shared(state: Any) -> dict[str, Any]:
        shared.append(state.ply)
        return original_shared(state)

    async def watch(ready: asyncio.Event, joined: list[int], n: int) -> None:
        async with websockets.connect(f"{server.ws_url}/ws/games/{game['id']}") as ws:
            await ws.send(json.dumps({"type": "join"}))
            await ws.recv()
            joined.append(1)
            if len(joined) == n:
                ready.set()
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "view" and msg["seq"] == 1:
                    return

    async def run() -> None:
        n, joined = 200, []
        ready = asyncio.Event()
        tasks = [asyncio.create_task(watch(ready, joined, n)) for _ in range(n)]
        await asyncio.wait_for(ready.wait(), 60)
        await asyncio.sleep(0.5)  # the last joins' presence updates are sent
        monkeypatch.setattr(viewframes, "player_view", counting)
        monkeypatch.setattr(viewframes, "shared_view", counting_shared)
        a.move(first["view"]["legal_actions"][0])
        await asyncio.wait_for(asyncio.gather(*tasks), 60)

    asyncio.run(run())
    a.wait_view(lambda m: m["seq"] == 1)
    b.wait_view(lambda m: m["seq"] == 1)
    assert sorted(built, key=str) == sorted([None, 0, 1], key=str), built
    assert len(shared) == 1, shared  # what the three views share, built once for them
    a.close()
    b.close()


def test_the_players_views_go_out_before_the_spectators(tmp_path: Path) -> None:
    """Spectators who joined before the players do not delay the players' views: after a
    step the players' writers are woken first (a writer runs when woken, in that order),
    so a move's acknowledgement does not wait behind thousands of spectators' frames."""
    import asyncio

    from tigris_euphrates.server.hub import Hub
    from tigris_euphrates.store import Store

    async def run() -> list[int | None]:
        store = Store(f"sqlite:///{tmp_path / 'order.sqlite3'}")
        hub = Hub(store)
        try:
            seats = [{"kind": "human"}, {"kind": "human"}]
            game, _, _ = await hub.create({"players": 2}, seats)
            conns = [hub.attach(game, None)[1] for _ in range(50)]
            conns += [hub.attach(game, 0)[1], hub.attach(game, None)[1], hub.attach(game, 1)[1]]
            woken: list[int | None] = []

            async def writer(conn: Any) -> None:
                await conn.wake.wait()
                woken.append(conn.seat)

            for conn in conns:
                conn.wake.clear()
            tasks = [asyncio.create_task(writer(conn)) for conn in conns]
            await asyncio.sleep(0)
            game.audience.broadcast()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            return woken
        finally:
            await hub.stop()
            store.close()

    woken = asyncio.run(run())
    assert sorted(woken[:2]) == [0, 1] and woken[2:] == [None] * 51
