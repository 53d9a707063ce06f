"""Where the page goes after signing in (``/account?next=…``): the server's resolver
(``routes/pages.local_page``, ``GET /api/next``) gives a page of this server, written anew
from its parts, or the lobby; never another host, whatever the browser would make of the
address."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.serving import LiveServer
from tigris_euphrates.server.routes.pages import local_page

HOSTILE = [
    "//evil.example/",
    "/\\evil.example/",
    "/\\\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\n/evil.example/",
    "/ /evil.example/",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "/%5Cevil.example/",
    "/%2F/evil.example",
    "%2F%2Fevil.example",
    "/game/abc/../../evil",
    "/game/abc\n",
    "/game/abc?x=//evil.example",
    "/game/abc#//evil.example",
    "/game/ab%63",
    "/players/..",
    "/players/%2E%2E",
    "/players/a%2Fb",
    "/players/a%5Cb",
    "/players/Ann%0A",
    "/players/%ff",
    "/me/",
    "/events/",
    "/events/0123456789AB",
    "/events/0123456789a",
    "/events/0123456789abc",
    "/events/0123456789ab/",
    "/events/0123456789ab?invite=x",
    "/events/%30123456789ab",
    "/events/../admin",
    "/puzzles/",
    "/puzzles/0123456789AB",
    "/puzzles/0123456789abc",
    "/puzzles/0123456789ab/",
    "/static/../account",
    "/api/account",
    "",
    "/" + "a" * 600,
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_anything_but_a_page_of_the_app_is_the_lobby(hostile: str) -> None:
    assert local_page(hostile) == "/"


@pytest.mark.parametrize(
    ("asked", "page"),
    [
        ("/", "/"),
        ("/me", "/me"),
        ("/account", "/account"),
        ("/leaderboard", "/leaderboard"),
        ("/admin", "/admin"),
        ("/events", "/events"),
        ("/events/0123456789ab", "/events/0123456789ab"),
        ("/puzzles", "/puzzles"),
        ("/puzzles/0123456789ab", "/puzzles/0123456789ab"),
        ("/game/abc123abc123", "/game/abc123abc123"),
        ("/replay/abc123abc123", "/replay/abc123abc123"),
        ("/players/Ann", "/players/Ann"),
        ("/players/Ann%20Lee", "/players/Ann%20Lee"),
        ("/players/J%C3%BCrgen", "/players/J%C3%BCrgen"),
        ("/players/x.y-z_1", "/players/x.y-z_1"),
    ],
)
def test_a_page_of_the_app_is_kept(asked: str, page: str) -> None:
    assert local_page(asked) == page


def test_what_comes_back_is_always_a_plain_local_path() -> None:
    for asked in [*HOSTILE, "/players/J%C3%BCrgen", "/game/a-b_c"]:
        out = local_page(asked)
        assert out.startswith("/") and not out.startswith("//")
        assert all(ch.isascii() and (ch.isalnum() or ch in "/_.~%-") for ch in out)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data: Path = tmp_path_factory.mktemp("next")
    with LiveServer(data_dir=data, database_url=f"sqlite:///{data}/t.sqlite3") as srv:
        yield srv


def test_the_endpoint_answers_the_resolved_page(server: LiveServer) -> None:
    def ask(query: str) -> str:
        r = httpx.get(f"{server.url}/api/next?{query}")
        assert r.status_code == 200, r.text
        return str(r.json()["next"])

    assert ask("next=/game/abc123abc123") == "/game/abc123abc123"
    assert ask("next=%2Fevents%2F0123456789ab") == "/events/0123456789ab"
    assert ask("next=%2Fplayers%2FAnn%2520Lee") == "/players/Ann%20Lee"
    for raw in ["/%5Cevil.example/", "/%09/evil.example/", "//evil.example", "javascript:x"]:
        assert ask(f"next={raw}") == "/"
    assert ask("") == "/"


def test_the_events_pages_are_the_page(server: LiveServer) -> None:
    """The events' list and an event's address serve the page; an address that is no event
    id answers 404 with the same page (which then says so)."""
    for path in ["/events", "/events/0123456789ab"]:
        r = httpx.get(server.url + path)
        assert r.status_code == 200, path
        assert "text/html" in r.headers["content-type"]
    for path in ["/events/0123456789AB", "/events/nothing", "/events/0123456789abc"]:
        assert httpx.get(server.url + path).status_code == 404, path
