"""The CPU time of the post-game analysis at the default budget (a benchmark, not a test).

    .venv/bin/python bench/analysis.py            # 10 two-player and 5 four-player games

Analyses the first games of the held-out rounds of ``bench/winprob.py`` (records in
``data/winprob/``; run that script first) with ``AnalysisBudget()`` and writes the CPU
seconds per game and per judged decision to ``bench/analysis.json`` and the table between
the ``bench:analysis`` markers of docs/ai.md, saying whether the engine and the bots ran
compiled.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

from tigris_euphrates import COMPILED
from tigris_euphrates.coach.analysis import AnalysisBudget, analyse

HERE = Path(__file__).parent
ROOT = HERE.parent
RECORDS = ROOT / "data" / "winprob"
FIGURES = HERE / "analysis.json"
DOCS = ROOT / "docs" / "ai.md"


def games(folder: Path, count: int) -> list[dict[str, Any]]:
    """The first ``count`` games of the folder's rounds, one round after the other."""
    paths = sorted(folder.glob("round-*/game-*.json"), key=lambda p: (p.parent.name, p.name))
    rounds: dict[str, list[Path]] = {}
    for p in paths:
        rounds.setdefault(p.parent.name, []).append(p)
    picked: list[Path] = []
    while len(picked) < count and any(rounds.values()):
        for key in sorted(rounds):
            if rounds[key] and len(picked) < count:
                picked.append(rounds[key].pop(0))
    return [json.loads(p.read_text()) for p in picked]


def measure(records: list[dict[str, Any]]) -> dict[str, Any]:
    seconds, decisions, plies = [], [], []
    for record in records:
        started = time.process_time()
        result = analyse(record, AnalysisBudget())
        seconds.append(time.process_time() - started)
        decisions.append(len(result["decisions"]))
        plies.append(result["plies"])
    return {
        "games": len(records),
        "median_seconds": round(statistics.median(seconds), 2),
        "max_seconds": round(max(seconds), 2),
        "median_actions": statistics.median(plies),
        "ms_per_decision": round(1000 * sum(seconds) / max(1, sum(decisions)), 1),
    }


def table(figures: dict[str, Any]) -> str:
    rows = [
        "| players | games | actions (median) | CPU s a game (median) | max "
        "| ms a judged decision |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for key in ("two", "four"):
        f = figures[key]
        rows.append(
            f"| {key} | {f['games']} | {f['median_actions']:g} | {f['median_seconds']} "
            f"| {f['max_seconds']} | {f['ms_per_decision']} |"
        )
    budget = AnalysisBudget()
    rows.append("")
    rows.append(
        f"Default budget ({budget.candidates} candidates, {budget.worlds} deals), "
        f"{'compiled' if figures['compiled'] else 'pure-Python'} engine and bots, "
        f"{figures['machine']}."
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--two", type=int, default=10)
    parser.add_argument("--four", type=int, default=5)
    parser.add_argument("--machine", default="a 2-core machine shared with other work")
    args = parser.parse_args()
    figures = {
        "two": measure(games(args.records / "held2", args.two)),
        "four": measure(games(args.records / "held4", args.four)),
        "compiled": COMPILED,
        "machine": args.machine,
    }
    print(json.dumps(figures, indent=1))
    FIGURES.write_text(json.dumps(figures, indent=1) + "\n")
    text = DOCS.read_text()
    pattern = re.compile(r"(<!-- bench:analysis -->\n).*?(<!-- /bench:analysis -->)", re.S)
    DOCS.write_text(pattern.sub(lambda m: m[1] + table(figures) + "\n" + m[2], text))


if __name__ == "__main__":
    main()
