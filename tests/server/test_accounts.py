"""Accounts through real HTTP and websockets, on SQLite and on the real PostgreSQL: sign up
and in, cookie flags, CSRF, rate limits, no account enumeration, sign out everywhere, guests
claiming their games, seats opened from any browser of the account, rated games, the
leaderboard, profiles and the CSV export."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, CountingHasher, play_to_end
from support.serving import LiveServer, Player, postgres_or_skip
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("accounts")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    # the tests' requests come from loopback, as from a proxy there (Secure cookies behind https)
    proxy = "127.0.0.1"
    if request.param == "sqlite":
        with LiveServer(
            data_dir=data,
            database_url=f"sqlite:///{data}/t.sqlite3",
            limits=limits,
            forwarded_allow_ips=proxy,
        ) as srv:
            yield srv
        return
    url = postgres_or_skip()
    prefix = f"a{uuid.uuid4().hex[:10]}_"
    try:
        with LiveServer(
            data_dir=data,
            database_url=url,
            table_prefix=prefix,
            limits=limits,
            forwarded_allow_ips=proxy,
        ) as srv:
            yield srv
    finally:
        Store(url, prefix).drop_all()


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:6]}"


def service(server: LiveServer) -> Any:
    return server.app.state.accounts


def test_sign_up_sets_a_signed_httponly_samesite_cookie(server: LiveServer) -> None:
    ann = Player(server)
    assert ann.me() is None
    name = unique("Ann")
    r = ann.post("/api/account/signup", {"name": name, "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"]["name"] == name
    cookie = next(
        v for k, v in r.headers.multi_items() if k == "set-cookie" and "tne_session=" in v
    )
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags  # plain http here; https gets Secure (see the next test)
    assert ann.me()["name"] == name
    # the same account from another browser; a changed cookie is no session at all
    other = Player(server)
    assert other.sign_in(name.upper(), PASSWORD).status_code == 200
    assert other.me()["name"] == name
    forged = httpx.get(
        f"{server.url}/api/account",
        cookies={"tne_session": ann.http.cookies["tne_session"][:-2] + "xx"},
    )
    assert forged.json()["account"] is None
    # the name is taken, whatever its case
    taken = Player(server).post("/api/account/signup", {"name": name.lower(), "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["error"] == "name-taken"
    # bad names and short passwords are refused with a reason, and nothing is created
    for body in ({"name": "a", "password": PASSWORD}, {"name": unique("Cy"), "password": "short"}):
        r = Player(server).post("/api/account/signup", body)
        assert r.status_code == 422 and (
            "name" in r.json()["message"] or "password" in r.json()["message"]
        )
    for p in (ann, other):
        p.close()


def test_cookies_are_secure_over_https(server: LiveServer) -> None:
    """Behind an https proxy (the server trusts the local proxy's X-Forwarded-Proto: the
    setting ``forwarded_allow_ips``) the
    cookies are Secure: a browser never sends them over plain http."""
    https = {"X-Forwarded-Proto": "https"}
    with httpx.Client(base_url=server.url, headers=https) as client:
        csrf = client.get("/api/account")
        assert "secure" in [x.strip().lower() for x in csrf.headers["set-cookie"].split(";")]
        token = csrf.json()["csrf"]
        client.cookies.set("tne_csrf", token)  # a Secure cookie: not kept over http
        r = client.post(
            "/api/account/signup",
            json={"name": unique("Tls"), "password": PASSWORD},
            headers={"X-CSRF-Token": token},
        )
        assert r.status_code == 200, r.text
        session = next(v for k, v in r.headers.multi_items() if "tne_session=" in v)
        assert "secure" in [part.strip().lower() for part in session.split(";")]


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(server: LiveServer) -> None:
    p = Player(server)
    name = unique("Csrf")
    body = {"name": name, "password": PASSWORD}
    r = p.post("/api/account/signup", body, csrf=False)
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    r = p.http.post("/api/account/signup", json=body, headers={"X-CSRF-Token": "x" + p.csrf})
    assert r.status_code == 403
    # a token the server did not sign, in the cookie and the header alike
    forged = httpx.Client(base_url=server.url, cookies={"tne_csrf": "made-up"})
    r = forged.post("/api/account/signup", json=body, headers={"X-CSRF-Token": "made-up"})
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    assert p.sign_in(name, PASSWORD).json()["error"] == "sign-in-failed"  # never created
    p.sign_up(name, PASSWORD)
    for path in ("/api/account/signout", "/api/account/signout-everywhere"):
        assert p.post(path, csrf=False).status_code == 403
    assert p.me()["name"] == name  # still signed in
    p.close()
    forged.close()


def test_no_account_enumeration(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown name and a wrong password get the same answer, and both check a password
    hash (the unknown name a dummy one): the same work, so the same time."""
    name = unique("Enum")
    Player(server).sign_up(name, PASSWORD)
    passwords = service(server).passwords
    counting = CountingHasher(passwords.hasher)
    monkeypatch.setattr(passwords, "hasher", counting)
    p = Player(server)
    wrong = p.sign_in(name, "not the password")
    unknown = p.sign_in(unique("Nobody"), "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {"error": "sign-in-failed", "message": "wrong name or password"}
    )
    assert counting.verified == 2
    assert p.sign_in(name, PASSWORD).status_code == 200 and counting.verified == 3
    p.close()


def test_wrong_passwords_are_rate_limited(server: LiveServer) -> None:
    name = unique("Limit")
    Player(server).sign_up(name, PASSWORD)
    p = Player(server)
    for _ in range(5):
        assert p.sign_in(name, "wrong password").status_code == 401
    r = p.sign_in(name, PASSWORD)  # even the right password, from now on
    assert r.status_code == 429 and "too many failed sign-ins" in r.json()["message"]
    assert int(r.headers["Retry-After"]) > 0
    assert p.me() is None
    # an unknown name is limited the same way (no enumeration through the limits)
    ghost = unique("Ghost")
    answers = [p.sign_in(ghost, "wrong password").status_code for _ in range(6)]
    assert answers == [401] * 5 + [429]
    p.close()


def test_sign_ups_are_limited_per_client(tmp_path) -> None:
    limits = Limits(sign_ups_per_client=2)
    with LiveServer(
        data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/u.sqlite3", limits=limits
    ) as srv:
        p = Player(srv)
        p.sign_up("First", PASSWORD)
        p.sign_up("Second", PASSWORD)
        r = p.post("/api/account/signup", {"name": "Third", "password": PASSWORD})
        assert r.status_code == 429 and "new accounts an hour" in r.json()["message"]
        assert p.sign_in("Third", PASSWORD).status_code == 401  # not created


def test_failed_sign_ins_are_limited_per_client(tmp_path) -> None:
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/c.sqlite3") as srv:
        Player(srv).sign_up("Victim", PASSWORD)
        p = Player(srv)
        for i in range(20):  # a different name each time: only the client limit counts
            assert p.sign_in(f"Name{i}", "wrong password").status_code == 401
        r = p.sign_in("Victim", PASSWORD)
        assert r.status_code == 429 and r.json()["error"] == "rate-limited"


def test_sign_out_and_sign_out_everywhere(server: LiveServer) -> None:
    name = unique("Out")
    home, phone = Player(server), Player(server)
    home.sign_up(name, PASSWORD)
    assert phone.sign_in(name, PASSWORD).status_code == 200
    stolen = home.http.cookies["tne_session"]
    assert home.post("/api/account/signout").status_code == 200 and home.me() is None
    assert phone.me()["name"] == name  # signing out here ends this browser's session only
    assert home.sign_in(name, PASSWORD).status_code == 200
    assert phone.post("/api/account/signout-everywhere").status_code == 200
    assert phone.me() is None and home.me() is None
    # an old cookie, copied before, opens nothing any more
    assert (
        httpx.get(f"{server.url}/api/account", cookies={"tne_session": stolen}).json()["account"]
        is None
    )
    assert home.sign_in(name, PASSWORD).status_code == 200 and home.me()["name"] == name
    home.close()
    phone.close()


def guest_game(server: LiveServer, **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    r = httpx.post(f"{server.url}/api/games", json={"seats": seats, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_guest_claims_their_games_and_opens_them_from_any_browser(server: LiveServer) -> None:
    g = guest_game(server)
    token = g["seats"][0]["token"]
    name = unique("Guest")
    p = Player(server)
    # the browser's tokens: its own seat, a made-up one, and a game that does not exist
    seats = [
        {"game": g["id"], "token": token},
        {"game": g["id"], "token": "not-a-token"},
        {"game": "0123456789ab", "token": token},
    ]
    out = p.sign_up(name, PASSWORD, seats)
    assert out["claimed"] == [{"game": g["id"], "seat": 0}]
    games = p.http.get("/api/account/games").json()["games"]
    assert [(x["id"], x["seat"], x["my_turn"]) for x in games] == [(g["id"], 0, True)]
    # another browser of the account opens the seat without the link
    laptop = Player(server)
    assert laptop.sign_in(name, PASSWORD).status_code == 200
    assert laptop.http.get(f"/api/account/seats/{g['id']}").json() == {"seats": [0]}
    seat = AccountSeat(server.ws_url, g["id"], laptop.cookie_header(), {"seat": 0})
    view = seat.wait_view()
    assert view["seat"] == 0 and view["view"]["players"][0].get("hand") is not None
    seat.close()
    # another site's page cannot use the account's cookies to open the seat
    evil = AccountSeat(
        server.ws_url, g["id"], laptop.cookie_header(), {"seat": 0}, origin="http://evil.example"
    )
    assert evil.recv()["code"] == "bad-token"
    evil.close()
    # without the account, the seat number opens nothing
    stranger = AccountSeat(server.ws_url, g["id"], "", {"seat": 0})
    err = stranger.recv()
    assert err["type"] == "error" and err["code"] == "bad-token"
    # the account hands its seat to a bot and takes it back, without the link
    to_bot = f"/api/games/{g['id']}/seats/0/bot"
    assert laptop.post(to_bot, {"level": "random"}, csrf=False).status_code == 403
    assert Player(server).post(to_bot, {"level": "random"}).json()["error"] == "bad-token"
    assert httpx.post(server.url + to_bot, json={}).json()["error"] == "bad-token"
    r = laptop.post(to_bot, {"level": "random"})
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "bot"
    r = laptop.post(f"/api/games/{g['id']}/seats/0/human")
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "human"
    # a seat already claimed stays with its account
    other = Player(server)
    assert (
        other.sign_up(unique("Thief"), PASSWORD, [{"game": g["id"], "token": token}])["claimed"]
        == []
    )
    for x in (p, laptop, other):
        x.close()


def test_a_signed_in_player_who_opens_a_link_binds_the_seat(server: LiveServer) -> None:
    g = guest_game(server)
    p = Player(server)
    p.sign_up(unique("Link"), PASSWORD)
    seat = AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": g["seats"][1]["token"]})
    assert seat.wait_view()["seat"] == 1
    seat.close()
    assert p.http.get(f"/api/account/seats/{g['id']}").json() == {"seats": [1]}


def rating_of(server: LiveServer, name: str) -> list[dict[str, Any]]:
    return list(httpx.get(f"{server.url}/api/players/{name}").json()["ratings"])


def test_a_rated_game_between_accounts_changes_both_ratings_once(server: LiveServer) -> None:
    ann_name, bob_name = unique("Ann"), unique("Bob")
    ann, bob = Player(server), Player(server)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    # only a signed-in player creates a rated game, between people only
    r = ann.post("/api/games", {"seats": seats, "rated": True})
    assert r.status_code == 401 and r.json()["error"] == "sign-in"
    ann.sign_up(ann_name, PASSWORD)
    bob.sign_up(bob_name, PASSWORD)
    r = ann.post(
        "/api/games", {"seats": [seats[0], {"kind": "bot", "level": "random"}], "rated": True}
    )
    assert r.status_code == 400 and r.json()["error"] == "rated-seats"
    assert ann.post("/api/games", {"seats": seats, "rated": True}, csrf=False).status_code == 403
    r = ann.post("/api/games", {"seats": seats, "rated": True})
    assert r.status_code == 200 and r.json()["rated"] is True
    g = r.json()
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    # a guest cannot take a seat of a rated game, even with its link
    guest = AccountSeat(server.ws_url, g["id"], "", {"token": t1})
    assert guest.recv()["code"] == "sign-in"
    a = AccountSeat(server.ws_url, g["id"], ann.cookie_header(), {"token": t0})
    assert a.wait_view()["seat"] == 0
    # one account, one seat of a rated game
    twice = AccountSeat(server.ws_url, g["id"], ann.cookie_header(), {"token": t1})
    assert twice.recv()["code"] == "one-seat"
    b = AccountSeat(server.ws_url, g["id"], bob.cookie_header(), {"token": t1})
    assert b.wait_view()["seat"] == 1
    assert rating_of(server, ann_name) == []
    end = play_to_end([a, b])
    assert end["view"]["over"]
    board = httpx.get(
        f"{server.url}/api/leaderboard", params={"family": "classic", "size": "2p"}
    ).json()
    rows = {row["name"]: row for row in board["top"]}
    assert rows[ann_name]["games"] == rows[bob_name]["games"] == 1
    before = 25.0 - 3 * 25.0 / 3
    assert rows[ann_name]["ordinal"] != before and rows[bob_name]["ordinal"] != before
    ann_rating = rating_of(server, ann_name)
    # the end processed again (a replayed end, another process): nothing changes
    ratings = service(server).ratings
    assert ratings.rate_game(g["id"]) is False
    assert rating_of(server, ann_name) == ann_rating
    # the profile: rating, history, statistics, the game with its replay
    prof = httpx.get(f"{server.url}/api/players/{ann_name}").json()
    assert prof["account"]["name"] == ann_name
    assert [(h["game"], h["size"]) for h in prof["history"]] == [(g["id"], "2p")]
    assert prof["stats"]["games"] == 1 and prof["games"][0]["id"] == g["id"]
    assert prof["stats"]["by_kind"][0]["ruleset"] == "classic"
    # the neighbourhood of a signed-in player on the board
    mine = bob.http.get("/api/leaderboard").json()
    assert any(row["me"] and row["name"] == bob_name for row in mine["around"])
    # the CSV export
    text = httpx.get(f"{server.url}/api/players/{bob_name}/stats.csv").text
    lines = list(csv.DictReader(io.StringIO(text)))
    assert len(lines) == 1 and lines[0]["game"] == g["id"] and lines[0]["rated"] == "1"
    assert lines[0]["opponents"] == ann_name and lines[0]["seat"] == "2"
    for s in (a, b, guest, twice):
        s.close()


def test_unknown_players_and_bad_boards(server: LiveServer) -> None:
    r = httpx.get(f"{server.url}/api/players/{unique('Nobody')}")
    assert r.status_code == 404 and r.json()["error"] == "no-player"
    r = httpx.get(f"{server.url}/api/leaderboard", params={"family": "chess"})
    assert r.status_code == 422
    assert httpx.get(f"{server.url}/api/account/games").status_code == 401
