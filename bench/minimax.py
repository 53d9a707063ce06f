"""Our search, which sees only its view, against a minimax that sees everything (a benchmark,
not a test).

The minimax is ``support/minimax.py``'s ``Cheater``: an alpha-beta search on the referee's
true state (hands, bag order), ``--depth`` decisions deep, keeping ``--widths`` actions at each
level above the last. ``--eval reference`` scores its positions with the open-source engine
0b01/tigris-and-euphrates's evaluation (``support/reference.py``), ``--eval ours`` (the
default) with our search's.

    .venv/bin/python bench/minimax.py --games 40 --seed 77 --eval reference
    .venv/bin/python bench/minimax.py --games 60 --seed 71
    .venv/bin/python bench/minimax.py --games 2 --depth 1 --bot greedy --out /tmp/smoke.json

Keeps its runs in ``bench/minimax.json`` (``--out``), a JSON list: a run replaces the one
with the same command. A run holds every game, the win rate of our bot with its 95 % Wilson
interval, mean scores and the decision times of both sides; ``bench/strength.py`` adds the
runs up into the README's strength table.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# support/ (the repository's helpers shared with the tests, not the package) is imported
# from the repository's root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.minimax import EVALUATIONS, play
from support.runs import keep, shown
from tigris_euphrates.tournament import wilson

HERE = Path(__file__).parent

#: Where the runs are kept.
RUNS = HERE / "minimax.json"


def summarise(args: argparse.Namespace, games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    wins = sum(g["win"] for g in games)
    lo, hi = wilson(wins, n)

    def times(side: int) -> dict[str, float]:
        ts = sorted(t for g in games for t in g["times"][side])
        return {
            "decisions": len(ts),
            "median": statistics.median(ts),
            "p99": ts[min(len(ts) - 1, int(0.99 * len(ts)))],
            "max": ts[-1],
        }

    command = (
        f"python bench/minimax.py --bot {args.bot} --games {args.games} --seed {args.seed} "
        f"--depth {args.depth} --widths {args.widths}"
        + (f" --eval {args.eval}" if args.eval != "ours" else "")
        + (f" --out {shown(args.out)}" if Path(args.out).resolve() != RUNS.resolve() else "")
    )
    return {
        "format": "tne-bench-minimax/2",
        "command": command,
        "machine": f"{platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "bot": args.bot,
        "minimax": {
            "depth": args.depth,
            "widths": [int(w) for w in args.widths.split(",")],
            "evaluation": args.eval,
        },
        "games": n,
        "wins": wins,
        "win_rate": wins / n,
        "ci95": [lo, hi],
        "mean_score": [
            statistics.fmean(g["scores"][0] for g in games),
            statistics.fmean(g["scores"][1] for g in games),
        ],
        "decision_seconds": {args.bot: times(0), "minimax": times(1)},
        # each game without its decision times (they are summed up above)
        "results": sorted(
            ({k: v for k, v in g.items() if k != "times"} for g in games),
            key=lambda g: g["index"],
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard", help="our bot: a level (it sees only its view)")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--depth", type=int, default=4, help="the minimax's depth in decisions")
    ap.add_argument("--widths", default="10,6,4", help="actions kept at each level above the last")
    ap.add_argument(
        "--eval",
        choices=tuple(EVALUATIONS),
        default="ours",
        help="the minimax's evaluation: ours, or the open-source engine's (support/reference.py)",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(RUNS), help="the JSON list of runs to keep this one in")
    args = ap.parse_args()
    widths = [int(w) for w in args.widths.split(",")]
    tasks = [
        {
            "index": i,
            "seed": args.seed * 1_000_003 + i,
            "bot": args.bot,
            "depth": args.depth,
            "widths": widths,
            "evaluation": args.eval,
        }
        for i in range(args.games)
    ]
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for g in pool.map(play, tasks):
            games.append(g)
            wins = sum(x["win"] for x in games)
            print(
                f"{time.strftime('%H:%M:%S')} game {len(games)}/{args.games}: "
                f"{args.bot} {wins:g}/{len(games)}",
                flush=True,
            )
            keep(Path(args.out), summarise(args, games))
    s = summarise(args, games)
    lo, hi = s["ci95"]
    print(
        f"{args.bot} vs minimax depth {args.depth} with {EVALUATIONS[args.eval]}: "
        f"{s['wins']:g}/{s['games']} = {100 * s['win_rate']:.1f} % "
        f"({100 * lo:.1f}-{100 * hi:.1f} %), mean score {s['mean_score'][0]:.1f} vs "
        f"{s['mean_score'][1]:.1f}"
    )
    for side, d in s["decision_seconds"].items():
        print(f"  {side}: median {d['median']:.2f} s, p99 {d['p99']:.2f} s, max {d['max']:.2f} s")


if __name__ == "__main__":
    main()
