"""The page in real headless Chromium (Debian's ``chromium``), driven only by clicks.

Select with ``pytest -m browser`` (or ``-k browser``); skipped with a message when no
Chromium is installed (``make test`` installs it). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browsing import (
    chromium,
    play_one_action,
    scripted_server,
    shot,
    wait_my_turn,
    wait_seq_change,
)
from support.serving import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def test_play_a_whole_game_against_a_bot_from_the_lobby(server: LiveServer, browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    t0 = time.monotonic()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    shot(page, "lobby")
    page.select_option("select[data-seat='1']", "bot:random")
    page.click("#create")
    page.wait_for_selector("#hand")
    assert page.locator(".hit.legal").count() == 0
    page.locator(".hand-tile").first.click()
    assert page.locator(".hit.legal").count() > 0  # the legal cells light up
    page.keyboard.press("Escape")
    rng = random.Random(1)
    n = 0
    while page.evaluate("() => document.body.dataset.over") != "1":
        assert time.monotonic() - t0 < 150, "the game took too long"
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.over") == "1":
            break
        play_one_action(page, rng, n)
        n += 1
        if n == 24:
            page.locator("input[type=checkbox]").nth(2).check()  # coordinates on
            shot(page, "midgame")
    page.wait_for_selector("#endscreen")
    assert "Game over" in page.locator("#endscreen").inner_text()
    shot(page, "endscreen")
    assert n > 5 and not errors, errors
    # replay the finished game step by step
    page.click("#endscreen >> text=Replay")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.click("#next")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    page.click("#next")
    page.wait_for_function("() => document.body.dataset.step === '2'")
    assert "step 2" in page.locator("#status").inner_text()
    shot(page, "replay")
    assert not errors, errors
    page.close()


def test_two_players_resolve_a_revolt_through_the_panel(server: LiveServer, browser) -> None:
    import httpx

    g = httpx.post(
        f"{server.url}/api/games",
        json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "seed": 1,  # Bob holds five temples (red tiles) to support his revolt
        },
    ).json()
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a, b = ctx_a.new_page(), ctx_b.new_page()
    for page, seat in ((a, 0), (b, 1)):
        page.set_viewport_size({"width": 1280, "height": 860})
        page.goto(server.url + g["seats"][seat]["link"])
        page.wait_for_selector("#hand")
    # Ann: black leader next to the temple f3, then pass
    a.click(".leader-chip[data-leader='black']")
    seq = a.evaluate("() => document.body.dataset.seq")
    a.click("[data-cell='g3'].legal")
    wait_seq_change(a, seq)
    seq = a.evaluate("() => document.body.dataset.seq")
    a.click("[data-action='pass']")
    wait_seq_change(a, seq)
    # Bob: his black leader into the same kingdom: a revolt
    b.wait_for_function("() => document.body.dataset.myturn === '1'")
    b.click(".leader-chip[data-leader='black']")
    b.click("[data-cell='f4'].legal")
    b.wait_for_selector("#decision .vs")
    panel = b.locator("#decision").inner_text()
    assert "Revolt" in panel and "Attacker" in panel and "Bob" in panel and "Ann" in panel
    shot(b, "conflict-attacker")
    b.locator("#decision [data-action^='commit']").last.click()  # commit every temple
    a.wait_for_selector("#decision [data-action^='commit']")
    assert "support: +" in a.locator("#decision").inner_text()
    shot(a, "conflict-defender")
    a.locator("#decision [data-action='commit 0']").click()
    a.wait_for_function("() => !document.querySelector('#decision .vs')")
    log = a.locator("#log").inner_text()
    assert "Bob wins the revolt, 6 to 1" in log
    b.wait_for_function(
        "() => document.querySelector('#log').innerText.includes('wins the revolt')"
    )
    b.wait_for_selector("#conflict-result")
    shot(b, "after-revolt")
    # a reload (or a dropped connection) returns Ann to her seat and the current view
    a.reload()
    a.wait_for_selector("#hand")
    assert "Ann" in a.locator("#hand h3").inner_text()
    assert "Bob wins the revolt" in a.locator("#log").inner_text()
    ctx_a.close()
    ctx_b.close()


def test_hotseat_hides_the_hand_between_players(server: LiveServer, browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "here")
    page.click("#create")
    page.wait_for_selector("#hand")
    for _ in range(2):
        seq = page.evaluate("() => document.body.dataset.seq")
        page.click("[data-action='pass']")
        wait_seq_change(page, seq)
    page.wait_for_selector("#passdevice")
    assert page.locator("#hand").count() == 0  # no hand in the page behind the screen
    shot(page, "hotseat-pass")
    page.click("#ready")
    assert page.locator("#passdevice").count() == 0
    assert "Player 2" in page.locator("#hand h3").inner_text()
    page.close()


def decision_script() -> tuple[int, list[str], list[int], dict[int, str]]:
    """A random 2-player game that meets a monument offer, a treasure pick and a war order
    choice: (seed, actions, actor of each action, {index: stage} of the first of each)."""
    from tigris_euphrates import apply, new_game, player_view, to_act

    for seed in range(50):
        state, rng = new_game({"players": 2}, seed), random.Random(seed)
        script: list[str] = []
        actors: list[int] = []
        first: dict[str, int] = {}
        while not state.over and len(first) < 3:
            seat = to_act(state)
            view = player_view(state, seat)
            stage = view["pending"]["stage"] if view["pending"] else "action"
            if stage in ("monument", "treasure", "war"):
                first.setdefault(stage, len(script))
            action = rng.choice(view["legal_actions"])
            script.append(action)
            actors.append(seat)
            state, _ = apply(state, action)
        if len(first) == 3:
            return (
                seed,
                script,
                actors,
                {i: st for st, i in sorted(first.items(), key=lambda x: x[1])},
            )
    raise AssertionError("no seed meets all three decisions")


def test_monument_treasure_and_war_decisions_by_clicking(server: LiveServer, browser) -> None:
    """A seeded game brought (through websockets) to a monument offer, a treasure pick and a
    war order choice; each decision is then taken in the page by clicking."""
    import httpx

    from support.serving import SeatClient

    seed, script, actors, decisions = decision_script()
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": [{"kind": "human"}] * 2, "seed": seed}
    ).json()
    clients = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    step = 0
    for at, stage in decisions.items():
        while step < at:  # play the script up to the decision through websockets
            c = clients[actors[step]]
            c.wait_view(lambda m, s=step: m["seq"] == s)
            c.move(script[step], seq=step)
            step += 1
        # the deciding player opens the game in the page, which takes the seat over from
        # the scripted connection (one live connection a seat)
        seat = actors[at]
        clients[seat].close()
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})
        page = ctx.new_page()
        page.goto(server.url + g["seats"][seat]["link"])
        page.wait_for_function("s => document.body.dataset.seq === s", arg=str(at))
        page.wait_for_selector("#decision")
        action = script[at]
        if stage == "treasure":
            page.click(f"[data-cell='{action.split()[1]}'].legal")
        else:
            assert page.locator(f"#decision [data-action='{action}']").count() == 1
            shot(page, f"decision-{stage}")
            page.click(f"#decision [data-action='{action}']")
        page.wait_for_function("s => document.body.dataset.seq === s", arg=str(at + 1))
        ctx.close()
        clients[seat] = SeatClient(server.ws_url, g["id"], g["seats"][seat]["token"])
        step += 1
    for c in clients:
        c.close()


def test_undo_board_toggles_and_leaving_the_seat_to_a_bot(server: LiveServer, browser) -> None:
    """Inside one's own turn Undo takes the action back; the board's toggles draw and hide
    kingdoms, leader strengths and coordinates; leaving hands the seat to a bot, which then
    plays it without anyone clicking."""
    import httpx

    g = httpx.post(
        f"{server.url}/api/games",
        json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            "seed": 1,  # Ann's black leader fits on g3, beside the temple f3
        },
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + g["seats"][0]["link"])
    page.wait_for_selector("#hand")
    leaders = "#boardsvg circle"
    assert page.locator(leaders).count() == 0
    assert page.locator("#undo").count() == 0  # nothing to take back yet

    def place_black_leader() -> None:
        seq = page.evaluate("() => document.body.dataset.seq")
        page.click(".leader-chip[data-leader='black']")
        page.click("[data-cell='g3'].legal")
        wait_seq_change(page, seq)

    place_black_leader()
    assert page.locator(leaders).count() == 1
    assert "Your turn — 1 action left" in page.locator("#status").inner_text()
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#undo")
    wait_seq_change(page, seq)
    assert page.locator(leaders).count() == 0  # the leader is back in the hand
    assert "Your turn — 2 actions left" in page.locator("#status").inner_text()
    assert page.locator(".leader-chip[data-leader='black']").count() == 1

    place_black_leader()
    toggles = page.locator(".toggles input[type=checkbox]")
    tint = "#boardsvg rect[fill^='hsla']"
    assert page.locator(tint).count() == 2  # leader g3 + temple f3 tinted as one kingdom
    toggles.nth(0).uncheck()
    assert page.locator(tint).count() == 0
    toggles.nth(0).check()
    assert page.locator(tint).count() == 2
    assert page.locator("#boardsvg text.strength").count() == 0
    toggles.nth(1).check()
    # the king at g3: one temple beside it (revolt), no black tile in its kingdom (war)
    assert page.locator("#boardsvg text.strength").all_text_contents() == ["▲1", "▼0"]
    assert page.locator("#boardsvg text.coord").count() == 0
    toggles.nth(2).check()
    assert page.locator("#boardsvg text.coord").count() == 16 + 11
    shot(page, "toggles")

    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("button.tobot")
    page.click("#asktobot-yes")  # the page's own question
    wait_seq_change(page, seq)  # the bot plays Ann's second action by itself
    page.wait_for_selector("button.tohuman")  # Ann watches the bot play her seat
    assert "· bot " in page.locator(".player.me").inner_text()
    page.click("button.tohuman")  # and takes it back
    page.wait_for_selector("button.tobot")
    assert "· bot " not in page.locator(".player.me").inner_text()
    assert not errors, errors
    page.close()
