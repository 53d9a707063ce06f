"""Whole games through real websockets: no payload carries what its seat may not see.

Each seat's every frame is checked against the allowlist rules (other hands, swapped tiles,
the bag, hidden scores), and every view is compared with the engine's ``player_view`` of the
replayed position: the server sends exactly the allowlisted view and redacted events.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.serving import LiveServer, SeatClient
from tigris_euphrates import new_game, player_view, redact_event
from tigris_euphrates.engine import apply
from tigris_euphrates.server.limits import Limits

FORBIDDEN_KEYS = {"bag", "hands", "start", "position", "token", "tokens"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("leak")
    # the scripted players move far faster than people: no message rate limit
    fast = Limits(messages_per_second=10_000, message_burst=10_000)
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=fast,
        client_seeds=True,
    ) as srv:
        yield srv


def walk(obj: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k, v
            yield from walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v)


def check_frame(frame: dict[str, Any], seat: int | None, open_scoring: bool) -> None:
    for key, _ in walk(frame):
        assert key not in FORBIDDEN_KEYS, (seat, key)
    if frame["type"] != "view":
        assert set(frame) <= {"type", "code", "message", "seq"}, frame
        return
    view = frame["view"]
    assert frame["seat"] == seat == view["seat"]
    for p in view["players"]:
        if p["seat"] != seat and not view["over"]:
            assert "hand" not in p and "swapped_tiles" not in p, (seat, p)
            if not open_scoring:
                assert "score" not in p, (seat, p)
    if seat is None or view["to_act"] != seat:
        assert view["legal_actions"] == []
    for entry in frame["log"]:
        if entry["seat"] != seat and entry["action"].startswith("swap"):
            assert "=" not in entry["action"], entry
        for ev in entry["events"]:
            if ev["type"] in ("tiles_drawn", "tiles_swapped") and ev.get("seat") != seat:
                assert "tiles" not in ev, (seat, ev)


def play_game(server: LiveServer, seats: list[dict], options: dict, seed: int) -> None:
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": seats, "options": options, "seed": seed}
    ).json()
    gid = g["id"]
    clients: dict[int | None, SeatClient] = {
        s["seat"]: SeatClient(server.ws_url, gid, s["token"]) for s in g["seats"] if s["token"]
    }
    clients[None] = SeatClient(server.ws_url, gid, None)
    rng = random.Random(seed)
    acted: set[int] = set()
    deadline = time.monotonic() + 120
    over = False
    while not over:
        assert time.monotonic() < deadline, "game did not finish"
        for c in clients.values():
            c.drain(0.005)
        latest = max(c.last["seq"] for c in clients.values() if c.last)
        for seat, c in clients.items():
            if seat is None or c.last is None or c.last["seq"] != latest:
                continue
            if c.last["view"]["over"]:
                over = True
                break
            legal = c.last["view"]["legal_actions"]
            if legal and latest not in acted:
                acted.add(latest)
                if latest % 17 == 5:  # now and then: an illegal move and a stale one
                    c.move("commit 99")
                    c.move(legal[0], seq=latest - 1)
                c.move(rng.choice(legal))
        if clients[None].last and clients[None].last["view"]["over"]:
            over = True
    time.sleep(0.2)
    for c in clients.values():
        c.drain(0.05)
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    # replay the record: the position after each step
    states = [new_game(record["options"], record["seed"])]
    events = [[]]
    for action in record["actions"]:
        state, evs = apply(states[-1], action)
        states.append(state)
        events.append([e.to_dict() for e in evs])
    open_scoring = bool(options.get("open_scoring"))
    errors = 0
    for seat, c in clients.items():
        assert c.frames and c.frames[-1]["view"]["over"]
        for frame in c.frames:
            check_frame(frame, seat, open_scoring)
            if frame["type"] == "error":
                errors += 1
                continue
            if frame["type"] != "view":
                continue
            seq = frame["seq"]
            assert frame["view"] == player_view(states[seq], seat)
            for entry in frame["log"]:
                assert entry["events"] == [redact_event(e, seat) for e in events[entry["seq"]]]
    assert errors > 0
    for c in clients.values():
        c.close()


def test_no_leak_two_players_hidden_scoring(server: LiveServer) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    play_game(server, seats, {}, seed=11)


def test_no_leak_three_players(server: LiveServer) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    play_game(server, seats, {"english_variant": True}, seed=5)


def test_no_leak_open_scoring_four_players(server: LiveServer) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}] * 2
    play_game(server, seats, {"open_scoring": True}, seed=3)


def test_server_bots_hear_only_what_their_seat_heard(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each bot seat keeps one bot for the game, which hears every step before its next
    decision: exactly the events its seat was sent, redacted — never another seat's draws
    or swaps."""
    runner = server.app.state.hub.bots
    calls: list[tuple[dict[str, Any], list[list[dict[str, Any]]], int]] = []
    original = runner.decide

    def recording(bot, unheard, view, budget):  # type: ignore[no-untyped-def]
        calls.append((view, [list(evs) for evs in unheard], id(bot)))
        return original(bot, unheard, view, budget)

    monkeypatch.setattr(runner, "decide", recording)
    r = httpx.post(
        f"{server.url}/api/games",
        json={"seats": [{"kind": "bot", "level": "random"}] * 2, "seed": 23, "options": {}},
    )
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    watcher = SeatClient(server.ws_url, gid, None)
    watcher.wait_view(lambda m: m["view"]["over"])
    watcher.close()
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    state = new_game(record["options"], record["seed"])
    events: list[list[dict[str, Any]]] = []
    for action in record["actions"]:
        state, evs = apply(state, action)
        events.append([e.to_dict() for e in evs])
    assert len(calls) > 50
    heard: dict[int, list[list[dict[str, Any]]]] = {}
    bots: dict[int, set[int]] = {}
    for view, unheard, bot in calls:
        seat, ply = view["seat"], view["ply"]
        bots.setdefault(seat, set()).add(bot)
        so_far = heard.setdefault(seat, [])
        so_far.extend(unheard)
        assert so_far == [[redact_event(e, seat) for e in evs] for evs in events[:ply]]
        for e in (e for evs in unheard for e in evs):
            if e["type"] in ("tiles_drawn", "tiles_swapped") and e["seat"] != seat:
                assert "tiles" not in e
    assert {seat: len(ids) for seat, ids in bots.items()} == {0: 1, 1: 1}  # one bot a seat
