"""What a bot account's move costs on a server (a benchmark, not a test).

Two bot accounts on one server process (SQLite, in this process's thread) play rated
challenges through two ``tne bot connect`` processes, each bridging ``python -m
tigris_euphrates.botproto LEVEL`` (a built-in level served over ``tne-bot/1``). For every
game the server's own log times say how long each action took from the previous one: the
program's decision, its line to the bridge, the move over the game websocket, the server's
checks and store, the view back to both bridges, the events and the next ``decide`` to the
next program. The same level decides in-process in a fraction of it (timed apart on the same
positions), so the difference is what the bridge and the server add to an action. A fast
program sends its moves faster than the game websocket's message rate (the page's limit):
the moves over it are dropped and sent again a second later (``rate_waits``), which the mean
shows and the median does not.

    .venv/bin/python bench/botbridge.py --games 4 --level random

Keeps its runs in ``bench/botbridge.json`` (``--out``), a JSON list: a run replaces the one
with the same command; docs/web.md's *Performance* quotes them.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.runs import keep, shown
from support.serving import LiveServer, Player
from tigris_euphrates import player_view, replay
from tigris_euphrates.ai import make_bot

HERE = Path(__file__).parent
RUNS = HERE / "botbridge.json"
PASSWORD = "correct horse battery"


def bot_account(server: LiveServer, stem: str) -> tuple[str, str]:
    owner = Player(server)
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    owner.sign_up(name, PASSWORD)
    owner.post("/api/account/bot", {"confirm": True})
    token = str(owner.post("/api/account/tokens", {"name": "bench"}).json()["token"])
    owner.close()
    return name, token


def bridge(url: str, token: str, level: str, logs: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "TNE_BOT_TOKEN": token}
    args = [sys.executable, "-m", "tigris_euphrates", "bot", "connect", "--server", url]
    args += ["--logs", str(logs), "--stop-after", "1", *extra]
    args += ["--", sys.executable, "-m", "tigris_euphrates.botproto", level]
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def one_game(srv: LiveServer, bots: list[tuple[str, str]], level: str, logs: Path) -> str:
    """One rated challenge played to its end by two bridges; the game's id."""
    (_, one_token), (two, two_token) = bots
    second = bridge(srv.url, two_token, level, logs)
    first = bridge(srv.url, one_token, level, logs, "--challenge", two, "--challenge-rated")
    for p in (first, second):
        if p.wait(600) != 0:
            raise SystemExit("a bridge failed")
    r = httpx.get(f"{srv.url}/api/challenges", headers={"Authorization": f"Bearer {one_token}"})
    return str(next(c["game"] for c in r.json()["challenges"] if c["game"]))


def step_times(srv: LiveServer, game: str) -> list[float]:
    """The seconds between the game's consecutive actions, from the server's log."""
    store = srv.app.state.hub.store
    a = store.db.tables.actions
    with store.db.engine.connect() as conn:
        rows = conn.execute(select(a.c.created).where(a.c.game_id == game).order_by(a.c.seq)).all()
    times = [float(r.created) for r in rows]
    return [b - t for t, b in itertools.pairwise(times)]


def in_process(srv: LiveServer, game: str, level: str) -> float:
    """The seconds ``level`` takes to decide in-process, on average, on the game's
    positions (each seat's view before each of its actions)."""
    row = srv.app.state.hub.store.games.load(game)
    actions = [action for _, _, action in row.actions if not action.startswith("seat ")]
    bot = make_bot(level, 1)
    spent, n = 0.0, 0
    for i in range(len(actions)):
        state = replay({"options": row.options, "seed": row.seed, "actions": actions[:i]})
        view = player_view(state, player_view(state, None)["to_act"])
        start = time.perf_counter()
        bot.choose(view)
        spent += time.perf_counter() - start
        n += 1
    return spent / max(1, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="random")
    parser.add_argument("--out", default=str(RUNS))
    a = parser.parse_args()
    steps: list[float] = []
    decide: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        with LiveServer(data_dir=data, database_url=f"sqlite:///{data}/b.sqlite3") as srv:
            bots = [bot_account(srv, "Bench"), bot_account(srv, "Mark")]
            for _ in range(a.games):
                game = one_game(srv, bots, a.level, data / "logs")
                steps += step_times(srv, game)
                decide.append(in_process(srv, game, a.level))
    per_action = statistics.median(steps)
    own = statistics.mean(decide)
    run: dict[str, Any] = {
        "command": f"python bench/botbridge.py --games {a.games} --level {a.level}"
        + ("" if Path(a.out).resolve() == RUNS.resolve() else f" --out {shown(a.out)}"),
        "date": date.today().isoformat(),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "games": a.games,
        "actions": len(steps) + a.games,
        "ms_per_action_median": round(per_action * 1000, 2),
        "ms_per_action_p90": round(statistics.quantiles(steps, n=10)[-1] * 1000, 2),
        "ms_per_action_mean": round(statistics.mean(steps) * 1000, 2),
        # a seat sending faster than the page's message rate waits a second, then resends
        "rate_waits": sum(1 for x in steps if x >= 0.9),
        "ms_level_in_process": round(own * 1000, 3),
        "ms_added_per_action": round((per_action - own) * 1000, 2),
    }
    keep(Path(a.out), run)
    for key, value in run.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
