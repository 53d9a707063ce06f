"""Bot accounts in real headless Chromium: a player turns their account into a bot account
from the account page (after a confirmation), makes an API token that is shown once and then
listed by name (never again in full), sees its last use once a program used it, revokes it;
a person challenges the bot from its profile, waits for its answer and is taken to the game
(or told why not); the leaderboard switches to the bots' board.
The same controls in German and French."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from botting import Bot, unique
from browsing import chromium, scripted_server, shot
from support.serving import LiveServer

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "bots")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any, locale: str = "en-GB") -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 860}, locale=locale).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/account")
    page.wait_for_selector("#signup")
    page.fill("#signup input[name=name]", name)
    page.fill("#signup input[name=password]", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_url("**/me")
    page.goto(url + "/account")


def test_a_bot_account_makes_shows_once_and_revokes_a_token(
    server: LiveServer, browser: Any
) -> None:
    page = new_page(browser)
    sign_up(page, server.url, "Gilgamesh")
    page.wait_for_selector("#make-bot")
    assert "cannot be undone" in page.locator("#botcard").inner_text()
    page.once("dialog", lambda d: d.accept())
    page.click("#make-bot")
    page.wait_for_selector("#token-form")
    assert page.locator("#no-tokens").is_visible()
    page.fill("#token-name", "laptop")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#token-secret")
    token = page.locator("#token-secret").inner_text()
    assert token.startswith("tneb_")
    row = page.locator("#tokens tbody tr")
    assert row.count() == 1 and "laptop" in row.inner_text() and token not in row.inner_text()
    assert "never" in row.locator(".used").inner_text()
    shot(page, "bots-token")
    # a program uses it; the page, reloaded, lists the token's last use and not the token
    me = httpx.get(f"{server.url}/api/account", headers={"Authorization": f"Bearer {token}"})
    assert me.json()["account"]["name"] == "Gilgamesh"
    page.reload()
    page.wait_for_selector("#tokens tbody tr")
    assert "never" not in page.locator("#tokens tbody tr .used").inner_text()
    assert page.locator("#token-secret").count() == 0 and token not in page.content()
    page.click("#tokens .revoke")
    page.wait_for_selector("#no-tokens:not([hidden])")
    refused = httpx.get(f"{server.url}/api/account", headers={"Authorization": f"Bearer {token}"})
    assert refused.json()["account"] is None
    # a person challenges the bot from its profile
    ann = new_page(browser)
    sign_up(ann, server.url, "Enkidu")
    ann.goto(server.url + "/players/Gilgamesh")
    ann.wait_for_selector("#botmark")
    ann.click("#challenge")
    ann.wait_for_selector("#challengebot [role=status]:has-text('Challenge sent')")
    # the leaderboard's two boards
    ann.goto(server.url + "/leaderboard")
    ann.wait_for_selector("#board-kind")
    ann.click("#board-kind a:has-text('Bots')")
    ann.wait_for_url("**bots=true**")
    ann.wait_for_selector("#board-kind a.on:has-text('Bots')")
    assert not page.errors and not ann.errors


def open_challenge(bot: Bot) -> dict[str, Any]:
    """The bot's open challenge (the one a person just sent), read as its program would."""
    for _ in range(100):
        challenges = bot.api.get("/api/challenges").json()["challenges"]
        found = [c for c in challenges if c["state"] == "open"]
        if found:
            return dict(found[0])
        time.sleep(0.1)
    raise AssertionError("the challenge did not reach the bot")


def test_a_challenger_waits_for_the_bot_and_is_taken_to_the_game(
    server: LiveServer, browser: Any
) -> None:
    bot = Bot(server, "Ziusudra")
    page = new_page(browser)
    sign_up(page, server.url, unique("Enmerkar"))
    page.goto(f"{server.url}/players/{bot.name}")
    page.click("#challenge")
    page.wait_for_selector("#challengebot [role=status]:has-text('waiting for the bot')")
    # declined with a reason: the page says so, and a new challenge may be sent
    c = open_challenge(bot)
    r = bot.api.post(f"/api/challenges/{c['id']}/decline", json={"reason": "resting"})
    assert r.status_code == 200, r.text
    page.wait_for_selector("#challengebot [role=status]:has-text('The bot declined: resting')")
    assert page.locator("#challenge-cancel").is_hidden()
    # cancelled by the challenger while it waits
    page.click("#challenge")
    page.click("#challenge-cancel")
    page.wait_for_selector("#challengebot [role=status]:has-text('Challenge cancelled')")
    # accepted: the page goes to the game, the challenger's seat open
    page.click("#challenge")
    c = open_challenge(bot)
    r = bot.api.post(f"/api/challenges/{c['id']}/accept")
    assert r.status_code == 200, r.text
    page.wait_for_url(f"**/game/{r.json()['game']}")
    page.wait_for_selector(".player.me")
    assert not page.errors


@pytest.mark.parametrize(
    ("locale", "make", "revoke"),
    [("de-DE", "Bot-Konto umwandeln", "Widerrufen"), ("fr-FR", "compte de bot", "Révoquer")],
)
def test_the_bot_controls_in_german_and_french(
    server: LiveServer, browser: Any, locale: str, make: str, revoke: str
) -> None:
    page = new_page(browser, locale)
    sign_up(page, server.url, f"Bot{locale[:2]}")
    page.wait_for_selector("#make-bot")
    assert make in page.locator("#make-bot").inner_text()
    page.once("dialog", lambda d: d.accept())
    page.click("#make-bot")
    page.fill("#token-name", "pc")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#tokens tbody tr")
    assert page.locator("#tokens .revoke").inner_text() == revoke
    assert not page.errors
