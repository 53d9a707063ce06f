"""Motion that tells what happened, in real headless Chromium, and what reads calmer: a
placed tile is on its cell and the next targets are there at once while it slides in; a
catastrophe's victim fades where it stood; a scored point flies to its owner's score; none
of it with the page's "reduce motion" preference or the system's setting; a replay moves
one step forward, never a jump. A lesson and a suggested move name cells: the board shows
the coordinates then (the preference left as it was). The kingdoms are a light wash with a
thin edge. The phone lobby fits 390 px without a sideways scroll.

No timing is asserted: each check reads the page at the first frame after the step is on
screen (the animations started with it are still running then: they last 0.4 s); the
flying points are recorded as the page adds them."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, shot
from support.serving import LiveServer
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser
VIEWPORT = {"width": 1280, "height": 900}
PASSWORD = "correct horse battery"

# what the page shows at the first frame after the step is drawn (seq: the step before)
AFTER_STEP = """s => document.body.dataset.seq !== s && {
  seq: document.body.dataset.seq,
  motion: +(document.body.dataset.motion || 0),
  running: document.getAnimations().length,
  fresh: [...document.querySelectorAll('#boardsvg .fresh')]
    .map(e => e.dataset.at || e.dataset.cell || e.id),
  ghosts: document.querySelectorAll('#board svg.ghosts > *').length,
  flying: window.flown.filter(f => f.seq === document.body.dataset.seq).map(f => f.cls),
  flights: window.flown.filter(f => f.seq === document.body.dataset.seq).map(f => [f.seat, f.to]),
}"""
# every flying point the page adds, kept after it lands (it is gone within half a second)
WATCH_FLIGHTS = """window.flown = [];
new MutationObserver(changes => { for (const c of changes) for (const n of c.addedNodes)
  if (n.classList && n.classList.contains('fly-point')) window.flown.push({
    seq: document.body.dataset.seq, cls: n.className, seat: +n.dataset.seat, to: n.dataset.to,
  }); }).observe(document, { childList: true, subtree: true });"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("motion")
    limits = Limits(
        messages_per_second=10_000,
        message_burst=10_000,
        hint_iterations=60,
        sign_ups_per_client=100,
    )
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=limits,
        confirm_seconds=0,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any, **context: Any) -> Any:
    page = browser.new_context(**{"viewport": VIEWPORT, **context}).new_page()
    page.add_init_script(WATCH_FLIGHTS)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def create(server: LiveServer, **extra: Any) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    r = httpx.post(f"{server.url}/api/games", json={**body, "seed": 7, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def seq_of(page: Any) -> str:
    return str(page.evaluate("() => document.body.dataset.seq"))


def after_step(page: Any, seq: str) -> dict[str, Any]:
    return dict(page.wait_for_function(AFTER_STEP, arg=seq).json_value())


def place_tile(page: Any) -> tuple[str, str, str]:
    """A hand tile on its first legal cell, by clicks: (colour, cell, step before)."""
    page.wait_for_selector("#hand .hand-tile")
    seq = seq_of(page)
    tile = page.locator("#hand .hand-tile").first
    colour = tile.get_attribute("data-colour")
    tile.click()
    target = page.locator("#boardsvg .hit.legal").first
    cell = target.get_attribute("data-cell")
    target.click()
    return colour, cell, seq


def test_a_placed_tile_is_on_its_cell_at_once_and_slides_in(
    server: LiveServer, browser: Any
) -> None:
    g = create(server)
    ann, bob = new_page(browser), new_page(browser)
    ann.goto(server.url + g["seats"][0]["link"])
    bob.goto(server.url + g["seats"][1]["link"])
    bob.wait_for_selector(".players .player")
    colour, cell, seq = place_tile(ann)
    seen = after_step(ann, seq)
    # the tile is on its cell and the board's targets are all there while it moves
    piece = ann.locator(f"#boardsvg g.piece[data-at='{cell}']")
    assert piece.get_attribute("data-tile") == colour
    assert ann.locator("#boardsvg .hit").count() == 16 * 11
    assert seen["motion"] >= 1 and seen["running"] >= 1 and cell in seen["fresh"], seen
    # the moving piece takes no click: the cells' targets above it do
    assert piece.evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    # Ann's second action: a hand tile picked lights its cells at once
    ann.locator("#hand .hand-tile").first.click()
    assert ann.locator("#boardsvg .hit.legal").count() > 0
    # Bob sees Ann's tile arrive from her side of the table
    bob_seen = after_step(bob, seq)
    assert cell in bob_seen["fresh"] and bob_seen["motion"] >= 1, bob_seen
    assert bob.locator(f"#boardsvg g.piece[data-at='{cell}']").count() == 1
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


@pytest.mark.parametrize("how", ["preference", "system"])
def test_reduce_motion_moves_nothing(server: LiveServer, browser: Any, how: str) -> None:
    g = create(server)
    if how == "system":
        ann = new_page(browser, reduced_motion="reduce")
        ann.goto(server.url + g["seats"][0]["link"])
    else:
        ann = new_page(browser)
        ann.goto(server.url + g["seats"][0]["link"])
        ann.check("input[data-pref='reduceMotion']")
        saved = ann.evaluate("() => JSON.parse(localStorage.getItem('tne-prefs'))")
        assert saved["reduceMotion"] is True
    colour, cell, seq = place_tile(ann)
    seen = after_step(ann, seq)
    assert ann.locator(f"#boardsvg g.piece[data-at='{cell}']").get_attribute("data-tile") == colour
    assert seen["motion"] == 0 and seen["running"] == 0, seen
    assert not seen["fresh"] and not seen["ghosts"] and not seen["flying"], seen
    assert not ann.errors, ann.errors


def test_a_lesson_shows_coordinates_and_its_point_flies_to_the_score(
    server: LiveServer, browser: Any
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/tutorial/tiles")
    page.wait_for_selector("#lesson")
    # the lesson names its cells ("the temple at i7"): the board shows where they are
    assert re.search(r"\bi7\b", page.locator("#lesson").inner_text())
    assert page.locator("#boardsvg text.coord").count() == 16 + 11
    seq = seq_of(page)
    page.click("#hand .hand-tile[data-colour='green']")
    page.click(".hit.legal[data-cell='j7']")
    seen = after_step(page, seq)
    # the green point flies from the board to the learner's green score
    assert any("c-green" in f for f in seen["flying"]), seen
    assert page.locator(".player[data-seat='0'] .chip[data-points='green']").count() == 1
    assert page.locator("#boardsvg text.coord").count() == 16 + 11
    shot(page, "motion-lesson-point")
    # the board preference is as it was: a game's board shows no coordinates
    g = create(server)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#boardsvg .hit")
    assert page.locator("#boardsvg text.coord").count() == 0
    assert not page.locator("input[data-pref='coords']").is_checked()
    assert not page.errors, page.errors


def test_a_hidden_score_takes_its_points_to_the_hidden_mark(
    server: LiveServer, browser: Any
) -> None:
    """Hidden scoring: Ann's red point flies to her red chip on her page, to her "hidden"
    mark on Bob's page, which shows none of her scores."""
    g = create(server, seed=1)  # Ann's king fits on g3, beside the temple f3
    ann, bob = new_page(browser), new_page(browser)
    ann.goto(server.url + g["seats"][0]["link"])
    bob.goto(server.url + g["seats"][1]["link"])
    bob.wait_for_selector(".players .player")
    ann.wait_for_selector("#hand .leader-chip[data-leader='black']")
    seq = seq_of(ann)
    ann.click("#hand .leader-chip[data-leader='black']")
    ann.click(".hit.legal[data-cell='g3']")
    after_step(ann, seq)
    hidden = bob.locator(".player[data-seat='0'] .score-total").inner_text()
    seq = seq_of(ann)
    ann.click("#hand .hand-tile[data-colour='red']")
    ann.click(".hit.legal[data-cell='f2']")  # a red tile in the king's kingdom: a red point
    mine, theirs = after_step(ann, seq), after_step(bob, seq)
    assert [0, "red"] in mine["flights"], mine
    assert theirs["flights"] == [[0, "hidden"]], theirs
    assert bob.locator(".player[data-seat='0'] [data-points]").count() == 0
    assert bob.locator(".player[data-seat='0'] .score-total").inner_text() == hidden
    assert (
        ann.locator(".player[data-seat='0'] .chip[data-points='red']").inner_text().startswith("1")
    )
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_a_catastrophe_fades_the_tile_it_destroys(server: LiveServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/tutorial/catastrophes")
    page.wait_for_selector("#catastrophe")
    assert page.locator("#boardsvg g.piece[data-at='k7']").count() == 1
    seq = seq_of(page)
    page.click("#catastrophe")
    page.click(".hit.legal[data-cell='k7']")
    seen = after_step(page, seq)
    # the board is final at once: the catastrophe stands on k7, its tile is gone...
    assert page.locator("#boardsvg g.catastrophe[data-at='k7']").count() == 1
    assert page.locator("#boardsvg > g.piece[data-at='k7']").count() == 0
    # ...and a copy of the tile fades where it stood, in a picture over the board that
    # takes no click (the click targets under it stay)
    assert seen["ghosts"] >= 1 and "k7" in seen["fresh"], seen
    layer = page.locator("#board svg.ghosts")
    if layer.count():  # (gone once faded)
        assert layer.evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    assert page.locator("#boardsvg .hit").count() == 16 * 11
    assert not page.errors, page.errors


def test_a_monument_rises(server: LiveServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/tutorial/monuments")
    page.wait_for_selector("#hand .hand-tile[data-colour='black']")
    seq = seq_of(page)
    page.click("#hand .hand-tile[data-colour='black']")
    page.click(".hit.legal[data-cell='i6']")
    after_step(page, seq)
    seq = seq_of(page)
    page.click("#decision [data-action='monument green-black h5']")
    seen = after_step(page, seq)
    assert page.locator("#boardsvg g.monument[data-monument='green-black']").count() == 1
    assert "h5" in seen["fresh"] and seen["running"] >= 1, seen
    assert not page.errors, page.errors


def test_a_suggested_move_naming_a_cell_shows_coordinates(server: LiveServer, browser: Any) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]}
    g = httpx.post(f"{server.url}/api/games", json={**body, "seed": 3}).json()
    page = new_page(browser)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#suggestbtn")
    assert page.locator("#boardsvg text.coord").count() == 0
    page.click("#suggestbtn")
    page.wait_for_selector("#hint-why", timeout=120_000)  # the bots' workers start first
    action = page.locator("#hint-move").get_attribute("data-action")
    names_cell = action.split(" ")[0] in (
        "tile",
        "leader",
        "catastrophe",
        "treasure",
        "monument",
        "wonder",
        "building",
    )
    assert page.locator("#boardsvg text.coord").count() == (16 + 11 if names_cell else 0)
    assert not page.locator("input[data-pref='coords']").is_checked()
    assert not page.errors, page.errors


def finished_game(server: LiveServer) -> str:
    seats = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    g = httpx.post(f"{server.url}/api/games", json={"seats": seats, "seed": 5}).json()
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/games/{g['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    return str(g["id"])


def test_a_replay_moves_one_step_forward_never_a_jump(server: LiveServer, browser: Any) -> None:
    game = finished_game(server)
    page = new_page(browser)
    page.goto(f"{server.url}/replay/{game}")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.click("#next")
    step = page.wait_for_function(
        "() => document.body.dataset.step === '1' && +document.body.dataset.motion"
    ).json_value()
    assert step >= 1
    page.click("#replay .actions button >> nth=4")  # » to the last step: a jump
    page.wait_for_function("() => +document.body.dataset.step > 1")
    assert page.evaluate("() => document.body.dataset.motion") == "0"
    assert page.evaluate("() => document.querySelectorAll('#boardsvg .fresh').length") == 0
    assert not page.errors, page.errors


def test_the_kingdoms_are_a_light_wash_with_a_thin_edge(server: LiveServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/tutorial/tiles")
    page.wait_for_selector("#boardsvg rect.tint")
    fills = page.locator("#boardsvg rect.tint:not(.war-side)").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))"
    )
    for fill in fills:
        wash = re.fullmatch(r"hsla\(\d+,(\d+)%,\d+%,([.\d]+)\)", fill)
        assert wash and int(wash[1]) <= 60 and float(wash[2]) <= 0.3, fill
    kingdoms = set(
        page.locator("#boardsvg rect.tint").evaluate_all("els => els.map(e => e.dataset.kingdom)")
    )
    edges = page.locator("#boardsvg path.tint-edge")
    assert edges.count() == len(kingdoms) >= 1
    width = edges.first.evaluate("e => parseFloat(getComputedStyle(e).strokeWidth)")
    assert 0 < width <= 1.5
    assert not page.errors, page.errors


def signed_up(browser: Any, server: LiveServer, stem: str, **context: Any) -> Any:
    page = new_page(browser, **context)
    api = page.context.request
    csrf = api.get(server.url + "/api/account").json()["csrf"]
    name = f"{stem}{uuid.uuid4().hex[:5]}"
    r = api.post(
        server.url + "/api/account/signup",
        data={"name": name, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.ok, r.text()
    page.csrf = api.get(server.url + "/api/account").json()["csrf"]
    return page


def test_the_phone_lobby_fits_390_px(server: LiveServer, browser: Any) -> None:
    # a lobby as full as it gets: listed games of long names and options, open tables
    for seed in range(3):
        seats = [
            {"kind": "human", "name": "Annabelle-Marguerite"},
            {"kind": "human", "name": "Bartholomew"},
            {"kind": "bot", "level": "random"},
        ]
        options = {"players": 3, "buildings": True, "wonder": True, "english_variant": True}
        body = {"seats": seats, "options": options, "seed": seed, "listed": True}
        assert httpx.post(f"{server.url}/api/games", json=body).status_code == 200
    host = signed_up(browser, server, "Maximiliane")
    table = {
        "players": 4,
        "options": {"buildings": True, "wonder": True, "english_variant": True},
        "pace": {"kind": "realtime", "base": 600, "increment": 10},
    }
    r = host.context.request.post(
        server.url + "/api/tables", data=table, headers={"X-CSRF-Token": host.csrf}
    )
    assert r.ok, r.text()
    phone = {"viewport": {"width": 390, "height": 844}}
    for page in (new_page(browser, **phone), signed_up(browser, server, "Konstantin", **phone)):
        page.goto(server.url + "/")
        page.wait_for_selector("#open-tables tr td")
        page.wait_for_selector("#publicgames tbody tr td a")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        # every card within the screen: what is wider scrolls inside its card
        rights = page.locator(".lobby .card").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().right)"
        )
        assert rights and max(rights) <= 390, rights
        assert not page.errors, page.errors
    shot(page, "lobby-phone")
