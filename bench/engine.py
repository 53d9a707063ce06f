"""Engine speed on one core: random full games per second, legal_actions and apply calls.

    python bench/engine.py [--seconds 5] [--profile]

Writes bench/engine.json and the table between the ``bench:engine`` markers of README.md.
Random games are uniform random play: each decision is drawn uniformly among the legal
actions. "fast path" draws with ``sample_legal`` and plays with ``apply_unchecked`` (what
search and playouts use); "public API" builds ``legal_actions`` and plays with the checked
``apply`` (with events), as any outside tool would.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tigris_euphrates.engine import (
    State,
    apply,
    apply_unchecked,
    legal_actions,
    new_game,
    sample_legal,
)

ROOT = Path(__file__).resolve().parent.parent


#: The variants' own rows: the wonder and the buildings together, and the galaxy ruleset.
WONDER_BUILDINGS = {"wonder": True, "buildings": True}
GALAXY = {"ruleset": "galaxy"}


def fast_game(players: int, seed: int, options: dict[str, object] | None = None) -> int:
    rng = random.Random(seed)
    s = new_game({"players": players, **(options or {})}, seed)
    n = 0
    while not s.over:
        s = apply_unchecked(s, sample_legal(s, rng))
        n += 1
    return n


def api_game(players: int, seed: int, options: dict[str, object] | None = None) -> int:
    rng = random.Random(seed)
    s = new_game({"players": players, **(options or {})}, seed)
    n = 0
    while not s.over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        n += 1
    return n


def rate(fn: Callable[[int], object], seconds: float) -> tuple[float, int]:
    """Calls of fn(i) per second over at least ``seconds`` (best of the run)."""
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(count)
        count += 1
    return count / (time.perf_counter() - start), count


def sample_states(n: int) -> list[State]:
    rng = random.Random(0)
    out: list[State] = []
    seed = 0
    while len(out) < n:
        s = new_game({"players": 2 + seed % 3}, seed)
        while not s.over and len(out) < n:
            out.append(s)
            s = apply_unchecked(s, sample_legal(s, rng))
        seed += 1
    return out


def fresh(s: State) -> State:
    """A copy without the cached kingdom masks, so every call pays the full price."""
    return s.copy()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0, help="time per figure")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--no-readme", action="store_true", help="do not update README.md")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    figures: dict[str, float] = {}
    lengths = [fast_game(2, 10_000 + i) for i in range(20)]
    figures["decisions_per_2p_game"] = sum(lengths) / len(lengths)
    figures["games_per_s_2p_fast"], _ = rate(lambda i: fast_game(2, i), args.seconds)
    figures["games_per_s_4p_fast"], _ = rate(lambda i: fast_game(4, i), args.seconds)
    figures["games_per_s_2p_api"], _ = rate(lambda i: api_game(2, i), args.seconds)
    figures["games_per_s_4p_api"], _ = rate(lambda i: api_game(4, i), args.seconds)
    for key, opts in (("wonder_buildings", WONDER_BUILDINGS), ("galaxy", GALAXY)):
        figures[f"games_per_s_2p_fast_{key}"], _ = rate(
            lambda i, o=opts: fast_game(2, i, o), args.seconds
        )
        figures[f"games_per_s_2p_api_{key}"], _ = rate(
            lambda i, o=opts: api_game(2, i, o), args.seconds
        )

    states = sample_states(2000)
    copies = [fresh(s) for s in states]
    figures["legal_actions_per_s"], _ = rate(
        lambda i: legal_actions(fresh(states[i % len(states)])), args.seconds
    )
    rng = random.Random(1)
    pairs = [(s, rng.choice(legal_actions(s))) for s in copies]
    figures["apply_per_s"], _ = rate(
        lambda i: apply(fresh(pairs[i % len(pairs)][0]), pairs[i % len(pairs)][1]), args.seconds
    )
    figures["apply_unchecked_per_s"], _ = rate(
        lambda i: apply_unchecked(pairs[i % len(pairs)][0], pairs[i % len(pairs)][1]),
        args.seconds,
    )
    figures["mean_legal_actions"] = sum(len(legal_actions(s)) for s in copies) / len(copies)

    result = {
        "command": "python bench/engine.py",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu": _cpu_name(),
        "date": time.strftime("%Y-%m-%d"),
        "figures": {k: round(v, 1) for k, v in figures.items()},
    }
    (ROOT / "bench" / "engine.json").write_text(json.dumps(result, indent=2) + "\n")
    table = _table(result)
    print(table)
    if not args.no_readme:
        _update_readme(table)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(30):
            fast_game(2, i)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _table(result: dict[str, object]) -> str:
    f = result["figures"]
    assert isinstance(f, dict)
    rows = [
        ("random 2-player games/s (fast path)", f["games_per_s_2p_fast"]),
        ("random 4-player games/s (fast path)", f["games_per_s_4p_fast"]),
        ("random 2-player games/s (public API, checked apply + events)", f["games_per_s_2p_api"]),
        ("random 4-player games/s (public API, checked apply + events)", f["games_per_s_4p_api"]),
        (
            "random 2-player games/s, wonder + buildings (fast path / public API)",
            f"{f['games_per_s_2p_fast_wonder_buildings']:,.0f} / "
            f"{f['games_per_s_2p_api_wonder_buildings']:,.0f}",
        ),
        (
            "random 2-player games/s, galaxy ruleset (fast path / public API)",
            f"{f['games_per_s_2p_fast_galaxy']:,.0f} / {f['games_per_s_2p_api_galaxy']:,.0f}",
        ),
        (
            f"`legal_actions` calls/s (mean list size {f['mean_legal_actions']:.0f})",
            f["legal_actions_per_s"],
        ),
        ("`apply` calls/s (validated, with events)", f["apply_per_s"]),
        ("`apply_unchecked` calls/s", f["apply_unchecked_per_s"]),
        ("decisions per random 2-player game", f["decisions_per_2p_game"]),
    ]
    lines = [
        f"Measured with `{result['command']}` on one core of {result['cpu']}, "
        f"Python {result['python']}, {result['date']}.",
        "",
        "| figure | value |",
        "|---|---:|",
    ]
    lines += [
        f"| {name} | {value if isinstance(value, str) else f'{value:,.0f}'} |"
        for name, value in rows
    ]
    return "\n".join(lines)


def _update_readme(table: str) -> None:
    readme = ROOT / "README.md"
    text = readme.read_text()
    pattern = re.compile(r"(<!-- bench:engine -->).*?(<!-- /bench:engine -->)", re.S)
    if pattern.search(text):
        readme.write_text(
            pattern.sub(lambda m: m.group(1) + "\n" + table + "\n" + m.group(2), text)
        )


if __name__ == "__main__":
    main()
