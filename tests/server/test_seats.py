"""Seats: who may hand a seat to a bot, taking it back, and the log that keeps the changes.

A seat goes to a bot only by its own player, or by the game's creator after the seat's
player has been away for the stated time (``Limits.seat_absence_seconds``); a player can
always take their seat back. Seat changes are entries of the game's log, replayed like
actions: a restarted server has the same seats.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import LiveServer, SeatClient
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

ABSENCE = 1.5


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("seats")


def app_kwargs(data: Path) -> dict[str, Any]:
    return {
        "data_dir": data,
        "database_url": f"sqlite:///{data}/t.sqlite3",
        "limits": Limits(seat_absence_seconds=ABSENCE),
    }


@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[LiveServer]:
    with LiveServer(**app_kwargs(data)) as srv:
        yield srv


def create(server: LiveServer, seed: int = 3) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/games",
        json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]},
    )
    assert r.status_code == 200, r.text
    return r.json()


def to_bot(server: LiveServer, gid: str, seat: int, token: str | None) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{gid}/seats/{seat}/bot", json={"token": token, "level": "random"}
    )


def take_back(server: LiveServer, gid: str, seat: int, token: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{gid}/seats/{seat}/human", json={"token": token})


def seats(server: LiveServer, gid: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.url}/api/games/{gid}")
    assert r.status_code == 200, r.text
    return list(r.json()["seats"])


def test_a_player_cannot_hand_an_offline_opponents_seat_to_a_bot(server: LiveServer) -> None:
    g = create(server)
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    b = SeatClient(server.ws_url, gid, bob)
    b.wait_view()
    b.close()  # Bob's connection drops for a moment
    time.sleep(0.2)
    r = to_bot(server, gid, 1, ann)
    assert r.status_code == 403, r.text
    assert "seat 1" in r.json()["message"]
    assert seats(server, gid)[1]["kind"] == "human"
    b = SeatClient(server.ws_url, gid, bob)  # Bob comes back to his seat
    assert b.wait_view()["seat"] == 1
    b.close()


def test_the_creator_may_hand_an_absent_seat_to_a_bot_after_the_stated_time(
    server: LiveServer,
) -> None:
    g = create(server)
    gid, creator, bob = g["id"], g["creator_token"], g["seats"][1]["token"]
    b = SeatClient(server.ws_url, gid, bob)
    b.wait_view()
    r = to_bot(server, gid, 1, creator)
    assert r.status_code == 409 and r.json()["error"] == "seat-online", r.text
    b.close()
    time.sleep(0.2)
    r = to_bot(server, gid, 1, creator)
    assert r.status_code == 409 and r.json()["error"] == "seat-away-briefly", r.text
    assert f"{ABSENCE:g} s" in r.json()["message"]
    time.sleep(ABSENCE)
    r = to_bot(server, gid, 1, creator)
    assert r.status_code == 200, r.text
    assert seats(server, gid)[1]["kind"] == "bot"


def test_a_player_can_always_take_their_seat_back(server: LiveServer) -> None:
    g = create(server)
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    a = SeatClient(server.ws_url, gid, ann)
    first = a.wait_view()
    r = to_bot(server, gid, 1, bob)  # Bob leaves: a bot takes his seat
    assert r.status_code == 200, r.text
    a.wait_view(lambda m: m["seq"] == 1)
    a.move(first["view"]["legal_actions"][0])
    a.wait_view(lambda m: m["seq"] >= 2)
    b = SeatClient(server.ws_url, gid, bob)  # his link still opens his seat
    v = b.wait_view()
    assert v["seat"] == 1 and "hand" in v["view"]["players"][1]
    assert v["seats"][1]["kind"] == "bot"
    r = take_back(server, gid, 1, ann)  # only Bob may take it back
    assert r.status_code == 403, r.text
    r = take_back(server, gid, 1, bob)
    assert r.status_code == 200, r.text
    v = b.wait_view(lambda m: m["seats"][1]["kind"] == "human")
    assert v["seats"][1]["name"] == "Bob"
    a.close()
    b.close()


def test_a_person_cannot_move_for_a_seat_a_bot_plays(server: LiveServer) -> None:
    g = create(server)
    gid, ann = g["id"], g["seats"][0]["token"]
    a = SeatClient(server.ws_url, gid, ann)
    first = a.wait_view()
    with httpx.Client() as http:
        r = http.post(
            f"{server.url}/api/games/{gid}/seats/0/bot",
            json={"token": ann, "level": "random"},
        )
        assert r.status_code == 200, r.text
    a.move(first["view"]["legal_actions"][0], seq=first["seq"] + 1)
    errors = []
    deadline = time.monotonic() + 10
    while not errors and time.monotonic() < deadline:
        msg = a.try_recv(0.5)
        if msg and msg["type"] == "error":
            errors.append(msg)
    assert errors and errors[0]["code"] in ("seat-is-bot", "stale"), errors
    a.close()


def test_seat_changes_are_log_entries_kept_across_a_restart(tmp_path: Path) -> None:
    kwargs = app_kwargs(tmp_path)
    with LiveServer(**kwargs) as srv:
        g = create(srv)
        gid, bob = g["id"], g["seats"][1]["token"]
        assert to_bot(srv, gid, 1, bob).status_code == 200
        assert take_back(srv, gid, 1, bob).status_code == 200
        assert to_bot(srv, gid, 1, bob).status_code == 200
        before = seats(srv, gid)
    with LiveServer(**kwargs) as srv:
        assert [(s["kind"], s["name"]) for s in seats(srv, gid)] == [
            (s["kind"], s["name"]) for s in before
        ]
        assert before[1]["kind"] == "bot"
    store = Store(kwargs["database_url"])
    row = store.games.load(gid)
    store.close()
    logged = [action for _, _, action in row.actions if action.startswith("seat ")]
    assert logged == ["seat 1 bot random", "seat 1 human", "seat 1 bot random"]
    assert [s["kind"] for s in row.seats] == ["human", "human"]  # the seats it started with


def test_one_live_connection_per_seat_the_newest_takes_over(server: LiveServer) -> None:
    """The same link opened twice: the new connection plays the seat, the old one is told
    why and closed; it cannot move any more."""
    g = create(server)
    gid, ann = g["id"], g["seats"][0]["token"]
    old = SeatClient(server.ws_url, gid, ann)
    first = old.wait_view()
    new = SeatClient(server.ws_url, gid, ann)
    assert new.wait_view()["seat"] == 0
    err = old.recv()
    while err["type"] != "error":
        err = old.recv()
    assert err["code"] == "taken-over" and "another" in err["message"]
    with pytest.raises(Exception):  # noqa: B017 - closed by the server
        while True:
            old.recv(5)
    assert old.ws.close_code == 4409
    new.move(first["view"]["legal_actions"][0], seq=0)
    assert new.wait_view(lambda m: m["seq"] == 1)["seats"][0]["online"]
    spectators = [SeatClient(server.ws_url, gid, None) for _ in range(2)]  # many may watch
    for s in spectators:
        assert s.wait_view()["seq"] == 1
        s.close()
    new.close()
