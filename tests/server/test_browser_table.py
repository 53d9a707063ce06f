"""The table made clear (issue 31, points 1-10), in real headless Chromium: each test reads
what the page shows — the log's sentences, the marked last move, the options, the pieces'
symbols, names and tooltips, the supply, the conflict marks and the war strengths, the
kingdom tints, the status line, the end screen with its statistics and the replay.

Scripted games: a seeded game is played through websockets (``SeatClient``) up to the
moment a test needs, then the seat's page is opened, as in test_browser.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, scripted_server, shot, wait_seq_change
from support.serving import LiveServer, SeatClient
from tigris_euphrates import apply, new_game, player_view, to_act
from tigris_euphrates.stats import record_stats

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "table")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def create(server: LiveServer, seed: int, **options: Any) -> dict[str, Any]:
    body = {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "seed": seed,
        "options": options,
    }
    g: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body).json()
    return g


def open_seat(browser: Any, server: LiveServer, g: dict[str, Any], seat: int) -> Any:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.url + g["seats"][seat]["link"])
    page.wait_for_selector("#status:not(:empty)")
    return page


def act(page: Any, *clicks: str) -> None:
    seq = page.evaluate("() => document.body.dataset.seq")
    for sel in clicks:
        page.click(sel)
    wait_seq_change(page, seq)


def script(seed: int, until: str | None, swap_share: float = 0.0) -> tuple[list[str], list[int]]:
    """A random game of two (engine-side, seed ``seed``): its actions and their actors up
    to the first decision of stage ``until`` (or the end, ``None``). With ``swap_share``,
    that share of the turns' actions swap a whole hand when they can: a short game."""
    state, rng = new_game({"players": 2}, seed), random.Random(seed)
    actions: list[str] = []
    actors: list[int] = []
    while not state.over:
        seat = to_act(state)
        assert seat is not None
        view = player_view(state, seat)
        stage = view["pending"]["stage"] if view["pending"] else "action"
        if until is not None and stage == until:
            return actions, actors
        legal = view["legal_actions"]
        swaps = [a for a in legal if a.startswith("swap")]
        if swaps and rng.random() < swap_share:
            action = max(swaps, key=lambda a: sum(int(p[-1]) for p in a[5:].split(",")))
        else:
            action = rng.choice(legal)
        actions.append(action)
        actors.append(seat)
        state, _ = apply(state, action)
    if until is not None:
        raise LookupError(f"seed {seed} never meets a {until} decision")
    return actions, actors


def drive(server: LiveServer, g: dict[str, Any], actions: list[str], actors: list[int]) -> None:
    """Play ``actions`` in game ``g`` through one websocket per seat."""
    clients = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    for step, action in enumerate(actions):
        c = clients[actors[step]]
        c.wait_view(lambda m, s=step: m["seq"] == s)
        c.move(action, seq=step)
    clients[0].wait_view(lambda m: m["seq"] == len(actions))
    for c in clients:
        c.close()


def test_log_last_move_options_pieces_supply_and_status(server: LiveServer, browser) -> None:
    """Points 1-5, 7 and 8 on a fresh game of Ann and Bob (seed 1: Ann's king fits on g3,
    beside the temple f3)."""
    g = create(server, 1)
    ann, bob = open_seat(browser, server, g, 0), open_seat(browser, server, g, 1)
    ann.wait_for_selector("#hand")
    # 8: the status line says plainly whose turn it is
    assert ann.locator("#status").inner_text().startswith("Your turn — 2 actions left")
    assert bob.locator("#status").inner_text().startswith("Ann's turn — 2 actions left")
    # 3: the game's options, for everyone
    for page in (ann, bob):
        chips = page.locator("#options .chip").all_inner_texts()
        assert chips == ["standard board", "hidden scoring"]
    # 4: hand tiles differ by symbol, not only colour; leaders are named
    glyphs = ann.locator(".hand-tile").evaluate_all(
        "els => els.map(e => [e.dataset.colour, e.title,"
        " e.querySelector('svg path').getAttribute('d')])"
    )
    # a title names the tile, then the key that selects it ("temple [key 1]")
    by_colour = {colour: (title.split(" [")[0], d) for colour, title, d in glyphs}
    assert len(by_colour) >= 2 and len({d for _, d in by_colour.values()}) == len(by_colour)
    assert {t for t, _ in by_colour.values()} <= {"temple", "farm", "market", "settlement"}
    chips = ann.locator("#hand .leader-chip").all_inner_texts()
    assert sorted(c.split(" ", 1)[1] for c in chips) == ["farmer", "king", "priest", "trader"]
    # 5: the supply as a player could count it
    view = httpx.get(f"{server.url}/api/games/{g['id']}/view").json()["view"]
    assert ann.locator("#supply-bag").inner_text() == f"bag: {view['bag_size']} tiles"
    treasures = sum(1 for c in view["cells"].values() if c.get("treasure"))
    assert ann.locator("#supply-treasures").inner_text() == f"treasures on the board: {treasures}"
    assert ann.locator("#monument-box .monument-chip").count() == 6
    # Ann places her king: the log says so in words, Bob sees the move marked
    act(ann, ".leader-chip[data-leader='black']", "[data-cell='g3'].legal")
    bob.wait_for_function("() => document.body.dataset.seq === '1'")
    assert bob.locator("#log .entry").last.inner_text() == "Ann places the king"
    assert bob.locator(".last-move").evaluate_all("els => els.map(e => e.dataset.at)") == ["g3"]
    bob.locator(".toggles input[type=checkbox]").nth(2).check()  # coordinates on
    assert bob.locator("#log .entry").last.inner_text() == "Ann places the king at g3"
    bob.locator(".toggles input[type=checkbox]").nth(2).uncheck()
    # 4: cell tooltips tell what is there, the kingdom and its leaders' strengths
    tip = bob.locator("[data-cell='g3'] title").text_content()
    assert "g3" in tip and "king of Ann" in tip and "▲1 ▼0" in tip
    tip = bob.locator("[data-cell='f3'] title").text_content()
    assert "temple" in tip and "kingdom of 2" in tip
    assert "king · Ann" in bob.locator("#boardsvg .leader[data-at='g3'] title").text_content()
    # 7: the kingdom's tint is drawn under the pieces and keeps its colour
    tint = "#boardsvg rect.tint[data-at='f3']"
    fill = bob.locator(tint).get_attribute("fill")
    order = bob.evaluate(
        """() => { const all = [...document.querySelectorAll('#boardsvg > *')];
        return [all.indexOf(document.querySelector("rect.tint[data-at='f3']")),
                all.indexOf(document.querySelector("g.piece[data-at='f3']"))]; }"""
    )
    assert order[0] < order[1]  # the tile is drawn over its tint: its colour shows
    act(ann, ".hand-tile", "#boardsvg .hit.legal >> nth=0")
    bob.wait_for_function("() => document.body.dataset.seq === '2'")
    # the last move marks both actions of Ann's turn, the second first (issue 40, point 9)
    marks = bob.locator(".last-move").evaluate_all("els => els.map(e => e.dataset.at)")
    assert len(marks) >= 2 and marks[0] != "g3" and "g3" in marks
    assert bob.locator(tint).get_attribute("fill") == fill
    # 8: now Bob's turn; 1: a swap is one line for the others, the tiles for the swapper
    bob.wait_for_function("() => document.body.dataset.myturn === '1'")
    assert bob.locator("#status").inner_text().startswith("Your turn — 2 actions left")
    assert ann.locator("#status").inner_text().startswith("Bob's turn — 2 actions left")
    bob.click("#swap")
    bob.locator(".hand-tile").nth(0).click()
    bob.locator(".hand-tile").nth(1).click()
    act(bob, "#swapgo")
    ann.wait_for_function("() => document.body.dataset.seq === '3'")
    entry = ann.locator("#log .entry").last.inner_text()
    assert entry == "Bob swaps 2 tiles"
    assert "draws" not in ann.locator("#log").inner_text()
    assert bob.locator("#log .entry").last.inner_text().startswith("Bob swaps ")
    bob.set_viewport_size({"width": 1280, "height": 1250})
    bob.locator(".toggles input[type=checkbox]").nth(1).check()  # strengths on
    bob.locator(".toggles input[type=checkbox]").nth(2).check()  # coordinates on
    assert "Ann places a temple at " in bob.locator("#log").inner_text()
    bob.evaluate("() => window.scrollTo(0, 0)")
    shot(bob, "table-log")
    assert not ann.errors and not bob.errors, ann.errors + bob.errors
    ann.context.close()
    bob.context.close()


def test_hotseat_status_names_the_player(server: LiveServer, browser) -> None:
    """Point 8 in hotseat: one screen, two players: the status line names whose turn it is."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "here")
    page.click("#create")
    page.wait_for_selector("#hand")
    first = page.locator("#hand h3").inner_text().split("— ")[1].rsplit(" ", 1)[0]
    assert page.locator("#status").inner_text().startswith(f"{first}'s turn — 2 actions left")
    assert "Your turn" not in page.locator("#status").inner_text()
    for _ in range(2):
        act(page, "[data-action='pass']")
    page.click("#ready")
    second = page.locator("#hand h3").inner_text().split("— ")[1].rsplit(" ", 1)[0]
    assert second != first
    assert page.locator("#status").inner_text().startswith(f"{second}'s turn — 2 actions left")
    page.close()


def find_war_choice() -> tuple[int, list[str], list[int]]:
    for seed in range(200):
        try:
            actions, actors = script(seed, "war")
        except LookupError:
            continue
        return seed, actions, actors
    raise AssertionError("no seed meets a war choice")


def test_union_war_strengths_combatants_and_war_sides(server: LiveServer, browser) -> None:
    """Point 6: the union tile is marked, the war choice lists each war's strengths, then
    both combatants are marked and the two sides tinted as two kingdoms."""
    seed, actions, actors = find_war_choice()
    g = create(server, seed)
    drive(server, g, actions, actors)
    placer = to_act(replay_state(seed, actions))
    page = open_seat(browser, server, g, placer)
    page.wait_for_selector("#decision[data-stage='war']")
    view = httpx.get(
        f"{server.url}/api/games/{g['id']}/view", params={"token": g["seats"][placer]["token"]}
    ).json()["view"]
    wars = view["pending"]["wars"]
    assert len(wars) >= 2
    names = ["Ann", "Bob"]
    for w in wars:
        row = page.locator(f".war-row[data-war='{w['colour']}']")
        assert row.locator(".war-strengths").inner_text() == (
            f"{names[w['attacker']]} {w['attacker_base']} – {w['defender_base']} "
            f"{names[w['defender']]}"
        )
    assert page.locator("#union").get_attribute("data-at") == view["pending"]["union"]
    shot(page, "table-war-choice")
    first = wars[0]
    act(page, f"#decision [data-action='war {first['colour']}']")
    page.wait_for_selector("#decision .vs")
    roles = page.locator(".combatant").evaluate_all("els => els.map(e => e.dataset.role).sort()")
    assert roles == ["attacker", "defender"]
    sides = page.locator("rect.war-side").evaluate_all(
        "els => [...new Set(els.map(e => e.dataset.side + ':' + e.getAttribute('fill')))].sort()"
    )
    assert [s.split(":")[0] for s in sides] == ["attacker", "defender"]
    assert page.locator(f"rect.war-side[data-at='{view['pending']['union']}']").count() == 0
    assert "Leader strengths" in page.locator(".toggles").inner_text()
    shot(page, "table-war")
    log = page.locator("#log").inner_text()
    assert "chooses which war comes first" in log
    assert not page.errors, page.errors
    page.context.close()


def replay_state(seed: int, actions: list[str]) -> Any:
    state = new_game({"players": 2}, seed)
    for a in actions:
        state, _ = apply(state, a)
    return state


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> dict[str, Any]:
    """A whole seeded game of Ann and Bob, played through websockets."""
    actions, actors = script(4, None, swap_share=0.25)  # 64 actions, two conflicts
    g = create(server, 4)
    drive(server, g, actions, actors)
    g["actions"] = actions
    return g


def test_the_end_screen_names_the_winner_and_shows_the_statistics(
    server: LiveServer, browser, finished: dict[str, Any]
) -> None:
    """Point 9: the winner and "you", each colour's total with its treasures, the
    statistics table; nothing of the live game left on screen."""
    g = finished
    record = httpx.get(f"{server.url}/api/games/{g['id']}/record").json()
    stats = record_stats(record)
    result = record["result"]
    page = open_seat(browser, server, g, 0)
    page.wait_for_selector("#endscreen")
    top = result["ranking"][0]
    winner = page.locator("#winner").inner_text()
    if top == 0:
        assert winner == "You win!"
    elif top == 1:
        assert winner == "Bob wins!"
    else:
        assert winner.startswith("Shared victory: Ann (you), Bob")
    assert "Ann (you)" in page.locator("#final").inner_text()
    for seat in (0, 1):
        row = page.locator(f"#final tr[data-seat='{seat}']")
        assert row.locator(".final").inner_text() == str(result["scores"][seat][0])
        shown = row.locator(".chip").all_inner_texts()
        assert len(shown) == 4 and all(t.split()[0].isdigit() for t in shown)
        # the four totals with the treasures placed are the record's final totals
        assert sorted(int(t.split()[0]) for t in shown) == sorted(result["scores"][seat])
    table = page.locator("#stats")
    for seat in (0, 1):
        row = stats["seats"][seat]
        cell = lambda figure, s=seat: table.locator(  # noqa: E731
            f"tr[data-figure='{figure}'] td[data-seat='{s}']"
        ).inner_text()
        p = row["points"]
        assert cell("tiles") == str(p["tile"] + p["building"])
        assert cell("conflicts") == str(p["revolt"] + p["war"])
        assert cell("monuments") == str(p["monument"] + p["wonder"])
        assert cell("treasures") == str(p["treasure"] + p["harvest"])
        assert cell("revolts") == f"{row['revolts']['won']} / {row['revolts']['lost']}"
        assert cell("wars") == f"{row['wars']['won']} / {row['wars']['lost']}"
        assert cell("catastrophes") == str(row["catastrophes"])
    shot(page, "table-endscreen")
    text = page.locator("body").inner_text()
    for live in ("Leaders to place", "Not your turn", "Your hand"):
        assert live not in text
    assert page.locator("#hand").count() == 0 and page.locator("#decision").count() == 0
    page.click("#seeboard")
    page.locator(".toggles input[type=checkbox]").nth(1).check()  # a re-render
    assert page.locator("#endscreen").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def test_replay_move_list_slider_play_and_conflicts(
    server: LiveServer, browser, finished: dict[str, Any]
) -> None:
    """Point 10: the move list, the slider, play/pause, the conflict panel as it was, and
    every key press counted."""
    g = finished
    total = len(g["actions"])
    page = browser.new_context(viewport=VIEWPORT).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/replay/{g['id']}")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert page.locator("#log .entry").count() == total
    assert page.locator("#slider").get_attribute("max") == str(total)
    # five quick key presses: five steps
    page.locator("#boardsvg").click()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.step === '5'")
    assert page.locator("#log .entry.current").get_attribute("data-seq") == "5"
    # the slider jumps
    page.locator("#slider").evaluate(
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }", total - 1
    )
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=total - 1)
    # a click on a move shows the board after it
    page.locator("#log .entry[data-seq='3']").click()
    page.wait_for_function("() => document.body.dataset.step === '3'")
    # play runs on by itself; pause stops it
    page.click("#play")
    page.wait_for_function("() => +document.body.dataset.step >= 5")
    assert "Pause" in page.locator("#play").inner_text()
    # pause stops it, even held down while the next step comes (the click is not lost)
    box = page.locator("#play").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(900)  # a step is drawn every 0.7 s while it plays
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('#play').innerText.includes('Play')")
    stopped = page.evaluate("() => document.body.dataset.step")
    page.wait_for_timeout(900)
    assert page.evaluate("() => document.body.dataset.step") == stopped
    # the conflict panel as it was, at a step where a conflict waits for its support
    state = new_game({"players": 2}, 4)
    at = None
    for i, a in enumerate(g["actions"]):
        state, _ = apply(state, a)
        pend = player_view(state, None)["pending"]
        if pend and pend.get("conflict"):
            at = i + 1
            break
    assert at is not None
    page.locator("#slider").evaluate(
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }", at
    )
    page.wait_for_function("n => document.body.dataset.step === String(n)", arg=at)
    assert page.locator("#decision .vs").count() == 1
    assert "Attacker" in page.locator("#decision").inner_text()
    shot(page, "table-replay")
    assert not errors, errors
    page.close()


# Kingdom A (seat 0: priest a1, king a3, trader c1) and kingdom B (seat 1: priest g1,
# king g3, trader e1); a black tile on d2 unites them with three wars (test_rules_wars.py).
THREE_WARS = """
    . r . . . r .
    r r k . k r r
    . r . . . r .
"""
THREE_LEADERS = "0 red a1, 0 black a3, 0 green c1, 1 red g1, 1 black g3, 1 green e1"


def war_entries() -> list[dict[str, Any]]:
    """Log entries (as the server sends them) of the three wars: Ann orders them, the green
    war and the black war are fought, and the red one is cancelled by the split."""
    from diagram import st

    s = st(THREE_WARS, leaders=THREE_LEADERS, hands=[{"black": 1, "blue": 2}, {}])
    entries = []
    for seq, action in enumerate(
        ["tile black d2", "war green", "commit 0", "commit 0", "war black", "commit 0", "commit 0"],
        1,
    ):
        seat = to_act(s)
        s, events = apply(s, action)
        entries.append(
            {"seq": seq, "seat": seat, "action": action, "events": [e.to_dict() for e in events]}
        )
    entries.append(
        {
            "seq": 8,
            "seat": 1,
            "action": "swap 2 tiles",
            "events": [
                {"type": "tiles_swapped", "seat": 1, "count": 2},
                {"type": "tiles_drawn", "seat": 1, "count": 2},
            ],
        }
    )
    return entries


LOG_LINES = """
([entries, coords]) => import('/static/js/log.js').then(m =>
  m.logLines(entries, [{name: 'Ann'}, {name: 'Bob'}], coords).map(e => e.lines.map(l => l.text)))
"""


@pytest.mark.parametrize("theme", ["classic", "galaxy"])
def test_the_log_tells_every_step_of_a_union_in_words(
    server: LiveServer, browser, theme: str
) -> None:
    """Point 1: the page's log module (in the game's catalogue) turns the typed events of a
    union with three wars into sentences: the choice, each war, the points, the removed
    tiles, the war cancelled by the split, a swap as one line; cells only with coordinates."""
    g = create(server, 1, **({"ruleset": "galaxy"} if theme == "galaxy" else {}))
    page = open_seat(browser, server, g, 0)
    entries = war_entries()
    lines = page.evaluate(LOG_LINES, [entries, False])
    with_cells = page.evaluate(LOG_LINES, [entries, True])
    flat = [line for entry in lines for line in entry]
    if theme == "classic":
        assert lines[0] == [
            "Ann places a settlement",
            "Ann's settlement unites two kingdoms",
            "Ann chooses which war comes first: priests, traders, kings",
        ]
        assert lines[1] == [
            "Ann fights the green war first",
            "War: Ann's trader (strength 0) attacks Bob's (strength 0)",
        ]
        # a tie says who wins it (issue 40, point 19)
        assert "Bob wins the war, 0 to 0: a tie goes to the defender" in lines[3]
        assert "Ann's trader is removed: lost a war" in lines[3]
        assert "Bob scores 1 green for the war" in lines[3]
        assert "the red war is cancelled: the black war split the kingdoms" in flat
        assert "1 settlement removed" in lines[6]
        assert with_cells[0][0] == "Ann places a settlement at d2"
        assert "1 settlement removed (c2)" in with_cells[6]
        assert lines[7] == ["Bob swaps 2 tiles"]  # one line, no draw
    else:
        assert lines[0][0] == "Ann places a settler"
        assert lines[0][1] == "Ann's settler joins two allied regions"
        assert "Bob gains 1 money for the external conflict" in lines[3]
        assert (
            "the scientific leaders conflict is cancelled: "
            "the government heads conflict split the allied regions"
        ) in flat
        assert lines[7] == ["Bob swaps 2 colonists"]
        classic = re.compile(
            r"\b(tiles?|treasures?|catastrophes?|kingdoms?|temples?|farms?|markets?|"
            r"settlements?|priests?|farmers?|traders?|kings?|bag|dynast(y|ies))\b",
            re.IGNORECASE,
        )
        assert not any(classic.search(line) for line in flat), flat
    assert sum(1 for line in flat if "cancelled" in line) == 1
    assert not page.errors, page.errors
    page.context.close()
