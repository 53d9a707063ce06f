"""At the table, through real HTTP and websockets on SQLite and PostgreSQL: resigning (two
players: the other wins; three: the resigner ranks last and a bot plays the seat out; a
rated game counts it once every player had a first turn), aborting before every player
moved, guests' nicknames, and the names and displayed ratings of the accounts at a rated
table with their changes at its end."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_first_turns, quick_action
from support.serving import (
    LiveServer,
    Player,
    SeatClient,
    ServerProcess,
    live_server_on,
    postgres_or_skip,
)
from tigris_euphrates import new_game
from tigris_euphrates.coach.analysis import analyse
from tigris_euphrates.server.endings import final_result
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store
from tigris_euphrates.store.ratings import displayed

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("leaving")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    yield from live_server_on(request.param, data, stem="l", limits=limits)


def create(server: LiveServer, players: int = 2, **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "human"} for _ in range(players)]
    r = httpx.post(f"{server.url}/api/games", json={"seats": seats, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def seats_of(server: LiveServer, g: dict[str, Any]) -> list[SeatClient]:
    out = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    for s in out:
        s.wait_view()
    return out


def move_once(seat: SeatClient) -> None:
    view = seat.wait_view(lambda m: m["view"]["to_act"] == m["seat"])
    seat.move(quick_action(view["view"]))
    seat.wait_view(lambda m, seq=view["seq"]: m["seq"] > seq)


def error(seat: SeatClient) -> dict[str, Any]:
    while True:
        frame = seat.recv()
        if frame["type"] == "error":
            return frame


def test_two_players_the_other_wins_when_one_resigns(server: LiveServer) -> None:
    g = create(server)
    a, b = seats_of(server, g)
    watcher = SeatClient(server.ws_url, g["id"], None)
    watcher.wait_view()
    watcher.send({"type": "resign"})
    assert error(watcher)["code"] == "spectator"
    b.send({"type": "resign"})
    end = a.wait_view(lambda m: m["view"]["over"])
    assert end["view"]["result"]["ranking"] == [0, 1]
    assert end["view"]["end"] == "resign" and end["view"]["legal_actions"] == []
    assert [s["resigned"] for s in end["seats"]] == [False, True]
    # the game is over: every hand is public now, as at any end
    assert all("hand" in p for p in end["view"]["players"])
    summary = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert summary["status"] == "over" and summary["result"]["ranking"] == [0, 1]
    a.send({"type": "resign"})
    assert error(a)["code"] == "game-over"
    # the replay and the record of a resigned game open like any finished game's; the
    # record says how it ended, and its analysis can be asked for
    assert httpx.get(f"{server.url}/api/games/{g['id']}/moves").status_code == 200
    assert httpx.get(f"{server.url}/api/games/{g['id']}/replay/0").status_code == 200
    record = httpx.get(f"{server.url}/api/games/{g['id']}/record").json()
    assert record["result"]["end"] == "resign" and record["result"]["ranking"] == [0, 1]
    assert analyse(record)["plies"] == 0
    assert httpx.post(f"{server.url}/api/games/{g['id']}/analysis").status_code == 200
    for s in (a, b, watcher):
        s.close()


def test_three_players_the_resigner_ranks_last_and_a_bot_plays_on(server: LiveServer) -> None:
    g = create(server, 3)
    a, b, c = seats_of(server, g)
    b.send({"type": "resign"})
    view = a.wait_view(lambda m: m["seats"][1]["resigned"])
    assert not view["view"]["over"]
    assert view["seats"][1]["kind"] == "bot"
    # a resigned seat cannot be taken back
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/seats/1/human", json={"token": g["seats"][1]["token"]}
    )
    assert r.status_code == 409 and r.json()["error"] == "resigned"
    for s in (a, b, c):
        s.close()


def test_the_resigned_rank_below_the_others_whatever_their_scores() -> None:
    state = new_game({"players": 3}, 5)
    res = final_result(state, [1])  # the game goes on: no result yet
    assert res is None
    res = final_result(state, [2, 0])  # every seat but one resigned: over
    assert res is not None and res["end"] == "resign"
    assert res["ranking"] == [1, 0, 2]  # the first to resign ranks last


def test_abort_only_before_every_player_moved(server: LiveServer) -> None:
    g = create(server)
    a, b = seats_of(server, g)
    move_once(a)
    b.send({"type": "abort"})
    stopped = a.wait_view(lambda m: m.get("aborted"))
    assert stopped["aborted_by"] == 1
    summary = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert summary["status"] == "aborted" and summary["rated"] is False
    a.send({"type": "move", "seq": stopped["seq"], "action": "pass"})
    assert error(a)["code"] == "game-aborted"
    # once both have moved, it is too late: resign instead
    g = create(server)
    a, b = seats_of(server, g)
    moved: set[int] = set()
    seq = 0
    while moved != {0, 1}:
        actor = a.wait_view(lambda m, s=seq: m["seq"] >= s)["view"]["to_act"]
        move_once([a, b][actor])
        moved.add(actor)
        seq = [a, b][actor].last["seq"]  # type: ignore[index]
    a.send({"type": "abort"})
    assert error(a)["code"] == "too-late-to-abort"
    for s in (a, b):
        s.close()


def test_a_guest_names_their_seat(server: LiveServer) -> None:
    g = create(server)
    a, b = seats_of(server, g)
    assert b.last is not None and b.last["seats"][0]["named"] is False
    a.send({"type": "name", "name": "Ann\u202e"})
    assert error(a)["code"] == "bad-name"
    a.send({"type": "name", "name": "   "})
    assert error(a)["code"] == "bad-name"
    a.send({"type": "name", "name": "  Ann  "})
    seen = b.wait_view(lambda m: m["seats"][0]["name"] == "Ann")
    assert seen["seats"][0]["named"] is True
    # kept by the store: a later load shows it too
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["seats"][0]["name"] == "Ann"
    watcher = SeatClient(server.ws_url, g["id"], None)
    watcher.wait_view()
    watcher.send({"type": "name", "name": "Eve"})
    assert error(watcher)["code"] == "spectator"
    for s in (a, b, watcher):
        s.close()


def test_a_rated_table_shows_names_ratings_and_their_changes(server: LiveServer) -> None:
    names = [f"Ann{uuid.uuid4().hex[:6]}", f"Bob{uuid.uuid4().hex[:6]}"]
    players = [Player(server), Player(server)]
    for p, name in zip(players, names, strict=True):
        p.sign_up(name, PASSWORD)
    r = players[0].post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True})
    g = r.json()
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip(players, g["seats"], strict=True)
    ]
    both = seats[0].wait_view(lambda m: all(s["account"] for s in m["seats"]))
    assert [s["name"] for s in both["seats"]] == names
    assert [s["rating"] for s in both["seats"]] == [1500, 1500]  # newcomers: never negative
    seats[0].move(quick_action(seats[0].wait_view(lambda m: m["view"]["to_act"] == 0)["view"]))
    # a guest cannot name a seat an account holds
    seats[0].send({"type": "name", "name": "Someone"})
    assert error(seats[0])["code"] == "named-by-account"
    play_first_turns(seats)  # a resignation in the opening would abort the game
    seats[0].send({"type": "resign"})
    end = seats[1].wait_view(lambda m: m["view"]["over"] and m["seats"][0]["change"] is not None)
    loser, winner = end["seats"]
    assert winner["change"] > 0 > loser["change"]
    assert loser["rating"] == 1500 + loser["change"]
    board = httpx.get(f"{server.url}/api/players/{names[1]}").json()
    assert board["ratings"][0]["display"] == winner["rating"]
    assert board["ratings"][0]["display"] == displayed(board["ratings"][0]["ordinal"])
    for s in seats:
        s.close()


def test_names_and_a_resignation_reach_the_other_process(tmp_path) -> None:
    """Two processes on one PostgreSQL database: a nickname set and a resignation made
    through one are seen by a player connected to the other."""
    url = postgres_or_skip()
    prefix = f"m{uuid.uuid4().hex[:10]}_"
    a = ServerProcess(tmp_path / "a", url, prefix)
    b = ServerProcess(tmp_path / "b", url, prefix)
    try:
        with a, b:
            r = httpx.post(f"{a.url}/api/games", json={"seats": [{"kind": "human"}] * 2})
            g = r.json()
            ann = SeatClient(a.ws_url, g["id"], g["seats"][0]["token"])
            bob = SeatClient(b.ws_url, g["id"], g["seats"][1]["token"])
            ann.wait_view()
            bob.wait_view()
            bob.send({"type": "name", "name": "Bobby"})
            ann.wait_view(lambda m: m["seats"][1]["name"] == "Bobby")
            bob.send({"type": "resign"})
            end = ann.wait_view(lambda m: m["view"]["over"])
            assert end["view"]["result"]["ranking"] == [0, 1] and end["seats"][1]["resigned"]
            ann.close()
            bob.close()
    finally:
        Store(url, prefix).drop_all()
