"""The social table in real headless Chromium: the table chat (players write, spectators
read, text never HTML), a one-click rematch that brings everybody along, the "your turn"
signals (title, sound, notification in the background), and the rules help and first-game
hints."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, scripted_server, shot
from support.serving import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "social")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_game(server: LiveServer, seats: list[dict[str, Any]], seed: int = 1, **body: Any) -> Any:
    r = httpx.post(f"{server.url}/api/games", json={"seats": seats, "seed": seed, **body})
    assert r.status_code == 200, r.text
    return r.json()


def test_table_chat_players_write_spectators_read_as_text(server: LiveServer, browser: Any) -> None:
    g = new_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    ann, rail = browser.new_page(), browser.new_page()
    ann.goto(server.url + g["seats"][0]["link"])
    rail.goto(server.url + g["spectator_link"])
    ann.wait_for_selector("#chatinput")
    rail.wait_for_selector("#chat")
    assert "Only the players write here" in rail.locator("#chat").inner_text()
    assert rail.locator("#chatinput").count() == 0
    ann.fill("#chatinput", "<b>good luck</b> <img src=x onerror=alert(1)>")
    ann.press("#chatinput", "Enter")
    rail.wait_for_selector(".chatline")
    line = rail.locator(".chatline").first
    # after the line's time (issue 40, point 20), the name and the text as text
    assert line.locator("time").count() == 1
    shown = line.inner_text().removeprefix(line.locator("time").inner_text()).strip()
    assert shown == "Ann: <b>good luck</b> <img src=x onerror=alert(1)>"
    assert rail.locator(".chatline b").count() == 1  # only the name's own <b>
    assert rail.locator(".chatline img").count() == 0
    assert ann.locator("#chatinput").input_value() == ""
    # the input keeps what is being typed while the game moves on
    ann.fill("#chatinput", "half a sen")
    ann.focus("#chatinput")
    ann.click(".leader-chip[data-leader='black']")
    ann.click("[data-cell='g3'].legal")
    ann.wait_for_function("() => document.body.dataset.seq === '1'")
    assert ann.locator("#chatinput").input_value() == "half a sen"
    # the chat longer than the limit cannot be typed
    assert ann.locator("#chatinput").get_attribute("maxlength") == "300"
    shot(rail, "chat-spectator")
    # a later visitor reads the chat so far
    late = browser.new_page()
    late.goto(server.url + g["spectator_link"])
    late.wait_for_selector(".chatline")
    assert "good luck" in late.locator("#chatlines").inner_text()
    for p in (ann, rail, late):
        p.close()


def finished(server: LiveServer, seats: list[dict[str, Any]]) -> Any:
    """A game whose person's seat a bot played to the end."""
    g = new_game(server, seats, seed=11, chat="everyone")
    tok = g["seats"][0]["token"]
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/seats/0/bot", json={"token": tok, "level": "random"}
    )
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/games/{g['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    return g


def test_rematch_in_one_click_brings_the_table_along(server: LiveServer, browser: Any) -> None:
    g = finished(
        server,
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random", "name": "Rex"}],
    )
    ann, rail = browser.new_page(), browser.new_page()
    ann.set_viewport_size({"width": 1280, "height": 860})
    ann.goto(server.url + g["seats"][0]["link"])
    rail.goto(server.url + g["spectator_link"])
    ann.wait_for_selector("#endscreen #rematch")
    rail.wait_for_selector("#endscreen")
    assert rail.locator("#rematch").count() == 0  # spectators do not start one
    shot(ann, "rematch-offer")
    old = g["id"]
    ann.click("#endscreen #rematch")
    ann.wait_for_url(lambda url: "/game/" in url and old not in url)
    ann.wait_for_selector("#hand")
    new = ann.url.split("/game/")[1].split("#")[0]
    assert "Ann" in ann.locator("#hand h3").inner_text()  # the same seat, with no new link
    assert "Rex" in ann.locator(".players").inner_text()
    # the spectator of the old table is told, and follows in one click
    rail.wait_for_selector("#torematch")
    assert "A rematch has started" in rail.locator("#rematchnote").inner_text()
    rail.click("#torematch")
    rail.wait_for_url(f"**/game/{new}")
    rail.wait_for_selector(".players")
    assert rail.locator("#hand").count() == 0
    ann.close()
    rail.close()


SIGNALS = """
window.__signals = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, opts) { window.__signals.push(["notify", title, opts.body]); }
  close() {}
};
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const start = () => window.__signals.push(["sound"]);
    return { frequency: {}, connect() {}, start, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
  }
};
Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
localStorage.setItem("tne.table", JSON.stringify({ sound: true, notify: true }));
"""


def test_your_turn_title_sound_and_background_notification(
    server: LiveServer, browser: Any
) -> None:
    g = new_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    context = browser.new_context()
    context.add_init_script(SIGNALS)
    bob = context.new_page()
    bob.goto(server.url + g["seats"][1]["link"])
    bob.wait_for_selector(".players")
    assert not bob.title().startswith("▶")
    assert bob.locator("#pref-sound").is_checked() and bob.locator("#pref-notify").is_checked()
    bob.evaluate("() => { window.__hidden = true; }")  # Bob looks at another tab
    ann = browser.new_page()
    ann.goto(server.url + g["seats"][0]["link"])
    ann.wait_for_selector("#hand")
    for _ in range(2):
        seq = ann.evaluate("() => document.body.dataset.seq")
        ann.click("[data-action='pass']")
        ann.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
    bob.wait_for_function("() => document.body.dataset.myturn === '1'")
    assert bob.title().startswith("▶ Your turn")
    signals = bob.evaluate("() => window.__signals")
    assert ["sound"] in signals
    assert ["notify", "Tigris & Euphrates", "Your turn"] in signals
    ann.close()
    context.close()


def test_rules_help_and_first_game_hints(server: LiveServer, browser: Any) -> None:
    g = new_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert page.locator("#hints").is_checked()  # a browser's first game: hints on
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    page.check("#pref-hints")
    page.wait_for_selector("#hints")
    assert "2 action(s) left" in page.locator("#hints").inner_text()
    page.click(".hand-tile[data-colour='red']")
    legal = page.locator(".hit.legal").count()
    hint = page.locator("#hints").inner_text()
    assert f"A temple can go on {legal} cells" in hint and "Only on land" in hint
    page.click(".leader-chip[data-leader='black']")
    legal = page.locator(".hit.legal").count()
    assert f"Your king can go on {legal} cells" in page.locator("#hints").inner_text()
    shot(page, "hints")
    # the rules, with every decision panel explained
    page.click("#helpbtn")
    page.wait_for_selector("#help")
    text = page.locator("#help").inner_text()
    for title in (
        "The goal",
        "Tiles",
        "Leaders",
        "Revolt",
        "War",
        "Catastrophes",
        "End of the game",
    ):
        assert title in text
    stages = page.locator("#help section[data-stage]").evaluate_all(
        "els => els.map(e => e.dataset.stage)"
    )
    assert {"action", "conflict", "war", "monument", "treasure", "harvest"} <= set(stages)
    assert page.locator("#help .swatch").count() == 4 and page.locator("#help svg.helppic").count()
    shot(page, "rules-help")
    page.click("#helpclose")
    assert page.locator("#help").count() == 0
    page.close()


def test_every_decision_panel_explains_itself(server: LiveServer, browser: Any) -> None:
    g = new_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    ann, bob = browser.new_page(), browser.new_page()
    for page, seat in ((ann, 0), (bob, 1)):
        page.set_viewport_size({"width": 1280, "height": 860})
        page.goto(server.url + g["seats"][seat]["link"])
        page.wait_for_selector("#hand")
    # seed 1: Ann's king beside the temple f3, then Bob's king into the same kingdom
    ann.click(".leader-chip[data-leader='black']")
    ann.click("[data-cell='g3'].legal")
    ann.wait_for_function("() => document.body.dataset.seq === '1'")
    ann.click("[data-action='pass']")
    bob.wait_for_function("() => document.body.dataset.myturn === '1'")
    bob.click(".leader-chip[data-leader='black']")
    bob.click("[data-cell='f4'].legal")
    bob.wait_for_selector("#decision .vs")
    bob.click("#decision .explain summary")
    assert "the attacker commits first" in bob.locator("#decision .explain").inner_text()
    shot(bob, "decision-explained")
    ann.close()
    bob.close()
