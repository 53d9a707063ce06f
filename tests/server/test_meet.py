"""Meeting people through real HTTP and websockets, on SQLite and on the real PostgreSQL:
open tables (a rated table needs accounts, the rating range, starting early with bots,
leaving, expiry), quick match (a rated game between close players, a bot after the
chosen wait, never with a blocked account), invitations, friends online, and the live
lobby socket that tells it all without polling."""

from __future__ import annotations

import json
import signal
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounting import AccountSeat, play_first_turns, wait_match
from mailing import Mailbox
from support.serving import PATIENCE, LiveServer, Player, ServerProcess, live_server_on
from tigris_euphrates.server.limits import Limits

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("meet")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    yield from live_server_on(request.param, data, stem="m", limits=limits)


def person(server: LiveServer, stem: str) -> Player:
    p = Player(server)
    p.name = f"{stem}{uuid.uuid4().hex[:6]}"  # type: ignore[attr-defined]
    p.sign_up(p.name, PASSWORD)  # type: ignore[attr-defined]
    return p


def ok(r: Any) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def refused(r: Any, code: str) -> None:
    assert r.status_code >= 400, r.text
    assert r.json()["error"] == code, r.text


def listed(server: LiveServer, table: str) -> dict[str, Any] | None:
    tables = Player(server).http.get("/api/tables").json()["tables"]
    return next((t for t in tables if t["id"] == table), None)


def test_a_rated_table_fills_with_accounts_and_becomes_a_rated_game(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    t = ok(ann.post("/api/tables", {"players": 2, "rated": True}))
    shown = listed(server, t["table"])
    assert shown is not None and shown["free"] == 1 and shown["rated"]
    assert [s["name"] for s in shown["seats"]] == [ann.name]  # type: ignore[attr-defined]
    assert "token" not in json.dumps(shown)
    refused(Player(server).post(f"/api/tables/{t['table']}/sit", {"name": "Guest"}), "sign-in")
    refused(ann.post(f"/api/tables/{t['table']}/sit", {}), "already-seated")
    b = ok(bob.post(f"/api/tables/{t['table']}/sit", {}))
    assert b["seat"] == 1 and b["game"]
    assert listed(server, t["table"]) is None
    started = Player(server).http.get("/api/tables").json()["started"]
    assert {"table": t["table"], "game": b["game"]} in started
    game = ok(ann.http.get(f"/api/games/{b['game']}"))
    assert game["rated"] and [s["name"] for s in game["seats"]] == [ann.name, bob.name]  # type: ignore[attr-defined]
    # the token the page holds opens the seat (signed in: the game is rated); so does the
    # account alone, from anywhere
    seat = AccountSeat(server.ws_url, b["game"], ann.cookie_header(), {"token": t["token"]})
    assert seat.wait_view()["seat"] == 0
    seat.close()
    other = AccountSeat(server.ws_url, b["game"], bob.cookie_header(), {"seat": 1})
    assert other.wait_view()["seat"] == 1
    other.close()


def test_the_creator_starts_early_with_bots_and_the_game_is_not_rated(server: LiveServer) -> None:
    ann = person(server, "ann")
    t = ok(ann.post("/api/tables", {"players": 3}))
    g = ok(Player(server).post(f"/api/tables/{t['table']}/sit", {"name": "Gus"}))
    assert g["game"] is None
    refused(
        Player(server).post(f"/api/tables/{t['table']}/start", {"token": g["token"]}), "not-creator"
    )
    s = ok(ann.post(f"/api/tables/{t['table']}/start", {"token": t["token"]}))
    game = ok(ann.http.get(f"/api/games/{s['game']}"))
    assert not game["rated"]
    assert [x["kind"] for x in game["seats"]] == ["human", "human", "bot"]
    assert game["seats"][1]["name"] == "Gus"
    refused(Player(server).post(f"/api/tables/{t['table']}/sit", {}), "table-closed")


def test_a_table_for_people_only_cannot_start_with_bots(server: LiveServer) -> None:
    ann = person(server, "ann")
    t = ok(ann.post("/api/tables", {"players": 2, "allow_bots": False}))
    refused(ann.post(f"/api/tables/{t['table']}/start", {"token": t["token"]}), "no-bots")


def test_the_rating_range_and_blocks_keep_people_away(server: LiveServer) -> None:
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    t = ok(ann.post("/api/tables", {"players": 3, "min_rating": 1600}))
    refused(bob.post(f"/api/tables/{t['table']}/sit", {}), "rating-range")
    wrong = {"players": 2, "min_rating": 1600, "max_rating": 1400}
    refused(ann.post("/api/tables", wrong), "bad-range")
    # the range is in displayed ratings: a newcomer's is 1500
    t1 = ok(ann.post("/api/tables", {"players": 3, "min_rating": 1450, "max_rating": 1550}))
    ok(bob.post(f"/api/tables/{t1['table']}/sit", {}))
    t2 = ok(ann.post("/api/tables", {"players": 3}))
    ok(ann.post("/api/social/block", {"name": cy.name}))  # type: ignore[attr-defined]
    refused(cy.post(f"/api/tables/{t2['table']}/sit", {}), "blocked")
    ok(bob.post(f"/api/tables/{t2['table']}/sit", {}))
    assert listed(server, t2["table"])["free"] == 1  # type: ignore[index]


def test_leaving_and_expiry(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    t = ok(ann.post("/api/tables", {"players": 3}))
    b = ok(bob.post(f"/api/tables/{t['table']}/sit", {}))
    refused(bob.post(f"/api/tables/{t['table']}/leave", {"token": "x" * 20}), "bad-token")
    assert ok(bob.post(f"/api/tables/{t['table']}/leave", {"token": b["token"]}))["state"] == "open"
    assert listed(server, t["table"])["free"] == 2  # type: ignore[index]
    assert (
        ok(ann.post(f"/api/tables/{t['table']}/leave", {"token": t["token"]}))["state"] == "closed"
    )
    assert listed(server, t["table"]) is None
    meeting = server.app.state.hub.meeting
    meeting.table_seconds = 0.5
    try:
        t = ok(ann.post("/api/tables", {"players": 2}))
        time.sleep(2.5)  # the matchmaker's round expires it
        assert listed(server, t["table"]) is None
        refused(bob.post(f"/api/tables/{t['table']}/sit", {}), "table-closed")
    finally:
        meeting.table_seconds = 1800.0


def test_quick_match_pairs_two_accounts_in_a_rated_game(server: LiveServer) -> None:
    family = f"f{uuid.uuid4().hex[:4]}"  # unknown families are refused
    ann, bob = person(server, "ann"), person(server, "bob")
    refused(ann.post("/api/match", {"family": family}), "bad-family")
    refused(Player(server).post("/api/match", {"family": "classic"}), "sign-in")
    ta = ok(ann.post("/api/match", {"family": "galaxy", "players": 2, "pace": "turn"}))["token"]
    tb = ok(bob.post("/api/match", {"family": "galaxy", "players": 2, "pace": "turn"}))["token"]
    ma, mb = wait_match(ann), wait_match(bob)
    assert ma["game"] == mb["game"] and {ma["seat"], mb["seat"]} == {0, 1}
    game = ok(ann.http.get(f"/api/games/{ma['game']}"))
    assert game["rated"] and game["options"]["ruleset"] == "galaxy"
    assert game["clock"]["pace"]["kind"] == "turn"
    seat = AccountSeat(server.ws_url, ma["game"], ann.cookie_header(), {"token": ta})
    assert seat.wait_view()["seat"] == ma["seat"]
    seat.close()
    seat = AccountSeat(server.ws_url, mb["game"], bob.cookie_header(), {"token": tb})
    assert seat.wait_view()["seat"] == mb["seat"]
    seat.close()


def test_quick_match_never_pairs_blocked_accounts_and_a_bot_fills_in_time(
    server: LiveServer,
) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    ok(bob.post("/api/social/block", {"name": ann.name}))  # type: ignore[attr-defined]
    ok(ann.post("/api/match", {"family": "classic", "players": 4, "pace": "turn", "bot_after": 2}))
    ok(bob.post("/api/match", {"family": "classic", "players": 4, "pace": "turn", "bot_after": 2}))
    ma, mb = wait_match(ann), wait_match(bob)
    assert ma["game"] != mb["game"]
    game = ok(ann.http.get(f"/api/games/{ma['game']}"))
    assert not game["rated"]
    assert [s["kind"] for s in game["seats"]] == ["human", "bot", "bot", "bot"]
    assert ok(ann.post("/api/match/cancel"))["left"] is False  # matched already


def test_invitations_friends_and_blocks(server: LiveServer) -> None:
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    t = ok(ann.post("/api/tables", {"players": 2}))
    refused(
        ann.post(f"/api/tables/{t['table']}/invite", {"token": t["token"], "name": "nobody-here"}),
        "no-account",
    )
    ok(ann.post(f"/api/tables/{t['table']}/invite", {"token": t["token"], "name": bob.name}))  # type: ignore[attr-defined]
    me = ok(bob.http.get("/api/social"))
    assert [(i["table"], i["by"]) for i in me["invites"]] == [(t["table"], ann.name)]  # type: ignore[attr-defined]
    ok(cy.post("/api/social/block", {"name": ann.name}))  # type: ignore[attr-defined]
    refused(
        ann.post(f"/api/tables/{t['table']}/invite", {"token": t["token"], "name": cy.name}),
        "blocked",
    )  # type: ignore[attr-defined]
    assert ok(cy.http.get("/api/social"))["invites"] == []
    assert ok(cy.http.get("/api/social"))["blocked"] == [ann.name]  # type: ignore[attr-defined]
    ok(bob.post(f"/api/invites/{me['invites'][0]['id']}/decline"))
    assert ok(bob.http.get("/api/social"))["invites"] == []
    # friends: whom one follows, and who of them is online (connected to the lobby)
    ok(bob.post("/api/social/follow", {"name": ann.name}))  # type: ignore[attr-defined]
    assert ok(bob.http.get("/api/social"))["friends"] == [{"name": ann.name, "online": False}]  # type: ignore[attr-defined]
    with lobby(server, ann) as ws:
        ws.recv(10)
        friends = ok(bob.http.get("/api/social"))["friends"]
        assert friends == [{"name": ann.name, "online": True}]  # type: ignore[attr-defined]
    refused(bob.post("/api/social/follow", {"name": bob.name}), "self")  # type: ignore[attr-defined]
    refused(cy.post("/api/social/follow", {"name": ann.name}), "blocked")  # type: ignore[attr-defined]


def lobby(server: LiveServer, p: Player | None) -> Any:
    headers = {"Cookie": p.cookie_header()} if p is not None else None
    return connect(
        f"{server.ws_url}/ws/lobby",
        open_timeout=PATIENCE,
        additional_headers=headers,
        origin=server.url,
    )  # type: ignore[arg-type]


def frames_until(ws: Any, pred: Any, timeout: float = PATIENCE) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(max(0.01, deadline - time.monotonic())))
        if pred(m):
            return dict(m)


def test_the_lobby_socket_tells_tables_and_invitations_as_they_happen(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    with lobby(server, bob) as ws, lobby(server, None) as guest:
        assert json.loads(ws.recv(10))["type"] == "tables"
        assert json.loads(ws.recv(10))["type"] == "me"
        json.loads(guest.recv(10))
        t = ok(ann.post("/api/tables", {"players": 2}))
        has = lambda m: m["type"] == "tables" and any(x["id"] == t["table"] for x in m["tables"])  # noqa: E731
        frames_until(guest, has)
        frames_until(ws, has)
        ok(ann.post(f"/api/tables/{t['table']}/invite", {"token": t["token"], "name": bob.name}))  # type: ignore[attr-defined]
        me = frames_until(ws, lambda m: m["type"] == "me" and m["invites"])
        assert me["invites"][0]["by"] == ann.name  # type: ignore[attr-defined]
        guest.send(json.dumps({"type": "ping", "t": 7}))
        assert frames_until(guest, lambda m: m["type"] in ("pong", "error")) == {
            "type": "pong",
            "t": 7,
        }
        guest.send(json.dumps({"type": "chat", "text": "hi"}))
        assert frames_until(guest, lambda m: m["type"] == "error")["code"] == "lobby-pings-only"


def test_the_chat_of_a_blocked_account_is_hidden_for_the_blocker(server: LiveServer) -> None:
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    t = ok(ann.post("/api/tables", {"players": 3}))
    ok(bob.post(f"/api/tables/{t['table']}/sit", {}))
    game = ok(cy.post(f"/api/tables/{t['table']}/sit", {}))["game"]
    ok(ann.post("/api/social/block", {"name": cy.name}))  # type: ignore[attr-defined]
    seats = [
        AccountSeat(server.ws_url, game, p.cookie_header(), {"seat": i})
        for i, p in enumerate((ann, bob, cy))
    ]
    for s in seats:
        s.wait_view()
    seats[2].send({"type": "chat", "text": "from cy"})
    seats[1].send({"type": "chat", "text": "from bob"})

    def said(s: AccountSeat) -> list[str]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            s.try_recv(0.2)
        return [x["text"] for f in s.frames if f["type"] == "chat" for x in f["lines"]]

    assert sorted(said(seats[1])) == ["from bob", "from cy"]
    assert said(seats[0]) == ["from bob"]  # Ann blocked Cy: Cy's line never reaches her
    for s in seats:
        s.close()


def test_an_invitation_goes_by_e_mail_to_an_account_that_asked_for_e_mails(
    tmp_path: Any,
) -> None:
    box = Mailbox()
    box.controller.start()
    limits = Limits(games_per_minute=1000, sign_ups_per_client=1000)
    try:
        with LiveServer(
            data_dir=tmp_path,
            database_url=f"sqlite:///{tmp_path}/t.sqlite3",
            limits=limits,
            mail=box.settings("http://tne.test"),
        ) as srv:
            ann, bob, cy = person(srv, "ann"), person(srv, "bob"), person(srv, "cy")
            store = srv.app.state.hub.store
            for p, address in ((bob, "bob@example.org"), (cy, "cy@example.org")):
                account = store.accounts.by_name(p.name)  # type: ignore[attr-defined]
                store.notifications.set(account.id, address, True)
                if p is bob:
                    store.notifications.confirm(account.id, address)  # Cy never confirmed
            t = ok(ann.post("/api/tables", {"players": 3}))
            invite = f"/api/tables/{t['table']}/invite"
            sent = ok(ann.post(invite, {"token": t["token"], "name": bob.name}))  # type: ignore[attr-defined]
            assert sent["mailed"] is True
            assert ok(ann.post(invite, {"token": t["token"], "name": cy.name}))["mailed"] is False  # type: ignore[attr-defined]
    finally:
        box.controller.stop()
    assert [m["To"] for m in box.messages] == ["bob@example.org"]
    body = box.messages[0].get_content()
    assert ann.name in box.messages[0]["Subject"]  # type: ignore[attr-defined]
    assert f"http://tne.test/?table={t['table']}" in body
    assert t["token"] not in body


def test_a_table_sends_a_bounded_number_of_invitations(server: LiveServer) -> None:
    ann = person(server, "ann")
    store = server.app.state.hub.store
    names = [f"inv{uuid.uuid4().hex[:8]}" for _ in range(13)]
    for name in names:
        store.accounts.create(name, "not a real hash")
    t = ok(ann.post("/api/tables", {"players": 4}))
    invite = f"/api/tables/{t['table']}/invite"
    for name in names[:12]:
        ok(ann.post(invite, {"token": t["token"], "name": name}))
    r = ann.post(invite, {"token": t["token"], "name": names[12]})
    assert r.status_code == 429 and r.json()["error"] == "too-many-invites"


def test_a_stopping_process_tells_the_lobby_to_connect_again(tmp_path: Any) -> None:
    """SIGTERM: the lobby's sockets are closed with 1012 ("service restart"), which the page
    answers by connecting again (to another process behind a load balancer)."""
    with (
        ServerProcess(tmp_path) as srv,
        connect(f"{srv.ws_url}/ws/lobby", open_timeout=PATIENCE) as ws,
    ):
        assert json.loads(ws.recv(10))["type"] == "tables"
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(20)
        assert ws.close_code == 1012
        assert srv.proc.wait(30) in (0, -15)  # uvicorn ends by its signal once it stopped


def play_now(p: Player, pace: str = "realtime") -> Any:
    return p.post("/api/match", {"family": "classic", "players": 2, "pace": pace})


def test_five_quick_matches_in_a_row_each_a_new_game_and_the_lobby_follows(
    server: LiveServer,
) -> None:
    """Play now, open the game, end it, Play now again: five times, five new games, and the
    account's corner tells each new match (never the old one)."""
    ann, bob = person(server, "ann"), person(server, "bob")
    games: list[str] = []
    for _ in range(5):
        ok(play_now(ann))
        ok(play_now(bob))
        ma, mb = wait_match(ann), wait_match(bob)
        assert ma["game"] == mb["game"] and ma["game"] not in games
        games.append(ma["game"])
        # a second Play now while matched (a double click, another tab) makes no second game
        refused(play_now(ann), "in-game")
        seats = [
            AccountSeat(server.ws_url, m["game"], p.cookie_header(), {"seat": m["seat"]})
            for p, m in ((ann, ma), (bob, mb))
        ]
        for s in seats:
            s.wait_view()
        # opened: seated, so no lobby takes them to this game again; it is in progress
        assert ok(ann.http.get("/api/match"))["match"]["state"] == "seated"
        corner = ok(ann.http.get("/api/lobby/me"))
        assert [g["game"] for g in corner["playing"]] == [ma["game"]]
        assert corner["playing"][0]["my_turn"] == (ma["seat"] == 0)  # the first seat starts
        # a real-time game in progress: no other quick match meanwhile
        refused(play_now(ann, "turn"), "in-game")
        loser = seats[0] if ma["seat"] == 0 else seats[1]
        loser.send({"type": "resign"})
        loser.wait_view(lambda v: v["view"]["over"] or bool(v.get("aborted")))
        for s in seats:
            s.close()
        deadline = time.monotonic() + 10
        while ok(ann.http.get("/api/match"))["match"] is not None:
            assert time.monotonic() < deadline, "the match of a game over is still shown"
            time.sleep(0.1)
        assert ok(ann.http.get("/api/lobby/me"))["playing"] == []
    assert len(set(games)) == 5


def test_a_double_join_is_one_wait_and_one_game(server: LiveServer) -> None:
    """Two Play now of one account at the same moment (a double click, two tabs) are one
    place in the queue: its partner and it meet once, in one game."""
    ann, bob = person(server, "ann"), person(server, "bob")
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda p: play_now(p, "turn"), [ann, ann, bob, bob]))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    ma, mb = wait_match(ann), wait_match(bob)
    assert ma["game"] == mb["game"]
    time.sleep(2.5)  # two more rounds of the matchmaker: nothing else is made of them
    for p in (ann, bob):
        mine = [g for g in ok(p.http.get("/api/account/games"))["games"]]
        assert [g["id"] for g in mine] == [ma["game"]]


def test_a_rated_rematch_stays_rated_with_its_clock_and_the_next_seat_starts(
    server: LiveServer,
) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    ok(play_now(ann))
    ok(play_now(bob))
    ma, mb = wait_match(ann), wait_match(bob)
    gid = ma["game"]
    first = ok(ann.http.get(f"/api/games/{gid}"))
    assert first["rated"] and first["clock"]["pace"]["kind"] == "realtime"
    by_seat = {ma["seat"]: ann, mb["seat"]: bob}
    seats = {
        s: AccountSeat(server.ws_url, gid, p.cookie_header(), {"seat": s})
        for s, p in by_seat.items()
    }
    play_first_turns([seats[0], seats[1]])  # a rated result: past every seat's first turn
    seats[1].send({"type": "resign"})
    seats[0].wait_view(lambda v: v["view"]["over"])
    new = ok(ann.post(f"/api/games/{gid}/rematch", {}))["id"]  # as the account: no token
    for s in seats.values():
        s.close()
    refused(person(server, "cy").post(f"/api/games/{gid}/rematch", {}), "not-your-seat")
    again = ok(bob.post(f"/api/games/{gid}/rematch", {}))
    assert again["id"] == new
    fresh = ok(ann.http.get(f"/api/games/{new}"))
    assert fresh["rated"], fresh
    assert fresh["clock"]["pace"] == first["clock"]["pace"]
    # rotated: the old seat 1 starts; each account holds its new seat, from anywhere
    names = [s["name"] for s in first["seats"]]
    assert [s["name"] for s in fresh["seats"]] == [names[1], names[0]]
    opened = AccountSeat(server.ws_url, new, by_seat[1].cookie_header(), {"seat": 0})
    assert opened.wait_view()["seat"] == 0
    opened.close()


def test_the_lobby_is_told_when_the_turn_comes_and_when_the_game_ends(server: LiveServer) -> None:
    """A player waiting in the lobby sees *your turn* come to their game in progress the
    moment the other player ends their turn, and the game leave the list when it ends."""
    ann, bob = person(server, "ann"), person(server, "bob")
    ok(play_now(ann, "turn"))
    ok(play_now(bob, "turn"))
    ma = wait_match(ann)
    wait_match(bob)
    first, second = (ann, bob) if ma["seat"] == 0 else (bob, ann)
    seats = [
        AccountSeat(server.ws_url, ma["game"], p.cookie_header(), {"seat": s})
        for s, p in ((0, first), (1, second))
    ]
    for s in seats:
        s.wait_view()
    with lobby(server, second) as ws:
        mine = lambda m: m["type"] == "me" and m["playing"]  # noqa: E731
        assert frames_until(ws, mine)["playing"][0]["my_turn"] is False
        play_first_turns(seats, passes=1)  # the first seat's turn ends: the second's comes
        turn = frames_until(ws, lambda m: mine(m) and m["playing"][0]["my_turn"])
        assert turn["playing"][0]["game"] == ma["game"]
        seats[0].send({"type": "resign"})
        gone = frames_until(ws, lambda m: m["type"] == "me" and not m["playing"])
        assert gone["match"] is None
    for s in seats:
        s.close()
