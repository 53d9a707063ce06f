"""Puzzles over HTTP, on SQLite and PostgreSQL: a puzzle is served as its decider's view
(exactly ``player_view`` of the position: no other hand, no bag, no solution) until it is
answered; an answer says right or wrong with the solution, the move played and the reason;
an account's first answer is rated once however often it is sent (a double click, two tabs
at once), a guest's never; malformed and illegal actions are refused saying why; games
become puzzles only when every seat consents (bots always, guests never, accounts once they
say so), and a finished bot game analysed on the server becomes puzzles."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from puzzling import analysed_game, game_puzzles
from support.serving import LiveServer, Player, live_server_on
from tigris_euphrates import player_view, replay_steps
from tigris_euphrates.coach.puzzles import puzzle_id
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.puzzles import consenting
from tigris_euphrates.store import Store

LIMITS = Limits(
    games_per_minute=1000,
    games_per_client=1000,
    bot_games_per_client=1000,
    sign_ups_per_client=1000,
)
#: the solution and where it came from: never in a puzzle before it is answered
SECRETS = ("solution", "accepted", "played", "reason", "loss", "game")


#: the least analysis the server runs
SMALL_ANALYSIS = {"analysis_iterations": 8, "analysis_worlds": 1}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("puzzles")
    yield from live_server_on(request.param, data, stem="pz", limits=LIMITS, **SMALL_ANALYSIS)


def store_of(server: LiveServer) -> Store:
    store: Store = server.app.state.store
    return store


def seeded(server: LiveServer) -> list[dict[str, Any]]:
    """The puzzles of a real analysed game, stored under a game id of their own; each with
    its ``id``."""
    game = f"seed{uuid.uuid4().hex[:8]}"
    puzzles = [{**p, "id": puzzle_id(game, p["ply"])} for p in game_puzzles(7)]
    store_of(server).puzzles.add(game, [(p["id"], p) for p in puzzles], now=time.time())
    return puzzles


def signed_up(server: LiveServer) -> Player:
    p = Player(server)
    p.sign_up(f"pz{uuid.uuid4().hex[:8]}", "correct horse battery")
    return p


def test_a_puzzle_is_its_deciders_view_and_nothing_more(server: LiveServer) -> None:
    record, _ = analysed_game(7)
    steps = list(replay_steps(record))
    for puzzle in seeded(server):
        r = httpx.get(f"{server.url}/api/puzzles/{puzzle['id']}")
        assert r.status_code == 200, r.text
        got = r.json()
        frame = got["frame"]
        assert frame["view"] == player_view(steps[puzzle["ply"]][0], puzzle["seat"])
        assert frame["seat"] == got["seat"] == puzzle["seat"] and frame["log"] == []
        assert not set(SECRETS) & set(got) and puzzle["id"] not in frame["game"][:7]
        assert puzzle["solution"] in frame["view"]["legal_actions"]  # one among the legal
        for p in frame["view"]["players"]:
            assert ("hand" in p) == (p["seat"] == puzzle["seat"])
        assert all(s["name"] == "" for s in frame["seats"])  # no player's name
        assert '"bag"' not in r.text and got["tried"] is False


def test_a_guest_gets_puzzles_and_answers_them_unrated(server: LiveServer) -> None:
    puzzles = seeded(server)
    first = puzzles[0]
    r = httpx.post(
        f"{server.url}/api/puzzles/{first['id']}/attempt", json={"action": first["played"]}
    )
    assert r.status_code == 200, r.text
    wrong = r.json()
    assert wrong["correct"] is False and wrong["rated"] is False and wrong["rating"] is None
    assert (wrong["solution"], wrong["played"]) == (first["solution"], first["played"])
    assert wrong["reason"] == first["reason"] and wrong["loss"] == first["loss"]
    right = httpx.post(
        f"{server.url}/api/puzzles/{first['id']}/attempt", json={"action": first["solution"]}
    ).json()
    assert right["correct"] is True and right["rating"] is None
    row = store_of(server).puzzles.get(first["id"])
    assert row is not None and row.attempts == 0  # a guest's answers rate nothing
    every = ",".join(p["id"] for p in puzzles)
    nxt = httpx.get(f"{server.url}/api/puzzles/next").json()
    assert nxt["puzzle"] is not None and nxt["rating"] is None
    assert not set(SECRETS) & set(nxt["puzzle"])
    skipped = httpx.get(f"{server.url}/api/puzzles/next", params={"skip": every}).json()
    assert skipped["puzzle"] is None or skipped["puzzle"]["id"] not in every


@pytest.mark.parametrize(
    "action,status,code,words",
    [
        ("fly red a1", 400, "bad-action", "is not an action"),
        ("tile purple a1", 400, "bad-action", "colour"),
        ("tile red a1!", 422, "bad-request", "action"),
        ("", 422, "bad-request", "action"),
    ],
)
def test_a_malformed_action_is_refused_saying_why(
    server: LiveServer, action: str, status: int, code: str, words: str
) -> None:
    puzzle = seeded(server)[0]
    r = httpx.post(f"{server.url}/api/puzzles/{puzzle['id']}/attempt", json={"action": action})
    assert r.status_code == status, r.text
    assert r.json()["error"] == code and words in r.json()["message"]


def test_an_illegal_action_is_refused_with_the_rules_reason(server: LiveServer) -> None:
    puzzle = seeded(server)[0]
    legal = set(puzzle["view"]["legal_actions"])
    illegal = next(
        f"leader {c} {col}{row}"
        for c in ("red", "blue", "green", "black")
        for col in "abcdefghijklmnop"
        for row in range(1, 12)
        if f"leader {c} {col}{row}" not in legal
    )
    r = httpx.post(f"{server.url}/api/puzzles/{puzzle['id']}/attempt", json={"action": illegal})
    assert r.status_code == 400 and r.json()["error"] == "illegal-action"
    message = r.json()["message"]
    assert message.startswith(illegal + " is not legal here: ") and len(message) > len(illegal) + 30
    assert httpx.get(f"{server.url}/api/puzzles/abcdefabcdef").status_code == 404
    assert httpx.get(f"{server.url}/api/puzzles/next", params={"skip": "x"}).status_code == 422


def test_an_accounts_first_answer_is_rated_once(server: LiveServer) -> None:
    puzzles = seeded(server)
    player = signed_up(server)
    start = player.http.get("/api/puzzles/next").json()
    assert start["rating"] == {"rating": 1500, "attempts": 0, "solved": 0}
    target = puzzles[0]
    url = f"/api/puzzles/{target['id']}/attempt"
    assert player.post(url, {"action": target["solution"]}, csrf=False).status_code == 403
    first = player.post(url, {"action": target["solution"]}).json()
    assert first["correct"] and first["rated"] and first["rating"]["change"] > 0
    assert first["rating"]["before"] == 1500 and first["game"].startswith("seed")
    again = player.post(url, {"action": target["played"]}).json()  # the second time
    assert again["rated"] is False and again["correct"] is False
    assert again["rating"] == first["rating"]  # the first attempt's move, not a new one
    assert player.http.get(f"/api/puzzles/{target['id']}").json()["tried"] is True
    after = player.http.get("/api/puzzles/next").json()
    assert after["rating"]["attempts"] == 1 and after["rating"]["solved"] == 1
    assert after["puzzle"] is None or after["puzzle"]["id"] != target["id"]
    player.close()


def test_two_tabs_answering_at_once_are_rated_once(server: LiveServer) -> None:
    puzzle = seeded(server)[0]
    player = signed_up(server)
    url = f"/api/puzzles/{puzzle['id']}/attempt"
    results: list[dict[str, Any]] = []
    start = threading.Barrier(4)

    def tab(action: str) -> None:
        start.wait()
        r = player.post(url, {"action": action})
        assert r.status_code == 200, r.text
        results.append(r.json())

    actions = [puzzle["played"], puzzle["solution"], puzzle["played"], puzzle["solution"]]
    threads = [threading.Thread(target=tab, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and sum(r["rated"] for r in results) == 1
    assert len({json.dumps(r["rating"]) for r in results}) == 1
    mine = player.http.get("/api/puzzles/next").json()["rating"]
    assert mine["attempts"] == 1
    row = store_of(server).puzzles.get(puzzle["id"])
    assert row is not None and row.attempts == 1
    player.close()


def test_the_setting_my_games_may_become_puzzles(server: LiveServer) -> None:
    assert httpx.get(f"{server.url}/api/account/puzzles").status_code == 401
    player = signed_up(server)
    assert player.http.get("/api/account/puzzles").json() == {"share": False}
    assert player.post("/api/account/puzzles", {"share": True}, csrf=False).status_code == 403
    assert player.post("/api/account/puzzles", {"share": True}).json() == {"share": True}
    assert player.http.get("/api/account/puzzles").json() == {"share": True}
    assert player.post("/api/account/puzzles", {"share": "yes"}).status_code == 422
    player.close()


HUMAN = {"kind": "human", "name": "P"}
BOT = {"kind": "bot", "name": "B", "level": "random"}
#: (the seats: a bot, a guest, a person's account that consents or not, a bot account;
#: the game's status) and whether its puzzles may be made
CONSENT_CASES = [
    ("bots only", [BOT, BOT], {}, "over", True),
    ("a guest", [HUMAN, BOT], {}, "over", False),
    ("a consenting account", [HUMAN, BOT], {0: "yes"}, "over", True),
    ("an account that did not say", [HUMAN, BOT], {0: "unset"}, "over", False),
    ("an account that said no", [HUMAN, BOT], {0: "no"}, "over", False),
    ("two that consent", [HUMAN, HUMAN], {0: "yes", 1: "yes"}, "over", True),
    ("one of two that does not", [HUMAN, HUMAN], {0: "yes", 1: "no"}, "over", False),
    ("a bot account", [HUMAN, BOT], {0: "bot"}, "over", True),
    ("a guest beside a consenting account", [HUMAN, HUMAN], {0: "yes"}, "over", False),
    ("unfinished", [BOT, BOT], {}, "active", False),
    ("aborted", [BOT, BOT], {}, "aborted", False),
]


@pytest.mark.parametrize(
    "name,seats,accounts,status,expected", CONSENT_CASES, ids=[c[0] for c in CONSENT_CASES]
)
def test_a_game_becomes_puzzles_when_every_seat_consents(
    db: tuple[str, str],
    name: str,
    seats: list[dict[str, str]],
    accounts: dict[int, str],
    status: str,
    expected: bool,
) -> None:
    store = Store(*db)
    bound = {}
    for seat, kind in accounts.items():
        account = store.accounts.create(f"a{uuid.uuid4().hex[:8]}", "x")
        bound[seat] = account.id
        if kind == "bot":
            store.bots.make_bot(account.id)
        elif kind != "unset":
            store.puzzles.set_consent(account.id, kind == "yes", now=1.0)
    store.games.create("g", {"players": len(seats)}, 1, seats, bound=bound)  # type: ignore[arg-type]
    if status == "over":
        store.games.finish("g", {"scores": [], "ranking": [0, 1], "end": None})
    elif status == "aborted":
        store.games.mark_aborted("g")
    assert consenting(store, "g") == expected, name
    store.close()


def _finished(server: LiveServer, seats: list[dict[str, str]]) -> str:
    game = httpx.post(f"{server.url}/api/games", json={"seats": seats})
    assert game.status_code == 200, game.text
    body = game.json()
    for seat, spec in enumerate(seats):
        if spec["kind"] == "human":
            token = {"token": body["seats"][seat]["token"], "level": "random"}
            r = httpx.post(f"{server.url}/api/games/{body['id']}/seats/{seat}/bot", json=token)
            assert r.status_code == 200, r.text
    deadline = time.monotonic() + 180
    while httpx.get(f"{server.url}/api/games/{body['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    return str(body["id"])


def _analysed(server: LiveServer, game_id: str) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/games/{game_id}/analysis")
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 240
    while (state := httpx.get(f"{server.url}/api/games/{game_id}/analysis").json())[
        "state"
    ] != "done":
        assert state["state"] != "failed" and time.monotonic() < deadline, state
        time.sleep(0.2)
    return dict(state["analysis"])


def test_an_analysed_bot_game_becomes_puzzles_and_a_guests_does_not(server: LiveServer) -> None:
    """The guests' game is analysed first: once the bots' game (analysed after it, by the
    same loop, which makes a game's puzzles before it takes the next job) has its puzzles,
    the guests' game has had its chance to make some."""
    store = store_of(server)
    guests = _finished(server, [HUMAN, BOT])
    bots = _finished(server, [BOT, BOT])
    _analysed(server, guests)
    analysis = _analysed(server, bots)
    blunders = [d for d in analysis["decisions"] if d["mark"] == "blunder" and d["suggestion"]]
    assert blunders, "random bots blunder"
    deadline = time.monotonic() + 60
    while len(store.puzzles.of_game(bots)) < len(blunders) and time.monotonic() < deadline:
        time.sleep(0.1)  # made just after the analysis is stored
    made = store.puzzles.of_game(bots)
    assert [p.ply for p in made] == [d["ply"] for d in blunders]
    assert all(p.id == puzzle_id(bots, p.ply) for p in made)
    assert store.puzzles.of_game(guests) == []


def test_a_puzzle_has_its_own_address_and_an_unknown_one_is_not_found(
    server: LiveServer,
) -> None:
    puzzle = seeded(server)[0]
    r = httpx.get(f"{server.url}/puzzles/{puzzle['id']}")
    assert r.status_code == 200 and "<html" in r.text.lower()
    for missing in ("000000000000", "0123456789abc", "0123456789AB", "zz"):
        r = httpx.get(f"{server.url}/puzzles/{missing}")
        assert r.status_code == 404 and "<html" in r.text.lower(), missing  # the page says so
