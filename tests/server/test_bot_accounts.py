"""Bot accounts through real HTTP and websockets, on SQLite and on the real PostgreSQL: an
account turned into a bot, its API tokens (shown once, kept hashed, listed, revoked and then
refused), challenges from people and from bots offered on the event socket and accepted or
declined, a rated bots' game on the bots' leaderboard and never on the people's, the
seats of people's rated games closed to bots, and open tables that invite bot accounts
offered on the event socket (taken as a person takes a seat; of two bots taking the last
one, one), never the tables that did not invite them nor a rated one."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounting import AccountSeat, play_to_end
from botting import Bot, BotSeat, Events, unique, wait_offer
from support.serving import PATIENCE, LiveServer, Player, live_server_on
from tigris_euphrates import Options
from tigris_euphrates.server.limits import Limits

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("bots")
    limits = Limits(
        games_per_minute=1000,
        games_per_client=1000,
        sign_ups_per_client=1000,
        tokens_per_account=3,
        challenges_per_account=3,
    )
    yield from live_server_on(request.param, data, stem="b", limits=limits)


def test_a_token_is_shown_once_kept_hashed_listed_and_refused_once_revoked(
    server: LiveServer,
) -> None:
    bot = Bot(server)
    me = bot.api.get("/api/account")
    assert me.status_code == 200 and me.json()["account"]["name"] == bot.name
    assert me.json()["account"]["bot"] is True
    listed = bot.owner.http.get("/api/account/tokens").json()["tokens"]
    assert [t["name"] for t in listed] == ["laptop"] and "token" not in listed[0]
    assert bot.api.get("/api/account/tokens").json()["tokens"][0]["last_used"] is not None
    store = server.app.state.hub.store
    with store.db.engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(store.db.tables.bot_tokens.select())]
    assert rows and all(bot.token not in json.dumps(r, default=str) for r in rows)
    # a token cannot make tokens; the limit counts
    assert bot.api.post("/api/account/tokens", json={"name": "more"}).status_code == 401
    for n in range(2):
        assert bot.owner.post("/api/account/tokens", {"name": f"t{n}"}).status_code == 200
    full = bot.owner.post("/api/account/tokens", {"name": "one too many"})
    assert full.status_code == 429 and full.json()["error"] == "too-many-tokens"
    # revoked with the token itself: refused over HTTP and on both websockets
    r = bot.api.delete(f"/api/account/tokens/{bot.token_id}")
    assert r.status_code == 200
    refused = bot.api.get("/api/account/tokens")
    assert refused.status_code == 403 and refused.json()["error"] == "bad-token"
    assert bot.api.get("/api/account").json()["account"] is None
    with connect(
        f"{server.ws_url}/ws/bot",
        additional_headers={"Authorization": f"Bearer {bot.token}"},
        open_timeout=PATIENCE,
    ) as ws:
        assert json.loads(ws.recv(timeout=PATIENCE))["code"] == "bad-token"
    assert [t["name"] for t in bot.owner.http.get("/api/account/tokens").json()["tokens"]] == [
        "t1",
        "t0",
    ]


def test_a_person_cannot_make_tokens_and_a_rated_person_cannot_become_a_bot(
    server: LiveServer,
) -> None:
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    r = ann.post("/api/account/tokens", {"name": "x"})
    assert r.status_code == 403 and r.json()["error"] == "not-a-bot"
    assert ann.post("/api/account/bot", {}).status_code == 422  # no confirmation
    assert ann.post("/api/account/bot", {"confirm": True}, csrf=False).status_code == 403
    nobody = httpx.post(
        f"{server.url}/api/account/bot",
        json={"confirm": True},
        headers={"Authorization": "Bearer tneb_" + "A" * 43},
    )
    assert nobody.status_code == 403 and nobody.json()["error"] == "bad-token"
    store = server.app.state.hub.store
    account = store.accounts.by_name(ann.me()["name"])
    with store.db.engine.begin() as conn:
        conn.execute(
            store.db.tables.ratings.insert().values(
                account_id=account.id,
                family="classic",
                size="2p",
                mu=25.0,
                sigma=8.0,
                ordinal=1.0,
                games=1,
                updated=0.0,
            )
        )
    r = ann.post("/api/account/bot", {"confirm": True})
    assert r.status_code == 409 and r.json()["error"] == "rated-person"


def test_a_person_challenges_a_bot_to_a_casual_game_and_plays_it(server: LiveServer) -> None:
    bot = Bot(server)
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    events = bot.events()
    assert events.wait("hello")["account"]["name"] == bot.name
    rated = ann.post("/api/challenges", {"to": bot.name, "rated": True})
    assert rated.status_code == 403 and rated.json()["error"] == "bot-rated"
    assert ann.post("/api/challenges", {"to": ann.me()["name"]}).json()["error"] == "no-bot"
    made = ann.post("/api/challenges", {"to": bot.name, "options": {"ruleset": "classic"}})
    assert made.status_code == 200, made.text
    offered = events.wait("challenge")["challenge"]
    assert offered["id"] == made.json()["id"] and offered["from"]["bot"] is False
    assert offered["rated"] is False and offered["state"] == "open"
    # only the challenged accepts
    assert ann.post(f"/api/challenges/{offered['id']}/accept").json()["error"] == "not-challenged"
    events.send({"type": "accept", "id": offered["id"]})
    started = events.wait("game")
    # the options complete, every key with its default filled, as a tournament sends them
    assert started["options"] == Options.from_dict({"players": 2}).to_dict()
    events.send({"type": "accept", "id": offered["id"]})
    assert events.wait("error")["code"] == "challenge-closed"
    game_id = started["game"]
    assert ann.http.get("/api/challenges").json()["challenges"][0]["game"] == game_id
    seats = ann.http.get(f"/api/account/seats/{game_id}").json()["seats"]
    assert seats == [1 - started["seat"]]
    person = AccountSeat(server.ws_url, game_id, ann.cookie_header(), {"seat": seats[0]})
    machine = BotSeat(server.ws_url, game_id, bot.token, started["seat"])
    last = play_to_end([person, machine])
    assert last["view"]["over"]
    summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert summary["rated"] is False
    events.close()


def test_a_bot_declines_and_a_bot_never_takes_a_seat_of_a_peoples_rated_game(
    server: LiveServer,
) -> None:
    bot = Bot(server)
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    made = ann.post("/api/challenges", {"to": bot.name}).json()
    r = bot.api.post(f"/api/challenges/{made['id']}/decline", json={"reason": "busy"})
    assert r.status_code == 200 and r.json()["state"] == "declined"
    assert ann.http.get("/api/challenges").json()["challenges"][0]["reason"] == "busy"
    for _ in range(3):
        assert ann.post("/api/challenges", {"to": bot.name}).status_code == 200
    full = ann.post("/api/challenges", {"to": bot.name})
    assert full.status_code == 429 and full.json()["error"] == "too-many-challenges"
    # a people's rated game: the bot's token opens no seat of it
    game = ann.post(
        "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "rated": True}
    ).json()
    with connect(
        f"{server.ws_url}/ws/games/{game['id']}",
        additional_headers={"Authorization": f"Bearer {bot.token}"},
        open_timeout=PATIENCE,
    ) as ws:
        ws.send(json.dumps({"type": "join", "token": game["seats"][1]["token"]}))
        assert json.loads(ws.recv(timeout=PATIENCE))["code"] == "bot-rated"


def test_two_bots_play_a_rated_game_on_the_bots_leaderboard_only(server: LiveServer) -> None:
    one, two = Bot(server, "Alpha"), Bot(server, "Beta")
    events_one, events_two = one.events(), two.events()
    events_one.send({"type": "challenge", "to": two.name, "rated": True})
    offered = events_two.wait("challenge")["challenge"]
    assert offered["rated"] is True and offered["from"]["name"] == one.name
    assert events_one.wait("challenge")["challenge"]["id"] == offered["id"]
    events_two.send({"type": "accept", "id": offered["id"]})
    g1, g2 = events_one.wait("game"), events_two.wait("game")
    assert g1["game"] == g2["game"] and {g1["seat"], g2["seat"]} == {0, 1}
    assert g1["rated"] is True
    seats = [
        BotSeat(server.ws_url, g["game"], bot.token, g["seat"])
        for g, bot in sorted([(g1, one), (g2, two)], key=lambda x: x[0]["seat"])
    ]
    play_to_end(seats)
    bots_board = _board(server, bots=True)
    people_board = _board(server, bots=False)
    assert {one.name, two.name} <= bots_board
    assert not {one.name, two.name} & people_board
    profile = httpx.get(f"{server.url}/api/players/{one.name}").json()
    assert profile["account"]["bot"] is True and profile["ratings"][0]["games"] == 1
    for e in (events_one, events_two):
        e.close()


def _board(server: LiveServer, *, bots: bool) -> set[str]:
    def names() -> set[str]:
        r = httpx.get(
            f"{server.url}/api/leaderboard",
            params={"bots": str(bots).lower(), "limit": 100},
        )
        return {line["name"] for line in r.json()["top"]}

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the game's end is rated just after its last view
        found = names()
        if not bots or found:
            return found
        time.sleep(0.1)
    return names()


def offered_ids(events: Events, seconds: float = 1.6) -> dict[str, dict[str, Any]]:
    """The offers told on the event socket within ``seconds`` (several polls), by id."""
    out: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = events.recv(left)
        except TimeoutError:
            break
        if frame["type"] == "challenge":
            out[frame["challenge"]["id"]] = frame["challenge"]
    return out


def lobby_table(server: LiveServer, table: str) -> dict[str, Any] | None:
    tables = httpx.get(f"{server.url}/api/tables").json()["tables"]
    return next((t for t in tables if t["id"] == table), None)


def test_an_open_table_that_invites_bot_accounts_is_offered_and_a_bot_takes_its_seat(
    server: LiveServer,
) -> None:
    ann, cy = Player(server), Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    cy.sign_up(unique("Cy"), PASSWORD)
    bot = Bot(server)
    events = bot.events()
    events.wait("hello")
    # the default table: its creator may start early with AI players, no bot account sits
    people = ann.post("/api/tables", {"players": 2}).json()
    rated = cy.post("/api/tables", {"players": 2, "rated": True, "allow_bots": True}).json()
    both = cy.post("/api/tables", {"players": 2, "rated": True, "bot_accounts": True})
    assert both.status_code == 403 and both.json()["error"] == "bot-rated"
    table = ann.post("/api/tables", {"players": 3, "bot_accounts": True}).json()["table"]
    offer = wait_offer(events, f"table:{table}")
    assert offer["from"] == {"name": ann.me()["name"], "bot": False}
    assert offer["options"]["players"] == 3 and offer["rated"] is False
    assert offer["state"] == "open" and offer["free"] == 2
    seen = offered_ids(events)
    assert f"table:{people['table']}" not in seen and f"table:{rated['table']}" not in seen
    listed = lobby_table(server, people["table"])
    assert listed is not None and listed["allow_bots"] is True
    assert listed["bot_accounts"] is False
    assert lobby_table(server, table)["bot_accounts"] is True  # type: ignore[index]
    # asked for anyway: refused as the table's rules say, nothing taken
    events.send({"type": "accept", "id": f"table:{people['table']}"})
    assert events.wait("error")["code"] == "no-bot-accounts"
    events.send({"type": "accept", "id": f"table:{rated['table']}"})
    assert events.wait("error")["code"] == "bot-rated"
    # nor through the lobby's own route, with the token
    r = bot.api.post(f"/api/tables/{people['table']}/sit", json={})
    assert r.status_code == 409 and r.json()["error"] == "no-bot-accounts"
    r = bot.api.post(f"/api/tables/{rated['table']}/sit", json={})
    assert r.status_code == 403 and r.json()["error"] == "bot-rated"
    events.send({"type": "accept", "id": "table:nosuchtable"})
    assert events.wait("error")["code"] == "no-challenge"
    assert lobby_table(server, rated["table"])["free"] == 1  # type: ignore[index]
    events.send({"type": "accept", "id": f"table:{table}"})
    assert wait_offer(events, f"table:{table}")["state"] == "accepted"
    # the lobby lists the bot at the table, marked a bot account; one seat left for a person
    shown = lobby_table(server, table)
    assert shown is not None and shown["free"] == 1
    assert [(s["name"], s["bot"]) for s in shown["seats"]] == [
        (ann.me()["name"], False),
        (bot.name, True),
    ]
    assert cy.post(f"/api/tables/{table}/sit", {}).json()["game"]  # full: the game starts
    started = events.wait("game")
    assert started["seat"] == 1 and started["rated"] is False
    game = httpx.get(f"{server.url}/api/games/{started['game']}").json()
    assert [s["name"] for s in game["seats"]][1] == bot.name
    machine = BotSeat(server.ws_url, started["game"], bot.token, 1)
    assert machine.wait_view()["seat"] == 1
    machine.close()
    # their creators close the other tables: offered to nobody any more
    for who, made in ((ann, people), (cy, rated)):
        gone = who.post(f"/api/tables/{made['table']}/leave", {"token": made["token"]})
        assert gone.json()["state"] == "closed"
    events.close()


def test_two_bots_accepting_the_last_seat_at_once_one_takes_it(server: LiveServer) -> None:
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    one, two = Bot(server, "Alpha"), Bot(server, "Beta")
    sockets = [one.events(), two.events()]
    for e in sockets:
        e.wait("hello")
    table = ann.post("/api/tables", {"players": 2, "bot_accounts": True}).json()["table"]
    for e in sockets:
        wait_offer(e, f"table:{table}")
    barrier = threading.Barrier(2)

    def accept(e: Events) -> None:
        barrier.wait()
        e.send({"type": "accept", "id": f"table:{table}"})

    threads = [threading.Thread(target=accept, args=(e,)) for e in sockets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    outcomes, states = [], []
    for e in sockets:
        told: list[str] = []
        while True:
            frame = e.recv()
            if frame["type"] == "challenge":
                told.append(frame["challenge"]["state"])
            if frame["type"] in ("game", "error"):
                outcomes.append(frame)
                break
        states.append(told)
    games = [f for f in outcomes if f["type"] == "game"]
    errors = [f for f in outcomes if f["type"] == "error"]
    assert len(games) == 1 and len(errors) == 1, outcomes
    assert errors[0]["code"] in ("table-full", "table-closed", "seat-taken")
    winner = one if outcomes[0]["type"] == "game" else two
    seats = httpx.get(f"{server.url}/api/games/{games[0]['game']}").json()["seats"]
    names = [s["name"] for s in seats]
    assert names[1] == winner.name and {one.name, two.name} & set(names) == {winner.name}
    assert lobby_table(server, table) is None
    # the other is told the offer is gone
    loser = 1 if outcomes[0]["type"] == "game" else 0
    if "closed" not in states[loser]:
        assert wait_offer(sockets[loser], f"table:{table}")["state"] == "closed"
    for e in sockets:
        e.close()


def test_a_revoked_token_closes_the_sockets_it_opened(server: LiveServer) -> None:
    bot = Bot(server)
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    events = bot.events()
    events.wait("hello")
    made = ann.post("/api/challenges", {"to": bot.name}).json()
    accepted = bot.api.post(f"/api/challenges/{made['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    started = events.wait("game")
    seat = BotSeat(server.ws_url, started["game"], bot.token, started["seat"])
    view = seat.wait_view()
    r = bot.owner.http.delete(
        f"/api/account/tokens/{bot.token_id}", headers={"X-CSRF-Token": bot.owner.csrf}
    )
    assert r.status_code == 200
    assert events.wait("error")["code"] == "bad-token"
    # the game socket closes by itself: it sees no more views of the seat, sending or not
    while (frame := seat.recv(timeout=PATIENCE))["type"] != "error":
        pass
    assert frame["code"] == "bad-token"
    with pytest.raises(ConnectionClosed):
        seat.recv(timeout=PATIENCE)
    assert view["seat"] == started["seat"]


def test_a_bot_account_never_takes_a_peoples_place(server: LiveServer) -> None:
    """Quick match refuses a bot's token (nothing queued), as does a rated table of its
    own; a person holding a seat at an open table cannot turn into a bot meanwhile."""
    bot = Bot(server)
    r = bot.api.post("/api/match", json={"family": "classic", "players": 2})
    assert r.status_code == 403 and r.json()["error"] == "bot-quick-match"
    assert bot.api.get("/api/match").json()["match"] is None
    r = bot.api.post("/api/tables", json={"players": 2, "rated": True})
    assert r.status_code == 403 and r.json()["error"] == "bot-rated"
    casual = bot.api.post("/api/tables", json={"players": 2}).json()
    left = bot.api.post(f"/api/tables/{casual['table']}/leave", json={"token": casual["token"]})
    assert left.json()["state"] == "closed"
    ann = Player(server)
    ann.sign_up(unique("Ann"), PASSWORD)
    made = ann.post("/api/tables", {"players": 2, "rated": True}).json()
    r = ann.post("/api/account/bot", {"confirm": True})
    assert r.status_code == 409 and r.json()["error"] == "playing-person"
    assert ann.me()["bot"] is False
    ann.post(f"/api/tables/{made['table']}/leave", {"token": made["token"]})
    assert ann.post("/api/account/bot", {"confirm": True}).status_code == 200
