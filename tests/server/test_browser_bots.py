"""Bot accounts in real headless Chromium: a player turns their account into a bot account
from the account page (after a confirmation), makes an API token that is shown once and then
listed by name (never again in full), sees its last use once a program used it, revokes it;
a person challenges the bot from its profile, waits for its answer and is taken to the game
(or told why not), where the bot's seat shows its name, profile link, rating and BOT mark; the
lobby's table form invites bot accounts only when asked; the leaderboard switches to the
bots' board.
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
from tigris_euphrates.ai import Bot as AiBot
from tigris_euphrates.ai import Budget
from tigris_euphrates.server import aiseats

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
    page.wait_for_selector("#tokens tbody tr:has-text('laptop')")  # the list is drawn after
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


def test_a_game_against_a_bot_account_shows_who_plays_as_any_table_does(
    server: LiveServer, browser: Any
) -> None:
    """The challenge's game names both accounts, links them to their profiles, shows their
    ratings, and marks the bot account's seat BOT (the person's is not)."""
    bot = Bot(server, "Utnapishtim")
    page = new_page(browser)
    me = unique("Shamhat")
    sign_up(page, server.url, me)
    page.goto(f"{server.url}/players/{bot.name}")
    page.click("#challenge")
    c = open_challenge(bot)
    r = bot.api.post(f"/api/challenges/{c['id']}/accept")
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    page.wait_for_url(f"**/game/{game}")
    page.wait_for_selector(".player.me")
    mine = page.locator(".player.me .seatlabel")
    seat = int(mine.get_attribute("data-seat") or "0")
    theirs = page.locator(f".seatlabel[data-seat='{1 - seat}']")
    theirs.locator(".botmark").wait_for()
    assert theirs.locator(".botmark").inner_text() == "BOT"
    assert theirs.locator("a.seatname").inner_text() == bot.name
    assert theirs.locator("a.seatname").get_attribute("href") == f"/players/{bot.name}"
    assert theirs.locator(".seat-rating").inner_text() == "1500"
    assert mine.locator("a.seatname").inner_text() == me
    assert mine.locator(".seat-rating").inner_text() == "1500"
    assert mine.locator(".botmark").count() == 0
    shot(page, "bots-challenge-game")
    assert not page.errors


def broken_medium(
    bot: AiBot, unheard: list[list[dict[str, Any]]], view: dict[str, Any], budget: Budget
) -> tuple[str, AiBot]:
    """A server whose ``medium`` bots cannot decide (any other decides as always)."""
    if bot.name == "medium":
        raise RuntimeError("this bot is broken")
    return aiseats._decide(bot, unheard, view, budget)


@pytest.mark.parametrize(
    ("locale", "told"),
    [
        ("en-GB", "The bot in seat 1 could not move: a bot (greedy) plays for it from now on"),
        ("de-DE", "Der Bot auf Platz 1 konnte nicht ziehen: ab jetzt spielt ein Bot (gierig)"),
    ],
)
def test_the_log_tells_the_players_when_a_bot_could_not_move(
    server: LiveServer, browser: Any, locale: str, told: str
) -> None:
    """The bot of seat 1 cannot decide: a simpler one plays for it, the log says so in the
    page's language, and the game goes on to the person's turn."""
    hub = server.app.state.hub
    hub.bots.decide = broken_medium
    try:
        body = {"seats": [{"kind": "bot", "level": "medium"}, {"kind": "human", "name": "Ann"}]}
        g = httpx.post(f"{server.url}/api/games", json=body).json()
        page = new_page(browser, locale)
        page.goto(server.url + g["seats"][1]["link"])
        note = page.locator("#log .seat-note")
        note.first.wait_for()
        assert told in note.first.inner_text()
        page.wait_for_selector("#hand.decision")  # the bot moved: the person's turn
        assert not page.errors
    finally:
        hub.bots.decide = aiseats._decide


def test_a_table_invites_bot_accounts_only_when_its_creator_says_so(
    server: LiveServer, browser: Any
) -> None:
    """The lobby's form asks two things: AI players when starting early (on by default),
    bot accounts in the seats (off by default, not for a rated table); the table row of
    one inviting bot accounts says "bots welcome"."""
    page = new_page(browser)
    sign_up(page, server.url, unique("Ninsun"))
    page.goto(server.url + "/")
    page.click("#open-table-box summary")
    assert page.locator("#table-bots").is_checked()
    assert not page.locator("#table-bot-accounts").is_checked()
    assert "AI players" in page.locator("label:has(#table-bots)").inner_text()
    assert (
        "Bot accounts may take seats" in page.locator("label:has(#table-bot-accounts)").inner_text()
    )
    page.check("#table-rated")
    assert page.locator("#table-bot-accounts").is_disabled()
    page.uncheck("#table-rated")
    page.check("#table-bot-accounts")
    page.click("#open-table-go")
    row = page.locator("#open-tables tr[data-table]")
    row.locator(".bots-welcome").wait_for()
    assert row.locator(".bots-welcome").inner_text() == "bots welcome"
    # a second table, with the defaults: no such mark
    page.uncheck("#table-bot-accounts")
    page.click("#open-table-go")
    page.wait_for_function("document.querySelectorAll('#open-tables tr[data-table]').length == 2")
    assert page.locator("#open-tables .bots-welcome").count() == 1
    shot(page, "bots-welcome-table")
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
