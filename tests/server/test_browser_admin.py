"""The admins' page in real headless Chromium: the header links it for an admin only; a
reported chat line written by an account reads "Written by the account NAME" (the account a
link, no "[object …]" text); the short rated games tab lists two accounts that keep ending
rated games between them after a few plies, and a click shows the games, each a link to its
replay."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from accounting import AccountSeat, play_first_turns
from browsing import chromium, scripted_server
from support.serving import LiveServer, Player

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "admin")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def member(server: LiveServer, stem: str, *, admin: bool = False) -> tuple[Player, str]:
    name = f"{stem}{uuid.uuid4().hex[:5]}"
    player = Player(server)
    player.sign_up(name, PASSWORD)
    if admin:
        store = server.app.state.hub.store
        store.moderation.set_admin(store.accounts.by_name(name).id, True)
    return player, name


def page_of(browser: Any, server: LiveServer, player: Player) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": c.name, "value": c.value, "url": server.url} for c in player.http.cookies.jar]
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def rated_seats(server: LiveServer, ann: Player, bob: Player) -> tuple[str, list[AccountSeat]]:
    g = ann.post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True}).json()
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip((ann, bob), g["seats"], strict=True)
    ]
    for s in seats:
        s.wait_view()
    return str(g["id"]), seats


def test_the_admin_page_is_linked_draws_reports_and_lists_short_rated_games(
    server: LiveServer, browser: Any
) -> None:
    mod, _ = member(server, "Mod", admin=True)
    (ann, ann_name), (bob, bob_name) = member(server, "Ann"), member(server, "Bob")
    # two rated games Bob resigns once each had a first turn, and a chat line of his
    games = []
    for i in range(2):
        game_id, seats = rated_seats(server, ann, bob)
        play_first_turns(seats)
        if i == 0:
            seats[1].send({"type": "chat", "text": "you will win this one"})
        seats[1].send({"type": "resign"})
        seats[0].wait_view(lambda m: m["view"]["over"] and m["seats"][0]["change"] is not None)
        for s in seats:
            s.close()
        games.append(game_id)
    r = ann.post("/api/reports", {"kind": "chat", "game": games[0], "n": 1, "reason": "odd"})
    assert r.status_code == 200, r.text
    # the header links the admins' page for an admin, never for a player
    player = page_of(browser, server, ann)
    player.goto(server.url + "/")
    player.wait_for_selector("#nav #mygames")
    assert player.locator("#adminlink").count() == 0
    page = page_of(browser, server, mod)
    page.goto(server.url + "/")
    page.click("#adminlink")
    page.wait_for_selector("#reports")
    row = page.locator(f"tr[data-report-id] >> text={games[0]}").locator("xpath=ancestor::tr")
    what = row.locator("td").nth(2).inner_text()
    assert "[object" not in what
    assert f"Written by the account {bob_name}" in what
    assert row.locator(f"a[href='/players/{bob_name}']").count() == 1
    # the short rated games: the pair, its games and plies, a click shows the replays
    page.goto(server.url + "/admin?state=collusion")
    pair = page.locator("#pairs tbody tr")
    pair.first.wait_for()
    assert pair.count() == 1
    text = pair.inner_text()
    assert ann_name in text and bob_name in text
    assert pair.locator("td.games").inner_text() == "2"
    assert pair.locator("td.plies").inner_text() == "8"
    assert f"{ann_name} 2 · {bob_name} 0" in pair.locator("td.ahead").inner_text()
    page.click("#pairs summary")
    links = pair.locator("details a")
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [
        f"/replay/{g}" for g in games[::-1]
    ]
    links.first.click()
    page.wait_for_url(f"**/replay/{games[1]}")
    page.wait_for_selector("#replay")
    for p in (page, player):
        assert not p.errors, p.errors
