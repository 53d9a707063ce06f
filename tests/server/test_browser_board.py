"""The board drawn as a board, in real headless Chromium: textured ground with river banks,
raised tiles, leaders as discs with their dynasty's symbol, monuments as two-colour towers,
treasures as objects, and civilization buildings with a glyph of their own — a light keep
with a band of its colour, never the settlement's house, visible on a black tile. The
galaxy keeps its own ground; a phone's board keeps pieces large enough to read."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, scripted_server, shot
from support.serving import LiveServer, SeatClient
from tigris_euphrates import apply, new_game, player_view, to_act
from tigris_euphrates.catalogues import catalogue

pytestmark = pytest.mark.browser
OPTIONS = {"buildings": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "board")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def builder(view: dict[str, Any], rng: random.Random) -> str:
    """Takes every monument and building offered, lays tiles beside their colour."""
    legal: list[str] = view["legal_actions"]
    for prefix in ("monument ", "building "):
        offered = [a for a in legal if a.startswith(prefix)]
        if offered:
            return rng.choice(offered)
    if "leader " in " ".join(legal) and rng.random() < 0.35:
        return rng.choice([a for a in legal if a.startswith("leader ")])
    tiles = [a for a in legal if a.startswith("tile ")]
    if tiles and rng.random() < 0.92:

        def alike(a: str) -> float:
            _, colour, cell = a.split()
            c, r = ord(cell[0]) - 97, int(cell[1:])
            near = [f"{chr(97 + c + dc)}{r + dr}" for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            same = sum(view["cells"].get(n, {}).get("tile") == colour for n in near)
            return 2 * same + 3 * rng.random()

        return max(tiles, key=alike)
    return rng.choice(legal)


def a_black_building() -> tuple[int, list[str], dict[str, Any]]:
    """A seeded game played until a black building, a monument and a leader stand."""
    for seed in range(40):
        state, rng = new_game({"players": 2, **OPTIONS}, seed), random.Random(seed)
        actions: list[str] = []
        while not state.over and len(actions) < 200:
            view = player_view(state, to_act(state))
            if "black" in view["buildings"] and view["monuments"] and view["leaders"]:
                return seed, actions, view
            action = builder(view, rng)
            actions.append(action)
            state, _ = apply(state, action)
    raise AssertionError("no seed builds a black building")


def game(server: LiveServer, options: dict[str, Any], seed: int, actions: list[str]) -> str:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": seats, "seed": seed, "options": options}
    ).json()
    clients = [SeatClient(server.ws_url, g["id"], s["token"]) for s in g["seats"]]
    state = new_game({"players": 2, **options}, seed)
    for seq, action in enumerate(actions):
        c = clients[to_act(state)]
        c.wait_view(lambda m, s=seq: m["seq"] == s)
        c.move(action, seq=seq)
        state, _ = apply(state, action)
    for c in clients:
        c.close()
    return f"{server.url}{g['seats'][0]['link']}"


def open_page(browser: Any, link: str, steps: int, width: int = 1280) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 860}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(link)
    page.wait_for_function("s => document.body.dataset.seq === s", arg=str(steps))
    return page


FILL = "(el) => getComputedStyle(el).fill"


def test_the_classic_board_is_drawn_as_a_board(server: LiveServer, browser: Any) -> None:
    seed, actions, view = a_black_building()
    link = game(server, OPTIONS, seed, actions)
    page = open_page(browser, link, len(actions))
    style = catalogue("en", "classic")["style"]
    board = page.locator("#boardsvg")
    # the ground: every cell textured, the river banked
    assert board.locator("pattern#tex-land path").count() == len(style["texture"]["land"])
    textures = board.locator("path.texture").evaluate_all(
        "els => els.map(e => [e.dataset.terrain, e.getAttribute('d').split('M').length - 1])"
    )
    grid = view["grid"]
    river = sum(row.count("~") for row in grid)
    assert sorted(textures) == [["land", 16 * 11 - river], ["river", river]]
    assert board.locator("path.bank").count() == 1
    # tiles are raised: each casts a shadow and is lit
    tiles = board.locator("g.piece")
    assert tiles.count() > 10 and tiles.locator("path.cast").count() == tiles.count()
    assert tiles.locator("path.shine").count() == tiles.count()
    # leaders: one disc each (the board's only circles), their dynasty's symbol drawn
    leaders = board.locator("g.leader")
    assert leaders.count() == len(view["leaders"]) == board.locator("circle").count()
    for i in range(leaders.count()):
        leader = leaders.nth(i)
        dynasty = view["players"][int(leader.get_attribute("data-seat") or 0)]["dynasty"]
        symbol = leader.locator("path.dynasty").get_attribute("d")
        assert symbol == style["dynasty_glyphs"][dynasty]
    # a monument: a tower of its two colours
    for name, at in view["monuments"].items():
        if name == "wonder":
            continue
        a, b = name.split("-")
        tower = board.locator(f"g.monument[data-cell='{at}']")
        assert (
            tower.locator(f"rect.t-{a}").count() == 2 and tower.locator(f"rect.t-{b}").count() == 1
        )
    # treasures: the chest of the catalogue
    assert board.locator("path.treasure").count() > 0
    assert board.locator("path.treasure").first.get_attribute("d") == style["treasure"]["path"]
    # the black building: a light keep with a black band, not the settlement's house
    at = view["buildings"]["black"]
    keep = board.locator(f"g.building[data-colour='black'][data-cell='{at}']")
    body = keep.locator("path.building-body").evaluate(FILL)
    assert all(int(x) > 200 for x in body[4:-1].split(","))  # light on the black tile
    assert keep.locator("rect.building-band").evaluate(FILL) == board.locator(
        "g.piece[data-tile='black'] rect"
    ).first.evaluate(FILL)
    house = style["glyphs"]["black"]
    drawn = keep.locator("path").evaluate_all("els => els.map(e => e.getAttribute('d'))")
    assert house not in drawn
    assert "building" in (keep.locator("title").text_content() or "")
    shot(page, "board-classic-test")
    # on a phone the pieces stay large enough to read
    phone = open_page(browser, link, len(actions), width=390)
    box = phone.locator("#boardsvg g.piece rect").first.bounding_box()
    assert box is not None and box["width"] >= 20
    assert page.errors == phone.errors == []


def test_the_galaxy_keeps_its_own_ground(server: LiveServer, browser: Any) -> None:
    page = open_page(browser, game(server, {"ruleset": "galaxy"}, 3, []), 0)
    board = page.locator("#boardsvg")
    assert board.locator(".texture").count() == 0 and board.locator(".decor").count() > 176
    assert board.locator("path.bank").count() == 0
    assert page.errors == []
