"""Accounts in real headless Chromium: a guest's game joins the account made by signing up;
a rated game between two accounts (two browser contexts) played to its end changes both
ratings on the leaderboard; the profile shows the rating history and the statistics; a
third browser of the same account opens its games from "My games"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounting import AccountSeat, play_to_end
from browsing import chromium, scripted_server, shot
from support.serving import LiveServer

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "accounts")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def sign(page: Any, form: str, name: str) -> None:
    """Fill the sign-in or sign-up form of /account and send it."""
    page.fill(f"#{form} input[name=name]", name)
    page.fill(f"#{form} input[name=password]", PASSWORD)
    page.click(f"#{form} button[type=submit]")


def test_guest_claims_then_a_rated_game_changes_both_ratings(
    server: LiveServer, browser: Any
) -> None:
    ann = new_page(browser)
    # a guest game: Ann and a friend, started from the lobby without an account
    ann.goto(server.url + "/")
    ann.wait_for_selector("#create")
    assert ann.locator("#rated").count() == 0  # rated games need an account
    ann.select_option("select[data-seat='1']", "friend")
    ann.click("#create")
    ann.wait_for_selector("#hand")
    guest_game = ann.evaluate("() => location.pathname.split('/')[2]")
    # signing up claims it: "My games" lists it, her turn first
    ann.click("#signin")
    ann.wait_for_selector("#signup")
    sign(ann, "signup", "Ann")
    ann.wait_for_selector("#games")
    assert "1 game seat of this browser joined your account" in ann.locator("#claimed").inner_text()
    row = ann.locator(f"tr[data-game='{guest_game}']")
    assert "your turn" in row.locator(".state").inner_text()
    assert ann.locator("#me").inner_text() == "Ann"
    shot(ann, "accounts-my-games")

    # a rated game with a friend
    ann.goto(server.url + "/")
    ann.wait_for_selector("#rated")
    ann.select_option("select[data-seat='1']", "friend")
    ann.check("#rated")
    ann.click("#create")
    ann.wait_for_selector("#hand")
    game = ann.evaluate("() => location.pathname.split('/')[2]")
    invite = ann.evaluate(f"() => JSON.parse(localStorage.getItem('tne:{game}')).invites[1]")
    assert server.url + f"/game/{game}#t=" in invite
    # Bob opens the link as a guest: the rated game asks him to sign in first
    bob = new_page(browser)
    bob.goto(invite)
    bob.wait_for_selector("#signinseat")
    assert "Sign in to take this seat" in bob.locator("#signinseat").inner_text()
    assert bob.locator("#hand").count() == 0
    bob.click("#tosignin")
    bob.wait_for_selector("#signup")
    sign(bob, "signup", "Bob")
    bob.wait_for_url(f"**/game/{game}")
    bob.wait_for_selector("#hand")  # his seat, bound to his account now

    board = ann.context.new_page()
    board.goto(server.url + "/leaderboard")
    board.wait_for_selector("#app .card")
    assert board.locator("#top tr[data-name='Ann']").count() == 0

    # the game is played to its end by scripted clients holding the two accounts' seats
    # (the pages leave it first: a seat is played from one place at a time)
    seats = []
    for seat, page in ((0, ann), (1, bob)):
        page.goto(server.url + "/leaderboard")
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
        seats.append(AccountSeat(server.ws_url, game, cookie, {"seat": seat}))
    assert play_to_end(seats)["view"]["over"]
    for s in seats:
        s.close()
    bob.goto(f"{server.url}/game/{game}")
    bob.wait_for_selector("#endscreen")

    # both ratings changed: both players are on the leaderboard, one game each
    board.goto(server.url + "/leaderboard?family=classic&size=2p")
    board.wait_for_selector("#top")
    for name in ("Ann", "Bob"):
        line = board.locator(f"#top tr[data-name='{name}']")
        assert line.locator("td").nth(3).inner_text() == "1"
        assert line.locator(".rating").inner_text() != "0.0"  # a new player's rating
    assert board.locator("#top tr.me").get_attribute("data-name") == "Ann"
    shot(board, "accounts-leaderboard")
    # Bob's profile: his rating, its history, his statistics and the game's replay
    bob.goto(server.url + "/players/Bob")
    bob.wait_for_selector("#history")
    assert bob.locator("#name").inner_text() == "Bob (you)"
    assert bob.locator("#ratings tr[data-kind='classic-2p']").count() == 1
    assert bob.locator("#history circle").count() == 1
    assert bob.locator("#summary").inner_text().startswith("1 finished game")
    assert bob.locator(f"#recent tr[data-game='{game}'] a").get_attribute("href") == (
        f"/replay/{game}"
    )
    shot(bob, "accounts-profile")

    # a third browser of Ann's: her games open from "My games", without the links
    laptop = new_page(browser)
    laptop.goto(server.url + "/account?next=/me")
    laptop.wait_for_selector("#signin")
    sign(laptop, "signin", "Ann")
    laptop.wait_for_selector("#games")
    assert laptop.locator("#games tbody tr").first.get_attribute("data-game") == guest_game
    laptop.locator(f"tr[data-game='{guest_game}'] a").click()
    laptop.wait_for_selector("#hand")
    assert laptop.evaluate("() => document.body.dataset.myturn") == "1"
    for p in (ann, bob, laptop, board):
        assert not getattr(p, "errors", []), p.errors
