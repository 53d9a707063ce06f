"""Every input is checked at the door: text fields (length, no lone surrogates or control
characters, NFC), types and sizes; a refused request changes nothing and answers a 4xx
naming the problem, and one bad request never breaks a page for anybody else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serving import LiveServer
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
    store.create_game("0123456789ab", {"players": 2}, 5, seats)
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
