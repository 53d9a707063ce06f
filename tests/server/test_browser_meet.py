"""Meeting people in real headless Chromium, each person in a browser context of their own:
a table opened in the lobby appears live in the others' lobbies (no reload), a second and a
third person take its seats and everybody lands at the game; two strangers press "Play now"
and meet in a rated game; a bot account takes a seat of an open table through its event
socket and every lobby shows its name with the BOT mark."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from botting import Bot, wait_offer
from browsing import chromium, shot
from support.serving import LiveServer
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("meet")
    limits = Limits(messages_per_second=10_000, message_burst=10_000, sign_ups_per_client=100)
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=limits,
        confirm_seconds=0,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def person(browser: Any, server: LiveServer, stem: str | None) -> Any:
    """A page in a context of its own, signed up as ``stem…`` (``None``: a guest), in the
    lobby."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if stem is not None:
        page.name = f"{stem}{uuid.uuid4().hex[:5]}"
        api = page.context.request
        csrf = api.get(server.url + "/api/account").json()["csrf"]
        r = api.post(
            server.url + "/api/account/signup",
            data={"name": page.name, "password": PASSWORD},
            headers={"X-CSRF-Token": csrf},
        )
        assert r.ok, r.text()
    page.goto(server.url + "/")
    page.wait_for_selector("#open-tables")
    return page


def game_of(page: Any) -> str:
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#hand")
    return str(page.evaluate("() => location.pathname.split('/')[2]"))


def test_a_third_person_joins_an_open_table_and_everybody_plays(
    server: LiveServer, browser: Any
) -> None:
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    cy = person(browser, server, None)
    ann.click("#open-table-box summary")
    ann.select_option("#table-players", "3")
    ann.select_option("#table-pace", "turn")
    ann.click("#open-table-go")
    row = "#open-tables tr[data-table]"
    # the table appears in the others' lobbies by itself, with Ann seated and two free seats
    bob.wait_for_selector(f"{row} .seated:has-text('{ann.name}')")
    cy.wait_for_selector(f"{row} .seated:has-text('{ann.name}')")
    assert "(new)" in bob.locator(f"{row} .seated").first.inner_text()
    bob.locator(f"{row}:has-text('{ann.name}') button.sit").click()
    cy.wait_for_selector(f"{row} .seated:has-text('{bob.name}')")
    ann.wait_for_selector(f"{row} .seated:has-text('{bob.name}')")
    shot(cy, "meet-open-table")
    cy.fill("#guest-name", "Cy")
    cy.locator(f"{row}:has-text('{ann.name}') button.sit").click()
    games = {game_of(p) for p in (ann, bob, cy)}
    assert len(games) == 1
    game = httpx.get(f"{server.url}/api/games/{games.pop()}").json()
    assert [s["name"] for s in game["seats"]] == [ann.name, bob.name, "Cy"]
    assert not game["rated"] and game["clock"]["pace"]["kind"] == "turn"
    # back in the lobby, nobody is taken to that table's game again: the lobby is drawn
    # (a page on its way to a game draws no table list) and stays
    for p in (ann, bob, cy):
        p.goto(server.url + "/")
        p.wait_for_selector("#open-tables tr")
        assert p.evaluate("() => location.pathname") == "/"
    for p in (ann, bob, cy):
        assert p.errors == []
        p.context.close()


def test_two_strangers_meet_through_quick_match_in_a_rated_game(
    server: LiveServer, browser: Any
) -> None:
    dee, eve = person(browser, server, "Dee"), person(browser, server, "Eve")
    for p in (dee, eve):
        p.select_option("#match-pace", "turn")
        p.click("#play-now")
    games = {game_of(p) for p in (dee, eve)}
    assert len(games) == 1
    game = httpx.get(f"{server.url}/api/games/{games.pop()}").json()
    assert game["rated"]
    assert sorted(s["name"] for s in game["seats"]) == sorted([dee.name, eve.name])
    seats = {p.evaluate("() => document.body.dataset.seat") for p in (dee, eve)}
    shot(dee, "meet-quick-match")
    assert all(p.errors == [] for p in (dee, eve)), [p.errors for p in (dee, eve)]
    assert len(seats) == 2 or None in seats
    for p in (dee, eve):
        p.context.close()


def test_an_invitation_by_name_reaches_the_lobby_live_and_friends_show_online(
    server: LiveServer, browser: Any
) -> None:
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    # Bob follows Ann: she is in the lobby, so online
    bob.fill("#social-name", ann.name)
    bob.click("#follow")
    bob.wait_for_selector(f"#friends li.online:has-text('{ann.name}')")
    # Ann opens a table and invites Bob by name; the invitation appears in his lobby
    ann.click("#open-table-box summary")
    ann.select_option("#table-players", "2")
    ann.click("#open-table-go")
    ann.wait_for_selector("#open-tables .invite-name")
    ann.fill("#open-tables .invite-name", bob.name)
    ann.click("#open-tables form.invite button")
    bob.wait_for_selector(f"#invites li:has-text('{ann.name}')")
    shot(bob, "meet-invitation")
    bob.click("#invites button.accept")
    assert game_of(bob) == game_of(ann)
    for p in (ann, bob):
        assert p.errors == []
        p.context.close()


def test_blocking_from_the_lobby_lists_the_account_and_unblocking_removes_it(
    server: LiveServer, browser: Any
) -> None:
    ann, bob = person(browser, server, "Ann"), person(browser, server, "Bob")
    ann.fill("#social-name", bob.name)
    ann.click("#block")
    ann.wait_for_selector(f"#blocked li:has-text('{bob.name}')")
    ann.click("#blocked button.unblock")
    ann.wait_for_selector("#blocked li.none")
    assert bob.name not in ann.locator("#blocked").inner_text()
    for p in (ann, bob):
        assert p.errors == []
        p.context.close()


def test_a_bot_account_takes_a_seat_and_the_lobby_marks_it(
    server: LiveServer, browser: Any
) -> None:
    ann = person(browser, server, "Ann")
    watcher = person(browser, server, "Dee")
    ann.click("#open-table-box summary")
    ann.select_option("#table-players", "3")
    ann.check("#table-bot-accounts")  # bot accounts come only where invited
    ann.click("#open-table-go")
    row = f"#open-tables tr[data-table]:has-text('{ann.name}')"
    watcher.wait_for_selector(f"{row} .seated")
    table = watcher.locator(row).first.get_attribute("data-table")
    assert watcher.locator(f"{row} .bots-welcome").inner_text() == "bots welcome"
    bot = Bot(server)
    events = bot.events()
    events.wait("hello")
    wait_offer(events, f"table:{table}")
    events.send({"type": "accept", "id": f"table:{table}"})
    # the bot's name appears at the table by itself, with its BOT mark; Ann's has none
    seated = watcher.locator(f"{row} .seated-player:has-text('{bot.name}')")
    seated.wait_for()
    assert seated.locator(".botmark").inner_text() == "BOT"
    assert watcher.locator(f"{row} .seated-player:has-text('{ann.name}') .botmark").count() == 0
    assert watcher.locator(f"{row} td").nth(2).inner_text() == "1"  # one free seat left
    shot(watcher, "meet-bot-seated")
    events.close()
    for p in (ann, watcher):
        assert p.errors == []
        p.context.close()
