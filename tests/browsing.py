"""Helpers for the browser tests (real headless Chromium through Playwright): where
screenshots go, waiting for the page's state (``document.body.dataset``), and playing one
action by clicking only what the page offers."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.serving import LiveServer
from tigris_euphrates.server.limits import Limits

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


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
    """Debian's headless Chromium through Playwright (the tests skip when it is missing)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium): browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_seq_change(page, seq: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "s => document.body.dataset.seq !== s || document.body.dataset.over === '1'",
        arg=seq,
        timeout=timeout,
    )


def wait_my_turn(page) -> None:
    page.wait_for_function(
        "() => document.body.dataset.myturn === '1' || document.body.dataset.over === '1'"
        " || document.querySelector('#ready')",
        timeout=30_000,
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
