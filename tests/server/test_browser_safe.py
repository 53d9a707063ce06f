"""Safe play in real headless Chromium: the turn's last step waits for "End turn", passing
asks, undo takes back the turn's actions, a lost connection blocks input behind a banner
until the view is fresh, unknown games get a not-found page, private games stay out of the
public lobby, and a seat goes to a bot of the player's chosen level (a friend's seat only
after a fair chance to come)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browsing import chromium, shot, wait_seq_change
from support.serving import PATIENCE_MS, LiveServer, SeatClient
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser

#: the turn's last step waits this long (long enough for a test to cancel it)
CONFIRM = 4.0


def live(data: Path, port: int | None = None, **limits: float) -> LiveServer:
    srv = LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(messages_per_second=10_000, message_burst=10_000, **limits),
        confirm_seconds=CONFIRM,
    )
    if port is not None:  # the same address again (a restarted server)
        srv.port = port
        srv.url, srv.ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    return srv


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live(tmp_path_factory.mktemp("safe")) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_game(server: LiveServer, seats: list[dict[str, Any]], seed: int = 1, **body: Any) -> Any:
    r = httpx.post(f"{server.url}/api/games", json={"seats": seats, "seed": seed, **body})
    assert r.status_code == 200, r.text
    return r.json()


ANN_BOB = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def seq_of(page: Any) -> str:
    return str(page.evaluate("() => document.body.dataset.seq"))


def place_black_leader(page: Any) -> None:
    page.click(".leader-chip[data-leader='black']")
    page.click("[data-cell='g3'].legal")


def test_the_last_step_of_a_turn_waits_for_end_turn(server: LiveServer, browser: Any) -> None:
    g = new_game(server, ANN_BOB)  # seed 1: Ann's black leader fits on g3, beside the temple f3
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    # the first action goes at once
    seq = seq_of(page)
    place_black_leader(page)
    wait_seq_change(page, seq)
    assert "1 action left" in page.locator("#status").inner_text()
    # the second one waits: a panel with a countdown, the step outlined on the board
    seq = seq_of(page)
    page.click(".hand-tile[data-colour='red']")
    cell = page.locator(".hit.legal").first.get_attribute("data-cell")
    page.click(f"[data-cell='{cell}'].legal")
    page.wait_for_selector("#confirm")
    text = page.locator("#confirm").inner_text()
    assert "End your turn?" in text and cell in text and "Ends by itself in" in text
    assert page.locator(f"#boardsvg rect.held[data-cell='{cell}']").count() == 1
    assert page.locator("#hand").count() == 0 and page.locator(".hit.legal").count() == 0
    shot(page, "confirm-end-turn")
    # cancelled: nothing was sent, and Undo takes back the first action too
    page.click("#cancelturn")
    assert page.locator("#confirm").count() == 0 and seq_of(page) == seq
    page.click("#undo")
    wait_seq_change(page, seq)
    assert "2 actions left" in page.locator("#status").inner_text()
    assert page.locator("#boardsvg circle").count() == 0
    # both actions again; "End turn" sends the second at once
    seq = seq_of(page)
    place_black_leader(page)
    wait_seq_change(page, seq)
    page.click(".hand-tile[data-colour='red']")
    page.click(f"[data-cell='{cell}'].legal")
    seq = seq_of(page)
    page.click("#endturn")
    wait_seq_change(page, seq)
    page.wait_for_function("() => document.body.dataset.myturn === '0'")
    assert page.locator("#undo").count() == 0  # the turn drew tiles: nothing to take back
    assert "Bob" in page.locator("#status").inner_text()
    assert not errors, errors
    page.close()


def test_passing_asks_and_the_countdown_ends_the_turn(server: LiveServer, browser: Any) -> None:
    g = new_game(server, ANN_BOB)
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    seq = seq_of(page)
    page.click("[data-action='pass']")
    assert "Pass this action?" in page.locator("#askpass").inner_text()
    page.click("#passno")
    assert page.locator("#askpass").count() == 0 and seq_of(page) == seq
    page.click("[data-action='pass']")
    page.click("#passyes")
    wait_seq_change(page, seq)
    assert "1 action left" in page.locator("#status").inner_text()
    # the last step, left alone, is sent when its countdown ends
    seq = seq_of(page)
    page.click(".hand-tile[data-colour='red']")
    page.locator(".hit.legal").first.click()
    page.wait_for_selector("#confirm")
    wait_seq_change(page, seq, timeout=CONFIRM * 1000 + PATIENCE_MS)
    page.wait_for_function("() => document.body.dataset.myturn === '0'")
    assert page.locator("#confirm").count() == 0
    page.close()


def test_a_lost_connection_blocks_input_until_the_view_is_fresh(
    tmp_path: Path, browser: Any
) -> None:
    first = live(tmp_path)
    with first as srv:
        g = new_game(srv, ANN_BOB)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(srv.url + g["seats"][0]["link"])
        page.wait_for_selector("#hand")
        assert page.evaluate("() => document.body.dataset.online") == "1"
        assert page.locator("#offline").count() == 0
    # the server is gone: a banner covers the page, and clicks do not reach the board
    page.wait_for_selector("#offline")
    assert "Connection lost" in page.locator("#offline").inner_text()
    assert page.evaluate("() => document.body.dataset.online") == "0"
    covering = page.evaluate(
        "() => { const r = document.querySelector('.hand-tile').getBoundingClientRect();"
        " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)"
        ".closest('#offline') !== null; }"
    )
    assert covering
    # a click where the tile is lands on the banner: the tile is not selected
    box = page.locator(".hand-tile").first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.locator(".hand-tile.sel").count() == 0
    assert page.locator(".hit.legal").count() == 0
    shot(page, "offline-banner")
    # the server is back (same address, same database): the banner goes once a view came
    with live(tmp_path, port=first.port):
        page.wait_for_function("() => document.body.dataset.online === '1'")
        assert page.locator("#offline").count() == 0
        seq = seq_of(page)
        place_black_leader(page)
        wait_seq_change(page, seq)
        page.close()


def test_unknown_games_and_paths_show_a_page_with_a_link_to_the_lobby(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page()
    for path, says in (
        ("/game/000000000000", "There is no game 000000000000"),
        ("/replay/abcdef123456", "There is no game abcdef123456"),
        ("/games/oops", "There is no page /games/oops"),
    ):
        response = page.goto(server.url + path)
        assert response is not None and response.status == 404
        page.wait_for_selector("#notfound")
        assert "Not found" in page.locator("#notfound h2").inner_text()
        assert says in page.locator("#notfound").inner_text()
        assert page.title().startswith("Not found")
    shot(page, "not-found")
    page.click("#tolobby")
    page.wait_for_selector("#create")
    page.close()


def test_private_games_stay_out_of_the_public_lobby(server: LiveServer, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    assert not page.locator("#listed").is_checked()  # private unless listed
    page.select_option("select[data-seat='1']", "friend")
    page.click("#create")
    page.wait_for_selector("#hand")
    friends = page.url.split("/game/")[1].split("#")[0]
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "bot:random")
    page.check("#listed")
    page.click("#create")
    page.wait_for_selector("#hand")
    public = page.url.split("/game/")[1].split("#")[0]
    page.goto(server.url + "/")
    page.wait_for_selector("#mygames:not([hidden]) code")
    listed = page.locator("#publicgames").inner_text()
    assert public in listed and friends not in listed
    mine = page.locator("#mygames").inner_text()
    assert public in mine and friends in mine  # this browser still finds its private game
    rows = {
        r.locator("code").inner_text(): r.inner_text() for r in page.locator("#mygames tr").all()
    }
    assert "private" in rows[friends] and "public" in rows[public]
    shot(page, "lobby-private")
    # another browser sees only the listed game
    other = browser.new_page()
    other.goto(server.url + "/")
    other.wait_for_selector("#publicgames code")
    assert public in other.locator("#publicgames").inner_text()
    assert friends not in other.locator("body").inner_text()
    assert other.locator("#mygames").is_hidden()
    other.close()
    context.close()


def test_leaving_picks_the_bot_level_and_a_friend_gets_a_fair_chance(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 860})
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "friend")
    page.fill("[data-name='1']", "Bob")
    page.click("#create")
    page.wait_for_selector("#hand")
    # Bob has not come yet: his seat is not offered to a bot before his fair chance
    bob = page.locator(".player[data-seat='1']")
    assert bob.locator("button.tobot").count() == 0
    assert "can be handed to a bot after 2 min" in bob.inner_text()
    # my own seat: leave to a bot of the level I pick, then take it back
    me = page.locator(".player.me")
    levels = me.locator("select.tobot-level option").all_text_contents()
    assert "random" in levels and "greedy" in levels
    me.locator("select.tobot-level").select_option("greedy")
    me.locator("button.tobot").click()
    page.click("#asktobot-yes")  # the page's own question
    page.wait_for_selector("button.tohuman")
    assert "· bot greedy" in page.locator(".player.me").inner_text()
    page.click("button.tohuman")
    page.wait_for_selector(".player.me button.tobot")
    assert "· bot" not in page.locator(".player.me").inner_text()
    context.close()


def test_a_click_is_not_lost_to_a_view_arriving_while_the_button_is_held(
    server: LiveServer, browser: Any
) -> None:
    g = new_game(server, ANN_BOB)
    ann = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(server.url + g["seats"][1]["link"])
    button = page.locator(".player.me button.tobot")
    button.wait_for()
    button.scroll_into_view_if_needed()
    seq = seq_of(page)
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Ann moves while Bob holds his button: his page hears the new view
    view = ann.wait_view(lambda m: bool(m["view"]["legal_actions"]))
    ann.move(view["view"]["legal_actions"][-1])
    ann.wait_view(lambda m: m["seq"] > view["seq"])
    page.wait_for_timeout(500)
    assert seq_of(page) == seq  # not drawn under the pointer
    page.mouse.up()
    page.wait_for_selector("#asktobot-yes")  # the click reached the button
    wait_seq_change(page, seq)  # and the view is drawn right after it
    page.click("#asktobot-no")
    assert "Ann" in page.locator("#status").inner_text()
    ann.close()
    page.close()


def test_the_creator_hands_an_absent_friends_seat_to_a_bot_after_the_wait(
    tmp_path: Path, browser: Any
) -> None:
    with live(tmp_path, seat_absence_seconds=3) as srv:
        context = browser.new_context()
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 860})
        page.goto(srv.url + "/")
        page.wait_for_selector("#create")
        page.select_option("select[data-seat='1']", "friend")
        page.fill("[data-name='1']", "Bob")
        page.click("#create")
        page.wait_for_selector("#hand")
        bob = page.locator(".player[data-seat='1']")
        # the wait is over: the page offers the seat by itself, with a level to choose
        bob.locator("button.tobot").wait_for()
        assert bob.locator(".tobot-wait").count() == 0
        bob.locator("select.tobot-level").select_option("random")
        bob.locator("button.tobot").click()
        page.click("#asktobot-yes")
        page.wait_for_function(
            "() => document.querySelector(\".player[data-seat='1']\").innerText"
            ".includes('bot random')"
        )
        context.close()
