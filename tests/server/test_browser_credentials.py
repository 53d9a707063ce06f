"""An account's password and address in real headless Chromium, with a real local SMTP
server (aiosmtpd): the browser confirms a new address from the link e-mailed to it, asks
for a forgotten password, follows the reset link the server sent, sets a new password and
signs in with it; the old password and the old session open nothing; the same link fails
the second time; the account page changes the password. One page is read in German."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browsing import chromium, shot
from mailing import Mailbox
from support.serving import LiveServer, Player

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"
NEW = "euphrates and tigris"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


@pytest.fixture
def server(tmp_path: Path, mailbox: Mailbox) -> Iterator[LiveServer]:
    srv = LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/b.sqlite3")
    srv.app_kwargs["mail"] = mailbox.settings(public_url=srv.url)
    with srv:
        yield srv


def new_page(browser: Any, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def next_mail(box: Mailbox, seen: int) -> Any:
    deadline = time.monotonic() + 20
    while len(box.messages) <= seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(box.messages) > seen, "no e-mail came"
    return box.messages[seen]


def link_in(msg: Any, path: str) -> str:
    return next(w for w in msg.get_content().split() if path + "#" in w)


def sign_in(page: Any, server: LiveServer, name: str, password: str) -> None:
    page.goto(server.url + "/account")
    page.fill("#signin input[name=name]", name)
    page.fill("#signin input[name=password]", password)
    page.click("#signin button[type=submit]")


def test_a_forgotten_password_is_reset_through_the_emailed_link(
    server: LiveServer, mailbox: Mailbox, browser: Any
) -> None:
    page = new_page(browser)
    Player(server).sign_up("Rosa", PASSWORD)
    sign_in(page, server, "Rosa", PASSWORD)
    page.wait_for_selector("#games, #mygames")
    # the account page: give an address, confirmed from the link sent to it
    page.goto(server.url + "/account")
    page.wait_for_selector("#email")
    assert "no confirmed address" in page.locator("#email-now").inner_text()
    page.fill("#email input[name=email]", "rosa@example.org")
    page.fill("#email input[name=password]", PASSWORD)
    page.click("#email button[type=submit]")
    page.wait_for_selector("#email-pending")
    assert "rosa@example.org" in page.locator("#email-pending").inner_text()
    confirm = link_in(next_mail(mailbox, 0), "/change-email")
    page.goto(confirm)
    page.click("#confirm-email")
    page.wait_for_function(
        "() => document.querySelector('#change-email').innerText.includes('Confirmed')"
    )
    assert "#" not in page.url  # the token left the address bar
    shot(page, "credentials-address-confirmed")

    # another browser forgot the password: the same answer for a name nobody has
    other = new_page(browser)
    other.goto(server.url + "/account")
    other.wait_for_selector("#forgot")
    other.fill("#forgot input[name=who]", "Nobody at all")
    other.click("#forgot button[type=submit]")
    other.wait_for_selector("#forgot .said:not(:empty)")
    said_unknown = other.locator("#forgot .said").inner_text()
    other.fill("#forgot input[name=who]", "rosa")
    other.click("#forgot button[type=submit]")
    other.wait_for_function("() => document.querySelector('#forgot button').disabled === false")
    assert other.locator("#forgot .said").inner_text() == said_unknown
    assert "on its way" in said_unknown
    mail = next_mail(mailbox, 1)
    assert str(mail["To"]) == "rosa@example.org"
    link = link_in(mail, "/reset-password")

    other.goto(link)
    other.wait_for_selector("#reset input[name=password]")
    assert "Rosa" in other.locator("#reset h2").inner_text()
    other.fill("#reset input[name=password]", NEW)
    other.fill("#reset input[name=again]", NEW + "!")
    other.click("#reset button[type=submit]")
    assert "differ" in other.locator("#reset .error").inner_text()
    other.fill("#reset input[name=again]", NEW)
    other.click("#reset button[type=submit]")
    other.wait_for_selector("#reset-done")
    shot(other, "credentials-reset-done")
    # the first browser's session is over; the old password opens nothing, the new one does
    page.goto(server.url + "/me")
    page.wait_for_selector("#signin")
    sign_in(other, server, "Rosa", PASSWORD)
    other.wait_for_function("() => document.querySelector('#signin .error').innerText.length > 0")
    sign_in(other, server, "Rosa", NEW)
    other.wait_for_selector("#games, #me")
    assert other.locator("#me").inner_text() == "Rosa"
    # the link works once
    again = new_page(browser)
    again.goto(link)
    again.wait_for_selector("#reset .error")
    assert "does not work" in again.locator("#reset .error").inner_text()
    assert page.errors == other.errors == again.errors == []


def test_the_password_is_changed_on_the_account_page_in_german(
    server: LiveServer, browser: Any
) -> None:
    Player(server).sign_up("Klara", PASSWORD)
    page = new_page(browser, locale="de-DE")
    sign_in(page, server, "Klara", PASSWORD)
    page.wait_for_selector("#me")
    page.goto(server.url + "/account")
    page.wait_for_selector("#password")
    assert page.locator("#password h2").inner_text() == "Passwort"
    page.fill("#password input[name=current]", "nicht das richtige")
    page.fill("#password input[name=password]", NEW)
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password .error:not(:empty)")
    assert "stimmt nicht" in page.locator("#password .error").inner_text()
    page.fill("#password input[name=current]", PASSWORD)
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password .said:not(:empty)")
    assert "abgemeldet" in page.locator("#password .said").inner_text()
    shot(page, "credentials-password-de")
    page.reload()
    page.wait_for_selector("#password")  # still signed in here
    assert Player(server).sign_in("Klara", NEW).status_code == 200
    assert page.errors == []
