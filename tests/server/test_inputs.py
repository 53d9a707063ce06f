"""Every input is checked at the door: text fields (length, no lone surrogates or control
characters, NFC), types and sizes; a refused request changes nothing and answers a 4xx
naming the problem, and one bad request never breaks a page for anybody else."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import PATIENCE, LiveServer, Player
from tigris_euphrates.store import Store


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("inputs")


@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[LiveServer]:
    with LiveServer(data_dir=data, database_url=f"sqlite:///{data}/t.sqlite3") as srv:
        yield srv


def post_raw(server: LiveServer, path: str, body: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}{path}", content=body, headers={"content-type": "application/json"}
    )


def lobby_works(server: LiveServer) -> bool:
    return httpx.get(f"{server.url}/api/games").status_code == 200


def test_a_lone_surrogate_in_a_name_is_refused_and_the_lobby_stays_up(server: LiveServer) -> None:
    r = post_raw(
        server, "/api/games", '{"seats":[{"kind":"human","name":"\\ud83d"},{"kind":"human"}]}'
    )
    assert r.status_code == 422, r.text
    assert "name" in r.json()["message"]
    assert lobby_works(server)


@pytest.mark.parametrize(
    "name,problem",
    [
        ("Ann\x00", "control"),
        ("Ann\x1b[31m", "control"),
        ("Ann\u202eevil", "control"),
        ("A" * 41, "40"),
    ],
)
def test_names_with_control_characters_or_too_long_are_refused(
    server: LiveServer, name: str, problem: str
) -> None:
    body = {"seats": [{"kind": "human", "name": name}, {"kind": "human"}]}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 422, r.text
    assert problem in r.json()["message"]


def test_names_are_stored_in_nfc(server: LiveServer) -> None:
    body = {"seats": [{"kind": "human", "name": "Zoe\u0301"}, {"kind": "human", "name": "Bob"}]}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 200, r.text
    summary = httpx.get(f"{server.url}/api/games/{r.json()['id']}").json()
    assert summary["seats"][0]["name"] == "Zo\u00e9"


def test_a_bad_row_already_stored_breaks_no_page(server: LiveServer, data: Path) -> None:
    """A game written before the checks existed, with a lone surrogate in a seat name: the
    lobby, its summary and handing its seat to a bot all still answer (the name shows a
    replacement character)."""
    store = Store(f"sqlite:///{data}/t.sqlite3")
    seats = [
        {"kind": "human", "name": "\ud83d", "token": "0" * 64},
        {"kind": "bot", "level": "random", "name": ""},
    ]
    store.games.create("0123456789ab", {"players": 2}, 5, seats)
    store.close()
    assert lobby_works(server)
    r = httpx.get(f"{server.url}/api/games/0123456789ab")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["name"] == "\ufffd"
    page = httpx.get(f"{server.url}/")
    assert page.status_code == 200


def test_a_refused_seat_change_changes_nothing(server: LiveServer) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    g = httpx.post(f"{server.url}/api/games", json=body).json()
    before = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    token = g["seats"][1]["token"]
    for bad in (
        {"token": token, "level": "\ud83d"},
        {"token": token, "level": "nobody"},
        {"token": [token], "level": "random"},
        {"token": token, "level": "random", "extra": "x" * 100},
    ):
        r = post_raw(server, f"/api/games/{g['id']}/seats/1/bot", json.dumps(bad))
        assert 400 <= r.status_code < 500, (bad, r.text)
        assert r.json()["message"]
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json() == before
    assert lobby_works(server)


# --- problem inputs found from outside: each gets a 4xx or an error frame naming it ------


def test_unhandled_request_bodies_get_a_4xx(server: LiveServer) -> None:
    cases = [
        ('{"seats":[1,2]}', "seats"),
        ('{"seats":[{"kind":"human"},{"kind":"bot"}],"seed":-1}', "seed"),
        ('{"seats":[{"kind":"human"},{"kind":"bot"}],"seed":' + str(2**128) + "}", "seed"),
        ('{"seats":[{"kind":"human"},{"kind":"bot"}],"seed":"7"}', "seed"),
        ('{"seats":[{"kind":"human"},{"kind":"bot"}],"seed":true}', "seed"),
        ('{"seats":' + "[" * 1000 + "]" * 1000 + "}", ""),
        ("[" * 1000 + "]" * 1000, ""),
        ("{", ""),
        ('{"seats":[{"kind":"human"},{"kind":"bot"}],"options":{"players":[]}}', "options"),
    ]
    for body, field in cases:
        r = post_raw(server, "/api/games", body)
        assert 400 <= r.status_code < 500, (body[:60], r.status_code, r.text)
        assert field in r.json()["message"], (body[:60], r.text)
    assert lobby_works(server)


def test_a_seed_beyond_64_bits_is_stored_for_a_game_without_other_people(
    server: LiveServer,
) -> None:
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 2**63}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 200, r.text
    assert httpx.get(f"{server.url}/api/games/{r.json()['id']}").status_code == 200


def test_odd_game_ids_get_a_4xx(server: LiveServer) -> None:
    for gid in ("a%00b", "x" * 300, "a%20b", "%ff", "%00"):
        r = httpx.get(f"{server.url}/api/games/{gid}")
        assert 400 <= r.status_code < 500, (gid, r.status_code)
        r = httpx.post(f"{server.url}/api/games/{gid}/seats/0/bot", json={"token": "abc"})
        assert 400 <= r.status_code < 500, (gid, r.status_code)


def socket(server: LiveServer, game_id: str) -> Any:
    from websockets.sync.client import connect

    return connect(f"{server.ws_url}/ws/games/{game_id}", open_timeout=PATIENCE)


def reply(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=PATIENCE)))


def test_bad_first_frames_get_an_error_frame_and_the_connection_stays_open(
    server: LiveServer,
) -> None:
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    with socket(server, g["id"]) as ws:
        for frame, code in [
            ("not json", "bad-json"),
            ("[" * 1000, "bad-json"),
            (b"\x00\x01binary", "text-only"),
            ('{"type":"join","token":["a"]}', "bad-message"),
            ('{"type":"join","token":12}', "bad-message"),
            ('{"type":"join","token":{"a":1}}', "bad-message"),
            ('{"type":"move","seq":0,"action":"pass"}', "join-first"),
        ]:
            ws.send(frame)
            err = reply(ws)
            assert err["type"] == "error" and err["code"] == code, (frame, err)
            assert err["message"]
        ws.send(json.dumps({"type": "join", "token": g["seats"][0]["token"]}))
        assert reply(ws)["seat"] == 0


def test_bad_messages_in_play_get_an_error_frame_naming_the_problem(server: LiveServer) -> None:
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    with socket(server, g["id"]) as ws:
        ws.send(json.dumps({"type": "join", "token": g["seats"][0]["token"]}))
        first = reply(ws)
        cases: list[tuple[str | bytes, str, str]] = [
            (b"\xff\xfe", "text-only", "text"),
            ("[" * 1000, "bad-json", "JSON"),
            ('{"type":"move","seq":0,"action":"commit \u00b2"}', "bad-message", "action"),
            ('{"type":"move","seq":0,"action":"swap red=\u00b9"}', "bad-message", "action"),
            ('{"type":"move","seq":"0","action":"pass"}', "bad-message", "seq"),
            ('{"type":"move","seq":1e400,"action":"pass"}', "bad-message", "seq"),
            ('{"type":"move","seq":0,"action":[1,2]}', "bad-message", "action"),
            ('{"type":"move","seq":0,"action":{"type":"commit","n":"\u00b2"}}', "bad-message", ""),
            ('{"type":"move","seq":0,"action":{"type":"tile","colour":{}}}', "", "cell"),
            ('{"type":"move","seq":0,"action":"tile red zz99"}', "", ""),
            ('{"type":"undo","seq":true}', "bad-message", "seq"),
            ('{"type":"dance"}', "bad-message", "type"),
            ("null", "bad-message", ""),
            ('"move"', "bad-message", ""),
        ]
        for frame, code, words in cases:
            ws.send(frame)
            err = reply(ws)
            assert err["type"] == "error", (frame, err)
            assert err["code"] != "server-error", (frame, err)
            if code:
                assert err["code"] == code, (frame, err)
            assert words in err["message"], (frame, err)
            ws.send('{"type":"ping","t":"next"}')
            while reply(ws).get("t") != "next":  # the fresh view that may follow
                pass
        ws.send(json.dumps({"type": "sync"}))
        view = reply(ws)
        assert view["seq"] == 0 and view["view"] == first["view"]


def test_a_nul_in_a_game_id_gets_a_4xx_on_postgresql(tmp_path: Path) -> None:
    """PostgreSQL refuses a NUL in a string parameter (the server answered 500): ids are
    checked before any query."""
    import uuid

    from support.serving import postgres_or_skip

    url = postgres_or_skip()
    prefix = f"i{uuid.uuid4().hex[:10]}_"
    try:
        with LiveServer(database_url=url, table_prefix=prefix, data_dir=tmp_path) as srv:
            for path in ("/api/games/a%00b", "/api/games/a%00b/record", "/api/games/%00/view"):
                r = httpx.get(f"{srv.url}{path}")
                assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
            with socket(srv, "a%00b") as ws:
                with contextlib.suppress(Exception):  # the server may refuse before the join
                    ws.send(json.dumps({"type": "join"}))
                err = reply(ws)
                assert err["type"] == "error" and err["code"] == "no-game"
    finally:
        Store(url, prefix).drop_all()


# --- every path, query string and body field that reaches the database -------------------

#: Paths whose text parts reach a query: each under the character policy, on both databases.
ODD_PATHS = [
    "/api/players/x%00",
    "/api/players/%00",
    "/api/players/x%00/stats.csv",
    "/api/players/%00/stats.csv",
    "/api/players/Ann%1b%5b31m",
    "/api/players/Ann%E2%80%AEevil",
    "/api/players/%ED%A0%BD",  # a lone surrogate as UTF-8 bytes (not UTF-8 at all)
    "/api/catalogues/%00/classic",
    "/api/catalogues/en/%00",
    "/api/catalogues/" + "x" * 300 + "/classic",
    "/unsubscribe?t=%00",
    "/unsubscribe?t=a%00.b",
    "/api/leaderboard?family=%00",
    "/api/leaderboard?size=2p%00",
    "/api/account/seats/%00",
    "/api/games/%00/moves",
    "/api/games/0123456789ab/view?token=%00",
]


def test_text_in_paths_and_query_strings_is_checked_before_any_query(
    db: tuple[str, str], tmp_path: Path
) -> None:
    """A NUL (which PostgreSQL refuses in a text parameter: the server answered 500), a
    control or bidi character, or a lone surrogate in a player's name, a catalogue, an
    unsubscribe token or a game id: a 4xx naming the problem, on both databases."""
    url, prefix = db
    with LiveServer(database_url=url, table_prefix=prefix, data_dir=tmp_path) as srv:
        for path in ("/api/players/x%00", "/api/players/%00/stats.csv"):
            r = httpx.get(f"{srv.url}{path}")
            assert r.status_code == 422, (path, r.status_code, r.text)
            assert r.json()["message"] == "name: control characters are not allowed (U+0000)"
        for path in ODD_PATHS:
            for method in ("GET", "POST") if path.startswith("/unsubscribe") else ("GET",):
                r = httpx.request(method, f"{srv.url}{path}")
                assert 400 <= r.status_code < 500, (method, path, r.status_code, r.text[:200])
                if path.startswith("/api/"):
                    assert r.json()["message"], (path, r.text)
        p = Player(srv)
        for body in (
            {"name": "x\x00", "password": "correct horse"},
            {"name": "\x00", "password": "correct horse"},
            {"name": "Ann\u202e", "password": "correct horse"},
            {"name": "Ann", "password": "correct\x00horse"},
        ):
            r = p.post("/api/account/signin", body)
            assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
            assert r.json()["message"]
        for path, raw in (
            ("/api/account/signin", '{"name":"\\ud83d","password":"correct horse"}'),
            ("/api/account/signin", '{"name":"Ann","password":"correct \\ud83d horse"}'),
            ("/api/account/signup", '{"name":"Annabel","password":"correct \\ud83d horse"}'),
        ):
            r = p.http.post(
                path,
                content=raw,
                headers={"content-type": "application/json", "X-CSRF-Token": p.csrf},
            )
            assert 400 <= r.status_code < 500, (path, raw, r.status_code, r.text)
        p.sign_up("Annabel", "correct horse battery")
        for email in ("a\x00@b.cc", "a\x1b@b.cc", "\ud83d@b.cc", "a@b\u202e.cc"):
            body = json.dumps({"email": email, "enabled": True})  # ASCII: a surrogate escaped
            r = p.http.post(
                "/api/account/notifications",
                content=body,
                headers={"content-type": "application/json", "X-CSRF-Token": p.csrf},
            )
            assert r.status_code == 422, (email, r.status_code, r.text)
            assert "email" in r.json()["message"], r.text
        assert p.http.get("/api/account/notifications").json()["email"] is None
        p.close()
        assert lobby_works(srv)
