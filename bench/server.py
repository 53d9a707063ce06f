"""Server benchmark: concurrent bot games played through real websockets.

The server runs in its own process (SQLite in a temporary folder, the default setup); this
process drives ``--games`` games of two seats each, one websocket per seat, every seat a
random bot choosing from its view's legal actions. Two runs: *paced* (each bot thinks a
random 0..2×``--think`` seconds before moving, as bots and people do) and *saturated* (no
thinking: every game always has a move in flight, so latency is queueing,
games / throughput). Measured: actions per second over the
run, round-trip latency (move sent -> the mover's next view received; p50/p99), server
memory per live game (RSS growth with all games live / games), and the page (first render
and total bytes in headless Chromium, when it is installed). Writes bench/server.json.

    .venv/bin/python bench/server.py [--games 100] [--duration 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

# tests/serving.py runs the server in its own process; it is a test helper, not in the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import ServerProcess

OUT = Path(__file__).with_name("server.json")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.finished = 0


COMPRESSION: str | None = "deflate"
THINK = 0.0


async def seat(url: str, gid: str, token: str, seed: int, stats: Stats, stop: float) -> None:
    rng = random.Random(seed)
    async with websockets.connect(
        f"{url}/ws/games/{gid}", max_size=2**24, compression=COMPRESSION
    ) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        sent_seq = -1
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors += 1
                sent_at = None
                continue
            if msg["type"] != "view":
                continue
            now = time.perf_counter()
            if sent_at is not None and msg["seq"] > sent_seq:
                stats.latencies.append(now - sent_at)
                stats.actions += 1
                sent_at = None
            view = msg["view"]
            if view["over"]:
                stats.finished += 1
                return
            if now > stop:
                return
            if view["legal_actions"] and sent_at is None:
                if THINK:
                    await asyncio.sleep(rng.uniform(0, 2 * THINK))
                    if time.perf_counter() > stop:
                        return
                sent_seq = msg["seq"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "seq": sent_seq,
                            "action": rng.choice(view["legal_actions"]),
                        }
                    )
                )


async def drive(url: str, ws_url: str, games: int, duration: float, pid: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url) as http:
        created = []
        for i in range(games):
            r = await http.post(
                "/api/games",
                json={"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 1000 + i},
            )
            created.append(r.json())
    stats = Stats()
    rss_before = rss_kib(pid)
    cpu0 = cpu_seconds(pid)
    t0 = time.perf_counter()
    stop = t0 + duration
    tasks = [
        asyncio.create_task(seat(ws_url, g["id"], s["token"], 7 * i + s["seat"], stats, stop))
        for i, g in enumerate(created)
        for s in g["seats"]
    ]
    await asyncio.sleep(min(3.0, duration / 3))
    rss_live = rss_kib(pid)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    server_cpu = cpu_seconds(pid) - cpu0
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0.0] * 99
    return {
        "games": games,
        "connections": 2 * games,
        "seconds": round(elapsed, 2),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "latency_ms": {
            "p50": round(q[49] * 1000, 2),
            "p99": round(q[98] * 1000, 2),
            "max": round(lat[-1] * 1000, 2) if lat else 0,
        },
        "server_cpu_ms_per_action": round(server_cpu * 1000 / max(1, stats.actions), 3),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "games_finished": stats.finished // 2,
        "error_frames": stats.errors,
        "server_rss_mib_before": round(rss_before / 1024, 1),
        "server_rss_mib_live": round(rss_live / 1024, 1),
        "memory_per_live_game_kib": round(max(0, rss_live - rss_before) / games, 1),
    }


def page_figures(url: str) -> dict[str, Any] | None:
    chromium = shutil.which("chromium")
    if not chromium:
        return None
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        g = httpx.post(
            f"{url}/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
        ).json()
        for name, path, ready in (
            ("lobby", "/", "#create"),
            ("game", g["seats"][0]["link"], "#hand"),
        ):
            page = browser.new_page()
            sizes: list[int] = []
            page.on("response", lambda r, sizes=sizes: sizes.append(len(r.body() or b"")))
            frames: list[int] = []
            page.on(
                "websocket",
                lambda ws, frames=frames: ws.on(
                    "framereceived", lambda f, frames=frames: frames.append(len(f))
                ),
            )
            page.goto(url + path)
            page.wait_for_selector(ready)
            first = page.evaluate("() => performance.now()") / 1000  # since navigation start
            page.wait_for_timeout(300)
            out[name] = {
                "first_render_ms": round(first * 1000, 1),
                "http_bytes": sum(sizes),
                "websocket_bytes": sum(frames),
                "total_kib": round((sum(sizes) + sum(frames)) / 1024, 1),
            }
            page.close()
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--no-page", action="store_true")
    ap.add_argument("--database-url", default=None, help="default: SQLite in a temporary folder")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    ap.add_argument(
        "--think", type=float, default=0.2, help="mean bot thinking time of the paced run (s)"
    )
    a = ap.parse_args()
    global COMPRESSION, THINK
    COMPRESSION = None if a.no_compression else "deflate"
    runs = {}
    prefix = f"bench{os.getpid()}_" if a.database_url else ""
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(tmp, a.database_url, prefix, client_seeds=True) as srv,
    ):
        assert srv.proc is not None
        for name, think in (("paced", a.think), ("saturated", 0.0)):
            THINK = think
            figures = asyncio.run(drive(srv.url, srv.ws_url, a.games, a.duration, srv.proc.pid))
            runs[name] = {"bot_think_mean_s": think, **figures}
        page = None if a.no_page else page_figures(srv.url)
    result = {
        "benchmark": "bench/server.py",
        "command": "python bench/server.py " + " ".join(sys.argv[1:]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": "2 cores shared with other jobs; server and load generator on the same host",
        "load_average_1m": os.getloadavg()[0],
        "database": "postgresql" if a.database_url else "sqlite (WAL), the default",
        "websockets": runs,
        "page": page,
    }
    if a.database_url:
        from tigris_euphrates.store import Store

        Store(a.database_url, prefix).drop_all()
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
