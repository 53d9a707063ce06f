"""Server benchmark: concurrent paced games through real websockets, on one and on two
server processes sharing PostgreSQL; a game watched by many spectators; the bots' takeover
after a process is killed.

Each run starts ``P`` server processes (``python -m tigris_euphrates.server``) on the same
PostgreSQL tables and keeps ``G`` games of two seats going (a finished game is replaced by
a new one). Seat 0 of a game connects to process ``i mod P`` and seat 1 to process
``i + 1 mod P``: with two processes every move crosses from one process to the other.
Every seat is a paced random bot: it thinks a random 0..2×``--think`` seconds, then sends
one of its view's legal actions and waits for the answer. A game has one move outstanding
at a time, so the clients can never ask for more than ``G / think`` actions a second (the
*offered* load): 100 games at 0.2 s and 1,000 at 2 s offer 500/s, 1,000 games at 0.4 s
offer 2,500/s. The clients run in ``--drivers`` processes.

Measured over the run, after the games are connected:

- actions per second (acknowledged moves) against the offered load;
- acknowledgement latency (move sent -> the mover's next view), p50 and p99;
- delivery latency (move sent -> the other seat's view of it, through the other process
  when there are two), p50 and p99;
- server CPU per action (the server processes' user + system time / actions) and the
  database's (the PostgreSQL backends of the servers' connections);
- where the machine's CPU went (cores busy: servers, clients, PostgreSQL, the rest), and
  from it what bounds the run: the clients' demand, the clients, or the machine's CPU;
- memory per live game (a server process's RSS growth with the games live / the games it
  holds: all of them, as every game has a seat in each process);
- spectators (``--spectators``): one game on one process watched by N spectators while its
  two players move every ``--spectator-think`` seconds: the movers' acknowledgement and the
  spectators' delivery, p50 and p99, and the server CPU per move;
- takeover (``--takeovers``): a bot game created through process A, watched through B; A
  is killed (SIGKILL): the seconds until B holds the game's advisory lock and until B's
  bots make the next move (median over the trials);
- the page in headless Chromium (first render, bytes), on a one-process server.

Writes bench/server.json and the tables between the ``bench:server`` markers of
docs/web.md (``--no-docs``: not).

    .venv/bin/python bench/server.py [--database-url postgresql://postgres@127.0.0.1:5432/test]
        [--processes 1 2] [--games 100 1000 1000] [--think 0.2 2 0.4] [--duration 30]
        [--drivers 2] [--spectators 1000 2000] [--takeovers 5] [--no-page] [--no-docs]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg
import websockets

# support/ (the repository's helpers shared with the tests, not the package) is imported
# from the repository's root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.serving import POSTGRES_TEST_URL, SeatClient, ServerProcess, lock_holder
from tigris_euphrates.server.cluster import SCAN_SECONDS

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).with_name("server.json")
DOCS = ROOT / "docs" / "web.md"
#: the load comes from one address: no per-client limit applies
LIFTED = {
    "messages_per_second": 1000,
    "message_burst": 1000,
    "games_per_minute": 1_000_000,
    "games_per_client": 1_000_000,
    "bot_games_per_client": 1_000_000,
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


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, every core (``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(fields[:8])
    idle = fields[3] + fields[4]
    return (total - idle) / os.sysconf("SC_CLK_TCK"), total / os.sysconf("SC_CLK_TCK")


def database_cpu(url: str, prefix: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the servers of ``prefix`` (their
    connections are named ``tne-ROLE-PREFIX…``): other jobs' use of the same database is
    left out, and so is PostgreSQL's background work (WAL writer, checkpoints)."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name LIKE %s",
            (f"tne-%-{prefix[:32]}%",),
        ).fetchall()
    out = {}
    for (pid,) in rows:
        try:
            out[int(pid)] = cpu_seconds(int(pid))
        except OSError:
            continue
    return out


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
            msg = orjson.loads(raw)
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
    """A client process: its share of the game slots, over the same time window; returns
    what it measured and the CPU seconds it used during the window."""
    slots, http_urls, ws_urls, start, stop, think = args
    tally = Tally()
    cpu = [0.0, 0.0]

    async def clock() -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        cpu[0] = time.process_time()
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        cpu[1] = time.process_time()

    async def run() -> None:
        # one HTTP client for all the slots (a client each would cost more than the server)
        limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
        async with httpx.AsyncClient(timeout=120, limits=limits) as http:
            await asyncio.gather(
                clock(),
                *(
                    games_loop(i, http, http_urls, ws_urls, tally, (start, stop), think, 1000 + i)
                    for i in slots
                ),
            )

    asyncio.run(run())
    return {
        "acks": tally.acks,
        "deliveries": tally.deliveries,
        "errors": tally.errors,
        "finished": tally.finished,
        "stuck": tally.stuck,
        "cpu": cpu[1] - cpu[0],
    }


def quantiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"mean": 0.0, "p50": 0.0, "p99": 0.0, "max": 0.0}
    q = statistics.quantiles(values, n=100)
    return {
        "mean": round(statistics.mean(values) * 1000, 1),
        "p50": round(q[49] * 1000, 1),
        "p99": round(q[98] * 1000, 1),
        "max": round(max(values) * 1000, 1),
    }


def bound(fig: dict[str, Any]) -> str:
    """What limits the run, from its figures. A game has one move outstanding at a time, so
    actions/s = games / (think + the time an action takes to come back): when that time is
    small against the think time the clients' demand sets the rate; otherwise whatever is
    saturated makes the wait, the CPU of the whole machine (every core busy) or the client
    processes (each on one core)."""
    cpu = fig["cpu_cores"]
    cores = fig["machine_cores"]
    if fig["ack_ms"]["mean"] <= 0.1 * fig["think_mean_s"] * 1000:
        return "demand"
    if any(share >= 0.9 for share in fig["client_cpu_share_each"]):
        return "clients"
    if cpu["busy"] >= 0.9 * cores:
        return "machine CPU"
    if fig["server_cpu_share"] >= 0.9 * fig["processes"]:
        return "server CPU"
    return "latency (no resource saturated)"


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
            db0 = database_cpu(url, prefix)
            busy0, all0 = machine_busy()
            time.sleep(min(3.0, duration / 3))
            rss_live = [rss_kib(pid) for pid in pids]
            time.sleep(max(0.0, stop - time.perf_counter()))
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
            db1 = database_cpu(url, prefix)
            db = sum(t - db0.get(pid, 0.0) for pid, t in db1.items())
            busy1, all1 = machine_busy()
            results = pending.get(timeout=duration + warmup + 300)
        from tigris_euphrates.store import Store

        Store(url, prefix).drop_all()
    acks = [x for r in results for x in r["acks"]]
    deliveries = [x for r in results for x in r["deliveries"]]
    actions = len(acks)
    clients = [r["cpu"] for r in results]
    cores = os.cpu_count() or 1
    busy = (busy1 - busy0) / (all1 - all0) * cores  # cores busy on average
    # seat 0 of game i plays through process i, seat 1 through process i + 1: with two
    # processes each of them holds every game
    held = games
    figures = {
        "processes": processes,
        "games": games,
        "connections": 2 * games,
        "think_mean_s": think,
        "offered_actions_per_second": round(games / think, 1),
        "seconds": duration,
        "actions": actions,
        "actions_per_second": round(actions / duration, 1),
        "ack_ms": quantiles(acks),
        "delivery_ms": quantiles(deliveries),
        "delivery_crosses_processes": processes > 1,
        "server_cpu_ms_per_action": round(cpu * 1000 / max(1, actions), 3),
        "server_cpu_share": round(cpu / duration, 2),
        "database_cpu_ms_per_action": round(db * 1000 / max(1, actions), 3),
        "client_cpu_ms_per_action": round(sum(clients) * 1000 / max(1, actions), 3),
        "client_cpu_share_each": [round(c / duration, 2) for c in clients],
        "machine_cores": cores,
        "cpu_cores": {
            "busy": round(busy, 2),
            "servers": round(cpu / duration, 2),
            "clients": round(sum(clients) / duration, 2),
            "database": round(db / duration, 2),
            "other": round(max(0.0, busy - (cpu + sum(clients) + db) / duration), 2),
        },
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
    figures["bound"] = bound(figures)
    return figures


# --- spectators ---------------------------------------------------------------------------


#: the spectators joined so far, shared by the client processes (set by ``_share``)
_joined: Any = None


def _share(joined: Any) -> None:
    global _joined
    _joined = joined


def watch(args: tuple[str, str, int, float]) -> list[list[tuple[int, float]]]:
    """A client process: ``count`` spectators of one game; each records the step of every
    view it gets and when, until ``stop``."""
    ws_url, game_id, count, stop = args
    seq_at = re.compile(rb'"seq":(\d+)')

    async def spectator(gate: asyncio.Semaphore) -> list[tuple[int, float]]:
        seen: list[tuple[int, float]] = []
        async with gate:
            ws = await websockets.connect(
                f"{ws_url}/ws/games/{game_id}",
                max_size=2**24,
                compression=None,
                open_timeout=120,
                ping_interval=None,
            )
            await ws.send(json.dumps({"type": "join", "token": None}))
            await ws.recv()
        with _joined.get_lock():
            _joined.value += 1
        try:
            while True:
                left = stop - time.perf_counter()
                if left <= 0:
                    break
                try:
                    raw = await asyncio.wait_for(ws.recv(decode=False), left)
                except TimeoutError:
                    break
                now = time.perf_counter()
                found = seq_at.search(raw[:200])
                if found is not None and raw.startswith(b'{"type":"view"'):
                    seen.append((int(found.group(1)), now))
        finally:
            await ws.close()
        return seen

    async def main() -> list[list[tuple[int, float]]]:
        gate = asyncio.Semaphore(50)  # joins at once
        return list(await asyncio.gather(*(spectator(gate) for _ in range(count))))

    return asyncio.run(main())


def spectators_run(
    url: str, spectators: int, duration: float, think: float, drivers: int
) -> dict[str, Any]:
    """One game on one server process, ``spectators`` watching it, its two players moving
    every ``think`` seconds on average over ``duration`` seconds."""
    prefix = f"bench{uuid.uuid4().hex[:8]}_"
    ctx = multiprocessing.get_context("spawn")
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(Path(tmp) / "0", url, prefix, limits=LIFTED, client_seeds=True) as srv,
    ):
        assert srv.proc is not None
        game = httpx.post(
            f"{srv.url}/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5},
            timeout=60,
        ).json()
        ready = ctx.Value("i", 0)
        joined_by = time.perf_counter() + 10 + spectators / 50
        stop = joined_by + duration + 5
        per = [spectators // drivers + (d < spectators % drivers) for d in range(drivers)]
        with ctx.Pool(drivers, initializer=_share, initargs=(ready,)) as pool:
            pending = pool.map_async(watch, [(srv.ws_url, game["id"], n, stop) for n in per])
            while ready.value < spectators and time.perf_counter() < joined_by:
                time.sleep(0.2)
            joined = ready.value
            rss = rss_kib(srv.proc.pid)
            tally = Tally()
            sent: dict[int, tuple[float, int]] = {}
            start = time.perf_counter() + 1.0
            window = (start, start + duration)
            cpu0 = cpu_seconds(srv.proc.pid)
            rng = random.Random(7)

            async def players() -> None:
                await asyncio.gather(
                    *(seat(srv.ws_url, game, s, sent, tally, window, think, rng) for s in (0, 1))
                )

            asyncio.run(players())
            cpu = cpu_seconds(srv.proc.pid) - cpu0
            seen = pending.get(timeout=stop - time.perf_counter() + 120)
        from tigris_euphrates.store import Store

        Store(url, prefix).drop_all()
    # a spectator's delivery of a move: its first view showing the move, from when the
    # move was sent
    deliveries = []
    for views in (spectator for share in seen for spectator in share):
        for (before, _), (seq, when) in itertools.pairwise(views):
            for step in range(before, seq):
                made = sent.get(step)
                if made is not None and window[0] <= made[0] <= window[1]:
                    deliveries.append(when - made[0])
    moves = len(tally.acks)
    return {
        "spectators": spectators,
        "spectators_joined": joined,
        "think_mean_s": think,
        "seconds": duration,
        "moves": moves,
        "ack_ms": quantiles(tally.acks),
        "spectator_delivery_ms": quantiles(deliveries),
        "spectator_views": len(deliveries),
        "server_cpu_ms_per_move": round(cpu * 1000 / max(1, moves), 1),
        "server_rss_mib_with_spectators": round(rss / 1024, 1),
        "error_frames": tally.errors,
    }


# --- the bots' takeover ---------------------------------------------------------------------


def last_seq(url: str, prefix: str, game_id: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            f'SELECT max(seq) FROM "{prefix}actions" WHERE game_id = %s', (game_id,)
        ).fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


def takeover_run(url: str, trials: int) -> dict[str, Any]:
    """``trials`` times: a two-bot game (``random``, a move every 50 ms) created through a
    new process A, which holds its lock; a spectator on process B; A is killed with
    SIGKILL at a random moment of B's scan period: the seconds until B holds the game's
    lock and until a step B's bots made reaches the spectator."""
    prefix = f"bench{uuid.uuid4().hex[:8]}_"
    extra = ["--bot-delay", "0.05"]
    locks: list[float] = []
    moves: list[float] = []
    rng = random.Random(11)
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(Path(tmp) / "b", url, prefix, limits=LIFTED, extra=extra) as b,
    ):
        for trial in range(trials):
            with ServerProcess(
                Path(tmp) / f"a{trial}", url, prefix, limits=LIFTED, extra=extra
            ) as a:
                created = httpx.post(
                    f"{a.url}/api/games",
                    json={"seats": [{"kind": "bot", "level": "random"}] * 2},
                    timeout=60,
                )
                created.raise_for_status()
                game = created.json()
                gid = game["id"]
                watcher = SeatClient(b.ws_url, gid, None)
                watcher.wait_view(lambda m: m["seq"] >= 10)
                holder = lock_holder(url, prefix, gid)
                assert a.proc is not None and holder is not None
                # B looks for free locks every SCAN_SECONDS: a kill at a random moment of
                # that period (else every trial would kill at the same moment of it)
                time.sleep(rng.uniform(0, SCAN_SECONDS))
                a.proc.send_signal(signal.SIGKILL)
                killed = time.perf_counter()
                a.proc.wait(10)
                while lock_holder(url, prefix, gid) in (None, holder):
                    if time.perf_counter() - killed > 60:
                        raise TimeoutError("no process took the game's lock")
                    time.sleep(0.01)
                locks.append(time.perf_counter() - killed)
                # the steps A stored before it died; the next one is B's
                time.sleep(0.05)
                stored = last_seq(url, prefix, gid)
                watcher.wait_view(lambda m, s=stored: m["seq"] > s, timeout=60)
                moves.append(time.perf_counter() - killed)
                watcher.close()
        from tigris_euphrates.store import Store

        Store(url, prefix).drop_all()
    return {
        "trials": trials,
        "lock_taken_s": [round(x, 2) for x in locks],
        "next_bot_move_s": [round(x, 2) for x in moves],
        "lock_taken_median_s": round(statistics.median(locks), 2),
        "next_bot_move_median_s": round(statistics.median(moves), 2),
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


def ms(q: dict[str, float]) -> str:
    return f"{q['p50']:,.0f} / {q['p99']:,.0f} ms"


def docs_tables(result: dict[str, Any]) -> str:
    """The tables of docs/web.md's Performance section, from the figures."""
    lines = [
        f"`{result['command']}`, {result['when'][:10]}, {result['machine']} (load average "
        f"{result['load_average_1m_at_end']:.1f} at the end). *Offered*: what the clients can "
        "ask for at most (games / mean think); *CPU (cores)*: servers + clients + PostgreSQL "
        "+ other jobs, the machine's cores busy on average.",
        "",
        "| processes | games | think | offered | actions/s | ack p50 / p99 | "
        "delivery p50 / p99 | server CPU / action | PostgreSQL CPU / action | "
        "memory / live game | CPU (cores) | bound by |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in result["runs"]:
        c = r["cpu_cores"]
        lines.append(
            f"| {r['processes']} | {r['games']:,} | {r['think_mean_s']:g} s | "
            f"{r['offered_actions_per_second']:,.0f}/s | {r['actions_per_second']:,.0f} | "
            f"{ms(r['ack_ms'])} | {ms(r['delivery_ms'])}"
            f"{' (across)' if r['delivery_crosses_processes'] else ''} | "
            f"{r['server_cpu_ms_per_action']:.2f} ms | {r['database_cpu_ms_per_action']:.2f} ms | "
            f"{r['memory_per_live_game_kib']:,.0f} KiB | "
            f"{c['servers']:.1f} + {c['clients']:.1f} + {c['database']:.1f} + {c['other']:.1f} "
            f"= {c['busy']:.1f} of {r['machine_cores']} | {r['bound']} |"
        )
    if result.get("spectators"):
        lines += [
            "",
            "| spectators (one game, one process) | moves | mover's ack p50 / p99 | "
            "spectators' view p50 / p99 | server CPU / move |",
            "|---:|---:|---:|---:|---:|",
        ]
        for r in result["spectators"]:
            lines.append(
                f"| {r['spectators_joined']:,} | {r['moves']} | {ms(r['ack_ms'])} | "
                f"{ms(r['spectator_delivery_ms'])} | {r['server_cpu_ms_per_move']:.1f} ms |"
            )
    t = result.get("takeover")
    if t:
        lines += [
            "",
            f"Takeover after `kill -9` of the process running a game's bots (median of "
            f"{t['trials']}): the other process holds the game's lock after "
            f"{t['lock_taken_median_s']:.2f} s and its bots' next move reaches a spectator "
            f"after {t['next_bot_move_median_s']:.2f} s (each trial: "
            f"{', '.join(f'{x:.2f}' for x in t['next_bot_move_s'])} s).",
        ]
    return "\n".join(lines)


def update_docs(text: str) -> None:
    content = DOCS.read_text()
    pattern = re.compile(r"(<!-- bench:server -->).*?(<!-- /bench:server -->)", re.S)
    if pattern.search(content):
        DOCS.write_text(
            pattern.sub(lambda m: m.group(1) + "\n" + text + "\n" + m.group(2), content)
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database-url", default=POSTGRES_TEST_URL)
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    ap.add_argument(
        "--games",
        type=int,
        nargs="*",
        default=[100, 1000, 1000],
        help="games kept going in each run (none: no such run)",
    )
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.2, 2.0, 0.4],
        help="mean thinking time (s) of the runs of each --games count, in order",
    )
    ap.add_argument("--drivers", type=int, default=2, help="client processes")
    ap.add_argument(
        "--spectators",
        type=int,
        nargs="*",
        default=[1000, 2000],
        help="spectators of the one-game runs (none: no such run)",
    )
    ap.add_argument(
        "--spectator-think", type=float, default=0.3, help="the players' mean think (s) then"
    )
    ap.add_argument("--takeovers", type=int, default=5, help="kill -9 trials (0: none)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--no-page", action="store_true", help="skip the page figures (Chromium)")
    ap.add_argument("--no-docs", action="store_true", help="do not update docs/web.md")
    a = ap.parse_args()
    runs = []
    thinks = a.think + [a.think[-1]] * (len(a.games) - len(a.think))
    for games, think in zip(a.games, thinks, strict=False):
        for processes in a.processes:
            figures = run(a.database_url, processes, games, a.duration, think, a.drivers)
            print(json.dumps(figures), flush=True)
            runs.append(figures)
    watched = []
    for n in a.spectators:
        figures = spectators_run(a.database_url, n, a.duration, a.spectator_think, a.drivers)
        print(json.dumps(figures), flush=True)
        watched.append(figures)
    takeover = takeover_run(a.database_url, a.takeovers) if a.takeovers else None
    if takeover is not None:
        print(json.dumps(takeover), flush=True)
    result = {
        "benchmark": "bench/server.py",
        "command": "python bench/server.py " + " ".join(sys.argv[1:]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip(),
        "machine": f"{os.cpu_count()} cores shared with other jobs; servers, PostgreSQL and "
        "the clients on the same host",
        "load_average_1m_at_end": round(os.getloadavg()[0], 2),
        "database": "postgresql",
        "runs": runs,
        "spectators": watched,
        "takeover": takeover,
        "page": None if a.no_page else page_run(),
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    if not a.no_docs:
        update_docs(docs_tables(result))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
