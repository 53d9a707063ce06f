"""Helpers for the browser tests (real headless Chromium through Playwright): where
screenshots go, waiting for the page's state (``document.body.dataset``), and playing one
action by clicking only what the page offers."""

from __future__ import annotations

import random
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.serving import PATIENCE_MS, LiveServer
from tigris_euphrates.server.limits import Limits

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def signed_up_page(
    browser: Any, url: str, stem: str, *, width: int = 1280, ready: str = "#open-tables"
) -> Any:
    """A page in a browser context of its own, signed up as ``stem…`` (its ``name``) on the
    server at ``url`` and in its lobby (``ready`` drawn); the page's errors are collected in
    ``errors``."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.name = f"{stem}{uuid.uuid4().hex[:5]}"
    api = page.context.request
    csrf = api.get(url + "/api/account").json()["csrf"]
    r = api.post(
        url + "/api/account/signup",
        data={"name": page.name, "password": "correct horse battery"},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.ok, r.text()
    page.goto(url + "/")
    page.wait_for_selector(ready)
    return page


def scripted_server(tmp: pytest.TempPathFactory, name: str) -> Iterator[LiveServer]:
    """A live server for browser tests: seeded games of two people (positions the tests
    know, never on a public server), scripted seats far faster than people (no message
    rate limit), and a turn's last step sent at once (no "End turn" countdown)."""
    data = tmp.mktemp(name)
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(messages_per_second=10_000, message_burst=10_000),
        confirm_seconds=0,
    ) as srv:
        yield srv


def chromium() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright (the tests skip when it is missing).

    Every page of its contexts waits up to ``PATIENCE_MS`` for what a test waits for (a
    selector, a navigation, an ``expect``), not Playwright's 30 s: on a loaded machine a page
    may take that long to draw, and a test waits for the event, not for a time."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium): browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect.set_options(timeout=PATIENCE_MS)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        new_context, new_page = b.new_context, b.new_page

        def patient_context(*args: Any, **kwargs: Any) -> Any:
            context = new_context(*args, **kwargs)
            context.set_default_timeout(PATIENCE_MS)
            context.set_default_navigation_timeout(PATIENCE_MS)
            return context

        def patient_page(*args: Any, **kwargs: Any) -> Any:
            page = new_page(*args, **kwargs)
            page.set_default_timeout(PATIENCE_MS)
            page.set_default_navigation_timeout(PATIENCE_MS)
            return page

        b.new_context = patient_context
        b.new_page = patient_page
        yield b
        b.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_seq_change(page, seq: str, timeout: float = PATIENCE_MS) -> None:
    page.wait_for_function(
        "s => document.body.dataset.seq !== s || document.body.dataset.over === '1'",
        arg=seq,
        timeout=timeout,
    )


def wait_my_turn(page) -> None:
    page.wait_for_function(
        "() => document.body.dataset.myturn === '1' || document.body.dataset.over === '1'"
        " || document.querySelector('#ready')",
    )


def play_one_action(page, rng: random.Random, n: int) -> None:
    """One action, chosen only among what the page offers (buttons, highlighted cells)."""
    seq = page.evaluate("() => document.body.dataset.seq")
    buttons = page.locator("#decision [data-action]")
    if buttons.count():
        buttons.nth(rng.randrange(buttons.count())).click()
        return wait_seq_change(page, seq)
    legal = page.locator(".hit.legal")
    if legal.count():  # a treasure to pick
        legal.first.click()
        return wait_seq_change(page, seq)
    swap = page.locator("#swap")
    if n % 2 == 1 and swap.count():  # swapping every tile drains the bag: a short game
        swap.click()
        for tile in page.locator(".hand-tile").all():
            tile.click()
        go = page.locator("#swapgo")
        if go.is_enabled():
            go.click()
            return wait_seq_change(page, seq)
        page.keyboard.press("Escape")
    pieces = page.locator(".hand-tile, .leader-chip").all()
    rng.shuffle(pieces)
    for piece in pieces:
        piece.click()
        cells = page.locator(".hit.legal")
        if cells.count():
            cells.nth(rng.randrange(cells.count())).click()
            return wait_seq_change(page, seq)
    page.locator("[data-action='pass']").click()
    wait_seq_change(page, seq)
