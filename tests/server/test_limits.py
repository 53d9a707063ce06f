"""Limits: request and frame sizes, games and bot games per client, spectators and
connections, a fair bounded queue for bot work, a lobby of small summaries a page at a
time, and a guest's answers to puzzles. Each refusal is a 4xx or an error frame naming the
limit."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from puzzling import game_puzzles
from support.serving import LiveServer, Player, SeatClient
from tigris_euphrates.coach.puzzles import puzzle_id
from tigris_euphrates.server.launch import uvicorn_options
from tigris_euphrates.server.limits import Limits

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def serve(tmp: Path, **limits: Any) -> LiveServer:
    return LiveServer(
        data_dir=tmp, database_url=f"sqlite:///{tmp}/t.sqlite3", limits=Limits(**limits)
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with serve(tmp_path_factory.mktemp("limits"), games_per_client=1000) as srv:
        yield srv


def game_count(server: LiveServer) -> int:
    """Every game stored, listed in the lobby or not."""
    return len(server.app.state.hub.store.games.ids())


def test_a_large_request_body_is_refused_and_stores_nothing(server: LiveServer) -> None:
    before = game_count(server)
    body = {"seats": HUMANS, "options": {}, "pad": "x" * 20_000}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 413, r.text
    assert game_count(server) == before


def test_large_frames_get_an_error_and_huge_ones_close_the_connection(server: LiveServer) -> None:
    g = httpx.post(f"{server.url}/api/games", json={"seats": HUMANS}).json()
    c = SeatClient(server.ws_url, g["id"], None)
    c.wait_view()
    c.send({"type": "sync", "pad": "x" * 10_000})
    err = c.recv()
    assert err["type"] == "error" and err["code"] == "too-large" and "bytes" in err["message"]
    c.send({"type": "ping", "t": 1})
    assert c.wait_pong(1)
    try:
        c.ws.send("x" * 2_000_000)
    except (OSError, ConnectionClosed):
        # the server closed the connection before the client finished sending: the same
        # refusal, seen from a client still writing (its close frame may be lost in the reset,
        # which the client reports as a socket error or as a connection closed without a frame)
        closed_while_sending = True
    else:
        closed_while_sending = False
    with pytest.raises(Exception):  # noqa: B017 - closed by the server
        while True:
            c.recv(5)
    if not closed_while_sending:
        assert c.ws.close_code == 1009
    c.close()


def test_games_per_client_are_limited(tmp_path: Path) -> None:
    with serve(tmp_path, games_per_client=3, games_per_minute=100) as srv:
        answers = [httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[-1].json()["error"] == "too-many-games"
        assert "3" in answers[-1].json()["message"]


def test_game_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    with serve(tmp_path, games_per_minute=2) as srv:
        answers = [httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[-1].json()["error"] == "rate-limited"
        assert "Retry-After" in answers[-1].headers


def test_bot_games_per_client_are_limited(tmp_path: Path) -> None:
    experts = [{"kind": "bot", "level": "expert"}] * 4
    with serve(tmp_path, bot_games_per_client=2, games_per_minute=100) as srv:
        answers = [httpx.post(f"{srv.url}/api/games", json={"seats": experts}) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[-1].json()["error"] == "too-many-bot-games"
        # a game of people is still welcome
        assert httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}).status_code == 200


def test_spectators_per_game_are_limited(tmp_path: Path) -> None:
    with serve(tmp_path, spectators_per_game=2) as srv:
        g = httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}).json()
        watchers = [SeatClient(srv.ws_url, g["id"], None) for _ in range(2)]
        for w in watchers:
            w.wait_view()
        extra = SeatClient(srv.ws_url, g["id"], None)
        err = extra.recv()
        assert err["type"] == "error" and err["code"] == "too-many-spectators"
        with pytest.raises(Exception):  # noqa: B017 - closed by the server
            extra.recv(5)
        assert extra.ws.close_code == 4429
        player = SeatClient(srv.ws_url, g["id"], g["seats"][0]["token"])  # players still join
        assert player.wait_view()["seat"] == 0
        for c in [*watchers, player]:
            c.close()


def test_connections_per_client_are_limited(tmp_path: Path) -> None:
    with serve(tmp_path, connections_per_client=3) as srv:
        g = httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}).json()
        clients = [SeatClient(srv.ws_url, g["id"], None) for _ in range(3)]
        for c in clients:
            c.wait_view()
        with connect(f"{srv.ws_url}/ws/games/{g['id']}") as ws:
            err = json.loads(ws.recv(5))
            assert err["code"] == "too-many-connections"
        for c in clients:
            c.close()


def test_bot_work_is_served_fairly_across_clients() -> None:
    """One client's ten bot decisions do not make another client's one wait for all of
    them: the queue serves the clients in turn."""

    from tigris_euphrates.server.limits import BotWork

    async def run() -> list[str]:
        work = BotWork(workers=1, waiting=100)
        started: list[str] = []

        async def job(name: str) -> str:
            started.append(name)
            await asyncio.sleep(0.01)
            return name

        flood = [asyncio.create_task(work.run("a", lambda i=i: job(f"a{i}"))) for i in range(10)]
        await asyncio.sleep(0)
        mine = asyncio.create_task(work.run("b", lambda: job("b0")))
        await asyncio.gather(*flood, mine)
        return started

    started = asyncio.run(run())
    assert started.index("b0") <= 2, started


def test_bot_work_refuses_beyond_its_bound() -> None:
    from tigris_euphrates.server.limits import BotWork, BotWorkFull

    async def run() -> None:
        work = BotWork(workers=1, waiting=2)
        gate = asyncio.Event()

        async def job() -> None:
            await gate.wait()

        running = [asyncio.create_task(work.run(f"c{i}", job)) for i in range(3)]
        await asyncio.sleep(0)
        assert work.waiting == 2
        with pytest.raises(BotWorkFull):
            await work.run("d", job)
        gate.set()
        await asyncio.gather(*running)

    asyncio.run(run())


def test_the_lobby_answers_a_page_of_small_summaries(tmp_path: Path) -> None:
    with serve(tmp_path, games_per_minute=100, games_per_client=100) as srv:
        ids = {
            httpx.post(
                f"{srv.url}/api/games",
                json={"seats": [{"kind": "human", "name": "N" * 40}] * 4, "listed": True},
            ).json()["id"]
            for _ in range(25)
        }
        first = httpx.get(f"{srv.url}/api/games", params={"limit": 10})
        assert first.status_code == 200
        page = first.json()
        assert len(page["games"]) == 10 and page["next"]
        assert all(len(json.dumps(g)) < 1000 for g in page["games"])
        seen = [g["id"] for g in page["games"]]
        while page["next"]:
            page = httpx.get(
                f"{srv.url}/api/games", params={"limit": 10, "before": page["next"]}
            ).json()
            seen += [g["id"] for g in page["games"]]
        assert len(seen) == len(set(seen)) and set(seen) == ids
        for bad in ({"limit": 0}, {"limit": 1000}, {"before": "x" * 500}):
            r = httpx.get(f"{srv.url}/api/games", params=bad)
            assert r.status_code == 422, (bad, r.text)


def test_handing_seats_to_bots_counts_against_the_bot_games_limit(
    db: tuple[str, str], tmp_path: Path
) -> None:
    """Human games whose seats are then handed to bots (with the creator's token, or the
    seat's own) are bot games: beyond ``bot_games_per_client`` the hand-over is refused like
    the creation of a bot game, and a game whose seats are all taken back counts no more.
    (The counted games keep a person to act, so none of them ends and stops counting.)"""
    url, prefix = db
    limits = Limits(bot_games_per_client=2, games_per_minute=100, seat_absence_seconds=0)
    with LiveServer(data_dir=tmp_path, database_url=url, table_prefix=prefix, limits=limits) as srv:
        games = [
            httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}).json() for _ in range(3)
        ]

        def to_bot(g: dict[str, Any], seat: int, token: str) -> httpx.Response:
            body = {"token": token, "level": "random"}
            return httpx.post(f"{srv.url}/api/games/{g['id']}/seats/{seat}/bot", json=body)

        for g in games[:2]:  # by the creator: two bot games, unfinished (seat 0 is to act)
            r = to_bot(g, 1, g["creator_token"])
            assert r.status_code == 200, r.text
        third = games[2]
        for seat, token in ((0, third["creator_token"]), (1, third["seats"][1]["token"])):
            r = to_bot(third, seat, token)
            assert r.status_code == 429, r.text
            assert r.json()["error"] == "too-many-bot-games" and "2" in r.json()["message"]
        assert [
            s["kind"] for s in httpx.get(f"{srv.url}/api/games/{third['id']}").json()["seats"]
        ] == [
            "human",
            "human",
        ]
        bots = [{"kind": "bot", "level": "random"}] * 2
        r = httpx.post(f"{srv.url}/api/games", json={"seats": bots})
        assert r.status_code == 429 and r.json()["error"] == "too-many-bot-games"
        # the first game's player takes the seat back: it runs no bot any more
        first = games[0]
        body = {"token": first["seats"][1]["token"]}
        r = httpx.post(f"{srv.url}/api/games/{first['id']}/seats/1/human", json=body)
        assert r.status_code == 200, r.text
        assert to_bot(third, 1, third["seats"][1]["token"]).status_code == 200
        # a game already running a bot takes another one without counting twice
        assert to_bot(third, 0, third["creator_token"]).status_code == 200


def test_an_idle_connection_serves_the_next_request_then_is_closed(tmp_path: Path) -> None:
    """A client may pause between requests on one connection (the default keeps it 30 s,
    not uvicorn's 5); past ``keep_alive_seconds`` the server closes it cleanly."""
    assert uvicorn_options(Limits())["timeout_keep_alive"] == Limits().keep_alive_seconds == 30
    with (
        serve(tmp_path, keep_alive_seconds=1) as srv,
        socket.create_connection(("127.0.0.1", srv.port), timeout=15) as sock,
    ):
        for _ in range(2):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: tne\r\n\r\n")
            reply = sock.makefile("rb")
            status = reply.readline()
            assert status.startswith(b"HTTP/1.1 200"), status
            length = 0
            while (line := reply.readline()) != b"\r\n":
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            assert b"alive" in reply.read(length)
        assert sock.recv(4096) == b""  # closed by the server, not by this client


def test_a_guests_answers_to_puzzles_are_limited_and_an_accounts_are_not(
    tmp_path: Path,
) -> None:
    with serve(tmp_path, puzzle_attempts_per_minute=3, sign_ups_per_client=100) as srv:
        game = f"lim{uuid.uuid4().hex[:6]}"
        puzzles = [{**p, "id": puzzle_id(game, p["ply"])} for p in game_puzzles(7)]
        srv.app.state.hub.store.puzzles.add(game, [(p["id"], p) for p in puzzles], time.time())
        url = f"{srv.url}/api/puzzles/{puzzles[0]['id']}/attempt"
        # every answer counts, a refused one too: it was judged
        tries = [puzzles[0]["solution"], "fly red a1", puzzles[0]["played"]]
        assert [httpx.post(url, json={"action": a}).status_code for a in tries] == [200, 400, 200]
        for _ in range(2):  # over the limit, and again
            r = httpx.post(url, json={"action": puzzles[0]["solution"]})
            assert r.status_code == 429 and r.json()["error"] == "rate-limited", r.text
            assert "3 answers to puzzles a minute" in r.json()["message"]
            assert float(r.headers["Retry-After"]) > 0
        # a signed-in account's answers are not a guest's: judged, its first one rated
        player = Player(srv)
        player.sign_up(f"lim{uuid.uuid4().hex[:6]}", "correct horse battery")
        for k in range(4):
            r = player.post(url, {"action": puzzles[0]["solution"]})
            assert r.status_code == 200 and r.json()["rated"] is (k == 0), r.text
        player.close()
