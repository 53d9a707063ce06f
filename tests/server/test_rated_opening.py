"""A rated game's opening, through real HTTP and websockets on SQLite and PostgreSQL (and two
processes on PostgreSQL): a seat that gives up before every seat has completed its first
turn — resigns, leaves its seat to a bot, lets its clock run out — aborts the game: it is
over, unrated, nobody's rating or statistics change, and every list, record and replay says
``aborted``. Once the turn has passed from every seat, a resignation is rated as ever."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_first_turns, quick_action
from support.serving import LiveServer, Player, ServerProcess, live_server_on, postgres_or_skip
from tigris_euphrates import apply, new_game
from tigris_euphrates.server.endings import opening
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store
from tigris_euphrates.store.fairplay import tally
from tigris_euphrates.store.logentry import Abort, Move, decode, encode

PASSWORD = "correct horse battery"
HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("opening")
    limits = Limits(
        games_per_minute=1000,
        games_per_client=1000,
        sign_ups_per_client=1000,
        pace_min_seconds=0.5,
    )
    yield from live_server_on(request.param, data, stem="o", limits=limits)


def sign_up(server: LiveServer | ServerProcess, n: int = 2) -> list[tuple[Player, str]]:
    out = []
    for i in range(n):
        name = f"P{i}{uuid.uuid4().hex[:8]}"
        player = Player(server)
        player.sign_up(name, PASSWORD)
        out.append((player, name))
    return out


def rated_game(
    server: LiveServer | ServerProcess,
    players: list[Player],
    ws_urls: list[str] | None = None,
    **extra: Any,
) -> tuple[str, list[AccountSeat]]:
    """A rated game the first player created, each account in its seat (``ws_urls``: the
    server each seat's websocket goes to, default ``server``'s)."""
    body = {"seats": [{"kind": "human"}] * len(players), "rated": True, **extra}
    r = players[0].post("/api/games", body)
    assert r.status_code == 200, r.text
    g = r.json()
    seats = []
    for seat, player in enumerate(players):
        url = (ws_urls or [server.ws_url] * len(players))[seat]
        join = {"token": g["seats"][seat]["token"]}
        client = AccountSeat(url, g["id"], player.cookie_header(), join)
        assert client.wait_view()["seat"] == seat
        seats.append(client)
    for client in seats:
        client.wait_view(lambda m: all(s["account"] for s in m["seats"]))
    return g["id"], seats


def profile(url: str, name: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/api/players/{name}").json())


def leaderboard(url: str, size: str = "2p") -> dict[str, Any]:
    r = httpx.get(f"{url}/api/leaderboard", params={"family": "classic", "size": size})
    return {"top": r.json()["top"], "total": r.json()["total"]}


def assert_aborted(
    url: str, game_id: str, names: list[str], before: dict[str, Any], size: str = "2p"
) -> None:
    """The game is aborted everywhere: its summary, the record, the replay, the players'
    profiles (no rating, no history, no statistics) and the leaderboard (unchanged)."""
    summary = httpx.get(f"{url}/api/games/{game_id}").json()
    assert summary["status"] == "aborted" and summary["rated"] is False
    record = httpx.get(f"{url}/api/games/{game_id}/record")
    assert record.status_code == 200
    assert record.json()["result"]["end"] == "abort" and record.json()["result"]["ranking"] == []
    moves = httpx.get(f"{url}/api/games/{game_id}/moves")
    assert moves.status_code == 200 and moves.json()["aborted"] is True
    assert httpx.get(f"{url}/api/games/{game_id}/replay/0").status_code == 200
    for name in names:
        p = profile(url, name)
        assert p["ratings"] == [] and p["history"] == []
        assert p["stats"]["games"] == 0
        mine = [g for g in p["games"] if g["id"] == game_id]
        assert [(g["status"], g["rated"]) for g in mine] == [("aborted", False)]
    assert leaderboard(url, size) == before


def test_the_opening_lasts_until_the_turn_passed_from_every_seat() -> None:
    for players in (2, 3, 4):
        state = new_game({"players": players}, 7)
        entries: list[list[Any]] = []
        passes = 0
        while passes < players:
            assert opening(players, entries)
            turn = state.turn
            state, events = apply(state, "pass")
            entries.append(events)
            passes += state.turn != turn
        assert not opening(players, entries)  # the last seat's turn passed: it is over


def test_an_abort_entry_is_no_decision_and_never_rated() -> None:
    assert encode(Abort(1, "resign")) == "abort 1 resign"
    assert decode("abort 1 resign") == Abort(1, "resign") and decode("abort") == Abort()
    assert decode("abort 1 nonsense") == Move("abort 1 nonsense")  # no abort: the rules refuse it
    plays = tally(2, [(0, Move("pass")), (1, Abort(1, "resign"))])
    assert [p.decisions for p in plays] == [1, 0] and not any(p.forfeits for p in plays)


def test_a_resignation_before_the_first_turns_aborts_the_rated_game(server: LiveServer) -> None:
    (ann, ann_name), (bob, bob_name) = sign_up(server)
    before = leaderboard(server.url)
    game_id, (a, b) = rated_game(server, [ann, bob])
    b.send({"type": "resign"})  # before anyone moved
    for seat in (a, b):
        stopped = seat.wait_view(lambda m: m.get("aborted"))
        assert stopped["aborted_by"] == 1 and stopped["aborted_why"] == "resign"
        assert not stopped["view"]["over"]  # stopped, not ended by a result
        assert [s["change"] for s in stopped["seats"]] == [None, None]
        note = stopped["seat_log"][-1]
        assert (note["change"], note["seat"], note["why"]) == ("abort", 1, "resign")
    a.send({"type": "move", "seq": stopped["seq"], "action": "pass"})
    while (frame := a.recv())["type"] != "error":
        pass
    assert frame["code"] == "game-aborted"
    assert_aborted(server.url, game_id, [ann_name, bob_name], before)
    mine = ann.http.get("/api/account/games").json()["games"]
    assert [(g["status"], g["rated"]) for g in mine if g["id"] == game_id] == [("aborted", False)]
    for s in (a, b):
        s.close()


def test_everybody_moved_but_a_first_turn_is_unfinished_still_aborts(server: LiveServer) -> None:
    (ann, ann_name), (bob, bob_name) = sign_up(server)
    before = leaderboard(server.url)
    game_id, (a, b) = rated_game(server, [ann, bob])
    view = play_first_turns([a, b], passes=1)  # Ann's turn is over, Bob's began
    b.move(quick_action(b.wait_view(lambda m, s=view["seq"]: m["seq"] >= s)["view"]))
    a.wait_view(lambda m, s=view["seq"]: m["seq"] > s)
    a.send({"type": "resign"})  # both moved, Bob's first turn is unfinished: still the opening
    stopped = b.wait_view(lambda m: m.get("aborted"))
    assert stopped["aborted_by"] == 0 and stopped["aborted_why"] == "resign"
    assert_aborted(server.url, game_id, [ann_name, bob_name], before)
    for s in (a, b):
        s.close()


def test_leaving_to_a_bot_in_the_opening_aborts(server: LiveServer) -> None:
    (ann, ann_name), (bob, bob_name) = sign_up(server)
    before = leaderboard(server.url)
    game_id, (a, b) = rated_game(server, [ann, bob])
    r = ann.post(f"/api/games/{game_id}/seats/0/bot", {"level": "random"})
    assert r.status_code == 200 and r.json()["status"] == "aborted", r.text
    stopped = b.wait_view(lambda m: m.get("aborted"))
    assert stopped["aborted_by"] == 0 and stopped["aborted_why"] == "bot"
    assert [s["kind"] for s in stopped["seats"]] == ["human", "human"]  # no bot took it
    assert_aborted(server.url, game_id, [ann_name, bob_name], before)
    for s in (a, b):
        s.close()


def test_a_clock_running_out_in_the_opening_aborts(server: LiveServer) -> None:
    (ann, ann_name), (bob, bob_name) = sign_up(server)
    before = leaderboard(server.url)
    pace = {"kind": "realtime", "base": 1, "increment": 0}
    game_id, (a, b) = rated_game(server, [ann, bob], pace=pace)
    stopped = b.wait_view(lambda m: m.get("aborted"))  # Ann never moves
    assert stopped["aborted_by"] == 0 and stopped["aborted_why"] == "timeout"
    assert stopped["clock"]["running"] is False
    assert_aborted(server.url, game_id, [ann_name, bob_name], before)
    for s in (a, b):
        s.close()


def test_a_ban_in_the_opening_aborts(server: LiveServer) -> None:
    """A moderator bans a seat's account before every first turn: the game is aborted, not
    handed to a bot, and the other player gets no rated win."""
    (ann, ann_name), (bob, bob_name), (mod, mod_name) = sign_up(server, 3)
    store = server.app.state.hub.store
    store.moderation.set_admin(store.accounts.by_name(mod_name).id, True)
    before = leaderboard(server.url)
    game_id, (a, b) = rated_game(server, [ann, bob])
    r = mod.post(f"/api/admin/accounts/{bob_name}/ban", {})
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == [{"game": game_id, "seat": 1}]
    stopped = a.wait_view(lambda m: m.get("aborted"))
    assert stopped["aborted_by"] == 1 and stopped["aborted_why"] == "bot"
    assert [s["kind"] for s in stopped["seats"]] == ["human", "human"]  # no bot took it
    assert_aborted(server.url, game_id, [ann_name], before)
    for s in (a, b):
        s.close()


def test_a_three_player_opening_ends_when_the_last_seat_passes_the_turn(
    server: LiveServer,
) -> None:
    people = sign_up(server, 3)
    players, names = [p for p, _ in people], [n for _, n in people]
    before = leaderboard(server.url, "multi")
    game_id, seats = rated_game(server, players)
    play_first_turns(seats, passes=2)  # the third seat has not passed the turn yet
    seats[0].send({"type": "resign"})
    stopped = seats[2].wait_view(lambda m: m.get("aborted"))
    assert stopped["aborted_by"] == 0
    assert_aborted(server.url, game_id, names, before, "multi")
    # once the turn passed from all three, a resignation is a rated one (a bot plays on)
    game_id, seats = rated_game(server, players)
    view = play_first_turns(seats)
    seats[1].send({"type": "resign"})
    resigned = seats[0].wait_view(
        lambda m, s=view["seq"]: m["seq"] > s and m["seats"][1]["resigned"]
    )
    assert not resigned.get("aborted") and resigned["seats"][1]["kind"] == "bot"
    assert httpx.get(f"{server.url}/api/games/{game_id}").json()["status"] == "active"
    for s in seats:
        s.close()


def test_a_resignation_after_the_first_turns_is_rated(server: LiveServer) -> None:
    (ann, ann_name), (bob, bob_name) = sign_up(server)
    game_id, (a, b) = rated_game(server, [ann, bob])
    view = play_first_turns([a, b])
    assert view["view"]["turn"]["player"] == 0 and not view.get("aborted")
    b.send({"type": "resign"})
    end = a.wait_view(lambda m: m["view"]["over"] and m["seats"][0]["change"] is not None)
    assert end["view"]["end"] == "resign" and not end.get("aborted")
    assert end["seats"][0]["change"] > 0 > end["seats"][1]["change"]
    summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert summary["status"] == "over" and summary["rated"] is True
    places = {
        n: [h["place"] for h in profile(server.url, n)["history"]] for n in (ann_name, bob_name)
    }
    assert places == {ann_name: [1], bob_name: [2]}
    for s in (a, b):
        s.close()


def test_two_processes_abort_once_and_rate_nothing(tmp_path) -> None:
    """Two processes on one PostgreSQL database: a resignation in the opening made through
    one process aborts the game for a player connected to the other; both players resigning
    at once, each through its own process, abort it once (one abort entry, the other told
    the game is aborted), and no rating moves."""
    url = postgres_or_skip()
    prefix = f"o{uuid.uuid4().hex[:10]}_"
    one = ServerProcess(tmp_path / "a", url, prefix)
    two = ServerProcess(tmp_path / "b", url, prefix)
    try:
        with one, two:
            (ann, ann_name), (bob, bob_name) = sign_up(one)
            before = leaderboard(one.url)
            game_id, (a, b) = rated_game(one, [ann, bob], [one.ws_url, two.ws_url])
            b.send({"type": "resign"})
            stopped = a.wait_view(lambda m: m.get("aborted"))
            assert stopped["aborted_by"] == 1 and stopped["aborted_why"] == "resign"
            for server_url in (one.url, two.url):
                assert_aborted(server_url, game_id, [ann_name, bob_name], before)
            for s in (a, b):
                s.close()
            # both resign at the same moment, each through its own process
            game_id, (a, b) = rated_game(one, [ann, bob], [one.ws_url, two.ws_url])
            go = threading.Barrier(2)

            def resign(seat: AccountSeat) -> None:
                go.wait()
                seat.send({"type": "resign"})

            threads = [threading.Thread(target=resign, args=(s,)) for s in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for s in (a, b):
                s.wait_view(lambda m: m.get("aborted"))
            log = Store(url, prefix).games.load(game_id).actions
            assert [isinstance(decode(action), Abort) for _, _, action in log] == [True]
            for server_url in (one.url, two.url):
                assert_aborted(server_url, game_id, [ann_name, bob_name], before)
            for s in (a, b):
                s.close()
    finally:
        Store(url, prefix).drop_all()
