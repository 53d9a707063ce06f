"""What ``tne-bot/1`` and Ray cost (a benchmark, not a test).

Protocol: the same two-player games of ``greedy`` against ``greedy`` (same game and bot
seeds), once in-process and once with both seats played by ``greedy`` served over the
protocol (``python -m tigris_euphrates.botproto greedy``, one program per seat and game);
the games must come out identical, so the difference in time is the protocol's: starting the
programs, the handshake, the JSON lines of every view and event. Ray: the same tournament of
``greedy`` against ``greedy`` on the local process pool and as Ray tasks on a local instance
(``--ray auto``), Ray's start timed apart.

    .venv/bin/python bench/protocol.py --games 20 --ray-games 40 --jobs 2

Keeps its runs in ``bench/protocol.json`` (``--out``), a JSON list: a run replaces the one
with the same command; docs/ai.md's table quotes them.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.runs import keep, shown
from tigris_euphrates.ai import COMPILED, make_bot
from tigris_euphrates.botproto import make_player
from tigris_euphrates.tournament import play_game, run_tournament
from tigris_euphrates.tournament.cluster import connect

HERE = Path(__file__).parent
RUNS = HERE / "protocol.json"
HOSTED = f"cmd:{sys.executable} -m tigris_euphrates.botproto greedy"


def protocol(games: int, seed: int) -> dict[str, Any]:
    """Games per second in-process and over the protocol, and the cost per decision."""
    seconds = {"in_process": 0.0, "protocol": 0.0}
    decisions = 0
    for g in range(games):
        played = {}
        for how, spec in (("in_process", "greedy"), ("protocol", HOSTED)):
            bots = [
                make_player(spec, 10 * (seed + g) + s) if how == "protocol" else None
                for s in range(2)
            ]
            seats = [b or make_bot("greedy", 10 * (seed + g) + s) for s, b in enumerate(bots)]
            t0 = time.perf_counter()
            out = play_game(seats, {"players": 2}, seed + g)
            seconds[how] += time.perf_counter() - t0
            played[how] = out.actions
        if played["in_process"] != played["protocol"]:
            raise SystemExit(f"game {seed + g} differs over the protocol")
        decisions += len(played["protocol"])
    return {
        "games": games,
        "decisions": decisions,
        "games_per_second": {k: games / v for k, v in seconds.items()},
        "overhead_ms_per_decision": 1000
        * (seconds["protocol"] - seconds["in_process"])
        / decisions,
    }


def cluster(games: int, seed: int, jobs: int) -> dict[str, Any]:
    """Games per second of one tournament on the local pool and on a local Ray instance."""
    kwargs: dict[str, Any] = {"games": games, "seed": seed, "records": True}
    t0 = time.perf_counter()
    local = run_tournament(["greedy", "greedy"], jobs=jobs, **kwargs)
    t_local = time.perf_counter() - t0
    t0 = time.perf_counter()
    ray, _ = connect("auto")
    t_start = time.perf_counter() - t0
    t0 = time.perf_counter()
    on_ray = run_tournament(["greedy", "greedy"], ray="auto", jobs=2 * jobs, **kwargs)
    t_ray = time.perf_counter() - t0
    ray.shutdown()
    if on_ray["_records"] != local["_records"]:
        raise SystemExit("the Ray run's records differ from the local run's")
    return {
        "games": games,
        "jobs": jobs,
        "games_per_second": {"local_pool": games / t_local, "ray": games / t_ray},
        "ray_start_seconds": t_start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="protocol games")
    parser.add_argument("--ray-games", type=int, default=40, help="tournament games")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the local pool")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(RUNS))
    args = parser.parse_args()
    command = (
        f"python bench/protocol.py --games {args.games} --ray-games {args.ray_games} "
        f"--jobs {args.jobs} --seed {args.seed}"
    )
    if Path(args.out).resolve() != RUNS.resolve():
        command += f" --out {shown(args.out)}"
    run = {
        "format": "tne-bench-protocol/1",
        "command": command,
        "machine": f"{platform.machine()}, Python {platform.python_version()}, {date.today()}",
        "compiled": COMPILED,
        "protocol": protocol(args.games, args.seed),
        "ray": cluster(args.ray_games, args.seed, args.jobs) if args.ray_games else None,
    }
    keep(Path(args.out), run)
    print(run)


if __name__ == "__main__":
    main()
