"""After signing in, the page goes only to a page of this server, in real headless
Chromium: ``/account?next=…`` with a backslash, a tab, a newline, ``//host``, ``/\\host``,
another scheme, ``javascript:`` or their encoded forms lands on the app's own origin and no
request ever leaves for another host; a ``next`` naming a page of the app still leads there."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from browsing import chromium, scripted_server
from support.serving import LiveServer, Player

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"

#: ``next`` exactly as it stands in the address of the sign-in page (already encoded)
HOSTILE = [
    "/%5Cevil.example/",
    "/%09/evil.example/",
    "/%0A/evil.example/",
    "/%0D%0A/evil.example/",
    "//evil.example/",
    "%2F%2Fevil.example%2F",
    "/%5C%5Cevil.example/",
    "/\\evil.example/",
    "/\\\\evil.example/",
    "https://evil.example/",
    "https%3A%2F%2Fevil.example%2F",
    "javascript:alert(document.domain)",
    "javascript%3Aalert(1)",
    "/%2509/evil.example/",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "next")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def name(server: LiveServer) -> str:
    account = f"Nav{uuid.uuid4().hex[:6]}"
    player = Player(server)
    player.sign_up(account, PASSWORD)
    player.close()
    return account


def sign_in_with(
    server: LiveServer, browser: Any, name: str, next_query: str | None
) -> tuple[str, list[str]]:
    """Open ``/account?next=…`` (``None``: ``/account``) in a fresh browser, sign in, and
    return where the page landed and the requests that left for another host (refused
    before they reach it) and the dialogs a script opened."""
    context = browser.new_context()
    ours = urlsplit(server.url).netloc
    foreign: list[str] = []
    alerts: list[str] = []

    def guard(route: Any) -> None:
        if urlsplit(route.request.url).netloc != ours:
            foreign.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
    query = "" if next_query is None else f"?next={next_query}"
    page.goto(f"{server.url}/account{query}")
    page.wait_for_selector("#signin input[name=name]")
    start = page.url
    page.fill("#signin input[name=name]", name)
    page.fill("#signin input[name=password]", PASSWORD)
    # the page leaves once the server has answered the sign-in (argon2 on a busy machine
    # can take a while): wait for that answer, then for the page to go
    with page.expect_response(lambda r: r.url.endswith("/api/account/signin")) as answer:
        page.click("#signin button[type=submit]")
    assert answer.value.ok, answer.value.text()
    page.wait_for_function("start => location.href !== start", arg=start)
    page.wait_for_load_state()
    landed = page.url
    context.close()
    return landed, foreign + [f"alert: {a}" for a in alerts]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_next_lands_on_the_app(
    server: LiveServer, browser: Any, name: str, hostile: str
) -> None:
    landed, foreign = sign_in_with(server, browser, name, hostile)
    assert foreign == []
    assert landed.startswith(server.url + "/"), landed
    assert urlsplit(landed).path == "/"


@pytest.mark.parametrize(
    ("good", "page"),
    [
        ("/game/abc123abc123", "/game/abc123abc123"),
        ("%2Fleaderboard", "/leaderboard"),
        ("/players/{name}", "/players/{name}"),
        (None, "/me"),  # no next: "My games"
    ],
)
def test_a_page_of_the_app_is_where_the_page_goes(
    server: LiveServer, browser: Any, name: str, good: str | None, page: str
) -> None:
    asked = None if good is None else good.replace("{name}", name)
    landed, foreign = sign_in_with(server, browser, name, asked)
    assert foreign == [] and landed == server.url + page.replace("{name}", quote(name))
