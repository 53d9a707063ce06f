"""The coach in the page, in real headless Chromium: "Suggest a move" in a game against a
bot shows the move on the board with its reason in words and plays it; a rated game offers
no hint; the tutorial is reached from the lobby and every lesson is completed by playing it
with clicks only (a hand tile, a leader, a cell, a decision's button), the page showing the
lesson's verdict and what happened in words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, shot, wait_seq_change
from support.serving import LiveServer
from tigris_euphrates.catalogues import HERE as CATALOGUES
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.tutorial import load_lessons

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
LESSONS = load_lessons()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("coach")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=Limits(messages_per_second=10_000, message_burst=10_000, hint_iterations=60),
        confirm_seconds=0,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any, lang: str = "en-GB") -> Any:
    page = browser.new_context(viewport=VIEWPORT, locale=lang).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def test_a_hint_in_a_game_against_a_bot(server: LiveServer, browser: Any) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]}
    g = httpx.post(f"{server.url}/api/games", json=body).json()
    page = new_page(browser)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#suggestbtn")
    page.click("#suggestbtn")
    page.wait_for_selector("#hint-why")
    move = page.locator("#hint-move")
    action = move.get_attribute("data-action")
    why = page.locator("#hint-why").inner_text()
    # the reason is a sentence in words, not a key nor a template
    assert why and "hint_why" not in why and "{" not in why
    assert move.inner_text() and "hints left" in page.locator("#suggest").inner_text()
    words = action.split(" ")
    if words[0] in ("tile", "leader", "catastrophe"):
        cell = words[2] if words[0] != "catastrophe" else words[1]
        assert page.locator(f"#hint-mark[data-cell='{cell}']").count() == 1
    shot(page, "hint")
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#hint-play")
    wait_seq_change(page, seq)
    log = page.locator("#log").inner_text()
    assert log.strip()
    assert page.locator("#hint-why").count() == 0  # the hint was for the step played
    assert not page.errors, page.errors
    # a spectator of the same game is offered no hint
    watcher = new_page(browser)
    watcher.goto(server.url + g["spectator_link"])
    watcher.wait_for_selector("#status:not(:empty)")
    watcher.wait_for_selector("#log")
    assert watcher.locator("#suggestbtn").count() == 0


def test_a_german_hint_is_in_german(server: LiveServer, browser: Any) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]}
    g = httpx.post(f"{server.url}/api/games", json=body).json()
    page = new_page(browser, "de-DE")
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#suggestbtn")
    assert page.locator("#suggestbtn").inner_text() == "Zug vorschlagen"
    page.click("#suggestbtn")
    page.wait_for_selector("#hint-why")
    german = json.loads((CATALOGUES / "de.classic.json").read_text())["ui"]
    stems = [v.split("{")[0] for k, v in german.items() if k.startswith("hint_why_")]
    why = page.locator("#hint-why").inner_text()
    assert any(why.startswith(stem) for stem in stems), why
    assert not page.errors, page.errors


def click_action(page: Any, action: str) -> None:
    """Play ``action`` by clicking what the page offers, as a learner would."""
    seq = page.evaluate("() => document.body.dataset.seq")
    w = action.split(" ")
    if w[0] == "tile":
        page.click(f"#hand .hand-tile[data-colour='{w[1]}']")
        page.click(f".hit.legal[data-cell='{w[2]}']")
    elif w[0] == "leader":
        page.click(f"#hand .leader-chip[data-leader='{w[1]}']")
        page.click(f".hit.legal[data-cell='{w[2]}']")
    elif w[0] == "catastrophe":
        page.click("#catastrophe")
        page.click(f".hit.legal[data-cell='{w[1]}']")
    elif w[0] == "treasure":
        page.click(f".hit.legal[data-cell='{w[1]}']")
    else:  # a decision's button: commit, monument, decline, war
        page.click(f"#decision [data-action='{action}']")
    wait_seq_change(page, seq)


def test_every_lesson_is_completed_by_playing_it(server: LiveServer, browser: Any) -> None:
    """From the lobby to the tutorial, then each lesson in turn, reached by its "Next
    lesson" link: its solution played by clicks, the verdict and what happened shown."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.click("#tutorial-link")
    page.wait_for_selector("#lessons li")
    listed = page.locator("#lessons li").evaluate_all("els => els.map(e => e.dataset.lesson)")
    assert listed == list(LESSONS)
    assert page.locator("#lessons li .lesson-done").count() == 0  # none done yet
    page.click("#lessons li a >> nth=0")
    for n, lesson in enumerate(LESSONS.values()):
        page.wait_for_selector("#lesson")
        texts = lesson.texts["en"]
        card = page.locator("#lesson").inner_text()
        assert texts["title"] in card and texts["goal"] in card
        for action in lesson.solution:
            click_action(page, action)
        page.wait_for_selector("#lesson-verdict.lesson-done")
        assert page.locator("#lesson-verdict").inner_text().endswith(texts["done"])
        assert page.locator("#lesson-events li").count() >= 1  # what happened, in words
        shot(page, f"lesson-{lesson.id}")
        if n + 1 < len(LESSONS):
            page.click("#lesson-next")
    assert not page.errors, page.errors
    # the list marks the lessons this browser completed
    page.click("#lesson-list")
    page.wait_for_selector("#lessons li")
    marks = page.locator("#lessons li").evaluate_all("els => els.map(e => e.dataset.done)")
    assert marks == ["1"] * len(LESSONS)
    assert page.locator("#lessons li .lesson-done").count() == len(LESSONS)


def test_a_missed_goal_says_so_and_starts_again(server: LiveServer, browser: Any) -> None:
    page = new_page(browser, "fr-FR")
    page.goto(server.url + "/tutorial/tiles")
    page.wait_for_selector("#lesson")
    page.click("[data-action='pass']")
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    page.keyboard.press("p")  # the game's keys work in a lesson: P passes

    page.wait_for_selector("#lesson-verdict.lesson-failed")
    assert page.locator("#lesson-verdict").inner_text() == LESSONS["tiles"].texts["fr"]["failed"]
    page.click("#lesson-restart")
    page.wait_for_function("() => document.body.dataset.lesson === 'playing'")
    assert page.locator("#lesson-verdict").count() == 0
    assert not page.errors, page.errors


def test_an_unknown_lesson_is_the_not_found_page(server: LiveServer) -> None:
    assert httpx.get(f"{server.url}/tutorial/nosuch").status_code == 404
    assert httpx.get(f"{server.url}/api/lessons/nosuch").status_code == 404
