"""Direct challenges and the lobby's signs of life in real headless Chromium, each person in
a browser context of their own and on a server process of their own (two processes, one
PostgreSQL database): a challenge sent from a profile (on a phone-wide screen) is
accepted in the other's lobby and both land in the one game; a challenge sent from the
friends list is declined by keyboard and the challenger's lobby says so; a lobby shows how
many people are online and another person's open seek of quick match."""

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


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ...]]:
    url = postgres_or_skip()
    prefix = f"d{uuid.uuid4().hex[:10]}_"
    data = tmp_path_factory.mktemp("direct")
    limits = {"messages_per_second": 10_000, "message_burst": 10_000, "sign_ups_per_client": 100}
    a = ServerProcess(data / "a", url, prefix, limits=limits, log=data / "a.log")
    b = ServerProcess(data / "b", url, prefix, limits=limits, log=data / "b.log")
    with a, b:
        yield a, b
    Store(url, prefix).drop_all()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def person(browser: Any, server: ServerProcess, stem: str, width: int = 1280) -> Any:
    """A page in a context of its own, signed up as ``stem…`` on ``server``, in the lobby."""
    page = signed_up_page(browser, server.url, stem, width=width, ready="#open-tables")
    page.server = server
    return page


def game_of(page: Any) -> str:
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#hand")
    return str(page.evaluate("() => location.pathname.split('/')[2]"))


def next_game(page: Any, old: str) -> str:
    """Wait until the page is at a game other than ``old``, its seat open."""
    page.wait_for_function(
        "old => location.pathname.startsWith('/game/') && !location.pathname.includes(old)",
        arg=old,
    )
    page.wait_for_selector("#hand")
    return str(page.evaluate("() => location.pathname.split('/')[2]"))


def cookie_header(page: Any) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())


def fits(page: Any) -> bool:
    """Nothing wider than the screen (no sideways scrolling)."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"))


def test_a_challenge_from_a_profile_is_accepted_and_both_play(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    ann, bob = person(browser, a, "Ann", width=390), person(browser, b, "Bob")
    ann.goto(f"{a.url}/players/{bob.name}")
    ann.click("#profile-challenge")
    ann.wait_for_selector("#challenge-dialog")
    assert ann.locator("#ch-name-0").input_value() == bob.name
    ann.select_option("#ch-pace", "turn")
    ann.check("#ch-rated")
    assert fits(ann)
    shot(ann, "direct-challenge-form")
    ann.click("#challenge-send")
    # the challenger's lobby shows the challenge waiting; the other's shows it live
    ann.wait_for_selector("#challenges li[data-state='open'] .challenge-cancel")
    row = f"#challenges li:has-text('{ann.name}')"
    bob.wait_for_selector(f"{row} .challenge-accept")
    assert "rated" in bob.locator(row).inner_text()
    assert fits(ann)
    shot(bob, "direct-challenge-received")
    bob.click(f"{row} .challenge-accept")
    games = {game_of(p) for p in (ann, bob)}
    assert len(games) == 1
    game = httpx.get(f"{b.url}/api/games/{games.pop()}").json()
    assert game["rated"] and game["clock"]["pace"]["kind"] == "turn"
    assert sorted(s["name"] for s in game["seats"]) == sorted([ann.name, bob.name])
    for p in (ann, bob):
        assert p.errors == []
        p.context.close()


def test_a_challenge_from_the_friends_list_declined_is_told_to_the_challenger(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    cy, dee = person(browser, a, "Cy"), person(browser, b, "Dee")
    cy.fill("#social-name", dee.name)
    cy.click("#follow")
    cy.wait_for_selector(f"#friends li:has-text('{dee.name}') .challenge-friend")
    cy.click(f"#friends li:has-text('{dee.name}') .challenge-friend")
    cy.wait_for_selector("#challenge-dialog")
    cy.click("#challenge-send")
    cy.wait_for_selector("#challenges li[data-state='open']")
    row = f"#challenges li:has-text('{cy.name}')"
    dee.wait_for_selector(f"{row} .challenge-decline")
    dee.focus(f"{row} .challenge-decline")  # by keyboard
    dee.keyboard.press("Enter")
    cy.wait_for_selector("#challenges li[data-state='declined']")
    told = f"{dee.name} declined your challenge."
    assert told in cy.locator("#challenges li[data-state='declined']").inner_text()
    assert told in cy.locator("#toast").inner_text()
    dee.wait_for_selector("#challenges li.muted")  # gone from Dee's lobby
    for p in (cy, dee):
        assert p.errors == []
        p.context.close()


def test_the_lobby_shows_people_online_and_an_open_seek(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    eve, fay = person(browser, a, "Eve"), person(browser, b, "Fay", width=390)
    fay.wait_for_selector("#online-count:has-text('online')")
    eve.select_option("#match-pace", "turn")
    eve.select_option("#match-players", "3")
    eve.click("#play-now")
    seek = f"#seeks li.seek[data-name='{eve.name}']"
    fay.wait_for_selector(seek)
    text = fay.locator(seek).inner_text()
    assert "3 players" in text and "turn-based" in text and "(new)" in text
    count = fay.locator("#online-count").inner_text()
    assert int(count.split()[0]) >= 2, count  # Eve and Fay at least
    assert fits(fay)
    shot(fay, "lobby-activity")
    eve.click("#match-cancel")
    fay.wait_for_selector(seek, state="detached")
    for p in (eve, fay):
        assert p.errors == []
        p.context.close()


def test_follow_and_block_on_a_profile_then_a_challenge_from_a_finished_game(
    servers: tuple[ServerProcess, ServerProcess], browser: Any
) -> None:
    a, b = servers
    gus, hal = person(browser, a, "Gus"), person(browser, b, "Hal")
    gus.goto(f"{a.url}/players/{hal.name}")
    # follow, then unfollow: the lobby's friends list follows the profile's buttons
    gus.click("#profile-follow")
    gus.wait_for_selector("#profile-unfollow")
    friends = gus.context.request.get(a.url + "/api/social").json()["friends"]
    assert [f["name"] for f in friends] == [hal.name]
    gus.click("#profile-unfollow")
    gus.wait_for_selector("#profile-follow")
    assert gus.context.request.get(a.url + "/api/social").json()["friends"] == []
    # a block hides the challenge and keeps Hal's challenges away; unblocked, it is back
    gus.click("#profile-block")
    gus.wait_for_selector("#profile-unblock")
    assert gus.locator("#profile-challenge").count() == 0
    csrf = hal.context.request.get(b.url + "/api/account").json()["csrf"]
    r = hal.context.request.post(
        b.url + "/api/direct", data={"to": [gus.name]}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status == 403 and r.json()["error"] == "blocked", r.text()
    gus.click("#profile-unblock")
    gus.wait_for_selector("#profile-challenge")
    # a casual game between them, which Hal resigns: Gus challenges Hal again from its end
    gus.click("#profile-challenge")
    gus.wait_for_selector("#challenge-dialog")
    gus.click("#challenge-send")
    row = f"#challenges li:has-text('{gus.name}')"
    hal.wait_for_selector(f"{row} .challenge-accept")
    hal.click(f"{row} .challenge-accept")
    first = game_of(hal)
    assert game_of(gus) == first
    # every seat plays its first turn (the pages step aside), then Hal resigns
    names = [s["name"] for s in httpx.get(f"{a.url}/api/games/{first}").json()["seats"]]
    for p in (gus, hal):
        p.goto(p.server.url + "/account")
    seats = sorted(
        (
            AccountSeat(p.server.ws_url, first, cookie_header(p), {"seat": names.index(p.name)})
            for p in (gus, hal)
        ),
        key=lambda s: s.wait_view()["seat"],
    )
    play_first_turns(seats)
    for s in seats:
        s.close()
    for p in (gus, hal):
        p.goto(f"{p.server.url}/game/{first}")
        p.wait_for_selector("#hand")
    hal.click("#resign")
    hal.click("#askresign-yes")
    gus.wait_for_selector("#endscreen #challenge-again")
    assert hal.name in gus.locator("#endscreen #challenge-again").inner_text()
    gus.click("#endscreen #challenge-again")
    gus.wait_for_selector("#challenge-dialog")
    assert gus.locator("#ch-name-0").input_value() == hal.name
    gus.click("#challenge-send")
    hal.goto(b.url + "/")
    hal.wait_for_selector(f"{row} .challenge-accept")
    hal.click(f"{row} .challenge-accept")
    again = next_game(hal, first)
    assert again != first and next_game(gus, first) == again
    for p in (gus, hal):
        assert p.errors == []
        p.context.close()
