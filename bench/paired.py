"""Compare two tournaments game by game: did a variant win deals the other lost?

Two ``tne tournament`` runs with the same seed, players and lineup size play the same deals
with the same bot seeds. When both also run a fixed number of iterations and no time cap
(``--iterations N``), two versions of a bot play *the same game* until the first decision
the change alters, so comparing them deal by deal removes most of the luck a plain win rate
carries: four-player runs of 120 games differ by about ±7 wins between versions that differ
in small ways, while a paired count only moves on the games the change actually touched.

    python bench/paired.py A.json B.json [A2.json B2.json ...] [--bot NAME_A] [--bot-b NAME_B]

For the followed seat (by default each run's first bot) it prints, over the deals both runs
played: wins of each (a shared first place counts as a fraction), the deals won only by
one, the mean margin over the best other seat's lowest colour and the paired difference
with its standard error, and a two-sided sign test over the deals with different outcomes.
Several pairs of runs (each pair on deals of its own seed) are also summed up.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any


def follow(result: dict[str, Any], name: str) -> tuple[float, int]:
    """The followed seat's share of first place and its margin over the best other seat."""
    seat = result["seats"].index(name)
    ranks, scores = result["ranks"], result["scores"]
    firsts = sum(1 for r in ranks if r == 1)
    win = 1.0 / firsts if ranks[seat] == 1 else 0.0
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return win, scores[seat] - best_other


def sign_test(plus: int, minus: int) -> float:
    """Two-sided exact binomial p-value for ``plus`` against ``minus`` at even odds."""
    n = plus + minus
    if n == 0:
        return 1.0
    k = min(plus, minus)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(a: dict[str, Any], b: dict[str, Any], name_a: str, name_b: str) -> dict[str, Any]:
    """The paired figures of two tournament summaries (see the module docstring)."""
    if (a["seed"], a["players"]) != (b["seed"], b["players"]):
        raise SystemExit("the runs differ in seed or players: their deals are not the same")
    by_index = {r["index"]: r for r in b["results"]}
    wins_a = wins_b = 0.0
    only_a = only_b = 0
    diffs: list[float] = []
    margins_a: list[int] = []
    for ra in a["results"]:
        rb = by_index.get(ra["index"])
        if rb is None:
            continue
        if ra["seed"] != rb["seed"]:
            raise SystemExit(f"game {ra['index']} has different deals in the two runs")
        wa, ma = follow(ra, name_a)
        wb, mb = follow(rb, name_b)
        wins_a += wa
        wins_b += wb
        only_a += wa > wb
        only_b += wb > wa
        diffs.append(ma - mb)
        margins_a.append(ma)
    n = len(diffs)
    if n == 0:
        raise SystemExit("no deal in common")
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return {
        "games": n,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "only_a": only_a,
        "only_b": only_b,
        "same_margin": sum(1 for d in diffs if d == 0),
        "margin_a": sum(margins_a) / n,
        "margin_diff": mean,
        "margin_diff_se": math.sqrt(var / n),
        "sign_p": sign_test(only_a, only_b),
        "diffs": diffs,
    }


def pooled(outs: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several comparisons together (their deals pooled)."""
    diffs = [d for o in outs for d in o["diffs"]]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    only_a = sum(o["only_a"] for o in outs)
    only_b = sum(o["only_b"] for o in outs)
    return {
        "games": n,
        "wins_a": sum(o["wins_a"] for o in outs),
        "wins_b": sum(o["wins_b"] for o in outs),
        "only_a": only_a,
        "only_b": only_b,
        "same_margin": sum(o["same_margin"] for o in outs),
        "margin_a": sum(o["margin_a"] * o["games"] for o in outs) / n,
        "margin_diff": mean,
        "margin_diff_se": math.sqrt(var / n),
        "sign_p": sign_test(only_a, only_b),
        "diffs": diffs,
    }


def report(out: dict[str, Any], title: str) -> None:
    n = out["games"]
    print(title)
    print(f"wins: A {out['wins_a']:g}/{n}, B {out['wins_b']:g}/{n}")
    p = out["sign_p"]
    print(f"won by one only: A {out['only_a']}, B {out['only_b']} (sign test p = {p:.2f})")
    print(
        f"margin over the best other seat: A {out['margin_a']:+.2f}, A - B "
        f"{out['margin_diff']:+.2f} ± {out['margin_diff_se']:.2f} (same margin in "
        f"{out['same_margin']} deals)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="A.json B.json, and more pairs")
    ap.add_argument("--bot", help="the seat followed in A (default: A's first bot)")
    ap.add_argument("--bot-b", help="the seat followed in B (default: B's first bot)")
    args = ap.parse_args()
    if len(args.runs) % 2:
        raise SystemExit("give the runs in pairs: A.json B.json [A2.json B2.json ...]")
    outs = []
    for path_a, path_b in zip(args.runs[::2], args.runs[1::2], strict=True):
        a = json.loads(path_a.read_text())
        b = json.loads(path_b.read_text())
        name_a = args.bot or a["bots"][0]
        name_b = args.bot_b or b["bots"][0]
        out = compare(a, b, name_a, name_b)
        outs.append(out)
        report(out, f"{out['games']} deals of seed {a['seed']} (A: {name_a}, B: {name_b})")
    if len(outs) > 1:
        print()
        together = pooled(outs)
        report(together, f"together: {together['games']} deals")


if __name__ == "__main__":
    main()
