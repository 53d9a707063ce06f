"""Direct challenges between people through real HTTP and the lobby's socket, on SQLite and
on the real PostgreSQL: a challenge accepted makes one game for both (however often it is
accepted), a decline, a cancellation and an expiry are told to the challenger's lobby,
blocks refuse and cancel challenges, a challenger has few challenges waiting, bot accounts
are not challenged here, a game of three waits for both invited people; the invitation and
challenge e-mails an account receives are limited together. And the lobby's signs of
life: people online, the open seeks of quick match, the games under way to watch and the
best of them."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import update
from websockets.sync.client import connect

from accounting import AccountSeat, play_first_turns, wait_match
from mailing import Mailbox
from support.serving import PATIENCE, LiveServer, Player, live_server_on
from tigris_euphrates.server.limits import Limits

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("direct")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    yield from live_server_on(request.param, data, stem="d", limits=limits)


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


def named(p: Player) -> str:
    return str(p.name)  # type: ignore[attr-defined]


def challenge(by: Player, *to: Player, **body: Any) -> dict[str, Any]:
    made = ok(by.post("/api/direct", {"to": [named(p) for p in to], **body}))
    return dict(made["challenge"])


def listed(p: Player, challenge_id: str) -> dict[str, Any] | None:
    found = ok(p.http.get("/api/direct"))["challenges"]
    return next((c for c in found if c["id"] == challenge_id), None)


def test_an_accepted_challenge_makes_one_game_for_both(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    pace = {"kind": "turn", "base": 86400, "level": "easy"}
    c = challenge(ann, bob, rated=True, pace=pace, options={"ruleset": "classic"})
    assert c["state"] == "open" and c["mine"] and c["players"] == 2
    seen = listed(bob, c["id"])
    assert seen is not None and seen["by"] == named(ann) and not seen["mine"]
    assert seen["invitees"] == [{"name": named(bob), "answer": "waiting"}]
    refused(ann.post(f"/api/direct/{c['id']}/accept"), "not-invited")
    refused(Player(server).post(f"/api/direct/{c['id']}/accept"), "sign-in")
    done = ok(bob.post(f"/api/direct/{c['id']}/accept"))
    game = done["game"]
    assert game and done["link"] == f"/game/{game}"
    # a second tab accepting again is shown the same game: one game only
    assert ok(bob.post(f"/api/direct/{c['id']}/accept"))["game"] == game
    info = ok(ann.http.get(f"/api/games/{game}"))
    assert info["rated"] and info["clock"]["pace"]["kind"] == "turn"
    assert sorted(s["name"] for s in info["seats"]) == sorted([named(ann), named(bob)])
    both = listed(ann, c["id"])
    assert both is not None and both["state"] == "accepted" and both["game"] == game
    # each account opens its own seat, from anywhere
    seats = ok(bob.http.get(f"/api/account/seats/{game}"))["seats"]
    assert len(seats) == 1
    refused(bob.post(f"/api/direct/{c['id']}/decline"), "challenge-closed")


def test_a_decline_and_a_cancellation_are_told_to_the_challenger(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    with lobby(server, ann) as ws:
        frames_until(ws, lambda m: m["type"] == "me")
        c = challenge(ann, bob)
        frames_until(
            ws, lambda m: m["type"] == "me" and any(x["id"] == c["id"] for x in m["challenges"])
        )
        ok(bob.post(f"/api/direct/{c['id']}/decline"))
        told = frames_until(
            ws,
            lambda m: (
                m["type"] == "me"
                and any(x["id"] == c["id"] and x["state"] == "declined" for x in m["challenges"])
            ),
        )
        shown = next(x for x in told["challenges"] if x["id"] == c["id"])
        assert shown["closed_by"] == named(bob)
    refused(bob.post(f"/api/direct/{c['id']}/accept"), "challenge-closed")
    # the challenger cancels: the challenge leaves the invited person's lobby
    c2 = challenge(ann, bob)
    assert listed(bob, c2["id"]) is not None
    assert ok(ann.post(f"/api/direct/{c2['id']}/decline"))["challenge"]["state"] == "cancelled"
    assert listed(bob, c2["id"]) is None
    refused(bob.post(f"/api/direct/{c2['id']}/accept"), "challenge-closed")
    refused(Player(server).post("/api/direct/0123456789ab/accept"), "sign-in")
    refused(bob.post("/api/direct/0123456789ab/accept"), "no-challenge")


def test_an_expired_challenge_is_told_to_the_challenger(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    store = server.app.state.hub.store
    with lobby(server, ann) as ws:
        c = challenge(ann, bob)
        t = store.db.tables.direct_challenges
        with store.db.engine.begin() as conn:
            conn.execute(update(t).where(t.c.id == c["id"]).values(expires=time.time() - 1))
        # each process expires the challenges past their time every few seconds
        frames_until(
            ws,
            lambda m: (
                m["type"] == "me"
                and any(x["id"] == c["id"] and x["state"] == "expired" for x in m["challenges"])
            ),
        )
    refused(bob.post(f"/api/direct/{c['id']}/accept"), "challenge-closed")


def test_blocks_refuse_a_challenge_and_end_one_waiting(server: LiveServer) -> None:
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    ok(bob.post("/api/social/block", {"name": named(ann)}))
    r = ann.post("/api/direct", {"to": [named(bob)]})
    refused(r, "blocked")
    assert r.status_code == 403
    refused(bob.post("/api/direct", {"to": [named(ann)]}), "blocked")
    # three players: two of whom block each other never sit at one table
    refused(cy.post("/api/direct", {"to": [named(ann), named(bob)]}), "blocked")
    c = challenge(ann, cy)
    ok(cy.post("/api/social/block", {"name": named(ann)}))
    assert listed(ann, c["id"])["state"] == "cancelled"  # type: ignore[index]
    refused(cy.post(f"/api/direct/{c['id']}/accept"), "challenge-closed")


def test_bad_challenges_are_refused_and_change_nothing(server: LiveServer) -> None:
    ann, bob = person(server, "ann"), person(server, "bob")
    refused(ann.post("/api/direct", {"to": [named(ann)]}), "self")
    refused(ann.post("/api/direct", {"to": ["nobody" + uuid.uuid4().hex[:6]]}), "no-account")
    refused(ann.post("/api/direct", {"to": [named(bob), named(bob)]}), "bad-players")
    refused(
        ann.post("/api/direct", {"to": [named(bob)], "options": {"ruleset": "x"}}), "bad-options"
    )
    refused(ann.post("/api/direct", {"to": []}), "bad-request")
    refused(ann.post("/api/direct", {"to": [named(bob)]}, csrf=False), "csrf")
    bot = person(server, "bot")
    ok(bot.post("/api/account/bot", {"confirm": True}))
    refused(ann.post("/api/direct", {"to": [named(bot)]}), "bot-account")
    refused(bot.post("/api/direct", {"to": [named(ann)]}), "bot-account")
    assert ok(bob.http.get("/api/direct"))["challenges"] == []


def test_a_challenger_has_few_challenges_waiting(server: LiveServer) -> None:
    ann = person(server, "ann")
    others = [person(server, "p") for _ in range(4)]
    made = [challenge(ann, p) for p in others[:3]]
    r = ann.post("/api/direct", {"to": [named(others[3])]})
    refused(r, "too-many-challenges")
    assert r.status_code == 429
    ok(ann.post(f"/api/direct/{made[0]['id']}/decline"))  # a cancelled one no longer counts
    challenge(ann, others[3])


def test_a_game_of_three_waits_for_both_invited_people(server: LiveServer) -> None:
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    c = challenge(ann, bob, cy)
    assert c["players"] == 3
    first = ok(bob.post(f"/api/direct/{c['id']}/accept"))
    assert first["game"] is None
    answers = {i["name"]: i["answer"] for i in first["challenge"]["invitees"]}
    assert answers == {named(bob): "accepted", named(cy): "waiting"}
    game = ok(cy.post(f"/api/direct/{c['id']}/accept"))["game"]
    info = ok(ann.http.get(f"/api/games/{game}"))
    assert sorted(s["name"] for s in info["seats"]) == sorted(named(p) for p in (ann, bob, cy))
    assert not info["rated"]


def test_the_lobby_shows_people_online_seeks_and_games_to_watch(server: LiveServer) -> None:
    ann, bob, dee = person(server, "ann"), person(server, "bob"), person(server, "dee")
    c = challenge(ann, bob, rated=True)
    game = ok(bob.post(f"/api/direct/{c['id']}/accept"))["game"]
    with lobby(server, dee) as dees:
        # Dee's lobby is attached (its activity sent after Dee was written online) before
        # the guest's connects
        frames_until(dees, lambda m: m["type"] == "activity")
        with lobby(server, None) as guest:
            first = frames_until(guest, lambda m: m["type"] == "activity")
            assert first["online"] >= 1  # Dee's lobby, connected first
            watch = next(g for g in first["games"] if g["game"] == game)
            assert sorted(s["name"] for s in watch["seats"]) == sorted([named(ann), named(bob)])
            assert watch["rated"] and first["best"] is not None and first["best"]["rated"]
            ok(dee.post("/api/match", {"family": "classic", "players": 3, "pace": "turn"}))
            seeks = frames_until(
                guest,
                lambda m: (
                    m["type"] == "activity" and any(s["name"] == named(dee) for s in m["seeks"])
                ),
            )
            mine = next(s for s in seeks["seeks"] if s["name"] == named(dee))
            assert (mine["family"], mine["players"], mine["pace"]) == ("classic", 3, "turn")
            assert "token" not in json.dumps(seeks)
            ok(dee.post("/api/match/cancel"))
            frames_until(
                guest,
                lambda m: (
                    m["type"] == "activity" and not any(s["name"] == named(dee) for s in m["seeks"])
                ),
            )


def test_a_real_time_game_made_elsewhere_ends_the_quick_match_wait(server: LiveServer) -> None:
    """A person waiting in quick match who accepts a real-time challenge, or whose open
    table starts a real-time game, waits no more: the matchmaker never pairs them into a
    second game beside it. A turn-based game leaves the wait as it was."""
    people = (person(server, s) for s in ("ann", "bob", "cy", "dee", "eve", "fay"))
    ann, bob, cy, dee, eve, fay = people
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    realtime = {"kind": "realtime", "base": 600, "increment": 10}
    ok(bob.post("/api/match", wish))
    turn = challenge(ann, bob, pace={"kind": "turn", "base": 86400, "level": "easy"})
    ok(bob.post(f"/api/direct/{turn['id']}/accept"))
    assert ok(bob.http.get("/api/match"))["match"]["state"] == "waiting"
    c = challenge(ann, bob, pace=realtime)
    game = ok(bob.post(f"/api/direct/{c['id']}/accept"))["game"]
    assert ok(bob.http.get("/api/match"))["match"] is None
    # an open table's game: Cy waits, then takes the last seat of Dee's real-time table;
    # Cy's other tab, in the lobby, is told the wait is over
    ok(cy.post("/api/match", wish))
    table = ok(dee.post("/api/tables", {"players": 2, "pace": realtime}))
    with lobby(server, cy) as tab:
        frames_until(tab, lambda m: m["type"] == "me" and m["match"] is not None)
        assert ok(cy.post(f"/api/tables/{table['table']}/sit", {}))["game"]
        frames_until(tab, lambda m: m["type"] == "me" and m["match"] is None)
    assert ok(cy.http.get("/api/match"))["match"] is None
    # the next people looking for that game meet each other, not Bob nor Cy
    ok(eve.post("/api/match", wish))
    ok(fay.post("/api/match", wish))
    mine = ok(eve.http.get(f"/api/games/{wait_match(eve)['game']}"))
    assert sorted(s["name"] for s in mine["seats"]) == sorted([named(eve), named(fay)])
    games = ok(bob.http.get("/api/account/games"))["games"]
    assert game in [g["id"] for g in games] and len(games) == 2
    # while that real-time game goes on, Play now is refused as it is in a quick match's
    refused(bob.post("/api/match", wish), "in-game")
    assert ok(bob.http.get("/api/match"))["match"] is None


def resigned_real_time_game(server: LiveServer, ann: Player, bob: Player) -> str:
    """A rated real-time game of Ann's challenge to Bob, past its opening, that Bob
    resigned; its id."""
    c = challenge(ann, bob, rated=True, pace={"kind": "realtime", "base": 600, "increment": 10})
    game = ok(bob.post(f"/api/direct/{c['id']}/accept"))["game"]
    names = [s["name"] for s in ok(ann.http.get(f"/api/games/{game}"))["seats"]]
    seats = {
        names.index(named(p)): AccountSeat(
            server.ws_url, game, p.cookie_header(), {"seat": names.index(named(p))}
        )
        for p in (ann, bob)
    }
    play_first_turns([seats[0], seats[1]])
    seats[names.index(named(bob))].send({"type": "resign"})
    for s in seats.values():
        s.wait_view(lambda v: v["view"]["over"])
        s.close()
    return str(game)


def test_a_rematch_made_while_waiting_keeps_the_matchmaker_away(server: LiveServer) -> None:
    """Bob asks for a new opponent after a rated real-time game; Ann asks for the rematch,
    which binds Bob's seat: while it goes on the matchmaker pairs the next seekers with each
    other, never Bob into a second game."""
    ann, bob, cy, dee = (person(server, s) for s in ("ann", "bob", "cy", "dee"))
    game = resigned_real_time_game(server, ann, bob)
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    ok(bob.post("/api/match", wish))  # New opponent
    rematch = ok(ann.post(f"/api/games/{game}/rematch", {}))["id"]
    ok(cy.post("/api/match", wish))
    ok(dee.post("/api/match", wish))
    mine = ok(cy.http.get(f"/api/games/{wait_match(cy)['game']}"))
    assert sorted(s["name"] for s in mine["seats"]) == sorted([named(cy), named(dee)])
    games = [g["id"] for g in ok(bob.http.get("/api/account/games"))["games"]]
    assert sorted(games) == sorted([game, rematch])
    assert ok(bob.http.get("/api/match"))["match"]["state"] == "waiting"
    ok(bob.post("/api/match/cancel"))


def test_no_real_time_rematch_while_the_other_player_plays_a_new_opponent(
    server: LiveServer,
) -> None:
    """Bob found a new opponent in real time; Ann's rematch of their rated real-time game
    is refused (``in-game``) and makes nothing while Bob plays."""
    ann, bob, cy = (person(server, s) for s in ("ann", "bob", "cy"))
    game = resigned_real_time_game(server, ann, bob)
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    ok(bob.post("/api/match", wish))
    ok(cy.post("/api/match", wish))
    busy = wait_match(bob)["game"]
    refused(ann.post(f"/api/games/{game}/rematch", {}), "in-game")
    assert sorted(g["id"] for g in ok(bob.http.get("/api/account/games"))["games"]) == sorted(
        [busy, game]
    )
    assert [g["id"] for g in ok(ann.http.get("/api/account/games"))["games"]] == [game]


def test_a_real_time_challenge_waits_while_a_player_is_in_a_real_time_game(
    server: LiveServer,
) -> None:
    """Ann challenged Bob, then found a real-time quick match: Bob's acceptance is refused
    (``in-game``) and changes nothing while Ann plays; a turn-based one is accepted."""
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    c = challenge(ann, bob, pace={"kind": "realtime", "base": 600, "increment": 10})
    slow = challenge(ann, bob, pace={"kind": "turn", "base": 86400, "level": "easy"})
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    ok(ann.post("/api/match", wish))
    ok(cy.post("/api/match", wish))
    busy = wait_match(ann)["game"]
    refused(bob.post(f"/api/direct/{c['id']}/accept"), "in-game")
    still = listed(bob, c["id"])
    assert still is not None and still["state"] == "open"
    games = [g["id"] for g in ok(ann.http.get("/api/account/games"))["games"]]
    assert games == [busy]
    assert ok(bob.post(f"/api/direct/{slow['id']}/accept"))["game"]


def test_a_real_time_table_does_not_start_while_a_seated_player_plays_elsewhere(
    server: LiveServer,
) -> None:
    """Ann waits at her real-time table and finds a real-time quick match meanwhile: the
    seat that would fill her table is refused (``in-game``) and the table stays open, so
    Ann is never in two real-time games."""
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    realtime = {"kind": "realtime", "base": 600, "increment": 10}
    table = ok(ann.post("/api/tables", {"players": 2, "pace": realtime}))
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    ok(ann.post("/api/match", wish))
    ok(cy.post("/api/match", wish))
    busy = wait_match(ann)["game"]
    refused(bob.post(f"/api/tables/{table['table']}/sit", {}), "in-game")
    assert [g["id"] for g in ok(ann.http.get("/api/account/games"))["games"]] == [busy]
    assert ok(bob.http.get("/api/account/games"))["games"] == []
    shown = ok(ann.http.get("/api/tables"))["tables"]
    assert [t["free"] for t in shown if t["id"] == table["table"]] == [1]


#: What no lobby frame carries: hands, the bag, scores, seeds, secret tokens, positions.
HIDDEN = {"hand", "hands", "bag", "score", "scores", "seed", "token", "tokens", "position"}


def keys_of(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys_of(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_of(v)}
    return set()


def test_the_lobby_frames_show_nothing_hidden_of_a_game_under_way(server: LiveServer) -> None:
    """A rated game under way with hidden scores, its players' scores moved: the activity
    a guest's lobby is sent and the corner of a player's lobby name the game, its people and
    their ratings, never a hand, a score, the bag, the seed or a token."""
    ann, bob, cy = person(server, "ann"), person(server, "bob"), person(server, "cy")
    c = challenge(ann, bob, rated=True)
    game = ok(bob.post(f"/api/direct/{c['id']}/accept"))["game"]
    names = [s["name"] for s in ok(ann.http.get(f"/api/games/{game}"))["seats"]]
    seats = sorted(
        (
            AccountSeat(server.ws_url, game, p.cookie_header(), {"seat": names.index(named(p))})
            for p in (ann, bob)
        ),
        key=lambda s: s.wait_view()["seat"],
    )
    play_first_turns(seats)
    ok(cy.post("/api/match", {"family": "classic", "players": 4, "pace": "turn"}))
    try:
        with lobby(server, None) as guest, lobby(server, ann) as mine:
            seen = frames_until(
                guest,
                lambda m: (
                    m["type"] == "activity"
                    and any(g["game"] == game for g in m["games"])
                    and any(s["name"] == named(cy) for s in m["seeks"])
                ),
            )
            corner = frames_until(mine, lambda m: m["type"] == "me" and m["playing"])
    finally:
        ok(cy.post("/api/match/cancel"))
        for s in seats:
            s.close()
    assert not keys_of(seen) & HIDDEN, keys_of(seen) & HIDDEN
    assert not keys_of(corner) & HIDDEN, keys_of(corner) & HIDDEN
    assert game in json.dumps(corner["playing"])


def test_invitation_and_challenge_e_mails_are_limited_together(tmp_path: Any) -> None:
    box = Mailbox()
    box.controller.start()
    limits = Limits(games_per_minute=1000, sign_ups_per_client=1000, invite_emails_per_account=3)
    try:
        with LiveServer(
            data_dir=tmp_path,
            database_url=f"sqlite:///{tmp_path}/t.sqlite3",
            limits=limits,
            mail=box.settings("http://tne.test"),
        ) as srv:
            ann, bob, cy = person(srv, "ann"), person(srv, "bob"), person(srv, "cy")
            store = srv.app.state.hub.store
            account = store.accounts.by_name(named(bob))
            store.notifications.set(account.id, "bob@example.org", True)
            store.notifications.confirm(account.id, "bob@example.org")
            first = ok(ann.post("/api/direct", {"to": [named(bob)]}))
            assert first["mailed"] == [named(bob)]
            assert ok(ann.post("/api/direct", {"to": [named(bob)]}))["mailed"] == [named(bob)]
            t = ok(cy.post("/api/tables", {"players": 3}))
            invite = f"/api/tables/{t['table']}/invite"
            assert ok(cy.post(invite, {"token": t["token"], "name": named(bob)}))["mailed"]
            # the fourth of the hour is shown in Bob's lobby, not sent
            late = ok(cy.post("/api/direct", {"to": [named(bob)]}))
            assert late["mailed"] == []
            assert listed(bob, late["challenge"]["id"]) is not None
    finally:
        box.controller.stop()
    assert [m["To"] for m in box.messages] == ["bob@example.org"] * 3
    body = box.messages[0].get_content()
    assert named(ann) in box.messages[0]["Subject"]
    assert f"http://tne.test/?challenge={first['challenge']['id']}" in body
