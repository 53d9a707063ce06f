"""Meeting people on two server processes sharing one PostgreSQL database. Quick match: 50
players queue at once, half through each process, some of them having blocked another.
Every player lands in exactly one game, never with themselves, never with an account they
blocked; the figures (players matched, time to match) are printed and written to
``test-artifacts/meet-quick-match.txt``. The lobby: a table opened, an invitation sent and a table
started through one process reach a lobby socket of the other. Two bot accounts, one on
each process, accept an open table's last seat at once: one takes it."""

from __future__ import annotations

import json
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.sync.client import connect

from botting import Bot, Events, wait_offer
from support.serving import PATIENCE, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

PLAYERS = 50
PASSWORD = "correct horse battery"
LIMITS = {
    "sign_ups_per_client": 1000,
    "games_per_minute": 1000,
    "games_per_client": 1000,
    "connections_per_client": 1000,
}
RESULTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "meet-quick-match.txt"


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"q{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def client(srv: ServerProcess) -> httpx.Client:
    http = httpx.Client(base_url=srv.url, timeout=PATIENCE)
    csrf = http.get("/api/account").json()["csrf"]
    http.headers["X-CSRF-Token"] = csrf
    return http


def test_fifty_players_queue_at_once_through_two_processes(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        servers = [a, b]
        names = [f"q{i:02d}{uuid.uuid4().hex[:4]}" for i in range(PLAYERS)]
        clients = [client(servers[i % 2]) for i in range(PLAYERS)]

        def sign_up(i: int) -> None:
            r = clients[i].post(
                "/api/account/signup", json={"name": names[i], "password": PASSWORD}
            )
            assert r.status_code == 200, r.text

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(sign_up, range(PLAYERS)))
        # every fifth player blocks the next one: they must never meet
        blocked = {(i, i + 1) for i in range(0, PLAYERS - 1, 5)}
        for i, j in blocked:
            r = clients[i].post("/api/social/block", json={"name": names[j]})
            assert r.status_code == 200, r.text

        def queue(i: int) -> None:
            r = clients[i].post("/api/match", json={"family": "classic", "players": 2})
            assert r.status_code == 200, r.text

        started = time.monotonic()
        with ThreadPoolExecutor(PLAYERS) as pool:
            list(pool.map(queue, range(PLAYERS)))
        store = Store(url, prefix)
        try:
            rows = wait_all_matched(store, started)
            seats = store.db.tables.account_seats
            with store.db.engine.connect() as conn:
                bound = conn.execute(select(seats.c.game_id, seats.c.account_id)).all()
        finally:
            store.close()
    ids = {name: i for i, name in enumerate(names)}
    games: dict[str, list[int]] = {}
    for r in rows:
        games.setdefault(str(r.game_id), []).append(int(r.account_id))
    accounts = sorted(int(r.account_id) for r in rows)
    assert len(accounts) == PLAYERS == len(set(accounts))  # every player, exactly once
    assert all(len(p) == 2 and p[0] != p[1] for p in games.values())
    by_game: dict[str, set[int]] = {}
    for game_id, account in bound:
        by_game.setdefault(str(game_id), set()).add(int(account))
    assert {g: set(p) for g, p in games.items()} == by_game  # the games hold those players
    index = {int(r.account_id): ids[str(r.name)] for r in rows}
    for players in games.values():
        pair = tuple(sorted(index[p] for p in players))
        assert pair not in blocked
    waits = sorted(float(r.matched) - float(r.joined) for r in rows)
    report(waits, len(games))


def wait_all_matched(store: Store, started: float, timeout: float = PATIENCE) -> list[Any]:
    q, acc = store.db.tables.match_queue, store.db.tables.accounts
    query = select(q.c.account_id, q.c.game_id, q.c.joined, q.c.matched, q.c.state, acc.c.name)
    query = query.join(acc, acc.c.id == q.c.account_id)
    while time.monotonic() - started < timeout:
        with store.db.engine.connect() as conn:
            rows = conn.execute(query).all()
        if len(rows) == PLAYERS and all(r.state == "matched" for r in rows):
            return rows
        time.sleep(0.2)
    raise AssertionError("not every player was matched within a minute")


def report(waits: list[float], games: int) -> None:
    line = (
        f"quick match, 2 processes, one PostgreSQL: {len(waits)} players queued at once, "
        f"{len(waits)} matched into {games} games; time to match: median "
        f"{statistics.median(waits):.2f} s, slowest {waits[-1]:.2f} s"
    )
    print(line)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(line + "\n")


def test_the_lobby_hears_of_tables_and_invitations_made_through_another_process(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        ann, bob = client(a), client(b)
        names = [f"x{uuid.uuid4().hex[:6]}" for _ in range(2)]
        for http, name in ((ann, names[0]), (bob, names[1])):
            r = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
            assert r.status_code == 200, r.text
        cookie = "; ".join(f"{c.name}={c.value}" for c in bob.cookies.jar)
        with connect(
            f"{b.ws_url}/ws/lobby", open_timeout=PATIENCE, additional_headers={"Cookie": cookie},
            origin=b.url,  # type: ignore[arg-type]
        ) as ws:  # fmt: skip
            t = ann.post("/api/tables", json={"players": 2}).json()
            until(ws, lambda m: m["type"] == "tables" and t["table"] in str(m["tables"]))
            body = {"token": t["token"], "name": names[1]}
            r = ann.post(f"/api/tables/{t['table']}/invite", json=body)
            assert r.status_code == 200, r.text
            me = until(ws, lambda m: m["type"] == "me" and m["invites"])
            assert me["invites"][0]["by"] == names[0]
            sat = bob.post(f"/api/tables/{t['table']}/sit", json={}).json()
            started = until(ws, lambda m: m["type"] == "tables" and m["started"])
            assert {"table": t["table"], "game": sat["game"]} in started["started"]


def until(ws: Any, pred: Any, timeout: float = PATIENCE) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(max(0.01, deadline - time.monotonic())))
        if pred(m):
            return dict(m)


def test_two_bots_through_two_processes_take_the_last_seat_once(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        ann = client(a)
        assert (
            ann.post(
                "/api/account/signup",
                json={"name": f"t{uuid.uuid4().hex[:6]}", "password": PASSWORD},
            ).status_code
            == 200
        )
        bots = [Bot(srv, "Seat") for srv in (a, b)]
        sockets = [bot.events() for bot in bots]
        for e in sockets:
            e.wait("hello")
        opened = ann.post("/api/tables", json={"players": 2, "bot_accounts": True})
        table = opened.json()["table"]
        for e in sockets:
            wait_offer(e, f"table:{table}")
        barrier = threading.Barrier(2)

        def accept(e: Events) -> dict[str, Any]:
            barrier.wait()
            e.send({"type": "accept", "id": f"table:{table}"})
            while (frame := e.recv())["type"] not in ("game", "error"):
                pass
            return frame

        with ThreadPoolExecutor(2) as pool:
            outcomes = list(pool.map(accept, sockets))
        games = [f for f in outcomes if f["type"] == "game"]
        errors = [f for f in outcomes if f["type"] == "error"]
        assert len(games) == 1 and len(errors) == 1, outcomes
        assert errors[0]["code"] in ("table-full", "table-closed")
        seats = httpx.get(f"{a.url}/api/games/{games[0]['game']}").json()["seats"]
        winner = bots[outcomes.index(games[0])]
        assert [s["name"] for s in seats][1] == winner.name
        assert {bot.name for bot in bots} & {s["name"] for s in seats} == {winner.name}
        for e in sockets:
            e.close()


def test_each_account_joining_twice_through_both_processes_lands_in_one_game(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """Ten accounts each press Play now twice at the same moment, once through each process
    (a double click, two tabs behind a balancer): each waits once, and lands in one game."""
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    count = 10
    with a, b:
        names = [f"d{i:02d}{uuid.uuid4().hex[:4]}" for i in range(count)]
        via_a = [client(a) for _ in range(count)]
        for i, http in enumerate(via_a):
            r = http.post("/api/account/signup", json={"name": names[i], "password": PASSWORD})
            assert r.status_code == 200, r.text
        # the same session through the other process: the same account, the same cookies
        via_b = [client(b) for _ in range(count)]
        for http, mine in zip(via_b, via_a, strict=True):
            http.cookies = mine.cookies
            http.headers["X-CSRF-Token"] = mine.headers["X-CSRF-Token"]
        body = {"family": "classic", "players": 2, "pace": "realtime"}
        barrier = threading.Barrier(2 * count)

        def queue(http: httpx.Client) -> int:
            barrier.wait()
            return http.post("/api/match", json=body).status_code

        with ThreadPoolExecutor(2 * count) as pool:
            codes = list(pool.map(queue, via_a + via_b))
        assert set(codes) <= {200, 409}, codes
        store = Store(url, prefix)
        try:
            q, seats = store.db.tables.match_queue, store.db.tables.account_seats
            deadline = time.monotonic() + 60
            while True:
                with store.db.engine.connect() as conn:
                    states = conn.execute(select(q.c.state)).scalars().all()
                if len(states) == count and set(states) == {"matched"}:
                    break
                assert time.monotonic() < deadline, states
                time.sleep(0.2)
            # the late second presses, through either process, are refused: in a game already
            for http in via_a[:3] + via_b[3:6]:
                r = http.post("/api/match", json=body)
                assert r.status_code == 409 and r.json()["error"] == "in-game", r.text
            time.sleep(2.5)  # more rounds of both matchmakers: nothing more is made
            with store.db.engine.connect() as conn:
                bound = conn.execute(select(seats.c.account_id, seats.c.game_id)).all()
        finally:
            store.close()
        games_of: dict[int, set[str]] = {}
        for account, game in bound:
            games_of.setdefault(int(account), set()).add(str(game))
        assert len(games_of) == count
        assert all(len(g) == 1 for g in games_of.values()), games_of
        for http in via_a + via_b:
            http.close()
