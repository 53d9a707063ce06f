"""The variants in real headless Chromium: the lobby's options, a whole game of each variant
against a bot, and the variants' own moments taken by clicking — the wonder, a building
placed and moved, the wonder point, a galaxy weapon ship and harvest — each checked by what
the page shows. Screenshots go to test-artifacts/ (docs/screenshots/ holds chosen ones).

Scripted moments: a seeded game is played through websockets (``SeatClient``) up to the
moment, then the seat's page takes that decision by clicking, as in test_browser.py.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from browsing import chromium, play_one_action, scripted_server, shot, wait_my_turn
from support.serving import LiveServer, SeatClient

pytestmark = pytest.mark.browser

#: Words of the classic game that a galaxy page must not show (RULES.md §11: the theme).
CLASSIC_WORDS = re.compile(
    r"\b(tiles?|treasures?|catastrophes?|kingdoms?|temples?|farms?|markets?|settlements?|"
    r"priests?|farmers?|traders?|kings?|bag|dynast(y|ies))\b",
    re.IGNORECASE,
)

Policy = Callable[[dict[str, Any], random.Random], str]
Moment = Callable[[dict[str, Any], list[str]], bool]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from scripted_server(tmp_path_factory, "variants")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def page_text(page: Any) -> str:
    """Everything the page shows as text: header, board titles aside (innerText holds only
    what is rendered), panels, overlays."""
    return str(page.evaluate("() => document.body.innerText"))


# ------------------------------------------------------------------------ whole games


@pytest.mark.parametrize(
    ("name", "setup", "chips"),
    [
        (
            "wonder",
            {"#wonder": True, "#english": True},
            ["standard board", "English variant", "hidden scoring", "wonder"],
        ),
        (
            "buildings",
            {"#buildings": True, "#open": True, "#board": "advanced"},
            ["advanced board", "open scoring", "civilization buildings"],
        ),
        (
            "galaxy",
            {"#ruleset": "galaxy"},
            ["galaxy (in space)", "standard board", "hidden scoring"],
        ),
    ],
)
def test_a_whole_game_of_each_variant_from_the_lobby(
    server: LiveServer, browser: Any, name: str, setup: dict[str, Any], chips: list[str]
) -> None:
    """Chosen in the lobby, shown to the player and to a spectator, played to its end
    against a random bot by clicking what the page offers."""
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("select[data-seat='1']", "bot:random")
    for sel, value in setup.items():
        if isinstance(value, bool):
            page.check(sel)
        else:
            page.select_option(sel, value)
    if name == "galaxy":  # the galaxy has no monuments: no wonder, no buildings (RULES §11)
        assert page.is_disabled("#wonder") and page.is_disabled("#buildings")
        shot(page, "lobby-variants")
    else:
        assert page.is_enabled("#wonder") and page.is_enabled("#buildings")
    page.click("#create")
    page.wait_for_selector("#hand")
    shown = page.locator("#options .chip").all_text_contents()
    assert shown == chips
    game_id = page.evaluate("() => location.pathname.split('/')[2]")
    watcher = browser.new_page()
    watcher.goto(f"{server.url}/game/{game_id}")
    watcher.wait_for_selector("#options")
    assert watcher.locator("#options .chip").all_text_contents() == chips
    assert watcher.locator("#hand").count() == 0  # a spectator sees no hand
    watcher.close()
    if name == "galaxy":
        assert page.evaluate("() => document.body.dataset.theme") == "galaxy"
        assert "Your fleet" in page.locator("#hand h3").inner_text()
    rng = random.Random(3)
    n = 0
    t0 = time.monotonic()
    while page.evaluate("() => document.body.dataset.over") != "1":
        assert time.monotonic() - t0 < 240, "the game took too long"
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.over") == "1":
            break
        play_one_action(page, rng, n)
        n += 1
        if n == 20:
            shot(page, f"variant-{name}-midgame")
    page.wait_for_selector("#endscreen")
    end = page.locator("#endscreen").inner_text()
    assert "Game over" in end
    if name == "galaxy":
        assert "Each resource (with alien artifacts)" in end
        assert "technology" in end and "raw materials" in end and "money" in end
        assert re.search(r"pool of colonists|alien artifacts were left", end)
        assert not CLASSIC_WORDS.search(end), CLASSIC_WORDS.search(end)
        text = page_text(page)
        assert not CLASSIC_WORDS.search(text), CLASSIC_WORDS.search(text)
    else:
        assert "Each colour (with treasures)" in end
    shot(page, f"variant-{name}-end")
    # the replay draws the game in its theme too
    page.click("#endscreen >> text=Replay")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.click("#next")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert page.locator("#options .chip").all_text_contents() == chips
    if name == "galaxy":
        assert page.evaluate("() => document.body.dataset.theme") == "galaxy"
        text = page_text(page)
        assert "technology" in text and not CLASSIC_WORDS.search(text), text
    assert n > 5 and not errors, errors
    page.close()


# ------------------------------------------------------------------------ scripted moments


def neighbours(cell: str) -> list[str]:
    c, r = ord(cell[0]) - 97, int(cell[1:]) - 1
    return [
        f"{chr(97 + c + dc)}{r + dr + 1}"
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= c + dc < 16 and 0 <= r + dr < 11
    ]


def builder(view: dict[str, Any], rng: random.Random) -> str:
    """Plays towards the variants' moments: places every building offered, declines
    monuments (tiles stay face up) and, until the wonder stands, lays tiles beside tiles of
    their colour so that a plus forms."""
    legal = view["legal_actions"]
    for prefix in ("wonder ", "building "):
        offered = [a for a in legal if a.startswith(prefix)]
        if offered:
            return rng.choice(offered)
    if "decline" in legal:
        return "decline"
    tiles = [a for a in legal if a.startswith("tile ")]
    if "wonder" not in view["monuments"] and tiles and rng.random() < 0.9:

        def alike(a: str) -> float:
            _, colour, cell = a.split()
            near = [view["cells"].get(n, {}) for n in neighbours(cell)]
            return sum(x.get("tile") == colour and not x.get("face_down") for x in near) + (
                rng.random()
            )

        return max(tiles, key=alike)
    return rng.choice(legal)


def wanderer(view: dict[str, Any], rng: random.Random) -> str:
    return rng.choice(view["legal_actions"])


def script(
    options: dict[str, Any], policy: Policy, moments: dict[str, Moment], seeds: int = 40
) -> tuple[int, list[str], list[int], list[tuple[int, str]]]:
    """A seeded two-player game played by ``policy`` that meets each moment: (seed, actions,
    actor of each action, [(index, moment name)] of the first of each, in order)."""
    from tigris_euphrates import apply, new_game, player_view, to_act

    for seed in range(seeds):
        state, rng = new_game({"players": 2, **options}, seed), random.Random(seed)
        actions: list[str] = []
        actors: list[int] = []
        first: dict[str, int] = {}
        while not state.over and len(first) < len(moments) and len(actions) < 400:
            seat = to_act(state)
            view = player_view(state, seat)
            action = policy(view, rng)
            for name, met in moments.items():
                if name not in first and met(view, [action]):
                    first[name] = len(actions)
            actions.append(action)
            actors.append(seat)
            state, _ = apply(state, action)
        if len(first) == len(moments):
            return seed, actions, actors, sorted((i, name) for name, i in first.items())
    raise AssertionError(f"no seed meets {sorted(moments)}")


class Table:
    """Two human seats of a seeded game: websocket clients that play the script, and one
    page per seat that takes the scripted moments by clicking. A seat has one live
    connection at a time, so a seat's page and its client take turns: opening one closes
    the other."""

    def __init__(self, server: LiveServer, browser: Any, options: dict[str, Any], seed: int):
        g = httpx.post(
            f"{server.url}/api/games",
            json={
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                "seed": seed,
                "options": options,
            },
        ).json()
        self.server = server
        self.browser = browser
        self.game = g["id"]
        self.seats = g["seats"]
        self.clients: list[SeatClient | None] = [None, None]
        self.pages: list[Any] = [None, None]
        self.errors: list[str] = []
        self.step = 0

    def client(self, seat: int) -> SeatClient:
        """The seat's websocket client (its page, if open, is closed first)."""
        if self.pages[seat] is not None:
            self.pages[seat].context.close()
            self.pages[seat] = None
        c = self.clients[seat]
        if c is None:
            c = self.clients[seat] = SeatClient(
                self.server.ws_url, self.game, self.seats[seat]["token"]
            )
        return c

    def page(self, seat: int) -> Any:
        """The seat's page, showing the current step (its client, if open, is closed)."""
        c = self.clients[seat]
        if c is not None:
            c.close()
            self.clients[seat] = None
        if self.pages[seat] is None:
            ctx = self.browser.new_context(viewport={"width": 1280, "height": 860})
            page = ctx.new_page()
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            page.goto(self.server.url + self.seats[seat]["link"])
            page.wait_for_selector("#hand")
            self.pages[seat] = page
        page = self.pages[seat]
        page.wait_for_function("s => document.body.dataset.seq === s", arg=str(self.step))
        return page

    def play_to(self, at: int, actions: list[str], actors: list[int]) -> Any:
        """Play the script through websockets up to step ``at``; the page of its actor,
        showing that step."""
        while self.step < at:
            c = self.client(actors[self.step])
            c.wait_view(lambda m, s=self.step: m["seq"] == s)
            c.move(actions[self.step], seq=self.step)
            self.step += 1
        return self.page(actors[at])

    def done(self, at: int, actors: list[int]) -> Any:
        """Wait until the page's click at step ``at`` is played; the page, updated."""
        self.step = at + 1
        return self.page(actors[at])

    def close(self) -> None:
        for c in self.clients:
            if c is not None:
                c.close()
        for page in self.pages:
            if page is not None:
                page.context.close()


def offers(prefix: str) -> Moment:
    return lambda view, chosen: chosen[0].startswith(prefix)


def moves_a_building(view: dict[str, Any], chosen: list[str]) -> bool:
    return chosen[0].startswith("building ") and chosen[0].split()[1] in view["buildings"]


def test_buildings_and_the_wonder_by_clicking(server: LiveServer, browser: Any) -> None:
    """A building placed, then moved, the wonder built on a plus and a wonder point taken,
    each by clicking in the page; the board shows one building per colour where the view
    puts it and the wonder as one plus."""
    options = {"wonder": True, "buildings": True}
    seed, actions, actors, moments = script(
        options,
        builder,
        {
            "place": offers("building "),
            "move": moves_a_building,
            "wonder": offers("wonder "),
            "point": offers("point "),
        },
    )
    table = Table(server, browser, options, seed)
    for at, moment in moments:
        page = table.play_to(at, actions, actors)
        action = actions[at]
        words = action.split()
        if moment in ("place", "move"):
            colour, cell = words[1], words[2]
            page.wait_for_selector("#decision[data-stage='building']")
            heading = page.locator("#decision h3").inner_text()
            assert heading == f"Place the {colour} building?"
            assert page.locator("#decision [data-action='decline']").count() == 1
            before = page.locator(f".building[data-colour='{colour}']").all()
            origin = before[0].get_attribute("data-cell") if before else None
            assert (origin is not None) == (moment == "move")
            legal = page.locator(".hit.legal").evaluate_all("els => els.map(e => e.dataset.cell)")
            assert cell in legal
            shot(page, f"building-{moment}-offer")
            page.click(f"[data-cell='{cell}'].legal")
            page = table.done(at, actors)
            drawn = page.locator(f".building[data-colour='{colour}']")
            assert drawn.count() == 1 and drawn.get_attribute("data-cell") == cell
            assert origin != cell
            assert f"places the {colour} building" in page.locator("#log").inner_text()
        elif moment == "wonder":
            centre = words[1]
            page.wait_for_selector("#decision[data-stage='monument']")
            assert page.locator("#decision h3").inner_text() == "Build the wonder?"
            assert page.locator(f".offer-plus[data-centre='{centre}']").count() == 1
            assert page.locator("#wonder").count() == 0
            shot(page, "wonder-offer")
            page.click(f"[data-cell='{centre}'].legal")
            page = table.done(at, actors)
            wonder = page.locator("#wonder")
            assert wonder.count() == 1 and wonder.get_attribute("data-cell") == centre
            assert wonder.locator("path.wonder").count() == 1  # one piece: one plus outline
            assert page.locator("#decision").count() == 0
            assert "builds the wonder" in page.locator("#log").inner_text()
            for seat in (0, 1):  # both players see it
                table.page(seat).wait_for_selector(f"#wonder[data-cell='{centre}']")
        elif moment == "point":
            colour = words[1]
            page.wait_for_selector("#decision[data-stage='wonder_point']")
            buttons = page.locator("#decision [data-action^='point ']")
            assert buttons.count() == 4
            assert page.locator(f"#decision [data-action='{action}']").inner_text() == (
                f"+1 {colour}"
            )
            page.click(f"#decision [data-action='{action}']")
            page = table.done(at, actors)
            assert f"takes a wonder point: 1 {colour}" in page.locator("#log").inner_text()
    view = table.client(1).wait_view(lambda m: m["seq"] == table.step)["view"]
    page = table.page(0)
    buildings = page.locator(".building").evaluate_all(
        "els => els.map(e => [e.dataset.colour, e.dataset.cell])"
    )
    assert dict(buildings) == view["buildings"]
    # a building's glyph is its own, not a tile's (the settlement's house), and its keep is
    # light with a band of its colour: the black one shows on a black tile (issue 40, point 19)
    tile_glyphs = set(
        page.locator("#hand .hand-tile svg path").evaluate_all(
            "els => els.map(e => e.getAttribute('d'))"
        )
    )
    shape = page.locator(".building .building-body").first.get_attribute("d")
    assert shape and shape not in tile_glyphs
    body = page.locator(".building .building-body").first.evaluate("e => getComputedStyle(e).fill")
    assert body == "rgb(251, 247, 238)"
    assert page.locator(".building .building-band").count() == len(buildings)
    shot(page, "variant-wonder-buildings")
    assert not table.errors, table.errors
    table.close()


def test_galaxy_weapon_ship_and_harvest_by_clicking(server: LiveServer, browser: Any) -> None:
    """In the galaxy, a weapon ship destroys a system and an alien artifact is harvested, both
    by clicking; the board, hand, panels and log speak the space game."""
    options = {"ruleset": "galaxy"}
    seed, actions, actors, moments = script(
        options,
        wanderer,
        {
            "ship": offers("catastrophe "),
            "harvest": lambda view, chosen: (view["pending"] or {}).get("stage") == "harvest",
        },
    )
    table = Table(server, browser, options, seed)
    page = table.page(0)
    assert page.evaluate("() => document.body.dataset.theme") == "galaxy"
    assert page.locator("#boardsvg .decor").count() > 176  # every system is drawn
    assert page.locator("#options .chip").first.inner_text() == "galaxy (in space)"
    assert page.locator(".brand").inner_text() == "Tigris & Euphrates: Galaxy"
    for at, moment in moments:
        page = table.play_to(at, actions, actors)
        cell = actions[at].split()[1]
        if moment == "ship":
            button = page.locator("#catastrophe")
            assert re.fullmatch(r"Weapon ship \(\d left\)", button.inner_text())
            button.click()
            assert page.locator(".hit.legal").count() > 0
            page.click(f"[data-cell='{cell}'].legal")
            page = table.done(at, actors)
            assert page.locator(f".catastrophe[data-at='{cell}']").count() == 1
            assert "sends a weapon ship" in page.locator("#log").inner_text()
        else:
            page.wait_for_selector("#decision[data-stage='harvest']")
            assert page.locator("#decision h3").inner_text() == "Harvest an alien artifact"
            legal = page.locator(".hit.legal").evaluate_all("els => els.map(e => e.dataset.cell)")
            view = table.client(1 - actors[at]).wait_view(lambda m, s=at: m["seq"] == s)["view"]
            assert sorted(legal) == sorted(view["pending"]["harvest"]["cells"])
            shot(page, "variant-galaxy-harvest")
            page.click(f"[data-cell='{cell}'].legal")
            page = table.done(at, actors)
            assert "harvests an alien artifact" in page.locator("#log").inner_text()
    text = page_text(page)
    for words in ("Your fleet", "weapon ships", "technology", "raw materials", "pool:"):
        assert words in text
    assert not CLASSIC_WORDS.search(text), CLASSIC_WORDS.search(text)
    assert page.locator(".hand-tile svg.glyph").count() == page.locator(".hand-tile").count()
    shot(page, "variant-galaxy")
    assert not table.errors, table.errors
    table.close()
