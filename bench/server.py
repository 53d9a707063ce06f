"""Server benchmark: concurrent paced games through real websockets, on one and on two
server processes sharing PostgreSQL.

Each run starts ``P`` server processes (``python -m tigris_euphrates.server``) on the same
PostgreSQL tables and keeps ``G`` games of two seats going (a finished game is replaced by
a new one). Seat 0 of a game connects to process ``i mod P`` and seat 1 to process
``i + 1 mod P``: with two processes every move crosses from one process to the other.
Every seat is a paced random bot: it thinks a random 0..2×``--think`` seconds, then sends
one of its view's legal actions (by default a mean of 0.2 s with 100 games and 2 s with
1,000: on a shared 2-core machine 1,000 games at 0.2 s ask for ten times what it can serve,
and the latency is then only queueing). The clients run in ``--drivers`` processes.

Measured over the run, after the games are connected:

- actions per second (acknowledged moves);
- acknowledgement latency (move sent -> the mover's next view), p50 and p99;
- delivery latency (move sent -> the other seat's view of it, through the other process
  when there are two), p50 and p99;
- server CPU per action (the server processes' user + system time / actions) and the
  database's (every ``postgres`` process on the host);
- memory per live game (a server process's RSS growth with the games live / the games it
  holds: all of them, as every game has a seat in each process);
- the page in headless Chromium (first render, bytes), on a one-process server.

Writes bench/server.json; the table in docs/web.md comes from it.

    .venv/bin/python bench/server.py [--database-url postgresql://postgres@127.0.0.1:5432/test]
        [--processes 1 2] [--games 100 1000] [--think 0.2 2] [--duration 30] [--drivers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets

# tests/serving.py runs the server in its own process; it is a test helper, not the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import POSTGRES_TEST_URL, ServerProcess

OUT = Path(__file__).with_name("server.json")
#: the load comes from one address: no per-client limit applies
LIFTED = {
    "messages_per_second": 1000,
    "message_burst": 1000,
    "games_per_minute": 1_000_000,
    "games_per_client": 1_000_000,
    "connections_per_client": 1_000_000,
    "spectators_per_game": 1_000_000,
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def postgres_cpu() -> float:
    """CPU seconds of every ``postgres`` process on the host (0 when none is visible)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                total += cpu_seconds(int(entry.name))
        except OSError:
            continue
    return total


class Tally:
    def __init__(self) -> None:
        self.acks: list[float] = []
        self.deliveries: list[float] = []
        self.errors = 0
        self.finished = 0
        self.stuck: list[str] = []  # seats that waited for a view that never came


async def seat(
    ws_url: str,
    game: dict[str, Any],
    me: int,
    sent: dict[int, tuple[float, int]],
    tally: Tally,
    window: tuple[float, float],
    think: float,
    rng: random.Random,
) -> bool:
    """Play one seat until the game ends (``True``) or the run does (``False``)."""
    start, stop = window
    async with websockets.connect(
        f"{ws_url}/ws/games/{game['id']}", max_size=2**24, compression=None
    ) as ws:
        await ws.send(json.dumps({"type": "join", "token": game["seats"][me]["token"]}))
        seen = 0
        mine: int | None = None  # the step my pending move was made against
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(10.0, stop + 10 - time.perf_counter()))
            except TimeoutError:
                tally.stuck.append(f"{game['id']} seat {me} at step {seen}")
                return False
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg["type"] == "error":
                tally.errors += 1
                mine = None
                continue
            if msg["type"] != "view":
                continue
            seq = msg["seq"]
            for step in range(seen, seq):  # the steps this view shows for the first time
                made = sent.get(step)
                if made is not None and made[1] != me and start <= made[0] <= stop:
                    tally.deliveries.append(now - made[0])
            if mine is not None and seq > mine:
                t = sent[mine][0]
                if start <= t <= stop:
                    tally.acks.append(now - t)
                mine = None
            seen = max(seen, seq)
            view = msg["view"]
            if view["over"]:
                return True
            if now > stop:
                return False
            if view["legal_actions"] and mine is None:
                await asyncio.sleep(rng.uniform(0, 2 * think))
                if time.perf_counter() > stop:
                    return False
                mine = seq
                sent[seq] = (time.perf_counter(), me)
                action = rng.choice(view["legal_actions"])
                await ws.send(json.dumps({"type": "move", "seq": seq, "action": action}))
    return False


async def new_game(http: httpx.AsyncClient, url: str) -> dict[str, Any]:
    """A game of two seats (tried again when a kept-alive connection was closed)."""
    for attempt in range(5):
        try:
            r = await http.post(
                f"{url}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}
            )
            return dict(r.json())
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.1)
    raise AssertionError("unreachable")


async def games_loop(
    index: int,
    http: httpx.AsyncClient,
    http_urls: list[str],
    ws_urls: list[str],
    tally: Tally,
    window: tuple[float, float],
    think: float,
    seed: int,
) -> None:
    """One game slot: play a game, then another, until the run is over."""
    rng = random.Random(seed)
    n = len(http_urls)
    while time.perf_counter() < window[1]:
        game = await new_game(http, http_urls[index % n])
        sent: dict[int, tuple[float, int]] = {}  # step -> (when sent, by which seat)
        plays = [
            seat(ws_urls[(index + s) % n], game, s, sent, tally, window, think, rng) for s in (0, 1)
        ]
        over = await asyncio.gather(*plays)
        if any(over):
            tally.finished += 1


def drive(args: tuple[list[int], list[str], list[str], float, float, float]) -> dict[str, Any]:
    """A client process: its share of the game slots, over the same time window."""
    slots, http_urls, ws_urls, start, stop, think = args
    tally = Tally()

    async def run() -> None:
        # one HTTP client for all the slots (a client each would cost more than the server)
        limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
        async with httpx.AsyncClient(timeout=120, limits=limits) as http:
            await asyncio.gather(
                *(
                    games_loop(i, http, http_urls, ws_urls, tally, (start, stop), think, 1000 + i)
                    for i in slots
                )
            )

    asyncio.run(run())
    return {
        "acks": tally.acks,
        "deliveries": tally.deliveries,
        "errors": tally.errors,
        "finished": tally.finished,
        "stuck": tally.stuck,
    }


def quantiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    q = statistics.quantiles(values, n=100)
    return {
        "p50": round(q[49] * 1000, 1),
        "p99": round(q[98] * 1000, 1),
        "max": round(max(values) * 1000, 1),
    }


def run(
    url: str, processes: int, games: int, duration: float, think: float, drivers: int
) -> dict[str, Any]:
    prefix = f"bench{uuid.uuid4().hex[:8]}_"
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        servers = [
            stack.enter_context(
                ServerProcess(Path(tmp) / str(i), url, prefix, limits=LIFTED, client_seeds=True)
            )
            for i in range(processes)
        ]
        pids = [s.proc.pid for s in servers if s.proc is not None]
        rss_before = [rss_kib(pid) for pid in pids]
        warmup = 5.0 + games / 60  # every game created and connected before the window
        start = time.perf_counter() + warmup
        stop = start + duration
        shares = [list(range(d, games, drivers)) for d in range(drivers)]
        http_urls = [s.url for s in servers]
        ws_urls = [s.ws_url for s in servers]
        with multiprocessing.get_context("spawn").Pool(drivers) as pool:
            pending = pool.map_async(
                drive, [(share, http_urls, ws_urls, start, stop, think) for share in shares]
            )
            time.sleep(max(0.0, start - time.perf_counter()))
            cpu0 = sum(cpu_seconds(pid) for pid in pids)
            db0 = postgres_cpu()
            time.sleep(min(3.0, duration / 3))
            rss_live = [rss_kib(pid) for pid in pids]
            results = pending.get(timeout=duration + warmup + 300)
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
            db = postgres_cpu() - db0
        from tigris_euphrates.store import Store

        Store(url, prefix).drop_all()
    acks = [x for r in results for x in r["acks"]]
    deliveries = [x for r in results for x in r["deliveries"]]
    actions = len(acks)
    # seat 0 of game i plays through process i, seat 1 through process i + 1: with two
    # processes each of them holds every game
    held = games
    return {
        "processes": processes,
        "games": games,
        "connections": 2 * games,
        "think_mean_s": think,
        "seconds": duration,
        "actions": actions,
        "actions_per_second": round(actions / duration, 1),
        "ack_ms": quantiles(acks),
        "delivery_ms": quantiles(deliveries),
        "delivery_crosses_processes": processes > 1,
        "server_cpu_ms_per_action": round(cpu * 1000 / max(1, actions), 3),
        "server_cpu_share": round(cpu / duration, 2),
        "database_cpu_ms_per_action": round(db * 1000 / max(1, actions), 3),
        "error_frames": sum(r["errors"] for r in results),
        "games_finished": sum(r["finished"] for r in results),
        "seats_left_waiting": sum(len(r["stuck"]) for r in results),
        "waiting_examples": [x for r in results for x in r["stuck"]][:5],
        "server_rss_mib_before": [round(k / 1024, 1) for k in rss_before],
        "server_rss_mib_live": [round(k / 1024, 1) for k in rss_live],
        "memory_per_live_game_kib": round(
            statistics.mean(
                max(0, live - before) / held
                for live, before in zip(rss_live, rss_before, strict=True)
            ),
            1,
        ),
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


def page_run() -> dict[str, Any] | None:
    """The page figures, on a one-process server (SQLite)."""
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(tmp) as srv:
        return page_figures(srv.url)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database-url", default=POSTGRES_TEST_URL)
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.2, 2.0],
        help="mean thinking time (s) of the runs of each --games count, in order",
    )
    ap.add_argument("--drivers", type=int, default=2, help="client processes")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--no-page", action="store_true", help="skip the page figures (Chromium)")
    a = ap.parse_args()
    runs = []
    thinks = a.think + [a.think[-1]] * (len(a.games) - len(a.think))
    for games, think in zip(a.games, thinks, strict=False):
        for processes in a.processes:
            figures = run(a.database_url, processes, games, a.duration, think, a.drivers)
            print(json.dumps(figures), flush=True)
            runs.append(figures)
    result = {
        "benchmark": "bench/server.py",
        "command": "python bench/server.py " + " ".join(sys.argv[1:]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{os.cpu_count()} cores shared with other jobs; servers, PostgreSQL and "
        "the clients on the same host",
        "load_average_1m_at_end": round(os.getloadavg()[0], 2),
        "database": "postgresql",
        "runs": runs,
        "page": None if a.no_page else page_run(),
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
