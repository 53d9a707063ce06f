"""Page benchmark: what the game page weighs on the wire and how soon a game is painted.

A server process (``python -m tigris_euphrates.server``, SQLite, localhost) and Debian's
headless Chromium. Each run opens a fresh browser context (empty cache) on the seat link of
a new game against a bot and reads, from the page's own Performance API:

- bytes transferred over HTTP: the document and every resource (scripts, style, the JSON
  answers), compressed as sent (``transferSize``: headers and body), and the same files
  decoded (``decodedBodySize``), to show what compression saves;
- the websocket frames received until the board is drawn (not in the Performance API:
  counted by Playwright);
- the first contentful paint (``paint`` entries) and the game's first paint: navigation
  start to the first animation frame after the board (``#boardsvg``) entered the page.

The medians of ``--runs`` loads go to bench/page.json and to the table between the
``bench:page`` markers of docs/web.md.

    .venv/bin/python bench/page.py [--runs 7] [--no-docs]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

# support/ (the repository's helpers shared with the tests, not the package) is imported
# from the repository's root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.serving import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).with_name("page.json")
#: the issue's targets: the game page's weight on the wire and its first paint
TARGET_KIB = 150
TARGET_MS = 1000

#: Installed before the page's scripts: the time of the first frame painted with the board.
WATCH = """
window.__boardPainted = null;
new MutationObserver((_, obs) => {
  if (document.getElementById("boardsvg")) {
    obs.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__boardPainted = performance.now(); }));
  }
}).observe(document, { childList: true, subtree: true });
"""

FIGURES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    transferred: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
    decoded: nav.decodedBodySize + res.reduce((n, r) => n + r.decodedBodySize, 0),
    requests: 1 + res.length,
    fcp: fcp ? fcp.startTime : null,
    board: window.__boardPainted,
  };
}"""


def one_load(browser: Any, url: str, link: str) -> dict[str, float]:
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(len(f))))
    page.goto(url + link)
    page.wait_for_function("() => window.__boardPainted !== null", timeout=30_000)
    page.wait_for_timeout(200)  # late resources (none expected) would count too
    figures = page.evaluate(FIGURES)
    context.close()
    return {
        "http_transferred_bytes": figures["transferred"],
        "http_decoded_bytes": figures["decoded"],
        "requests": figures["requests"],
        "websocket_bytes": sum(frames),
        "first_contentful_paint_ms": figures["fcp"],
        "game_first_paint_ms": figures["board"],
    }


def measure(url: str, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("bench/page.py needs Debian's chromium (make chromium)")
    loads = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for i in range(runs + 1):  # the first load warms the server up: not counted
            game = httpx.post(
                f"{url}/api/games",
                json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
            ).json()
            load = one_load(browser, url, game["seats"][0]["link"])
            if i:
                loads.append(load)
        browser.close()
    median = {k: statistics.median(load[k] for load in loads) for k in loads[0]}
    total = median["http_transferred_bytes"] + median["websocket_bytes"]
    return {
        "runs": runs,
        "median": median,
        "total_transferred_kib": round(total / 1024, 1),
        "loads": loads,
    }


def table(result: dict[str, Any]) -> str:
    m = result["median"]
    return "\n".join(
        [
            f"Measured with `{result['command']}` on {result['cpu']}, Chromium headless, "
            f"localhost, {result['date']} (median of {result['runs']} loads, empty cache; "
            f"load average {result['load_average']:.1f} on {result['cores']} cores: the "
            "paint times grow with the machine's other work).",
            "",
            "| figure | game page | target |",
            "|---|---:|---:|",
            f"| transferred over HTTP (br) | {m['http_transferred_bytes'] / 1024:.1f} KiB "
            f"({m['requests']:.0f} requests; {m['http_decoded_bytes'] / 1024:.1f} KiB "
            "decoded) | |",
            f"| websocket frames until the board is drawn | {m['websocket_bytes'] / 1024:.1f} "
            "KiB | |",
            f"| total transferred | {result['total_transferred_kib']:.1f} KiB | "
            f"≤ {TARGET_KIB} KB |",
            f"| first contentful paint | {m['first_contentful_paint_ms']:.0f} ms | |",
            f"| first paint of the game (board drawn) | {m['game_first_paint_ms']:.0f} ms | "
            f"≤ {TARGET_MS} ms |",
        ]
    )


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def update_docs(text: str) -> None:
    """Rewrite the table between the ``bench:page`` markers of docs/web.md."""
    doc = ROOT / "docs" / "web.md"
    content = doc.read_text()
    pattern = re.compile(r"(<!-- bench:page -->).*?(<!-- /bench:page -->)", re.S)
    if pattern.search(content):
        doc.write_text(pattern.sub(lambda m: m.group(1) + "\n" + text + "\n" + m.group(2), content))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-docs", action="store_true", help="do not update docs/web.md")
    a = ap.parse_args()
    lifted = {"games_per_minute": 1000, "games_per_client": 1000, "bot_games_per_client": 1000}
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(tmp, limits=lifted) as srv:
        load = os.getloadavg()[0]
        result = measure(srv.url, a.runs)
        load = (load + os.getloadavg()[0]) / 2
    result.update(
        command="python bench/page.py" + (f" --runs {a.runs}" if a.runs != 7 else ""),
        cpu=cpu_name(),
        date=datetime.date.today().isoformat(),
        python=platform.python_version(),
        load_average=round(load, 1),
        cores=os.cpu_count(),
    )
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    text = table(result)
    print(text)
    if not a.no_docs:
        update_docs(text)


if __name__ == "__main__":
    main()
