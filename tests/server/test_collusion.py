"""Moderators against collusion, through real HTTP and websockets on SQLite and PostgreSQL:
two accounts that keep ending rated games between them after a few plies are listed on the
admins' page (how many games, their plies, the last, who finished ahead, each game's
replay), one such game is no pattern and an aborted one is none; only admins read the list,
and only admins are told they are (the page's link). A banned account leaves the
leaderboard and comes back when unbanned."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from accounting import AccountSeat, play_first_turns
from support.serving import LiveServer, Player, live_server_on
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store.moderation import REPEATED, SHORT_PLIES

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("collusion")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    yield from live_server_on(request.param, data, stem="c", limits=limits)


def member(server: LiveServer, stem: str, *, admin: bool = False) -> tuple[Player, str]:
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    player = Player(server)
    player.sign_up(name, PASSWORD)
    if admin:
        store = server.app.state.hub.store
        store.moderation.set_admin(store.accounts.by_name(name).id, True)
    return player, name


def short_game(server: LiveServer, winner: Player, loser: Player, opening: bool = False) -> str:
    """A rated game the loser resigns once each had a first turn (four plies), counted; or
    (``opening``) before anyone moved: aborted."""
    g = winner.post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True}).json()
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip((winner, loser), g["seats"], strict=True)
    ]
    for s in seats:
        s.wait_view()
    if opening:
        seats[1].send({"type": "resign"})
        seats[0].wait_view(lambda m: m.get("aborted"))
    else:
        play_first_turns(seats)
        seats[1].send({"type": "resign"})
        seats[0].wait_view(lambda m: m["view"]["over"] and m["seats"][0]["change"] is not None)
    for s in seats:
        s.close()
    return str(g["id"])


def test_repeated_short_rated_results_are_listed_for_the_admins(server: LiveServer) -> None:
    mod, _ = member(server, "Mod", admin=True)
    (ann, ann_name), (bob, bob_name) = member(server, "Ann"), member(server, "Bob")
    (cy, cy_name), (dan, dan_name) = member(server, "Cy"), member(server, "Dan")
    games = [short_game(server, ann, bob) for _ in range(REPEATED)]
    short_game(server, ann, bob, opening=True)  # aborted: no result at all
    short_game(server, cy, dan)  # once: no pattern
    r = mod.http.get("/api/admin/collusion")
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["short_plies"] == SHORT_PLIES and answer["repeated"] == REPEATED
    pairs = {frozenset(p["accounts"]): p for p in answer["pairs"]}
    assert frozenset((cy_name, dan_name)) not in pairs
    pair = pairs[frozenset((ann_name, bob_name))]
    assert pair["games"] == REPEATED and pair["plies"] == 4 * REPEATED
    assert pair["game_ids"] == games[::-1]  # the newest first
    ahead = dict(zip(pair["accounts"], pair["wins"], strict=True))
    assert ahead == {ann_name: REPEATED, bob_name: 0}
    # each game's replay opens
    for game_id in pair["game_ids"]:
        assert httpx.get(f"{server.url}/api/games/{game_id}/moves").status_code == 200
    # a player is refused the list, a guest too
    assert ann.http.get("/api/admin/collusion").json()["error"] == "not-admin"
    assert httpx.get(f"{server.url}/api/admin/collusion").status_code == 401
    # the page is told who moderates (its link to the admins' page), nobody else
    assert mod.me()["admin"] is True and ann.me()["admin"] is False
    for p in (mod, ann, bob, cy, dan):
        p.close()


def test_a_banned_account_leaves_the_leaderboard(server: LiveServer) -> None:
    mod, _ = member(server, "Mod", admin=True)
    (ann, ann_name), (bob, bob_name) = member(server, "Ann"), member(server, "Bob")
    short_game(server, ann, bob)

    def board() -> list[str]:
        params = {"family": "classic", "size": "2p", "limit": 100}
        return [
            r["name"]
            for r in httpx.get(f"{server.url}/api/leaderboard", params=params).json()["top"]
        ]

    assert {ann_name, bob_name} <= set(board())
    assert mod.post(f"/api/admin/accounts/{ann_name}/ban").status_code == 200
    assert ann_name not in board() and bob_name in board()
    # the banned account's own rating is kept: unbanned, it is back where it was
    assert mod.post(f"/api/admin/accounts/{ann_name}/unban").status_code == 200
    assert {ann_name, bob_name} <= set(board())
    for p in (mod, ann, bob):
        p.close()
