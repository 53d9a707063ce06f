"""The post-game analysis in the replay, in real headless Chromium: asked for with one
click, then the graph of each player's chance of winning (a click on it goes to that step),
the marks in the move list, and at the step after a marked move the suggested move drawn on
the board with the words that say why; a second visitor sees the stored analysis at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, shot
from support.serving import LiveServer
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("analysis")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=Limits(games_per_minute=1000, games_per_client=1000, bot_games_per_client=1000),
        analysis_candidates=3,
        analysis_worlds=1,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def finished_game(server: LiveServer) -> dict[str, Any]:
    """A two-person game whose players both left it to random bots, which end it."""
    game: dict[str, Any] = httpx.post(f"{server.url}/api/games", json={"seats": HUMANS}).json()
    for seat in (0, 1):
        body = {"token": game["seats"][seat]["token"], "level": "random"}
        r = httpx.post(f"{server.url}/api/games/{game['id']}/seats/{seat}/bot", json=body)
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/games/{game['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    return game


def test_the_replay_shows_an_analysis_in_progress(server: LiveServer, browser: Any) -> None:
    """Another process is analysing the game: the page says how far it got, and asks again
    until it is done."""
    store = Store(f"sqlite:///{server.app_kwargs['data_dir']}/t.sqlite3")
    try:
        for _ in range(5):  # the server's own worker may take a job first: then another game
            g = finished_game(server)
            store.analyses.request(g["id"], time.time())
            if store.analyses.claim("elsewhere", time.time(), 120.0) == g["id"]:
                break
        else:
            raise AssertionError("the server's worker took every job first")
        assert store.analyses.progress(g["id"], "elsewhere", 36, 180, time.time())
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.goto(f"{server.url}/replay/{g['id']}")
        page.wait_for_selector(".analysis-progress")
        assert "Analysing… 36 of 180 moves" in page.locator("#analysis").inner_text()
        assert page.locator("#analysis progress").get_attribute("value") == "36"
        assert page.locator("#analyse").count() == 0
        assert store.analyses.progress(g["id"], "elsewhere", 72, 180, time.time())
        page.wait_for_function(
            "() => document.querySelector('#analysis progress')?.getAttribute('value') === '72'"
        )
        shot(page, "analysis-progress")
        page.context.close()
    finally:
        store.close()


def test_the_replay_shows_the_graph_the_marks_and_the_suggested_move(
    server: LiveServer, browser: Any
) -> None:
    g = finished_game(server)
    page = browser.new_context(viewport=VIEWPORT).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/replay/{g['id']}")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.click("#analyse")
    page.wait_for_selector("#analysis-graph", timeout=240_000)
    analysis = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()["analysis"]
    total = analysis["plies"]
    # one line a player, one click target a step
    assert page.locator("#analysis-graph .graph-line").count() == 2
    assert page.locator("#analysis-graph .graph-point").count() == total + 1
    # the marks in the move list: every marked move, with its sign
    marked = [d for d in analysis["decisions"] if d["mark"]]
    assert marked, "random moves lose: some are marked"
    assert page.locator("#log .entry.marked").count() == len(marked)
    first = marked[0]
    entry = page.locator("#log .entry.marked").first  # the log's notes are entries too
    assert entry.locator(".mark").inner_text().strip() == SIGNS[first["mark"]]
    # a click on the graph goes to the step after a marked move with a suggestion on a cell
    shown = next(
        d
        for d in marked
        if d["suggestion"] and d["suggestion"].split()[0] in ("tile", "leader", "catastrophe")
    )
    step = shown["ply"] + 1
    page.locator(f"#analysis-graph .graph-point[data-step='{step}']").click()
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=step)
    suggested = page.locator("#suggested")
    assert suggested.get_attribute("data-action") == shown["suggestion"]
    words = page.locator("#analysis-step").inner_text()
    mark_word = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}
    assert mark_word[shown["mark"]] in words and "Better:" in words
    assert f"{round(shown['loss'] * 100)} %" in words
    shot(page, "analysis-replay")
    # another visitor: the stored analysis at once, no button
    other = browser.new_context(viewport=VIEWPORT).new_page()
    other.goto(f"{server.url}/replay/{g['id']}")
    other.wait_for_selector("#analysis-graph")
    assert other.locator("#analyse").count() == 0
    assert not errors, errors
    page.context.close()
    other.context.close()
