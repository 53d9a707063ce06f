"""Clocks in real headless Chromium, on SQLite and on PostgreSQL: a turn-based game in which
a player's time runs out and a bot takes over, the e-mail that tells the other player it is
their move (received by a local SMTP server; its game link and its one-click unsubscribe
link work), a player who runs out of time and takes the seat back, each seat's clock
counting down, the lobby's clock choice, and the end screen saying who ran out of time.

The paces are seconds long (a turn-based move of a few seconds), so that nothing waits for
real hours.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from browsing import chromium, shot
from mailing import Mailbox
from support.serving import LiveServer, postgres_or_skip
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
#: seconds a move in the turn-based test game: long enough for the page to be looked at,
#: short enough for the test
MOVE = 8.0


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox
) -> Iterator[LiveServer]:
    data: Path = tmp_path_factory.mktemp("clocks")
    # a move of 8 s: below the public minimum of a clock (``pace_min_seconds``)
    kwargs: dict[str, Any] = {
        "data_dir": data,
        "bot_delay": 0.5,
        "limits": Limits(pace_min_seconds=1),
    }
    prefix = ""
    if request.param == "sqlite":
        kwargs["database_url"] = f"sqlite:///{data}/t.sqlite3"
    else:
        url = postgres_or_skip()
        prefix = f"t{uuid.uuid4().hex[:10]}_"
        kwargs.update(database_url=url, table_prefix=prefix)
    srv = LiveServer(**kwargs)
    srv.app_kwargs["mail"] = mailbox.settings(public_url=srv.url)
    with srv:
        yield srv
    if prefix:
        Store(kwargs["database_url"], prefix).drop_all()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any) -> Any:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def sign_up(page: Any, server: LiveServer, name: str, *, sign_in: bool = False) -> None:
    """Sign up (or in) with this browser's cookies (the session cookie stays in its
    context). The page's own first requests set the CSRF cookie, so they are waited out
    first: a token read before they land would be replaced under the test."""
    page.wait_for_load_state("networkidle")
    csrf = page.request.get(server.url + "/api/account").json()["csrf"]
    r = page.request.post(
        server.url + ("/api/account/signin" if sign_in else "/api/account/signup"),
        data={"name": name, "password": "correct horse battery staple", "seats": []},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.ok, r.text()


def wait_mail(mailbox: Mailbox, to: str, timeout: float = 40) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for msg in mailbox.messages:
            if msg["To"] == to:
                return msg
        time.sleep(0.1)
    raise AssertionError(f"no e-mail to {to} arrived")


def test_turn_based_timeout_bot_takes_over_email_and_taking_the_seat_back(
    server: LiveServer, browser: Any, mailbox: Mailbox
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    name = "ann" + uuid.uuid4().hex[:6]
    email = f"{name}@example.org"
    sign_up(page, server, name)
    page.reload()
    # Ann asks for e-mails from the lobby
    page.fill("#notify-email", email)
    page.check("#notify-on")
    page.click("#notify-save")
    expect(page.locator("#notify-state")).to_contain_text(f"A link was e-mailed to {email}")
    # she confirms the address with the link e-mailed to it (a button on its page)
    confirm_link = next(
        w for w in wait_mail(mailbox, email).get_content().split() if "/confirm-email?t=" in w
    )
    other = new_page(browser)
    other.goto(confirm_link)
    other.click("#confirm")
    expect(other.locator("#unsubscribe h2")).to_have_text("Address confirmed")
    page.reload()
    expect(page.locator("#notify-state")).to_have_text(f"E-mails go to {email}.")
    mailbox.messages.clear()
    # a turn-based game: Bob (a friend, who never comes) moves first, then Ann
    page.select_option("[data-seat='0']", "friend")
    page.fill("[data-name='0']", "Bob")
    page.select_option("[data-seat='1']", "here")
    page.fill("[data-name='1']", "Ann")
    page.select_option("#pace", "turn")
    page.fill("#pace-hours", str(MOVE / 3600))
    page.select_option("#pace-level", "random")
    page.click("#create")
    page.wait_for_url("**/game/*")
    gid = page.url.rstrip("/").split("/")[-1].split("#")[0]
    bob_clock = page.locator(".player[data-seat='0'] .clock")
    expect(bob_clock).to_have_class("clock running")
    first = bob_clock.locator(".time").inner_text()
    expect(bob_clock.locator(".time")).not_to_have_text(first)  # it counts down
    expect(page.locator(".player[data-seat='1'] .clock .time")).to_have_text("0:08")
    shot(page, "clocks-running")
    # Ann leaves; Bob's time runs out, a bot plays for him, then it is Ann's move and she
    # is not there: an e-mail tells her
    page.goto(server.url + "/")
    msg = wait_mail(mailbox, email)
    body = msg.get_content()
    game_link = next(w for w in body.split() if "/game/" in w)
    stop_link = next(w for w in body.split() if "/unsubscribe?t=" in w)
    assert game_link == f"{server.url}/game/{gid}"
    summary = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert summary["seats"][0]["kind"] == "bot" and summary["seats"][0]["level"] == "random"
    assert summary["timeouts"][0]["seat"] == 0 and summary["timeouts"][0]["back"] is None
    # the link in the e-mail opens her game, even in another browser where she signs in:
    # her move, her clock running
    page = new_page(browser)
    page.goto(server.url + "/")
    sign_up(page, server, name, sign_in=True)
    page.goto(game_link)
    # her seat is bound to her account: the table shows the account's name (issue 40)
    expect(page.locator(".player[data-seat='1']")).to_contain_text(f"{name} 1500 (you)")
    expect(page.locator(".timeout[data-timeout='0']")).to_have_text(
        "Bob ran out of time: a bot (random) plays for them"
    )
    expect(page.locator(".player[data-seat='0']")).to_contain_text("bot random")
    # Ann does not move either: a bot takes her seat, and she takes it back
    back = page.locator(".player[data-seat='1'] .tohuman")
    expect(back).to_be_visible()
    expect(page.locator(".timeout[data-timeout='1']")).to_contain_text(f"{name} ran out of time")
    expect(page.locator("#status")).to_contain_text("a bot plays your seat")
    shot(page, "clocks-timed-out")
    back.click()
    expect(back).to_have_count(0)
    expect(page.locator("#status")).not_to_contain_text("a bot plays your seat")
    expect(page.locator(".timeout[data-timeout='1']")).to_have_count(0)
    expect(page.locator(".player[data-seat='1']")).not_to_contain_text("bot random")
    summary = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert summary["seats"][1]["kind"] == "human"
    ann = [t for t in summary["timeouts"] if t["seat"] == 1]
    assert len(ann) == 1 and ann[0]["back"] is not None
    assert page.errors == []
    # without the seat's token nor its account, nobody else takes a seat back
    r = httpx.post(f"{server.url}/api/games/{gid}/seats/0/human", json={})
    assert r.status_code >= 400 and r.json()["error"] == "bad-token"
    # the unsubscribe link works without signing in (another browser)
    other = new_page(browser)
    other.goto(stop_link)
    expect(other.locator("#unsubscribe h2")).to_have_text("E-mails turned off")
    now = page.request.get(server.url + "/api/account/notifications").json()
    assert now["enabled"] is False and now["email"] == email
    page.goto(server.url + "/")
    expect(page.locator("#notify-state")).to_have_text("No e-mails.")
    expect(page.locator("#notify-on")).not_to_be_checked()
    other.goto(stop_link[:-3] + "abc")
    expect(other.locator("#unsubscribe h2")).to_have_text("Link not recognised")


def test_the_lobby_creates_a_realtime_game_and_the_page_shows_the_clocks(
    server: LiveServer, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#pace", "realtime")
    expect(page.locator("#pace-hours")).to_be_hidden()
    page.fill("#pace-minutes", "5")
    page.fill("#pace-increment", "10")
    page.click("#create")  # Me against a bot
    page.wait_for_url("**/game/*")
    gid = page.url.rstrip("/").split("/")[-1].split("#")[0]
    mine = page.locator(".player[data-seat='0'] .clock")
    expect(mine).to_have_class("clock running")
    expect(mine).to_have_attribute("title", "Real time: 5 min + 10 s a turn")
    expect(mine.locator(".time")).to_have_text(re.compile(r"^4:[0-5]\d$"))  # running down
    expect(page.locator(".player[data-seat='1'] .clock .time")).to_have_text("5:00")
    summary = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert summary["clock"]["pace"]["kind"] == "realtime"
    assert summary["clock"]["pace"]["base"] == 300 and summary["clock"]["pace"]["increment"] == 10
    expect(page.locator("#pace-line")).to_have_text("Real time: 5 min + 10 s a turn")
    assert page.errors == []
    # the lobby lists the game with its pace
    page.goto(server.url + "/")
    row = page.locator("tr", has=page.locator(f"code:text-is('{gid}')"))
    expect(row).to_contain_text("Real time: 5 min + 10 s a turn")


def test_the_end_screen_says_who_ran_out_of_time(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> None:
    data = tmp_path_factory.mktemp("clock-end")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(pace_min_seconds=1),  # a clock of 2 s
    ) as srv:
        body = {
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            "pace": {"kind": "realtime", "base": 2, "increment": 0, "level": "random"},
            "seed": 5,
        }
        g = httpx.post(f"{srv.url}/api/games", json=body).json()
        page = new_page(browser)
        page.goto(srv.url + g["seats"][0]["link"])
        # Ann never moves: after 2 s a bot plays her seat, and the two bots finish the game
        end = page.locator("#endscreen")
        expect(end).to_be_visible(timeout=120_000)
        expect(end.locator("#timeouts li")).to_have_text(
            ["Ann ran out of time: a bot (random) played for them"]
        )
        shot(page, "clocks-end-screen")
        assert page.errors == []
