"""Moderation as a player's page shows it, in real headless Chromium: a chat line an admin
hides leaves the open page at once, and a game an admin aborts says so in the status line
and offers nothing more to play."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, scripted_server
from support.serving import LiveServer, Player, SeatClient

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "moderation")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def admin(server: LiveServer) -> Player:
    p = Player(server)
    p.sign_up(f"Mod{uuid.uuid4().hex[:6]}", "correct horse battery")
    store = server.app.state.hub.store
    store.moderation.set_admin(store.accounts.by_name(p.me()["name"]).id, True)
    return p


def game(server: LiveServer) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    g: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body).json()
    return g


def open_seat(browser: Any, server: LiveServer, g: dict[str, Any], seat: int) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + g["seats"][seat]["link"])
    page.wait_for_selector("#status:not(:empty)")
    return page


def test_a_hidden_line_leaves_the_open_page(server: LiveServer, browser) -> None:
    mod = admin(server)
    g = game(server)
    ann = open_seat(browser, server, g, 0)
    bob = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    bob.wait_view()
    bob.send({"type": "chat", "text": "good game"})
    bob.send({"type": "chat", "text": "something rude"})
    lines = ann.locator("#chatlines .chatline")
    lines.nth(1).wait_for()
    assert "something rude" in ann.locator("#chatlines").inner_text()
    assert mod.post(f"/api/admin/games/{g['id']}/chat/2/hide", {}).status_code == 200
    ann.wait_for_function(
        "() => !document.querySelector('#chatlines').innerText.includes('something rude')"
    )
    assert "good game" in ann.locator("#chatlines").inner_text()
    ann.reload()
    ann.locator("#chatlines .chatline").first.wait_for()
    assert "something rude" not in ann.locator("#chatlines").inner_text()
    assert ann.errors == []
    bob.close()


def test_an_aborted_game_says_so_and_offers_no_move(server: LiveServer, browser) -> None:
    mod = admin(server)
    g = game(server)
    ann = open_seat(browser, server, g, 0)
    assert ann.locator("#status").inner_text().startswith("Your turn")
    assert ann.locator("#hand button").count() > 0
    assert mod.post(f"/api/admin/games/{g['id']}/abort", {}).status_code == 200
    ann.wait_for_function(
        "() => document.querySelector('#status').innerText.startsWith('A moderator stopped')"
    )
    assert ann.locator("#status").inner_text() == (
        "A moderator stopped this game: it ends here, unrated"
    )
    assert ann.locator("#hand").count() == 0  # nothing to play: no hand to play from
    ann.reload()
    ann.wait_for_selector("#status:not(:empty)")
    assert ann.locator("#status").inner_text().startswith("A moderator stopped")
    assert ann.errors == []
