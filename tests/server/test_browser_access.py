"""The accessible table (issue 31, points 16-19 and the colour-blind-safe palette of point
4), in real headless Chromium: a game played with the keyboard only (the focus kept on its
cell while the page is drawn again), the labels a screen reader reads, the phone layout
(390×844), the preferences kept across reloads, and the page in German and French.

Scripted games: a seeded game is played through websockets (``SeatClient``) up to the
moment a test needs, then the seat's page is opened, as in test_browser_table.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, scripted_server, shot, wait_seq_change
from support.serving import LiveServer, SeatClient
from tigris_euphrates import apply, new_game, player_view, to_act

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
COLOURS = ["red", "blue", "green", "black"]
ACTIVE_CELL = (
    "() => { const e = document.activeElement;"
    " return e && e.classList.contains('hit') ? e.dataset.cell : null; }"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "access")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def create(server: LiveServer, seed: int, **options: Any) -> dict[str, Any]:
    body = {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "seed": seed,
        "options": options,
    }
    g: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body).json()
    return g


def open_seat(
    browser: Any,
    server: LiveServer,
    g: dict[str, Any],
    seat: int,
    viewport: dict[str, int] = VIEWPORT,
    locale: str = "en-US",
) -> Any:
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + g["seats"][seat]["link"])
    page.wait_for_selector("#status:not(:empty)")
    return page


def press(page: Any, *keys: str) -> None:
    """Keys that end in a move: wait for the page to show the next view."""
    seq = page.evaluate("() => document.body.dataset.seq")
    for key in keys:
        page.keyboard.press(key)
    wait_seq_change(page, seq)


def walk_to(page: Any, target: str) -> None:
    """Arrow keys from the focused cell to ``target``."""
    here = page.evaluate(ACTIVE_CELL)
    dc, dr = ord(target[0]) - ord(here[0]), int(target[1:]) - int(here[1:])
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    assert page.evaluate(ACTIVE_CELL) == target


def to_conflict(seed: int) -> tuple[list[str], list[int]]:
    """A random game of two up to its first conflict's support decision."""
    state, rng = new_game({"players": 2}, seed), random.Random(seed)
    actions: list[str] = []
    actors: list[int] = []
    while not state.over:
        seat = to_act(state)
        assert seat is not None
        view = player_view(state, seat)
        if view["pending"] and view["pending"].get("conflict"):
            return actions, actors
        action = rng.choice(view["legal_actions"])
        actions.append(action)
        actors.append(seat)
        state, _ = apply(state, action)
    raise LookupError(f"seed {seed}: no conflict")


def drive(server: LiveServer, g: dict[str, Any], actions: list[str], actors: list[int]) -> None:
    clients = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    for step, action in enumerate(actions):
        c = clients[actors[step]]
        c.wait_view(lambda m, s=step: m["seq"] == s)
        c.move(action, seq=step)
    clients[0].wait_view(lambda m: m["seq"] == len(actions))
    for c in clients:
        c.close()


def test_a_game_by_keyboard_with_the_focus_kept(server: LiveServer, browser) -> None:
    """16: Ann and Bob play two turns with keys only (a leader, a tile, a pass, a swap);
    arrow keys walk the board, the focus stays on its cell while the page is redrawn (her
    own moves, then Bob's), and cells and pieces carry labels for a screen reader."""
    g = create(server, 1)  # seed 1: Ann's king fits on g3, beside the temple f3
    ann, bob = open_seat(browser, server, g, 0), open_seat(browser, server, g, 1)
    ann.wait_for_selector("#hand")
    # the keys are listed in the page ("?" opens the list)
    ann.keyboard.press("?")
    assert ann.locator("#keys").get_attribute("open") is not None
    keys = ann.locator("#keys").inner_text()
    assert "Arrow keys" in keys and "Shift+1–4" in keys and "P: pass" in keys
    # Shift+4: the king; the focus goes to the board, on a cell where he may go
    ann.keyboard.press("Shift+Digit4")
    assert (
        ann.locator("#hand .leader-chip[data-leader='black']")
        .get_attribute("class")
        .endswith("sel")
    )
    assert ann.evaluate("() => document.activeElement.classList.contains('legal')")
    walk_to(ann, "g3")
    label = ann.locator("[data-cell='g3']").get_attribute("aria-label")
    assert "playable: king to g3" in label
    press(ann, "Enter")
    assert ann.locator("#log .entry").last.inner_text() == "Ann places the king"
    assert ann.evaluate(ACTIVE_CELL) == "g3"  # the focus survived the redraw
    # screen-reader labels: the cell says what stands there, the piece names itself
    assert "king of Ann" in ann.locator("[data-cell='g3']").get_attribute("aria-label")
    assert ann.locator("[data-cell='g3']").get_attribute("role") == "button"
    assert "king · Ann" in ann.locator("#boardsvg .leader[data-at='g3']").get_attribute(
        "aria-label"
    )
    assert "temple" in ann.locator("#boardsvg .piece[data-at='f3']").get_attribute("aria-label")
    assert ann.locator("#status").get_attribute("aria-live") == "polite"  # turns are announced
    # W: to the withdraw buttons (the king on the board may be withdrawn)
    ann.keyboard.press("w")
    assert ann.evaluate("() => document.activeElement.dataset.action") == "withdraw black"
    assert ann.locator("[data-action='withdraw black']").get_attribute("aria-keyshortcuts") == "W"
    # a tile by its number key (1-4: red, blue, green, black), then N: the next legal cell
    colour = ann.locator("#hand .hand-tile").first.get_attribute("data-colour")
    key = str(COLOURS.index(colour) + 1)
    assert ann.locator("#hand .hand-tile").first.get_attribute("aria-keyshortcuts") == key
    ann.keyboard.press(key)
    first = ann.evaluate(ACTIVE_CELL)
    ann.keyboard.press("n")
    second = ann.evaluate(ACTIVE_CELL)
    assert second != first
    assert ann.locator(f"[data-cell='{second}']").get_attribute("class") == "hit legal"
    press(ann, " ")
    assert ann.locator("#log .entry").last.inner_text().startswith("Ann places a ")
    assert ann.evaluate(ACTIVE_CELL) == second
    # Bob: P passes, S opens the swap, a number key picks a tile, S swaps
    bob.wait_for_function("() => document.body.dataset.myturn === '1'")
    press(bob, "p")
    bob.keyboard.press("s")
    bob.wait_for_selector("#swapgo")
    colour = bob.locator("#hand .hand-tile").first.get_attribute("data-colour")
    bob.keyboard.press(str(COLOURS.index(colour) + 1))
    assert bob.locator("#hand .hand-tile.sel").count() == 1
    press(bob, "s")
    ann.wait_for_function("() => document.body.dataset.seq === '4'")
    log = ann.locator("#log").inner_text()
    assert "Bob passes" in log and "Bob swaps 1 tile" in log
    # Ann's page was drawn again for each of Bob's moves: her focus stayed on its cell
    assert ann.evaluate(ACTIVE_CELL) == second
    # the board is one Tab stop: B goes to it, arrows stop at its edge
    ann.keyboard.press("b")
    walk_to(ann, "a1")
    ann.keyboard.press("ArrowLeft")
    ann.keyboard.press("ArrowUp")
    assert ann.evaluate(ACTIVE_CELL) == "a1"
    assert ann.locator("#boardsvg .hit[tabindex='0']").count() == 1
    assert not ann.errors and not bob.errors, ann.errors + bob.errors
    ann.context.close()
    bob.context.close()


def test_a_conflict_decided_by_number_keys(server: LiveServer, browser) -> None:
    """16: in a decision the number keys press its buttons in order (here: the support)."""
    seed = next(s for s in range(1, 40) if _has_conflict(s))
    actions, actors = to_conflict(seed)
    g = create(server, seed)
    drive(server, g, actions, actors)
    view = httpx.get(f"{server.url}/api/games/{g['id']}/view").json()["view"]
    seat = view["to_act"]
    page = open_seat(browser, server, g, seat)
    page.wait_for_selector("#decision [data-action]")
    # 17: on a phone the decision comes before the hand and the log, on the first screen
    page.set_viewport_size(PHONE)
    tops = page.evaluate(
        "() => ['#decision', '#log']"
        ".map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    assert tops[0] < tops[1] and tops[0] < PHONE["height"] - 100
    page.set_viewport_size(VIEWPORT)
    buttons = page.locator("#decision button[data-action]")
    first = buttons.first.get_attribute("data-action")
    assert buttons.first.get_attribute("aria-keyshortcuts") == "1"
    press(page, "1")
    seq = len(actions) + 1
    page.wait_for_function(f"() => document.body.dataset.seq === '{seq}'")
    n = first.split()[1]
    assert f"adds {n} in support" in page.locator("#log").inner_text()
    assert not page.errors, page.errors
    page.context.close()


def _has_conflict(seed: int) -> bool:
    try:
        to_conflict(seed)
    except LookupError:
        return False
    return True


def test_the_phone_layout(server: LiveServer, browser) -> None:
    """17: on a 390×844 phone the board's cells are large enough to touch (the board pans
    inside its box; the page itself does not scroll sideways), and the hand comes right
    after the board, before the log, on the first screen."""
    g = create(server, 1)
    page = open_seat(browser, server, g, 0, viewport=PHONE)
    page.wait_for_selector("#hand")
    box = page.locator("#hand").bounding_box()
    assert box is not None and box["y"] < PHONE["height"] - 60  # its tiles show unscrolled
    log = page.locator("#log").bounding_box()
    assert log is not None and box["y"] < log["y"]
    order = page.evaluate(
        "() => ['#hand', '#supply', '#log'].map(s => document.querySelector(s)"
        ".getBoundingClientRect().top)"
    )
    assert order == sorted(order)
    cell = page.locator("[data-cell='a1']").bounding_box()
    assert cell is not None and cell["width"] >= 40  # a finger's target, not 24 px
    pans = page.evaluate(
        "() => { const b = document.querySelector('#board'); return [b.scrollWidth, b.clientWidth,"
        " document.documentElement.scrollWidth]; }"
    )
    assert pans[0] > pans[1] and pans[2] <= PHONE["width"]
    assert page.locator("input[data-pref='zoom']").is_checked()
    # a tap on the king, a tap on g3 (scrolled into view inside the board): the move is made
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#hand .leader-chip[data-leader='black']")
    page.click("[data-cell='g3'].legal")
    wait_seq_change(page, seq)
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "access-phone")
    # the fitted board stays on offer: then the whole board fits the screen's width
    page.locator("input[data-pref='zoom']").uncheck()
    width = page.locator("#boardsvg").bounding_box()
    assert width is not None and width["width"] <= PHONE["width"]
    assert not page.errors, page.errors
    page.context.close()


def test_preferences_persist_after_a_reload(server: LiveServer, browser) -> None:
    """18 and the palette of 4: kingdoms, strengths, coordinates, the colour-blind-safe
    palette and the language stay as chosen in this browser, in this game and the next."""
    g = create(server, 1)
    page = open_seat(browser, server, g, 0)
    page.wait_for_selector("#hand")
    assert page.evaluate("() => document.body.dataset.palette") == "theme"
    red = "() => getComputedStyle(document.documentElement).getPropertyValue('--red').trim()"
    assert page.evaluate(red) == "#c62828"
    for pref, on in (("kingdoms", False), ("strengths", True), ("coords", True), ("palette", True)):
        box = page.locator(f"input[data-pref='{pref}']")
        box.set_checked(on)
    # the page was drawn again: the toggle keeps the focus, Space toggles it back and forth
    assert page.evaluate("() => document.activeElement.dataset.pref") == "palette"
    page.keyboard.press("Space")
    page.keyboard.press("Space")
    assert page.locator("input[data-pref='palette']").is_checked()
    assert page.evaluate(red) == "#d55e00"
    page.reload()
    page.wait_for_selector("#hand")
    for pref, on in (("kingdoms", False), ("strengths", True), ("coords", True), ("palette", True)):
        assert page.locator(f"input[data-pref='{pref}']").is_checked() == on, pref
    assert page.locator("#boardsvg text.coord").count() == 16 + 11
    assert page.evaluate(red) == "#d55e00"
    assert page.evaluate("() => document.body.dataset.palette") == "safe"
    # the hand's red tiles and the board's temples take the safe red
    fill = page.evaluate(
        "() => getComputedStyle("
        "document.querySelector('#boardsvg .piece[data-tile=red] rect')).fill"
    )
    assert fill == "rgb(213, 94, 0)"
    # another game in the same browser starts with the same choices
    other = create(server, 2)
    page.goto(server.url + other["seats"][0]["link"])
    page.wait_for_selector("#hand")
    assert page.locator("input[data-pref='coords']").is_checked()
    assert not page.locator("input[data-pref='kingdoms']").is_checked()
    assert page.evaluate("() => document.body.dataset.palette") == "safe"
    shot(page, "access-palette")
    # the language switch: French, kept on reload and in the lobby
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_selector("#hand")
    assert page.locator("#status").inner_text().startswith("À vous — encore 2 actions")
    page.reload()
    page.wait_for_selector("#hand")
    assert page.locator("#hand h3").inner_text().startswith("Votre main")
    shot(page, "access-french")
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert page.locator("#create").inner_text() == "Commencer la partie"
    assert not page.errors, page.errors
    page.context.close()


def test_the_page_in_german_from_the_browser_language(server: LiveServer, browser) -> None:
    """19: a browser that prefers German gets the lobby and the game in German, the galaxy
    game in its German space words, with the switch showing Deutsch."""
    context = browser.new_context(viewport=VIEWPORT, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    assert page.locator("#lang").input_value() == "de"
    assert page.locator("#lang option:checked").inner_text() == "Deutsch"
    text = page.locator("main").inner_text()
    for words in ("Neues Spiel", "Spiel starten", "Englische Variante", "Spiele", "Regeln"):
        assert words in text, words
    assert page.title() == "Euphrat & Tigris"
    assert page.locator("header .brand").inner_text() == "Euphrat & Tigris"
    bots = page.locator("select[data-seat='1'] option").all_inner_texts()
    assert "Bot — schwer" in bots and "Ich (dieser Browser)" in bots
    g = create(server, 1)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    assert page.locator("#status").inner_text().startswith("Du bist am Zug — noch 2 Aktionen")
    assert page.locator("#hand h3").inner_text().startswith("Deine Hand — Ann")
    chips = page.locator("#hand .leader-chip").all_inner_texts()
    assert sorted(c.split(" ", 1)[1] for c in chips) == ["Bauer", "Händler", "König", "Priester"]
    titles = set(page.locator("#hand .hand-tile").evaluate_all("els => els.map(e => e.title)"))
    assert titles <= {"Tempel", "Bauernhof", "Markt", "Siedlung"}
    side = page.locator(".side").inner_text()
    for words in ("Spieler", "Protokoll", "Vorrat", "Koordinaten", "Tastatur"):
        assert words in side, words
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#hand .leader-chip[data-leader='black']")
    page.click("[data-cell='g3'].legal")
    wait_seq_change(page, seq)
    assert page.locator("#log .entry").last.inner_text() == "Ann setzt den König ein"
    shot(page, "access-german")
    space = create(server, 3, ruleset="galaxy")
    page.goto(server.url + space["seats"][0]["link"])
    page.wait_for_selector("#hand")
    assert page.locator("#hand h3").inner_text().startswith("Deine Flotte")
    assert page.title().endswith("Euphrat & Tigris: Galaxy")
    assert not errors, errors
    context.close()


def test_hotseat_by_keyboard(server: LiveServer, browser) -> None:
    """16 in hotseat: P passes twice, the hand-over screen takes the focus, Enter shows the
    next player's hand."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "here")
    page.click("#create")
    page.wait_for_selector("#hand")
    first = page.locator("#hand h3").inner_text()
    press(page, "p")
    press(page, "p")
    page.wait_for_selector("#passdevice")
    assert page.evaluate("() => document.activeElement.id") == "ready"
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand")
    assert page.locator("#passdevice").count() == 0
    assert page.locator("#hand h3").inner_text() != first
    page.close()
