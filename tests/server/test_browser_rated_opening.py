"""A rated game's opening in real headless Chromium: once every player has moved but not every
player has completed a first turn, the page's resign dialog says that resigning aborts the
game (in English and German); confirmed, both players' end screens say the game is aborted,
the status line and the log say who resigned, and "My games" lists it as aborted. Once
every player had a first turn, the dialog says the ordinary thing: the opponent wins, and
the rated game counts it as a loss."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from accounting import AccountSeat, play_first_turns, quick_action
from browsing import chromium, scripted_server, shot
from support.serving import LiveServer, Player

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"
OPENING = (
    "Before every player has played a first turn, resigning aborts the game: "
    "nobody's rating changes."
)
OPENING_DE = (
    "Bevor alle ihren ersten Zug gespielt haben, bricht Aufgeben die Partie ab: "
    "keine Wertung ändert sich."
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "opening")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def accounts(server: LiveServer) -> list[tuple[Player, str]]:
    out = []
    for stem in ("Ann", "Bob"):
        name = f"{stem}{uuid.uuid4().hex[:5]}"
        player = Player(server)
        player.sign_up(name, PASSWORD)
        out.append((player, name))
    return out


def rated_game(server: LiveServer, players: list[Player], passes: int) -> str:
    """A rated game between the accounts, its turn passed ``passes`` times over the
    websocket; with ``passes`` 1 the second player also makes one action (everybody moved,
    the opening goes on). The scripted seats are closed: the pages play from there."""
    g = players[0].post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True}).json()
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip(players, g["seats"], strict=True)
    ]
    for s in seats:
        s.wait_view()
    view = play_first_turns(seats, passes=passes)
    if passes == 1:
        bob = seats[1].wait_view(lambda m: m["seq"] >= view["seq"])
        seats[1].move(quick_action(bob["view"]))
        seats[0].wait_view(lambda m: m["seq"] > view["seq"])
    for s in seats:
        s.close()
    return str(g["id"])


def signed_in_page(browser: Any, server: LiveServer, player: Player, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    context.add_cookies(
        [{"name": c.name, "value": c.value, "url": server.url} for c in player.http.cookies.jar]
    )
    page = context.new_page()
    page.errors = []
    page.dialogs = []  # the browser's own dialogs: none is wanted
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    return page


def open_game(page: Any, server: LiveServer, game_id: str) -> None:
    page.goto(f"{server.url}/game/{game_id}")
    page.wait_for_selector("#resign")


def test_resigning_in_the_opening_says_it_aborts_and_the_end_screen_says_aborted(
    server: LiveServer, browser: Any
) -> None:
    (ann, _), (bob, bob_name) = accounts(server)
    game_id = rated_game(server, [ann, bob], passes=1)
    a, b = signed_in_page(browser, server, ann), signed_in_page(browser, server, bob)
    open_game(a, server, game_id)
    open_game(b, server, game_id)
    # everybody moved, so it is Resign (not Abort); the hint and the dialog say the rule
    assert b.locator("#abort").count() == 0
    assert "aborts the game" in b.locator("#leave").inner_text()
    b.click("#resign")
    ask = b.locator("#askresign")
    assert OPENING in ask.inner_text()
    assert "Your opponent wins" not in ask.inner_text()
    shot(b, "opening-resign-dialog")
    b.click("#askresign-yes")
    for page in (a, b):
        page.wait_for_selector("#endscreen[data-end='abort']")
        end = page.locator("#endscreen")
        assert "Game aborted" in end.inner_text()
        assert (
            f"{bob_name} resigned before every player had played a first turn" in end.inner_text()
        )
        assert "nobody's rating" in end.inner_text()
        assert "unrated" in page.locator("#status").inner_text()
    shot(a, "opening-aborted")
    a.click("#seeboard")
    assert (
        f"{bob_name} resigns before every player had a first turn" in a.locator("#log").inner_text()
    )
    assert a.locator("#hand").count() == 0 and a.locator("#resign").count() == 0
    assert a.locator(".tobot").count() == 0  # nobody's seat changes in a stopped game
    # "My games" says aborted, and its link is the replay
    a.goto(f"{server.url}/me")
    row = a.locator(f"tr[data-game='{game_id}']")
    row.wait_for()
    assert "aborted" in row.locator(".state").inner_text()
    assert row.locator(f"a[href='/replay/{game_id}']").count() == 1
    for page in (a, b):
        assert not page.errors and not page.dialogs, (page.errors, page.dialogs)


def test_the_dialog_says_the_rule_in_german(server: LiveServer, browser: Any) -> None:
    (ann, _), (bob, _) = accounts(server)
    game_id = rated_game(server, [ann, bob], passes=1)
    page = signed_in_page(browser, server, ann, "de-DE")
    open_game(page, server, game_id)
    page.click("#resign")
    assert OPENING_DE in page.locator("#askresign").inner_text()
    page.click("#askresign-no")  # a second thought: nothing happens
    assert page.locator("#endscreen").count() == 0
    assert not page.errors and not page.dialogs, (page.errors, page.dialogs)


def test_after_every_first_turn_the_dialog_says_the_ordinary_thing(
    server: LiveServer, browser: Any
) -> None:
    (ann, _), (bob, _) = accounts(server)
    game_id = rated_game(server, [ann, bob], passes=2)
    page = signed_in_page(browser, server, bob)
    open_game(page, server, game_id)
    assert page.locator("#leave").inner_text().endswith("you finish last")
    page.click("#resign")
    text = page.locator("#askresign").inner_text()
    assert "Your opponent wins the game now." in text
    assert "The game is rated: it counts as a loss." in text
    assert OPENING not in text
    page.click("#askresign-no")
    assert not page.errors and not page.dialogs, (page.errors, page.dialogs)
