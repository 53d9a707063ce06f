"""Strangers play game after game, in real headless Chromium, each person in a browser
context of their own and on a server process of their own (two processes, one PostgreSQL
database): five quick matches in a row by the same two people (from the lobby and from the
finished game's "New opponent"), each a new game and never the old one; a double click and
a second tab make one wait and one game; a rated game's rematch keeps its rating and its
clock, and the other player starts."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_first_turns
from browsing import chromium, shot, signed_up_page
from support.serving import ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

pytestmark = pytest.mark.browser

LIMITS = {
    "sign_ups_per_client": 1000,
    "games_per_minute": 1000,
    "games_per_client": 1000,
    "messages_per_second": 10_000,
    "message_burst": 10_000,
}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ...]]:
    url = postgres_or_skip()
    prefix = f"a{uuid.uuid4().hex[:10]}_"
    data = tmp_path_factory.mktemp("again")
    a = ServerProcess(data / "a", url, prefix, limits=LIMITS, log=data / "a.log")
    b = ServerProcess(data / "b", url, prefix, limits=LIMITS, log=data / "b.log")
    with a, b:
        yield a, b
    Store(url, prefix).drop_all()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def person(browser: Any, server: ServerProcess, stem: str) -> Any:
    """A page in a context of its own, signed up as ``stem…`` on ``server``, in the lobby."""
    page = signed_up_page(browser, server.url, stem, ready="#play-now")
    page.server = server
    return page


def game_page(page: Any, not_in: set[str]) -> str:
    """Wait until the page is at a game other than those of ``not_in``, its seat open."""
    page.wait_for_function(
        "old => location.pathname.startsWith('/game/') &&"
        " !old.includes(location.pathname.split('/')[2])",
        arg=sorted(not_in),
    )
    page.wait_for_selector("#hand")
    return str(page.evaluate("() => location.pathname.split('/')[2]"))


def cookie_header(page: Any) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())


def my_games(page: Any) -> list[str]:
    r = page.context.request.get(page.server.url + "/api/account/games")
    return [g["id"] for g in r.json()["games"]]


def test_five_quick_matches_in_a_row_by_the_same_two_people(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    ann, bob = person(browser, a, "Ann"), person(browser, b, "Bob")
    games: list[str] = []
    for round_ in range(5):
        if round_ == 0:
            for p in (ann, bob):
                p.click("#play-now")
        elif round_ % 2:  # again from the aborted game's end screen
            for p in (ann, bob):
                p.click("#endscreen #newopponent")
                # to the lobby, or straight on to the new game when the pairing was quicker
                p.wait_for_function("old => location.pathname !== old", arg=f"/game/{games[-1]}")
        else:  # again from the lobby, which shows no game in progress now
            for p in (ann, bob):
                p.goto(p.server.url + "/")
                p.wait_for_selector("#play-now:not([hidden])")
                assert p.locator("#in-progress li").count() == 0
                p.click("#play-now")
        at = {game_page(p, set(games)) for p in (ann, bob)}
        assert len(at) == 1, at
        games.append(at.pop())
        if round_ == 0:
            shot(ann, "again-quick-match")
        # nobody has moved: Ann aborts, Bob's table says so
        ann.click("#abort")
        ann.click("#askabort-yes")
        bob.wait_for_function("() => /aborted/.test(document.querySelector('#status').textContent)")
    assert len(set(games)) == 5
    for p in (ann, bob):
        assert sorted(my_games(p)) == sorted(games), (p.name, my_games(p), games)
        assert p.errors == [], p.errors
        p.context.close()


def test_a_double_click_and_a_second_tab_make_one_game(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    cy, dee = person(browser, a, "Cy"), person(browser, b, "Dee")
    second = cy.context.new_page()  # Cy's second tab, on the other process
    second.goto(b.url + "/")
    second.wait_for_selector("#play-now")
    cy.dblclick("#play-now")
    # the second tab clicks as a tab that has not yet heard of the first tab's wait (once it
    # has, its button is hidden)
    second.evaluate("() => document.querySelector('#play-now').click()")
    # Cy's tabs both wait: the lobby says so in each
    for p in (cy, second):
        p.wait_for_selector("#match-cancel:not([hidden])")
    dee.click("#play-now")
    game = game_page(dee, set())
    assert game_page(cy, set()) == game
    assert my_games(cy) == [game] and my_games(dee) == [game]
    # the second tab went there too, or shows the game in progress; never a second game
    second.wait_for_function(
        "g => location.pathname === '/game/' + g ||"
        " !!document.querySelector(`#in-progress li[data-game='${g}']`)",
        arg=game,
    )
    assert my_games(cy) == [game]
    second.goto(b.url + "/")
    second.wait_for_selector(f"#in-progress li[data-game='{game}'] a.to-game")
    assert "You have a game in progress" in second.locator("#playnow").inner_text()
    shot(second, "again-in-progress")
    for p in (cy, dee):
        assert p.errors == [], p.errors
        p.context.close()


def test_a_rated_rematch_keeps_its_clock_and_the_other_player_starts(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    eve, fay = person(browser, a, "Eve"), person(browser, b, "Fay")
    for p in (eve, fay):
        p.click("#play-now")
    game = game_page(eve, set())
    assert game_page(fay, set()) == game
    first = httpx.get(f"{a.url}/api/games/{game}").json()
    assert first["rated"] and first["clock"]["pace"]["kind"] == "realtime"
    seat_of = {p.name: [s["name"] for s in first["seats"]].index(p.name) for p in (eve, fay)}
    # every seat plays its first turn (the pages leave; a rated result needs a real game)
    for p in (eve, fay):
        p.goto(p.server.url + "/account")
    seats = sorted(
        (
            AccountSeat(p.server.ws_url, game, cookie_header(p), {"seat": seat_of[p.name]})
            for p in (eve, fay)
        ),
        key=lambda s: s.wait_view()["seat"],
    )
    play_first_turns(seats)
    for s in seats:
        s.close()
    for p in (eve, fay):
        p.goto(f"{p.server.url}/game/{game}")
        p.wait_for_selector("#hand")
    starter = eve if seat_of[eve.name] == 0 else fay
    other = fay if starter is eve else eve
    starter.click("#resign")
    starter.click("#askresign-yes")
    for p in (eve, fay):
        p.wait_for_selector("#endscreen")
        # the end screen offers both, side by side
        assert p.locator("#endscreen #rematch").is_visible()
        assert p.locator("#endscreen #newopponent").is_visible()
    shot(other, "again-end-screen")
    other.click("#endscreen #rematch")
    new = game_page(other, {game})
    starter.wait_for_selector("#endscreen #torematch")
    starter.click("#endscreen #torematch")
    assert game_page(starter, {game}) == new
    fresh = httpx.get(f"{b.url}/api/games/{new}").json()
    assert fresh["rated"] and fresh["clock"]["pace"] == first["clock"]["pace"]
    assert [s["name"] for s in fresh["seats"]] == [other.name, starter.name]
    # the other player starts: their hand asks for a move, the starter's says to wait
    other.wait_for_selector("#hand.decision")
    assert starter.locator("#hand.decision").count() == 0
    # each page shows the rated mark and the clock
    for p in (eve, fay):
        p.wait_for_selector("#ratedmark")
        p.wait_for_selector(".clock")
        assert p.errors == [], p.errors
        p.context.close()
