"""Screenshots of the board in both themes, taken in Debian's headless Chromium.

A server process (SQLite, client seeds) and, for each theme, a seeded two-player game
played by a scripted policy through the seats' websockets to the middle of the game (tiles
of every colour, leaders of both dynasties, monuments, treasures; the classic game with the
civilization buildings, the galaxy game as it comes), then the first seat's page:

- ``board-classic.png`` and ``board-galaxy.png``: the board on a desktop page;
- ``board-classic-safe.png``: the same board in the colour-blind palette;
- ``board-classic-phone.png``: a phone's screen (390×844) with the large board.

    .venv/bin/python -m support.screenshots [--out docs/screenshots] [--steps 90]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

# support/ (the repository's helpers shared with the tests) is imported from its root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.serving import SeatClient, ServerProcess
from tigris_euphrates import apply, new_game, player_view, to_act

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "classic": ({"buildings": True}, 11),
    "galaxy": ({"ruleset": "galaxy"}, 5),
}


def neighbours(cell: str) -> list[str]:
    c, r = ord(cell[0]) - 97, int(cell[1:]) - 1
    return [
        f"{chr(97 + c + dc)}{r + dr + 1}"
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= c + dc < 16 and 0 <= r + dr < 11
    ]


def policy(view: dict[str, Any], rng: random.Random) -> str:
    """Builds what a board mid-game shows: monuments and buildings taken when offered,
    leaders placed, tiles laid beside tiles of their colour (kingdoms grow, treasures are
    won); a conflict is met with what comes first."""
    legal: list[str] = view["legal_actions"]
    for prefix in ("monument ", "building ", "leader "):
        offered = [a for a in legal if a.startswith(prefix)]
        if offered and (prefix != "leader " or rng.random() < 0.35):
            return rng.choice(offered)
    tiles = [a for a in legal if a.startswith("tile ")]
    if tiles and rng.random() < 0.92:

        def alike(a: str) -> float:
            _, colour, cell = a.split()
            near = [view["cells"].get(n, {}) for n in neighbours(cell)]
            return 2 * sum(x.get("tile") == colour for x in near) + 3 * rng.random()

        return max(tiles, key=alike)
    return rng.choice(legal)


def script(options: dict[str, Any], seed: int, steps: int) -> list[str]:
    state, rng = new_game({"players": 2, **options}, seed), random.Random(seed)
    actions: list[str] = []
    while not state.over and len(actions) < steps:
        action = policy(player_view(state, to_act(state)), rng)
        actions.append(action)
        state, _ = apply(state, action)
    return actions


def play(server: ServerProcess, options: dict[str, Any], seed: int, steps: int) -> str:
    """A game of two people played to step ``steps``: the first seat's link."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    g = httpx.post(
        f"{server.url}/api/games", json={"seats": seats, "seed": seed, "options": options}
    ).json()
    actions = script(options, seed, steps)
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


def shoot(browser: Any, link: str, out: Path, name: str, steps: int) -> None:
    for variant, viewport in (("", (1280, 900)), ("-safe", (1280, 900)), ("-phone", (390, 844))):
        if variant and name != "classic":
            continue
        ctx = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            device_scale_factor=2 if variant == "-phone" else 1,
            locale="en-GB",
        )
        page = ctx.new_page()
        page.goto(link)
        page.wait_for_function("s => document.body.dataset.seq === s", arg=str(steps))
        if variant == "-safe":
            page.check("input[data-pref='palette']")
        if variant == "-phone":
            page.screenshot(path=str(out / f"board-{name}{variant}.png"))
        else:
            page.locator("#board").screenshot(path=str(out / f"board-{name}{variant}.png"))
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--steps", type=int, default=90)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("support/screenshots.py needs Debian's chromium")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(tmp, client_seeds=True) as server:
        links = {
            name: play(server, options, seed, args.steps) for name, (options, seed) in GAMES.items()
        }
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            for name, link in links.items():
                shoot(browser, link, args.out, name, args.steps)
            browser.close()
    print("screenshots in", args.out)


if __name__ == "__main__":
    main()
