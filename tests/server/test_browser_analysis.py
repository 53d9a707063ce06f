"""The post-game analysis in the replay, in real headless Chromium: asked for with one
click, then beside the board (under it on a phone) the graph of each player's chance of
winning (its axes, its legend, a click on it goes to that step), the marks on it and in the
move list (a click, Enter or Space goes to the position before the marked move, which shows
the move played, the better one on the board and why, seen together on a desktop without
scrolling), marks one move apart each seen and clicked, each player's marks and accuracy,
and how far the graph can be trusted; a second visitor sees the stored analysis at once.
The reasons' and the accuracy's page is shown from an analysis written here for a real
finished game (the analysis's own figures are checked by tests/coach/); an older stored
analysis, without reasons nor accuracy, still reads."""

from __future__ import annotations

import math
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
        analysis_iterations=16,
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
    """A real analysis, asked for with a click: the graph, the marks, the better move."""
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
    # the marks on the graph and in the move list: every marked move, with its sign
    marked = [d for d in analysis["decisions"] if d["mark"]]
    assert marked, "random moves lose: some are marked"
    assert page.locator("#analysis-graph .graph-mark").count() == len(marked)
    assert page.locator("#log .entry.marked").count() == len(marked)
    first = marked[0]
    entry = page.locator("#log .entry.marked").first  # the log's notes are entries too
    assert entry.locator(".mark").inner_text().strip() == SIGNS[first["mark"]]
    # a mark on a move with a better move on a cell: the position before it, both moves drawn
    shown = next(
        d
        for d in marked
        if d["suggestion"] and d["suggestion"].split()[0] in ("tile", "leader", "catastrophe")
    )
    page.locator(f"#mark-{shown['ply']}").click()
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=shown["ply"])
    assert page.locator("#suggested").get_attribute("data-action") == shown["suggestion"]
    words = page.locator("#analysis-step").inner_text()
    assert MARK_WORD[shown["mark"]] in words and "Better:" in words and "Played:" in words
    assert f"{round(shown['loss'] * 100)} %" in words
    # each player's accuracy: the analysis's, or (an analysis without it) its decisions' mean
    for e in analysis["summary"]:
        row = page.locator(f"#analysis-summary tr[data-seat='{e['seat']}']")
        assert row.locator(".accuracy").inner_text() == f"{seat_accuracy(e, analysis):.1f}"
    shot(page, "analysis-replay")
    # another visitor: the stored analysis at once, no button
    other = browser.new_context(viewport=VIEWPORT).new_page()
    other.goto(f"{server.url}/replay/{g['id']}")
    other.wait_for_selector("#analysis-graph")
    assert other.locator("#analyse").count() == 0
    assert not errors, errors
    page.context.close()
    other.context.close()


MARK_WORD = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}
SEAT_COLOURS = ["rgb(255, 152, 0)", "rgb(0, 188, 212)"]  # the page's seat colours (words.js)


def decision_accuracy(loss: float) -> float:
    """lichess's curve on the chance of winning lost, as the help defines it."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669))


def seat_accuracy(entry: dict[str, Any], analysis: dict[str, Any]) -> float:
    if "accuracy" in entry:
        return float(entry["accuracy"])
    mine = [d for d in analysis["decisions"] if d["seat"] == entry["seat"]]
    return round(sum(decision_accuracy(d["loss"]) for d in mine) / len(mine), 1)


def held_game(server: LiveServer, store: Store) -> dict[str, Any]:
    """A finished game whose analysis another process ("elsewhere") holds: the test writes
    its result."""
    for _ in range(5):  # the server's own worker may take a job first: then another game
        g = finished_game(server)
        store.analyses.request(g["id"], time.time())
        if store.analyses.claim("elsewhere", time.time(), 120.0) == g["id"]:
            return g
    raise AssertionError("the server's worker took every job first")


def written_analysis(server: LiveServer, game_id: str) -> dict[str, Any]:
    """A tne-analysis/1 object for the real game ``game_id``: its curve, six marked moves
    (placements, each with a better move on another cell and a reason, one of a code the
    page does not know, two of them one move apart), an unmarked decision of each seat, the
    summary with accuracy."""
    log = httpx.get(f"{server.url}/api/games/{game_id}/moves").json()["log"]
    plies = len(log)
    tiles = [i for i, e in enumerate(log) if e["action"].startswith("tile ") and 4 <= i < plies - 4]
    by_seat = [[i for i in tiles if log[i]["seat"] == s] for s in (0, 1)]
    assert len(by_seat[0]) >= 3 and len(by_seat[1]) >= 3, "random games place tiles"
    cells = [e["action"].split()[2] for e in log if e["action"].startswith("tile ")]
    picks = [
        (
            by_seat[0][1],
            "blunder",
            0.31,
            {"code": "gives-points", "args": {"seat": 1, "points": 4}},
        ),
        (by_seat[1][1], "mistake", 0.14, {"code": "loses-leader", "args": {"colour": "red"}}),
        (
            by_seat[0][-1],
            "inaccuracy",
            0.06,
            {"code": "weakest-colour", "args": {"colour": "black"}},
        ),
        (by_seat[1][-1], "mistake", 0.12, {"code": "a-code-of-tomorrow", "args": {}}),
    ]
    # two marks one move apart (two tiles of one turn): their places on the graph touch
    used = {p[0] for p in picks} | {by_seat[0][0], by_seat[1][0]}
    pair = next(i for i in tiles if i + 1 in tiles and not {i, i + 1} & used)
    picks += [
        (pair, "mistake", 0.11, {"code": "misses-treasure", "args": {}}),
        (pair + 1, "inaccuracy", 0.07, {"code": "position", "args": {}}),
    ]
    decisions: list[dict[str, Any]] = []
    for ply, mark, loss, reason in picks:
        played = log[ply]["action"]
        better = next(c for c in reversed(cells) if c != played.split()[2])
        decisions.append(
            {
                "ply": ply,
                "seat": log[ply]["seat"],
                "action": played,
                "choices": 40,
                "played": 0.5 - loss,
                "best": 0.5,
                "loss": loss,
                "mark": mark,
                "suggestion": f"leader green {better}",
                "reason": reason,
                "accuracy": round(decision_accuracy(loss), 1),
            }
        )
    for seat in (0, 1):
        ply = by_seat[seat][0]
        decisions.append(
            {
                "ply": ply,
                "seat": seat,
                "action": log[ply]["action"],
                "choices": 30,
                "played": 0.5,
                "best": 0.5,
                "loss": 0.0,
                "mark": None,
                "suggestion": None,
                "reason": None,
                "accuracy": 100.0,
            }
        )
    decisions.sort(key=lambda d: d["ply"])
    curve = [[0.5 + 0.4 * k / plies, 0.5 - 0.4 * k / plies] for k in range(plies + 1)]
    summary = []
    for seat in (0, 1):
        mine = [d for d in decisions if d["seat"] == seat]
        entry: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for name in SIGNS:
            entry[name] = sum(1 for d in mine if d["mark"] == name)
        entry["mean_loss"] = round(sum(d["loss"] for d in mine) / len(mine), 4)
        entry["accuracy"] = round(sum(d["accuracy"] for d in mine) / len(mine), 1)
        summary.append(entry)
    return {
        "format": "tne-analysis/1",
        "players": 2,
        "plies": plies,
        "budget": {"iterations": 16, "worlds": 1, "seed": 0},
        "thresholds": {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05},
        "curve": curve,
        "reliability": {"group": "2p", "games": 624, "ece": 0.031, "worst_third": 0.052},
        "decisions": decisions,
        "summary": summary,
    }


def older(analysis: dict[str, Any]) -> dict[str, Any]:
    """The same analysis as stored before reasons, accuracy and calibration were kept."""
    out = dict(analysis, reliability=None)
    out["decisions"] = [
        {k: v for k, v in d.items() if k not in ("reason", "accuracy")}
        for d in analysis["decisions"]
    ]
    out["summary"] = [{k: v for k, v in e.items() if k != "accuracy"} for e in analysis["summary"]]
    return out


@pytest.fixture(scope="module")
def written(server: LiveServer) -> Iterator[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    """Two real finished games with stored analyses: one as analyses are stored now (with
    reasons and accuracy), one as older ones were."""
    store = Store(f"sqlite:///{server.app_kwargs['data_dir']}/t.sqlite3")
    try:
        new, old = held_game(server, store), held_game(server, store)
        fresh, aged = (
            written_analysis(server, new["id"]),
            older(written_analysis(server, old["id"])),
        )
        assert store.analyses.finish(new["id"], "elsewhere", fresh, 12.5)
        assert store.analyses.finish(old["id"], "elsewhere", aged, 12.5)
        yield new["id"], fresh, old["id"], aged
    finally:
        store.close()


def open_replay(browser: Any, server: LiveServer, game_id: str, **context: Any) -> Any:
    page = browser.new_context(**{"viewport": VIEWPORT, **context}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#analysis-graph")
    return page


def at_step(page: Any, step: int) -> None:
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=step)


def test_the_analysis_page_graph_legend_reliability_and_accuracy(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    game_id, analysis, _, _ = written
    page = open_replay(browser, server, game_id)
    graph = page.locator("#analysis-graph")
    # the axes: 0 to 100 % up the side, the moves along the bottom, a gridline each quarter
    assert page.locator(".graph-axis-y .graph-tick").all_text_contents() == [
        "0 %",
        "25 %",
        "50 %",
        "75 %",
        "100 %",
    ]
    assert "Chance of winning" in page.locator(".graph-axis-y .graph-title").text_content()
    assert page.locator(".graph-axis-x .graph-title").text_content() == "Move"
    ticks = [int(t) for t in page.locator(".graph-axis-x .graph-tick").all_text_contents()]
    assert ticks[0] == 0 and 3 <= len(ticks) <= 20 and ticks[-1] <= analysis["plies"]
    assert page.locator("#analysis-graph .graph-grid").count() >= 4 + len(ticks)
    # the legend: each player named in the seat's colour, with the chance at this step
    legend = page.locator("#analysis-legend li")
    assert legend.count() == 2
    for seat, name in enumerate(["Ann", "Bob"]):
        item = legend.nth(seat)
        assert item.locator(".legend-name").inner_text() == name
        colour = item.locator(".legend-name").evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour == SEAT_COLOURS[seat]
        assert item.locator(".legend-chance").inner_text() == "50 %"
        line = graph.locator(f".graph-line[data-seat='{seat}']")
        assert line.evaluate("e => getComputedStyle(e).stroke") == SEAT_COLOURS[seat]
    # the marks: a shape and a sign each, named for assistive technology
    marks = graph.locator(".graph-mark")
    marked = [d for d in analysis["decisions"] if d["mark"]]
    assert marks.count() == len(marked)
    shapes = {}
    for d in marked:
        mark = graph.locator(f"#mark-{d['ply']}")
        name = ["Ann", "Bob"][d["seat"]]
        assert (
            mark.get_attribute("aria-label")
            == f"Move {d['ply'] + 1}, {name}: {MARK_WORD[d['mark']]}"
        )
        assert mark.get_attribute("tabindex") == "0" and mark.get_attribute("role") == "button"
        assert mark.locator(".mark-sign").text_content() == SIGNS[d["mark"]]
        shapes[d["mark"]] = mark.locator(".mark-shape").evaluate("e => e.tagName")
    assert len(set(shapes.values())) == 3, shapes
    # how far the curve can be trusted, beside the graph
    assert (
        page.locator("#analysis-reliability")
        .inner_text()
        .startswith("Calibrated on 624 held-out games like this one: typically off by 3 points")
    )
    # each player's decisions, marks and accuracy; accuracy's definition in the help
    for e in analysis["summary"]:
        cells = page.locator(f"#analysis-summary tr[data-seat='{e['seat']}'] td").all_inner_texts()
        counts = [str(e["decisions"]), str(e["inaccuracy"]), str(e["mistake"]), str(e["blunder"])]
        assert cells == [*counts, f"{e['accuracy']:.1f}"]
    assert page.locator("#analysis-summary thead").inner_text().count("Accuracy") == 1
    page.click("#accuracy-help")
    help_text = page.locator("#help-accuracy").inner_text()
    assert "103.1668·e^(−4.354·loss) − 3.1669" in help_text and "mean" in help_text
    assert page.evaluate("() => document.activeElement.id") == "help-accuracy"
    page.click("#helpclose")
    shot(page, "analysis-page")
    assert not page.errors, page.errors
    page.context.close()


def test_a_mark_goes_to_the_position_before_its_move_with_the_better_move_and_why(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    game_id, analysis, _, _ = written
    page = open_replay(browser, server, game_id)
    blunder, mistake, inaccuracy, unknown = (
        next(d for d in analysis["decisions"] if d["reason"] and d["reason"]["code"] == code)
        for code in ("gives-points", "loses-leader", "weakest-colour", "a-code-of-tomorrow")
    )
    # a click on a mark of the graph
    page.locator(f"#mark-{blunder['ply']}").click()
    at_step(page, blunder["ply"])
    step = page.locator("#analysis-step")
    assert (
        step.locator(".judged-head").inner_text() == f"Move {blunder['ply'] + 1} · Ann ?? Blunder"
    )
    assert page.locator("#analysis-reason").inner_text() == (
        "The move played lets Bob score 4 more points."
    )
    assert (
        "Better: " in step.inner_text()
        and "(31 % of the chance of winning lost)" in step.inner_text()
    )
    assert page.locator("#suggested").get_attribute("data-action") == blunder["suggestion"]
    assert page.locator("#played-move").get_attribute("data-action") == blunder["action"]
    assert "current" in (page.locator(f"#mark-{blunder['ply']}").get_attribute("class") or "")
    shot(page, "analysis-mark")
    # a second mark, by keyboard: focused, Enter; the focus stays on it
    page.focus(f"#mark-{mistake['ply']}")
    page.keyboard.press("Enter")
    at_step(page, mistake["ply"])
    assert page.evaluate("() => document.activeElement.id") == f"mark-{mistake['ply']}"
    assert page.locator("#analysis-reason").inner_text() == (
        "The move played loses your priest (a war or a revolt lost); the better move keeps it."
    )
    assert page.locator("#suggested").get_attribute("data-action") == mistake["suggestion"]
    assert page.locator("#played-move").get_attribute("data-action") == mistake["action"]
    # a third with Space, a fourth from the move list; a reason of unknown code says nothing
    page.focus(f"#mark-{inaccuracy['ply']}")
    page.keyboard.press(" ")
    at_step(page, inaccuracy["ply"])
    assert page.locator("#analysis-reason").inner_text() == (
        "The move played leaves your weakest colour, black, behind: your final score is your "
        "weakest colour, and the better move scores there."
    )
    page.click(f"#logmark-{unknown['ply']}")
    at_step(page, unknown["ply"])
    assert "? Mistake" in page.locator("#analysis-step .judged-head").inner_text()
    assert page.locator("#analysis-reason").count() == 0
    assert page.locator("#suggested").get_attribute("data-action") == unknown["suggestion"]
    # the same mark again: the same position
    page.click(f"#logmark-{unknown['ply']}")
    at_step(page, unknown["ply"])
    assert page.locator("#played-move").get_attribute("data-action") == unknown["action"]
    assert not page.errors, page.errors
    page.context.close()


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly on the screen, as the page is scrolled now."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def test_on_a_desktop_the_board_and_the_marks_judgement_are_seen_together(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    """At 1280 x 900 a mark's click shows, without scrolling, the better move drawn on the
    board and why it was better; scrolled down to the move list first, the board is still
    in view and the mark's judgement is brought into view."""
    game_id, analysis, _, _ = written
    page = open_replay(browser, server, game_id)
    blunder, mistake = (
        next(d for d in analysis["decisions"] if d["reason"] and d["reason"]["code"] == code)
        for code in ("gives-points", "loses-leader")
    )
    for dec in (blunder, mistake, blunder):  # twice the same: the same view
        page.locator(f"#mark-{dec['ply']}").click()
        at_step(page, dec["ply"])
        assert page.locator("#suggested").get_attribute("data-action") == dec["suggestion"]
        page.wait_for_function("() => document.getElementById('analysis-reason')")
        for selector in ("#suggested", "#played-move", "#analysis-reason", f"#mark-{dec['ply']}"):
            assert in_view(page, selector), selector
    shot(page, "analysis-desktop")
    # scrolled down to the move list's end, then up to a mark: the board has stayed in view
    page.locator("#log").scroll_into_view_if_needed()
    page.mouse.wheel(0, 5000)
    page.wait_for_function("() => scrollY > 0")
    assert in_view(page, "#boardsvg")
    page.locator(f"#mark-{mistake['ply']}").click()
    at_step(page, mistake["ply"])
    page.wait_for_function(
        "() => { const r = document.getElementById('analysis-reason')?.getBoundingClientRect();"
        " return r && r.top >= 0 && r.bottom <= innerHeight; }"
    )
    for selector in ("#suggested", "#played-move", "#analysis-reason"):
        assert in_view(page, selector), selector
    assert not page.errors, page.errors
    page.context.close()


def test_marks_one_move_apart_are_each_seen_and_clicked(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    """Two marks one move apart would share a place on the graph: one is moved aside, tied
    to its point; each can be clicked and goes to its own position (on a desktop and a
    phone, each twice)."""
    game_id, analysis, _, _ = written
    first, second = (
        next(d for d in analysis["decisions"] if d["reason"] and d["reason"]["code"] == code)
        for code in ("misses-treasure", "position")
    )
    assert second["ply"] == first["ply"] + 1
    for viewport in (VIEWPORT, {"width": 390, "height": 844}):
        page = open_replay(browser, server, game_id, viewport=viewport)
        # their shapes (what is seen and clicked) do not overlap
        a = page.locator(f"#mark-{first['ply']} .mark-shape").bounding_box()
        b = page.locator(f"#mark-{second['ply']} .mark-shape").bounding_box()
        apart = (
            a["x"] + a["width"] <= b["x"]
            or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"]
            or b["y"] + b["height"] <= a["y"]
        )
        assert apart, (a, b)
        assert page.locator("#analysis-graph .mark-tie").count() >= 1
        for dec in (first, second, first, second):
            page.locator(f"#mark-{dec['ply']}").click()
            at_step(page, dec["ply"])
            head = page.locator("#analysis-step .judged-head").inner_text()
            assert head.startswith(f"Move {dec['ply'] + 1} ·"), head
            assert MARK_WORD[dec["mark"]] in head
            assert page.locator("#suggested").get_attribute("data-action") == dec["suggestion"]
            mark = page.locator(f"#mark-{dec['ply']}")
            assert "current" in (mark.get_attribute("class") or "")
        # Tab goes through the marks in the order of the moves: the second after the first
        page.focus(f"#mark-{first['ply']}")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.id") == f"mark-{second['ply']}"
        page.keyboard.press("Enter")
        at_step(page, second["ply"])
        assert not page.errors, page.errors
        page.context.close()


def test_the_analysis_in_german_and_on_a_phone(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    game_id, analysis, _, _ = written
    page = open_replay(
        browser, server, game_id, locale="de-DE", viewport={"width": 390, "height": 844}
    )
    blunder = next(d for d in analysis["decisions"] if d["mark"] == "blunder")
    # the graph fits the screen and its words are drawn at their size, not shrunk; the
    # analysis is under the board, and nothing is wider than the screen
    box = page.locator("#analysis-graph").bounding_box()
    assert box["width"] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    board = page.locator("#boardsvg").bounding_box()
    assert board["y"] + board["height"] <= page.locator("#analysis").bounding_box()["y"]
    tick = page.locator(".graph-axis-y .graph-tick").last.bounding_box()
    assert tick["height"] >= 10
    assert page.locator(".graph-axis-x .graph-title").text_content() == "Zug"
    assert page.locator("#analysis-reliability").inner_text().startswith("Geprüft an 624")
    page.locator(f"#mark-{blunder['ply']}").click()
    at_step(page, blunder["ply"])
    assert page.locator("#analysis-reason").inner_text() == (
        "Der gespielte Zug lässt Bob 4 Punkte mehr machen."
    )
    assert "Genauigkeit" in page.locator("#analysis-summary thead").inner_text()
    shot(page, "analysis-phone-de")
    assert not page.errors, page.errors
    page.context.close()


def test_an_older_stored_analysis_still_reads(
    server: LiveServer, browser: Any, written: tuple[str, dict[str, Any], str, dict[str, Any]]
) -> None:
    """No reasons, no accuracy, no calibration: the page computes the accuracy, says the
    curve is rough and gives no reason."""
    _, _, game_id, analysis = written
    page = open_replay(browser, server, game_id)
    assert page.locator("#analysis-reliability").inner_text() == (
        "Not calibrated for this kind of game: read the curve as rough."
    )
    for e in analysis["summary"]:
        row = page.locator(f"#analysis-summary tr[data-seat='{e['seat']}']")
        assert row.locator(".accuracy").inner_text() == f"{seat_accuracy(e, analysis):.1f}"
    for d in [d for d in analysis["decisions"] if d["mark"]][:2]:
        page.locator(f"#mark-{d['ply']}").click()
        at_step(page, d["ply"])
        assert MARK_WORD[d["mark"]] in page.locator("#analysis-step").inner_text()
        assert page.locator("#analysis-reason").count() == 0
        assert page.locator("#suggested").get_attribute("data-action") == d["suggestion"]
    assert not page.errors, page.errors
    page.context.close()
