"""Puzzles in real headless Chromium: puzzles made by the extraction from a real bot game
analysed with a small budget are stored; a signed-up player opens them from the nav, makes
the best move on the board as in a game (a hand tile or a leader, then its cell) and is told
it is correct with the best move drawn and the rating's rise; then the next puzzle, answered
by keyboard with the move the game's player made, is wrong, with the best move drawn beside
it and the rating's fall. A guest on a phone gets a puzzle too, unrated. A puzzle opened at
its own address is solved there and offers its link to copy; opened again it was answered
before; an address that names no puzzle says so. The account page's "my games may become
puzzles" is off until ticked, and stays ticked."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from browsing import chromium, shot, signed_up_page
from puzzling import game_puzzles
from support.serving import LiveServer
from tigris_euphrates.coach.puzzles import puzzle_id
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

pytestmark = pytest.mark.browser

#: moves made on the board: a piece from the hand (or the catastrophe) to a cell
BOARD_MOVES = ("tile", "leader", "catastrophe")


def board_puzzles() -> list[dict[str, Any]]:
    """Puzzles of real analysed bot games whose solution and played move are both made on
    the board, each with its ``id`` (two at least)."""
    found: list[dict[str, Any]] = []
    for seed, kwargs in ((7, {}), (5, {"levels": ("random", "random")})):
        game = f"bg{seed}{uuid.uuid4().hex[:6]}"
        for p in game_puzzles(seed, **kwargs):
            if {p["solution"].split()[0], p["played"].split()[0]} <= set(BOARD_MOVES):
                found.append({**p, "id": puzzle_id(game, p["ply"]), "game": game})
    assert len(found) >= 2, "two puzzles to play on the board"
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, dict[str, Any]]]:
    data = tmp_path_factory.mktemp("puzzles")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=Limits(sign_ups_per_client=1000),
    ) as srv:
        store: Store = srv.app.state.store
        puzzles = board_puzzles()
        for p in puzzles:
            store.puzzles.add(p["game"], [(p["id"], p)], now=time.time())
        yield srv, {p["id"]: p for p in puzzles}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def pick(page: Any, action: str, keyboard: bool) -> None:
    """Pick the piece ``action`` moves: a hand tile, a leader or the catastrophe."""
    word, what = action.split()[0], action.split()[1]
    piece = {
        "tile": f'#hand .hand-tile[data-colour="{what}"]',
        "leader": f'#hand .leader-chip[data-leader="{what}"]',
        "catastrophe": "#catastrophe",
    }[word]
    if keyboard:
        page.locator(piece).first.focus()
        page.keyboard.press("Enter")
    else:
        page.locator(piece).first.click()


def make_move(page: Any, action: str, keyboard: bool = False) -> None:
    """Make ``action`` on the board as in a game: its piece, then its cell (by keyboard: the
    focused piece's Enter, then Enter on the cell)."""
    pick(page, action, keyboard)
    cell = page.locator(f'.hit.legal[data-cell="{action.split()[-1]}"]')
    assert cell.get_attribute("data-move") == action
    if keyboard:
        cell.focus()
        page.keyboard.press("Enter")
    else:
        cell.click()


def wait_puzzle(page: Any, state: str, other_than: str = "") -> str:
    page.wait_for_function(
        "([s, old]) => document.body.dataset.puzzleState === s"
        " && document.body.dataset.puzzle !== old",
        arg=[state, other_than],
    )
    return str(page.evaluate("() => document.body.dataset.puzzle"))


def test_a_player_solves_a_puzzle_then_misses_the_next(
    server: tuple[LiveServer, dict[str, Any]], browser: Any
) -> None:
    srv, puzzles = server
    page = signed_up_page(browser, srv.url, "pz")
    page.click("#puzzleslink")
    first = wait_puzzle(page, "solving")
    puzzle = puzzles[first]
    assert "to move: find the best move" in page.locator("#status").inner_text()
    assert "Your puzzle rating: 1500" in page.locator("#puzzle").inner_text()
    shot(page, "puzzle-solving")
    make_move(page, puzzle["solution"])
    wait_puzzle(page, "correct")
    verdict = page.locator("#puzzle-verdict").inner_text()
    assert "Correct" in verdict and "Played in the game" in verdict
    assert page.locator("#suggested").get_attribute("data-action") == puzzle["solution"]
    assert page.locator("#played-move").count() == 0
    rating = page.locator("#puzzle-rating")
    assert int(rating.get_attribute("data-change")) > 0 and "(+" in rating.inner_text()
    assert page.locator("#puzzle-game").get_attribute("href") == f"/replay/{puzzle['game']}"
    shot(page, "puzzle-correct")
    # the second time: the next puzzle, by keyboard, with the move the game's player made
    page.click("#puzzle-next")
    second = wait_puzzle(page, "solving", other_than=first)
    puzzle = puzzles[second]
    make_move(page, puzzle["played"], keyboard=True)
    wait_puzzle(page, "wrong", other_than=first)
    assert "Not the best move" in page.locator("#puzzle-verdict").inner_text()
    assert page.locator("#suggested").get_attribute("data-action") == puzzle["solution"]
    assert page.locator("#played-move").get_attribute("data-action") == puzzle["played"]
    assert int(page.locator("#puzzle-rating").get_attribute("data-change")) < 0
    assert page.evaluate("() => document.activeElement.id") == "puzzle-next"
    shot(page, "puzzle-wrong")
    assert not page.errors, page.errors
    page.context.close()


def test_a_guest_on_a_phone_gets_a_puzzle_unrated(
    server: tuple[LiveServer, dict[str, Any]], browser: Any
) -> None:
    srv, puzzles = server
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(srv.url + "/puzzles")
    shown = wait_puzzle(page, "solving")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert page.locator("#boardsvg").is_visible() and page.locator("#hand").count() == 1
    make_move(page, puzzles[shown]["solution"])
    wait_puzzle(page, "correct")
    assert "Sign in to get a puzzle rating" in page.locator("#puzzle-rating").inner_text()
    assert page.locator("#puzzle-rating").get_attribute("data-change") is None
    shot(page, "puzzle-phone")
    assert not errors, errors
    page.context.close()


def test_the_account_page_lets_a_players_games_become_puzzles(
    server: tuple[LiveServer, dict[str, Any]], browser: Any
) -> None:
    srv, _ = server
    page = signed_up_page(browser, srv.url, "pc")
    page.goto(srv.url + "/account")
    box = page.locator("#puzzle-share")
    assert not box.is_checked()  # off until said
    box.check()
    page.wait_for_function(
        "() => document.querySelector('#puzzle-share-state').textContent.includes('may become')"
    )
    page.reload()
    page.wait_for_selector("#puzzle-share")
    assert page.locator("#puzzle-share").is_checked()
    assert not page.errors, page.errors
    page.context.close()


def test_a_puzzle_opens_at_its_own_address_and_offers_its_link(
    server: tuple[LiveServer, dict[str, Any]], browser: Any
) -> None:
    srv, puzzles = server
    target = puzzles[sorted(puzzles)[-1]]
    address = f"{srv.url}/puzzles/{target['id']}"
    page = signed_up_page(browser, srv.url, "pl")
    page.goto(address)
    assert wait_puzzle(page, "solving") == target["id"]
    assert "Your puzzle rating: 1500" in page.locator("#puzzle").inner_text()
    make_move(page, target["solution"])
    wait_puzzle(page, "correct")
    assert page.locator("#suggested").get_attribute("data-action") == target["solution"]
    assert page.url == address
    link = page.locator("#puzzle-link")
    assert link.input_value() == address
    page.click("#puzzle-copy")
    page.wait_for_function(
        "() => document.querySelector('#puzzle-link-said').textContent.includes('Copied')"
    )
    # the second time: the same address, the puzzle answered before, its rating kept
    page.goto(link.input_value())
    assert wait_puzzle(page, "solving") == target["id"]
    assert "You answered this puzzle before" in page.locator("#puzzle-hint").inner_text()
    make_move(page, target["played"], keyboard=True)
    wait_puzzle(page, "wrong")
    assert "first answer to this puzzle was rated" in page.locator("#puzzle-rating").inner_text()
    # an address that names no puzzle says so, and another puzzle is a click away
    page.goto(f"{srv.url}/puzzles/000000000000")
    page.wait_for_function("() => document.body.dataset.puzzleState === 'unknown'")
    said = page.locator("#puzzle-unknown").inner_text()
    assert "There is no puzzle 000000000000 here" in said
    shot(page, "puzzle-unknown")
    page.click("#puzzle-skip")
    shown = wait_puzzle(page, "solving")
    assert shown in puzzles and page.url == f"{srv.url}/puzzles/{shown}"
    assert not page.errors, page.errors
    page.context.close()
