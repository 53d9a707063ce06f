"""A rated game is rated only for the moves its people made, through real HTTP and
websockets, on SQLite and on the real PostgreSQL: two accounts from one address that let
bots play their rated games do not move the leaderboard, and a player who hands their seat
to the ``expert`` bot for a moment and takes it back loses the game, whatever the scores."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_first_turns, play_to_end
from support.serving import LiveServer, Player, postgres_or_skip
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
SEATS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("fair")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    # the expert thinks briefly: the test needs its decision, not its strength
    kwargs: dict[str, Any] = {"data_dir": data, "limits": limits, "bot_iterations": 30}
    if request.param == "sqlite":
        with LiveServer(database_url=f"sqlite:///{data}/t.sqlite3", **kwargs) as srv:
            yield srv
        return
    url = postgres_or_skip()
    prefix = f"f{uuid.uuid4().hex[:10]}_"
    try:
        with LiveServer(database_url=url, table_prefix=prefix, **kwargs) as srv:
            yield srv
    finally:
        Store(url, prefix).drop_all()


def accounts(server: LiveServer) -> tuple[tuple[Player, str], tuple[Player, str]]:
    out = []
    for stem in ("Ann", "Bob"):
        name = f"{stem}{uuid.uuid4().hex[:6]}"
        player = Player(server)
        player.sign_up(name, PASSWORD)
        out.append((player, name))
    return out[0], out[1]


def rated_game(server: LiveServer, ann: Player, bob: Player) -> tuple[str, list[AccountSeat]]:
    """A rated game Ann created, each account in its seat (bound by opening it)."""
    r = ann.post("/api/games", {"seats": SEATS, "rated": True})
    assert r.status_code == 200, r.text
    g = r.json()
    seats = []
    for seat, player in enumerate((ann, bob)):
        join = {"token": g["seats"][seat]["token"]}
        client = AccountSeat(server.ws_url, g["id"], player.cookie_header(), join)
        assert client.wait_view()["seat"] == seat
        seats.append(client)
    return g["id"], seats


def board(server: LiveServer) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/leaderboard", params={"family": "classic", "size": "2p"})
    return {"top": r.json()["top"], "total": r.json()["total"]}


def test_two_accounts_letting_bots_play_their_rated_games_do_not_move_the_leaderboard(
    server: LiveServer,
) -> None:
    (ann, ann_name), (bob, bob_name) = accounts(server)
    before = board(server)
    for _ in range(3):
        game_id, seats = rated_game(server, ann, bob)
        play_first_turns(seats)  # before, a seat going to a bot aborts the game
        for seat, player in enumerate((ann, bob)):
            r = player.post(f"/api/games/{game_id}/seats/{seat}/bot", {"level": "random"})
            assert r.status_code == 200, r.text
        end = seats[0].wait_view(lambda m: m["view"]["over"])
        assert end["view"]["over"]
        assert board(server) == before
        summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert summary["status"] == "over" and summary["rated"] is False
        for s in seats:
            s.close()
    for name in (ann_name, bob_name):
        profile = httpx.get(f"{server.url}/api/players/{name}").json()
        assert profile["ratings"] == [] and profile["history"] == []
        # the games are still theirs: the profile and "My games" list them, unrated
        assert [g["rated"] for g in profile["games"]] == [False] * 3
    mine = ann.http.get("/api/account/games").json()["games"]
    assert len(mine) == 3 and all(g["status"] == "over" and not g["rated"] for g in mine)
    for p in (ann, bob):
        p.close()


def test_a_player_helped_by_the_expert_for_a_moment_loses_the_rated_game(
    server: LiveServer,
) -> None:
    (ann, ann_name), (bob, bob_name) = accounts(server)
    game_id, (a, b) = rated_game(server, ann, bob)
    # once each had a first turn (before, a seat going to a bot aborts the game), Ann's
    # turn (her two actions): the expert plays them, then she takes her seat back
    view = play_first_turns([a, b])
    assert view["view"]["to_act"] == 0
    r = ann.post(f"/api/games/{game_id}/seats/0/bot", {"level": "expert"})
    assert r.status_code == 200, r.text
    a.wait_view(lambda m: m["view"]["to_act"] == 1)
    r = ann.post(f"/api/games/{game_id}/seats/0/human")
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "human", r.text
    # the rest of the game: both only swap tiles or pass, so the expert's points are Ann's
    assert play_to_end([a, b])["view"]["over"]
    summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert summary["rated"] is True  # rated: Bob played all his moves
    ranking = summary["result"]["ranking"]
    assert ranking[0] == 0 or ranking[0] == [0, 1]  # Ann first, or shared first, on scores
    history = {
        name: httpx.get(f"{server.url}/api/players/{name}").json()["history"]
        for name in (ann_name, bob_name)
    }
    assert [(h["game"], h["place"]) for h in history[ann_name]] == [(game_id, 2)]
    assert [(h["game"], h["place"]) for h in history[bob_name]] == [(game_id, 1)]
    assert history[bob_name][0]["ordinal"] > history[ann_name][0]["ordinal"]
    for s in (a, b):
        s.close()
    for p in (ann, bob):
        p.close()
