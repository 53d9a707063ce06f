"""The CPU time of a hint ("Suggest a move") at the server's default budget.

    nice -n 10 python bench/hints.py [--positions 12]

For positions of seeded two-player games (random play, 4 to 40 decisions in), the seat to
decide asks for a hint as the server computes it (``server.suggest.suggest``: the ``hard``
search from the seat's view, ``Limits.hint_iterations`` iterations and no time cap, then its
reason); the process's CPU time per hint is measured, and its reason alone (one
determinization, one action applied). Writes bench/hints.json and the table between the
``bench:hints`` markers of docs/web.md. The figures are those of the core this process
loads (``COMPILED`` says which).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import statistics
import time
from pathlib import Path
from typing import Any

from tigris_euphrates import COMPILED, apply, new_game, player_view, to_act
from tigris_euphrates.ai import Budget
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.suggest import explain, suggest

ROOT = Path(__file__).resolve().parent.parent


def positions(count: int) -> list[dict[str, Any]]:
    """The views of the seat to decide in ``count`` seeded positions."""
    views = []
    for seed in range(count):
        rng = random.Random(seed)
        state = new_game({"players": 2}, seed)
        for _ in range(rng.randrange(4, 41)):
            seat = to_act(state)
            if seat is None:
                break
            state, _ = apply(state, rng.choice(player_view(state, seat)["legal_actions"]))
        seat = to_act(state)
        if seat is not None:
            views.append(player_view(state, seat))
    return views


def measure(count: int) -> dict[str, Any]:
    limits = Limits()
    budget = Budget(seconds=None, iterations=limits.hint_iterations)
    hints, reasons = [], []
    for view in positions(count):
        start = time.process_time()
        found = suggest(view, budget)
        hints.append(time.process_time() - start)
        start = time.process_time()
        explain(view, found["action"])
        reasons.append(time.process_time() - start)
    return {
        "benchmark": "bench/hints.py",
        "compiled": COMPILED,
        "python": platform.python_version(),
        "budget": {"seconds": None, "iterations": limits.hint_iterations},
        "hints": len(hints),
        "hint_cpu_mean": round(statistics.mean(hints), 3),
        "hint_cpu_max": round(max(hints), 3),
        "reason_cpu_mean": round(statistics.mean(reasons), 4),
    }


def table(r: dict[str, Any]) -> str:
    core = "compiled (mypyc)" if r["compiled"] else "pure Python"
    return (
        "| engine | budget | hints | CPU per hint, mean | max | its reason alone |\n"
        "|---|---|---|---|---|---|\n"
        f"| {core} | {r['budget']['iterations']} iterations, no time cap "
        f"| {r['hints']} | {r['hint_cpu_mean']:.2f} s | {r['hint_cpu_max']:.2f} s "
        f"| {r['reason_cpu_mean'] * 1000:.1f} ms |\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    result = measure(args.positions)
    print(json.dumps(result, indent=1))
    (ROOT / "bench" / "hints.json").write_text(json.dumps(result, indent=1) + "\n")
    docs = ROOT / "docs" / "web.md"
    text = docs.read_text()
    marked = re.compile(r"(<!-- bench:hints -->\n).*?(<!-- /bench:hints -->)", re.S)
    docs.write_text(marked.sub(lambda m: m[1] + table(result) + m[2], text))


if __name__ == "__main__":
    main()
