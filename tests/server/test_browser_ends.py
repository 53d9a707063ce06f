"""The table's loose ends (issue 40, points 9-20), each seen in real headless Chromium:
Enter ends a waiting turn and the hand-over screen keeps the keyboard; the galaxy harvest's
help asks for what its panel asks; an unknown player's page is a 404; a turn-based game
offers an absent seat to a bot after the pace's own time; the clock form's minimum is the
server's; invitation links with "Copy link" beside the seats; a replay without a stray
"null" or an absence notice; spectators without the turn signals; the special treasures'
star explained; placed pieces arrive with an animation unless reduced motion is asked for;
the chat beside the players, with times. (Point 9, the whole last turn marked, is in
test_browser_table.py; points 15 and 18, in test_browser_leaving.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import play_to_end
from browsing import chromium, scripted_server
from support.serving import LiveServer, SeatClient
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser
VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "ends")


@pytest.fixture(scope="module")
def confirming(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose pages hold a turn's last step 30 s (the "End turn" countdown)."""
    data = tmp_path_factory.mktemp("ends-confirm")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(messages_per_second=10_000, message_burst=10_000),
        confirm_seconds=30,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any, **context: Any) -> Any:
    page = browser.new_context(**{"viewport": VIEWPORT, **context}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def create(srv: LiveServer, **extra: Any) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    r = httpx.post(f"{srv.url}/api/games", json={**body, "seed": 7, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def place_first(page: Any) -> None:
    """Ann's action: her first hand tile on its first legal cell."""
    seq = page.evaluate("() => document.body.dataset.seq")
    page.locator(".hand-tile").first.click()
    page.locator("#boardsvg .hit.legal").first.click()
    page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)


def test_enter_ends_a_waiting_turn(confirming: LiveServer, browser: Any) -> None:
    g = create(confirming)
    ann = new_page(browser)
    ann.goto(confirming.url + g["seats"][0]["link"])
    ann.wait_for_selector("#hand")
    place_first(ann)
    ann.locator(".hand-tile").first.click()
    ann.locator("#boardsvg .hit.legal").first.click()
    ann.wait_for_selector("#confirm")
    assert "Enter ends the turn now" in ann.locator("#confirmkeys").inner_text()
    seq = ann.evaluate("() => document.body.dataset.seq")
    ann.keyboard.press("Enter")
    ann.wait_for_function("s => document.body.dataset.seq !== s", arg=seq)
    assert ann.locator("#confirm").count() == 0
    assert not ann.errors, ann.errors


def test_the_hand_over_screen_keeps_the_keyboard(server: LiveServer, browser: Any) -> None:
    g = create(server)
    tokens = ",".join(s["token"] for s in g["seats"])
    page = new_page(browser)
    page.goto(f"{server.url}/game/{g['id']}#t={tokens}")
    page.wait_for_selector("#hand")
    place_first(page)
    place_first(page)
    page.wait_for_selector("#passdevice")
    assert page.evaluate("() => document.activeElement.id") == "ready"
    for key in ("Tab", "Tab", "Shift+Tab", "Tab"):
        page.keyboard.press(key)
        assert page.evaluate("() => document.activeElement.closest('#passdevice') !== null")
    assert page.locator("#passdevice").get_attribute("aria-modal") == "true"
    assert not page.errors, page.errors


def test_the_galaxy_harvest_help_asks_what_its_panel_asks(server: LiveServer, browser: Any) -> None:
    g = create(server, options={"ruleset": "galaxy"})
    page = new_page(browser)
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    page.click("#helpbtn")
    page.wait_for_selector("#help")
    text = page.locator("#help").inner_text()
    # the panel of that moment: "click the one to harvest" (an alien artifact on the board)
    assert "Choose the resource your allied region harvests" not in text
    assert "click the alien artifact to harvest" in text


def test_an_unknown_player_is_a_404_page(server: LiveServer, browser: Any) -> None:
    page = new_page(browser)
    response = page.goto(server.url + "/players/NobodyAtAll")
    assert response.status == 404
    page.wait_for_selector("#notfound")
    assert "There is no player NobodyAtAll here" in page.locator("#notfound").inner_text()
    # the unknown game's page: its own words, no toast repeating the server's
    response = page.goto(server.url + "/game/0123456789ab")
    assert response.status == 404
    page.wait_for_selector("#notfound")
    page.wait_for_timeout(500)
    assert page.locator("#toast").is_hidden()
    assert not page.errors, page.errors


def test_a_turn_based_game_waits_the_paces_time_for_an_absent_friend(
    server: LiveServer, browser: Any
) -> None:
    pace = {"kind": "turn", "base": 3 * 3600, "level": "random"}
    g = create(server, pace=pace)
    page = new_page(browser)
    page.goto(server.url + "/")
    page.evaluate(
        "([id, c]) => localStorage.setItem('tne:' + id, JSON.stringify({creator: c}))",
        [g["id"], g["creator_token"]],
    )
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector(".player[data-seat='1'] .tobot-wait")
    assert "180 min" in page.locator(".player[data-seat='1'] .tobot-wait").inner_text()
    # the server says the same: not before the pace's time
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/seats/1/bot",
        json={"token": g["creator_token"], "level": "random"},
    )
    assert r.status_code == 409 and "10800 s" in r.json()["message"]
    assert not page.errors, page.errors


def test_the_clock_form_minimum_is_the_servers(server: LiveServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("#pace", "realtime")
    page.fill("#pace-minutes", "0.2")
    page.click("#create")
    page.wait_for_selector("#toast:not([hidden])")
    assert "at least 60 s" in page.locator("#toast").inner_text()
    assert page.evaluate("() => location.pathname") == "/"
    page.fill("#pace-minutes", "1")
    page.click("#create")
    page.wait_for_url("**/game/*")
    assert not page.errors, page.errors


def test_invitation_links_beside_the_seats_with_copy_link(server: LiveServer, browser: Any) -> None:
    page = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "friend")
    page.click("#create")
    page.wait_for_selector("#hand")
    invites = page.locator("#invites")
    assert invites.is_visible()
    # right after the players, not a collapsed card far down
    assert page.evaluate(
        "() => document.querySelector('#invites').previousElementSibling"
        ".querySelector('.players') !== null"
    )
    link = invites.locator("[data-invite='1'] input").input_value()
    assert "/game/" in link and "#t=" in link
    invites.locator("[data-invite='1'] .copylink").click()
    page.wait_for_function(
        "() => document.querySelector(\"[data-invite='1'] .copylink\").textContent === 'Copied'"
    )
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    assert not page.errors, page.errors


def test_a_replay_has_no_stray_null_and_no_absence_notice(server: LiveServer, browser: Any) -> None:
    g = create(server)
    seats = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    play_to_end(seats)
    for s in seats:
        s.close()
    page = new_page(browser)
    page.goto(server.url + "/")
    page.evaluate(
        "([id, c, t]) => localStorage.setItem('tne:' + id,"
        " JSON.stringify({creator: c, tokens: {a: t}}))",
        [g["id"], g["creator_token"], g["seats"][0]["token"]],
    )
    page.goto(f"{server.url}/replay/{g['id']}")
    page.wait_for_selector(".players .player")
    for step in (1, 2):
        text = page.locator("#app").inner_text()
        assert "null" not in text and "away" not in text
        assert page.locator(".tobot, .tobot-wait, .tohuman").count() == 0
        page.click("#next")
        page.wait_for_function("s => document.body.dataset.step === s", arg=str(step))
    assert not page.errors, page.errors


def test_spectators_see_no_turn_signals_and_the_star_is_explained(
    server: LiveServer, browser: Any
) -> None:
    g = create(server)
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/game/{g['id']}")
    watcher.wait_for_selector(".players .player")
    assert watcher.locator("#signals").count() == 0
    tips = watcher.locator("#boardsvg g.piece title").all_text_contents()
    special = [t for t in tips if "★" in t]
    assert len(special) == 4 and all("taken before the others" in t for t in special)
    ann = new_page(browser)
    ann.goto(server.url + g["seats"][0]["link"])
    ann.wait_for_selector("#signals")
    assert not watcher.errors and not ann.errors


def test_pieces_arrive_with_an_animation_unless_reduced_motion(
    server: LiveServer, browser: Any
) -> None:
    g = create(server)
    ann = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    view = ann.wait_view(lambda m: m["view"]["to_act"] == 0)
    pages = {}
    for motion in ("no-preference", "reduce"):
        page = new_page(browser, reduced_motion=motion)
        page.goto(f"{server.url}/game/{g['id']}")
        page.wait_for_selector(".players .player")
        pages[motion] = page
    move = next(a for a in view["view"]["legal_actions"] if a.startswith("tile "))
    ann.move(move)
    for motion, page in pages.items():
        # at the first frame that shows the step: the tile on its cell, moving or not
        seen = page.wait_for_function(
            """() => document.body.dataset.seq === '1' && {
              fresh: document.querySelectorAll('#boardsvg .fresh').length,
              running: document.getAnimations().length }"""
        ).json_value()
        assert page.locator(f"#boardsvg g.piece[data-at='{move.split()[2]}']").count() == 1
        if motion == "reduce":
            assert seen["fresh"] == seen["running"] == 0, seen
        else:
            assert seen["fresh"] >= 1 and seen["running"] >= 1, seen
    ann.close()


def test_the_chat_sits_beside_the_players_with_times(server: LiveServer, browser: Any) -> None:
    g = create(server)
    ann = new_page(browser)
    ann.goto(server.url + g["seats"][0]["link"])
    ann.wait_for_selector("#chatinput")
    ann.fill("#chatinput", "good luck")
    ann.press("#chatinput", "Enter")
    ann.wait_for_selector("#chatlines .chatline")
    line = ann.locator("#chatlines .chatline").first
    assert line.locator("time").inner_text().count(":") == 1
    # the chat comes right after the players, before the toggles and the log
    order = ann.evaluate(
        "() => [...document.querySelectorAll('.side > *')].map(e => e.id || e.className)"
    )
    assert order.index("chat") < order.index("card toggles")
    assert not ann.errors, ann.errors


OVERFLOW = """() => { const out = [];
  for (const card of document.querySelectorAll('#app .card, .side details')) {
    const edge = card.getBoundingClientRect().right;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width && r.right > edge + 1)
        out.push((el.id || el.tagName) + ': ' + el.textContent.slice(0, 40));
    }
  }
  return out; }"""


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR"])
def test_no_label_overflows_its_card(server: LiveServer, browser: Any, locale: str) -> None:
    g = create(server, options={"buildings": True, "wonder": True})
    for width in (1280, 390):
        page = new_page(browser, locale=locale, viewport={"width": width, "height": 900})
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        assert page.evaluate(OVERFLOW) == [], (locale, width, "lobby")
        page.goto(server.url + g["seats"][0]["link"])
        page.wait_for_selector("#hand")
        assert page.evaluate(OVERFLOW) == [], (locale, width, "game")
        assert not page.errors, page.errors
