"""At the table in real headless Chromium (issue 40, points 4-6): a player resigns and the
other sees the end screen; a game nobody has moved in yet is aborted; a guest opening a
rated seat gets the sign-in page in the page's language; a rated game between two accounts
played to its end (moves scripted over the websocket) shows the names and ratings at the
table, in the status line, the log, on the end screen with each rating change, in the
replay, and the same displayed rating in the lobby's open tables; the replay's move list
shows a hand-over to a bot and a resignation at their step in English, German and French;
a guest's nickname reaches the other seat; default names are in the page's language. Each
question is the page's own dialog, never the browser's."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_to_end, quick_action
from browsing import chromium, scripted_server, shot
from support.serving import LiveServer, Player, SeatClient

pytestmark = pytest.mark.browser
PASSWORD = "tigris and euphrates"
VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "leaving")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def new_page(browser: Any, locale: str = "en-GB") -> Any:
    page = browser.new_context(viewport=VIEWPORT, locale=locale).new_page()
    page.errors = []
    page.dialogs = []  # the browser's own dialogs (confirm, alert): none is wanted
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    return page


def create(server: LiveServer, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = {"seats": seats or [{"kind": "human"}, {"kind": "human"}], "seed": 11}
    r = httpx.post(f"{server.url}/api/games", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def open_seat(browser: Any, server: LiveServer, link: str, locale: str = "en-GB") -> Any:
    page = new_page(browser, locale)
    page.goto(server.url + link)
    page.wait_for_selector("#status:not(:empty)")
    page.wait_for_selector(".players .player")
    return page


def both_move(server: LiveServer, g: dict[str, Any]) -> None:
    """Each seat makes a move, over the websocket, before the pages open."""
    seats = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    moved: set[int] = set()
    while moved != {0, 1}:
        view = seats[0].wait_view(lambda m: m["seq"] >= max(s.last["seq"] for s in seats if s.last))
        actor = view["view"]["to_act"]
        mover = seats[actor]
        mine = mover.wait_view(lambda m, seq=view["seq"]: m["seq"] >= seq)
        mover.move(quick_action(mine["view"]))
        mover.wait_view(lambda m, seq=view["seq"]: m["seq"] > seq)
        moved.add(actor)
    for s in seats:
        s.close()


def test_a_player_resigns_and_the_other_wins(server: LiveServer, browser: Any) -> None:
    g = create(server)
    both_move(server, g)
    ann = open_seat(browser, server, g["seats"][0]["link"])
    bob = open_seat(browser, server, g["seats"][1]["link"])
    # both have moved: the game can no longer be aborted, only resigned
    assert ann.locator("#abort").count() == 0
    ann.click("#resign")
    ask = ann.locator("#askresign")
    assert "Your opponent wins the game now." in ask.inner_text()
    ann.click("#askresign-no")  # a second thought: nothing happens
    assert ann.locator("#askresign").count() == 0
    assert ann.evaluate("() => document.body.dataset.over") == "0"
    ann.click("#resign")
    ann.click("#askresign-yes")
    bob.wait_for_selector("#endscreen")
    assert bob.locator("#winner").inner_text() == "You win!"
    assert "a player resigned" in bob.locator("#endscreen").inner_text()
    ann.wait_for_selector("#endscreen")
    assert ann.locator("#winner").inner_text() == "Player 2 wins!"
    assert "resigned" in ann.locator("#final tr[data-seat='0']").inner_text()
    ann.click("#seeboard")
    assert "Player 1 resigns" in ann.locator("#log").inner_text()
    shot(bob, "leaving-resigned")
    for p in (ann, bob):
        assert not p.errors and not p.dialogs, (p.errors, p.dialogs)


def test_a_game_nobody_moved_in_is_aborted(server: LiveServer, browser: Any) -> None:
    g = create(server)
    ann = open_seat(browser, server, g["seats"][0]["link"])
    bob = open_seat(browser, server, g["seats"][1]["link"])
    bob.click("#abort")
    bob.click("#askabort-yes")
    ann.wait_for_function(
        "() => /aborted this game/.test(document.querySelector('#status').textContent)"
    )
    assert "unrated" in ann.locator("#status").inner_text()
    assert ann.locator("#hand").count() == 0 and ann.locator("#resign").count() == 0
    for p in (ann, bob):
        assert not p.errors and not p.dialogs, (p.errors, p.dialogs)


def test_a_guest_at_a_rated_seat_gets_the_sign_in_page_in_their_language(
    server: LiveServer, browser: Any
) -> None:
    ann = Player(server)
    ann.sign_up(f"Ann{uuid.uuid4().hex[:6]}", PASSWORD)
    g = ann.post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True}).json()
    guest = new_page(browser, "de-DE")
    guest.goto(server.url + g["seats"][1]["link"])
    guest.wait_for_selector("#signinseat")
    card = guest.locator("#signinseat")
    assert card.locator("h2").inner_text() == "Melde dich an, um diesen Platz einzunehmen"
    assert "Konto" in card.inner_text()
    # no "connection lost" box, no raw server message
    assert guest.locator("#offline").count() == 0
    assert "sign in (or sign up)" not in guest.locator("body").inner_text()
    shot(guest, "leaving-sign-in-seat")
    guest.click("#tosignin")
    guest.wait_for_selector("#signup")
    assert f"next=%2Fgame%2F{g['id']}" in guest.url or f"next=/game/{g['id']}" in guest.url
    assert not guest.errors, guest.errors


def test_a_rated_game_shows_names_ratings_and_rating_changes(
    server: LiveServer, browser: Any
) -> None:
    names = [f"Ann{uuid.uuid4().hex[:4]}", f"Bob{uuid.uuid4().hex[:4]}"]
    players = [Player(server), Player(server)]
    for p, name in zip(players, names, strict=True):
        p.sign_up(name, PASSWORD)
    g = players[0].post("/api/games", {"seats": [{"kind": "human"}] * 2, "rated": True}).json()
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip(players, g["seats"], strict=True)
    ]
    for s in seats:
        s.wait_view()
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/game/{g['id']}")
    watcher.wait_for_function(
        "n => document.querySelectorAll('.seatlabel .seat-rating').length === n", arg=2
    )
    for i, name in enumerate(names):
        label = watcher.locator(f".players .seatlabel[data-seat='{i}']")
        assert label.locator(".seatname").inner_text() == name
        assert label.locator(".seat-rating").inner_text() == "1500"  # a newcomer's rating
    assert names[0] in watcher.locator("#status").inner_text()
    assert watcher.locator("#ratedmark").inner_text() == "rated"  # the game is marked rated
    shot(watcher, "leaving-rated-table")
    assert play_to_end(seats)["view"]["over"]
    watcher.wait_for_selector("#endscreen .rating-change")
    rows = {
        row.get_attribute("data-seat"): row.inner_text()
        for row in watcher.locator("#final tbody tr").all()
    }
    changes = [re.search(r"([+−]\d+) → (\d+)", rows[str(i)]) for i in range(2)]
    assert all(changes), rows
    assert names[0] in rows["0"] and names[1] in rows["1"]
    ranking = httpx.get(f"{server.url}/api/games/{g['id']}").json()["result"]["ranking"]
    if isinstance(ranking[0], int):  # no tie: the winner gained, the loser lost
        winner = ranking[0]
        assert changes[winner].group(1).startswith("+")  # type: ignore[union-attr]
        assert changes[1 - winner].group(1).startswith("−")  # type: ignore[union-attr]
    shot(watcher, "leaving-rated-end")
    # the log names the accounts, and so does the replay
    watcher.click("#seeboard")
    assert any(n in watcher.locator("#log").inner_text() for n in names)
    replay = new_page(browser)
    replay.goto(f"{server.url}/replay/{g['id']}")
    replay.wait_for_selector(".players .player")
    text = replay.locator(".players").inner_text()
    assert names[0] in text and names[1] in text
    for s in seats:
        s.close()
    # the lobby's open tables show the same displayed rating as the table and the profile
    profile = httpx.get(f"{server.url}/api/players/{names[0]}").json()
    shown = next(r["display"] for r in profile["ratings"] if r["games"] == 1)
    assert str(shown) == re.search(r"→ (\d+)", rows["0"]).group(1)  # type: ignore[union-attr]
    made = players[0].post("/api/tables", {"players": 2}).json()
    table = made["table"]
    listed = httpx.get(f"{server.url}/api/tables").json()["tables"]
    seated = next(t for t in listed if t["id"] == table)["seats"][0]
    assert seated["name"] == names[0] and seated["rating"] == shown
    lobby = new_page(browser)
    lobby.goto(server.url + "/")
    row = lobby.locator(f"#open-tables tr[data-table='{table}'] .seated")
    row.wait_for()
    assert row.inner_text() == f"{names[0]} ({shown})"
    gone = players[0].post(f"/api/tables/{table}/leave", {"token": made["token"]})
    assert gone.status_code == 200
    for p in (watcher, replay, lobby):
        assert not p.errors, p.errors


def test_a_guest_names_their_seat_and_default_names_are_translated(
    server: LiveServer, browser: Any
) -> None:
    g = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "hard"}])
    ann = open_seat(browser, server, g["seats"][0]["link"], "de-DE")
    players = ann.locator(".players").inner_text()
    assert "Spieler 1" in players and "Spieler 2" in players and "Bot schwer" in players
    assert "Player" not in players and "(hard)" not in players
    bob = open_seat(browser, server, g["seats"][1]["link"])
    bob.fill("#nickname", "Bobby")
    bob.click("#setnick")
    ann.wait_for_function(
        "() => document.querySelector(\".seatlabel[data-seat='1']\").textContent.includes('Bobby')"
    )
    # the browser remembers it for Bob's next table
    g2 = create(server)
    bob.goto(server.url + g2["seats"][1]["link"])
    watcher = open_seat(browser, server, f"/game/{g2['id']}")
    watcher.wait_for_function(
        "() => document.querySelector(\".seatlabel[data-seat='1']\").textContent.includes('Bobby')"
    )
    for p in (ann, bob, watcher):
        assert not p.errors and not p.dialogs, (p.errors, p.dialogs)


def test_leaving_to_a_bot_asks_in_the_pages_own_dialog(server: LiveServer, browser: Any) -> None:
    g = create(server)
    ann = open_seat(browser, server, g["seats"][0]["link"])
    ann.click(".player.me .tobot")
    ann.wait_for_selector("#asktobot")
    assert "bot" in ann.locator("#asktobot").inner_text()
    ann.click("#asktobot-yes")
    ann.wait_for_selector(".player.me .tohuman")
    # the hand-over is in the log, and so is taking the seat back
    assert "Player 1 leaves the table: a bot" in ann.locator("#log").inner_text()
    ann.click(".player.me .tohuman")
    ann.wait_for_function(
        "() => document.querySelector('#log').innerText.includes('Player 1 takes their seat back')"
    )
    assert not ann.dialogs and not ann.errors, (ann.dialogs, ann.errors)


def test_game_lists_say_whose_turn_and_each_result(server: LiveServer, browser: Any) -> None:
    """Point 8: the guest lobby's "Your games" says whose turn it is; "My games" and the
    profile give a finished game's place and score, and whose turn it is in the others."""
    # a guest's game: the lobby lists it with whose turn it is
    g = create(server)
    both_move(server, g)
    guest = new_page(browser)
    guest.goto(server.url + "/")
    guest.evaluate(
        "([id, t]) => localStorage.setItem('tne:' + id, JSON.stringify({tokens: {a: t}}))",
        [g["id"], g["seats"][0]["token"]],
    )
    guest.goto(server.url + "/")
    guest.wait_for_selector("#mygames:not([hidden])")
    to_act = httpx.get(f"{server.url}/api/games/{g['id']}").json()["to_act"]
    row = guest.locator("#mygames tr", has=guest.locator(f"code:text-is('{g['id']}')"))
    assert row.locator(".state").inner_text() == f"Player {to_act + 1}'s turn"
    # an account's finished game and one under way
    name = f"Cy{uuid.uuid4().hex[:6]}"
    cy = new_page(browser)
    cy.goto(server.url + "/account")
    cy.wait_for_selector("#signup")
    cy.fill("#signup input[name=name]", name)
    cy.fill("#signup input[name=password]", PASSWORD)
    cy.click("#signup button[type=submit]")
    cy.wait_for_url("**/me")
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in cy.context.cookies())
    done, going = create(server), create(server)
    seats = [AccountSeat(server.ws_url, done["id"], cookie, {"token": done["seats"][0]["token"]})]
    seats.append(SeatClient(server.ws_url, done["id"], done["seats"][1]["token"]))
    end = play_to_end(seats)
    bound = AccountSeat(server.ws_url, going["id"], cookie, {"token": going["seats"][1]["token"]})
    bound.wait_view()
    for s in [*seats, bound]:
        s.close()
    result = end["view"]["result"]
    place = next(
        i + 1 for i, r in enumerate(result["ranking"]) if 0 in (r if isinstance(r, list) else [r])
    )
    expected = f"place {place} of 2 · {result['scores'][0][0]} points"
    for path in ("/me", f"/players/{name}"):
        cy.goto(server.url + path)
        cy.wait_for_selector(f"tr[data-game='{done['id']}']")
        assert cy.locator(f"tr[data-game='{done['id']}'] .state").inner_text() == expected
    cy.goto(server.url + "/me")
    cy.wait_for_selector(f"tr[data-game='{going['id']}']")
    assert cy.locator(f"tr[data-game='{going['id']}'] .state").inner_text() in (
        "waiting for Player 1",
        "your turn",
    )
    for p in (guest, cy):
        assert not p.errors, p.errors


def test_the_replay_lists_the_hand_over_and_the_resignation_at_their_step(
    server: LiveServer, browser: Any
) -> None:
    g = create(server)
    both_move(server, g)
    # seat 1's player hands the seat to a bot, then seat 0's player resigns: over
    r = httpx.post(
        f"{server.url}/api/games/{g['id']}/seats/1/bot",
        json={"token": g["seats"][1]["token"], "level": "random"},
    )
    assert r.status_code == 200, r.text
    ann = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    ann.wait_view()
    ann.send({"type": "resign"})
    end = ann.wait_view(lambda m: m["view"]["over"])
    assert end["view"]["end"] == "resign"
    ann.close()
    moves = httpx.get(f"{server.url}/api/games/{g['id']}/moves").json()
    changes = [n["change"] for n in moves["seat_log"]]
    assert changes == ["bot", "resign"]
    words = {
        "en-GB": ("leaves the table: a bot", "resigns"),
        "de-DE": ("verlässt den Tisch: ein Bot", "gibt auf"),
        "fr-FR": ("quitte la table : un bot", "abandonne"),
    }
    for locale, (handed, resigned) in words.items():
        page = new_page(browser, locale)
        page.goto(f"{server.url}/replay/{g['id']}")
        page.wait_for_selector("#log .seat-note")
        notes = page.locator("#log .entry:has(.seat-note)")
        assert notes.count() == 2
        assert handed in notes.nth(0).inner_text()
        assert resigned in notes.nth(1).inner_text()
        # each note sits at its step: after the moves made before it, and a click goes there
        for i, n in enumerate(moves["seat_log"]):
            at = len([e for e in moves["log"] if e["seq"] <= n["seq"]])
            assert notes.nth(i).get_attribute("data-step") == str(at)
        notes.nth(0).click()
        step = str(len([e for e in moves["log"] if e["seq"] <= moves["seat_log"][0]["seq"]]))
        page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
        if locale == "en-GB":
            shot(page, "replay-seat-notes")
        assert not page.errors and not page.dialogs, (page.errors, page.dialogs)
