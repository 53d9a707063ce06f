"""Strength of the bots (a benchmark, not a test): the tournaments behind the README's strength
table, and the table itself.

    .venv/bin/python bench/strength.py                   # play every tournament (hours)
    .venv/bin/python bench/strength.py --only ladder     # play some of them again
    .venv/bin/python bench/strength.py --table           # rewrite the table, play nothing
    .venv/bin/python bench/strength.py --quick --out /tmp/strength.json --no-readme  # smoke run

Each tournament is exactly what ``tne tournament`` with its printed arguments plays, every bot
at its level's own budget. Writes ``bench/strength.json`` (every tournament's summary, each
game included), ``bench/strength.png`` (the ratings over every two-player game) and the table
between the ``bench:strength`` markers of README.md, whose last rows are the runs of
``bench/minimax.py`` kept in ``bench/minimax.json``. Results are written after each
tournament, so a partial run leaves its figures behind; within a tournament, every finished
game goes to ``bench/journal/KEY.jsonl`` (``tne tournament --journal``), so a stopped run
resumes where it stopped when started again, and the journal goes once the tournament is in
``bench/strength.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import time
from pathlib import Path
from typing import Any

from tigris_euphrates.tournament import (
    parse_options,
    plot_ratings,
    pooled_ratings,
    run_tournament,
    wilson,
)

HERE = Path(__file__).parent
ROOT = HERE.parent
JOURNALS = HERE / "journal"

#: The tournaments, each as ``tne tournament`` plays it.
TOURNAMENTS: list[dict[str, Any]] = [
    {"key": "greedy_vs_random", "bots": "greedy,random", "players": 2, "games": 200, "seed": 1},
    {"key": "hard_vs_greedy", "bots": "hard,greedy", "players": 2, "games": 200, "seed": 21},
    *(
        {
            "key": f"hard_vs_3_greedy_{seed}",
            "bots": "hard,greedy,greedy,greedy",
            "players": 4,
            "games": 80,
            "seed": seed,
        }
        for seed in (45, 47, 49)
    ),
    {"key": "medium_vs_greedy", "bots": "medium,greedy", "players": 2, "games": 100, "seed": 27},
    {"key": "hard_vs_medium", "bots": "hard,medium", "players": 2, "games": 60, "seed": 28},
    {
        "key": "ladder",
        "bots": "random,easy,greedy,medium,hard",
        "players": 2,
        "games": 60,
        "seed": 26,
        "ladder": True,
    },
]

#: The variants' tournaments (two players; each played with the game options given, as
#: ``tne tournament --options``).
TOURNAMENTS += [
    {
        "key": f"{bots.replace(',', '_vs_')}_{name}",
        "bots": bots,
        "players": 2,
        "games": games,
        "seed": seed,
        "options": options,
    }
    for name, options in (("wonder_buildings", "wonder,buildings"), ("galaxy", "galaxy"))
    for bots, games, seed in (("greedy,random", 200, 1), ("hard,greedy", 200, 21))
]

#: The compiled bots search about 1.5 times as many iterations a second: ``hard`` at 1,200
#: iterations (its 0.9 s cap unchanged) against ``hard`` as shipped (800), on the same deals.
TOURNAMENTS.append(
    {
        "key": "hard_1200_vs_hard",
        "bots": "hard:iterations=1200:seconds=0.9,hard",
        "players": 2,
        "games": 200,
        "seed": 31,
    }
)

#: The rows of the table: the tournaments each one adds up (``runs``; with ``ladder``, the
#: ladder's games of the same pair too), the bot measured and the target.
ROWS: list[dict[str, Any]] = [
    {
        "label": "greedy vs random, 2 players",
        "short": "greedy vs random",
        "runs": ["greedy_vs_random"],
        "subject": "greedy",
        "target": 0.95,
    },
    {
        "label": "hard vs greedy, 2 players",
        "short": "hard vs greedy",
        "runs": ["hard_vs_greedy"],
        "subject": "hard",
        "target": 0.80,
    },
    {
        "label": "one hard vs three greedy, 4 players (chance: 25 %)",
        "short": "one hard vs three greedy",
        "runs": ["hard_vs_3_greedy_45", "hard_vs_3_greedy_47", "hard_vs_3_greedy_49"],
        "subject": "hard",
        "target": 0.45,
    },
    {
        "label": "medium vs greedy, 2 players (with the ladder's games)",
        "short": "medium vs greedy",
        "runs": ["medium_vs_greedy"],
        "subject": "medium",
        "ladder": True,
        "target": "above",
    },
    {
        "label": "hard vs medium, 2 players (with the ladder's games)",
        "short": "hard vs medium",
        "runs": ["hard_vs_medium"],
        "subject": "hard",
        "ladder": True,
        "target": "above",
    },
    {
        "label": "hard at 1,200 iterations vs hard at its 800, 2 players (same 0.9 s cap)",
        "short": "hard at 1,200 iterations vs hard",
        "runs": ["hard_1200_vs_hard"],
        "subject": "hard:iterations=1200:seconds=0.9",
        "target": None,
    },
    *(
        row
        for name, label in (("wonder_buildings", "wonder + buildings"), ("galaxy", "galaxy"))
        for row in (
            {
                "label": f"greedy vs random, 2 players, {label}",
                "short": f"greedy vs random, {label}",
                "runs": [f"greedy_vs_random_{name}"],
                "subject": "greedy",
                "target": 0.95,
            },
            {
                "label": f"hard vs greedy, 2 players, {label}",
                "short": f"hard vs greedy, {label}",
                "runs": [f"hard_vs_greedy_{name}"],
                "subject": "hard",
                "target": 0.75,
                "games_asked": 200,
            },
        )
    ),
]

#: The rows from ``bench/minimax.json``: our bot against the cheating minimax (two players),
#: each the sum of the runs of its commands (other runs kept there are not in the table).
_MINIMAX = "python bench/minimax.py --bot hard --games {games} --seed {seed} --depth {depth} "
MINIMAX_ROWS: list[dict[str, Any]] = [
    {
        "label": "hard vs the open-source engine 0b01/tigris-and-euphrates (its evaluation "
        "re-created; it sees every hand and the bag), 2 players",
        "short": "hard vs the open-source engine (the minimax with its evaluation)",
        "commands": [
            _MINIMAX.format(games=40, seed=77, depth=4) + "--widths 10,6,4 --eval reference",
            _MINIMAX.format(games=30, seed=71, depth=4) + "--widths 20,10,6 --eval reference",
            _MINIMAX.format(games=12, seed=79, depth=5) + "--widths 10,6,4,3 --eval reference",
        ],
        "target": "stronger than it",
    },
    {
        "label": "hard vs the same minimax with our evaluation, 2 players",
        "short": "hard vs the minimax with our evaluation",
        "commands": [
            _MINIMAX.format(games=60, seed=71, depth=4) + "--widths 10,6,4",
            _MINIMAX.format(games=40, seed=77, depth=4) + "--widths 10,6,4",
        ],
        "target": None,
    },
]


def command(t: dict[str, Any], games: int | None = None) -> str:
    return (
        f"tne tournament --bots {t['bots']} --players {t['players']} "
        f"--games {games if games is not None else t['games']} --seed {t['seed']}"
        + (" --ladder" if t.get("ladder") else "")
        + (f" --options {t['options']}" if t.get("options") else "")
    )


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _goal(target: float | str | None, rate: float, lo: float) -> str:
    if target is None:
        return ""
    if target == "above":  # a ladder step: clearly stronger than the level below
        return "interval above 50 %: " + ("met" if lo > 0.5 else "**not met**")
    if isinstance(target, str):
        return target + ": " + ("met" if rate > 0.5 else "**not met**")
    return f"≥ {100 * target:.0f} %: " + ("met" if rate >= target else "**not met**")


def _ladder_pairings(data: dict[str, Any], pair: set[str]) -> list[dict[str, Any]]:
    ladder = data["tournaments"].get("ladder")
    if ladder is None:
        return []
    return [p for p in ladder["pairings"] if set(p["lineup"]) == pair]


def _minimax_run(run: dict[str, Any]) -> str:
    """A run of ``bench/minimax.py`` by its seed and what it changed of the minimax."""
    seed = run["results"][0]["seed"] // 1_000_003  # as minimax.py derives the games' seeds
    widths = run["minimax"]["widths"]
    out = f"seed {seed}"
    if run["minimax"]["depth"] != 4:
        out += f" at depth {run['minimax']['depth']}"
    if widths != [10, 6, 4]:
        out += f" with widths {'/'.join(str(w) for w in widths)}"
    return out


def table(data: dict[str, Any], minimax: list[dict[str, Any]]) -> tuple[str, str]:
    """The README's strength table and ratings, and the commands that give them, from the
    results."""
    runs = data["tournaments"]
    lines = [
        "| match-up | games | win rate | 95 % CI | target |",
        "|---|---:|---:|---:|---|",
    ]
    commands: list[str] = []
    for row in ROWS:
        keys = [k for k in row["runs"] if k in runs]
        if not keys:
            continue
        pairings = [runs[k]["pairings"][0] for k in keys]
        subject = row["subject"]
        if row.get("ladder"):
            pairings += _ladder_pairings(data, set(pairings[0]["lineup"]))
        wins = sum(p["bots"][subject]["wins"] for p in pairings)
        games = sum(p["games"] for p in pairings)
        lo, hi = wilson(wins, games)
        label = row["label"]
        if len(keys) > 1:
            label += " — " + ", ".join(
                f"seed {runs[k]['seed']}: {runs[k]['pairings'][0]['bots'][subject]['wins']:g}"
                f"/{runs[k]['games']}"
                for k in keys
            )
        goal = _goal(row["target"], wins / games, lo)
        asked = row.get("games_asked", 0)
        if games < asked:
            goal += f" on {games} games, not yet the {asked} asked"
        lines.append(
            f"| {label} | {games} | {_pct(wins / games)} | {_pct(lo)[:-2]}–{_pct(hi)} | {goal} |"
        )
        commands += [f"# {row['short']}", *(runs[k]["command"] for k in keys)]
    if "ladder" in runs:
        ladder = runs["ladder"]
        order = ladder["bots"]
        steps = []
        for p in ladder["pairings"]:
            upper = max(p["lineup"], key=order.index)
            lower = min(p["lineup"], key=order.index)
            steps.append(f"{upper} {p['bots'][upper]['wins']:g}/{p['games']} over {lower}")
        lines.append(
            f"| ladder, 2 players, each level against the next | {ladder['games']} "
            f"| {', '.join(steps)} | | |"
        )
        commands += ["# ladder", ladder["command"]]
    for row in MINIMAX_ROWS:
        by_command = {r["command"]: r for r in minimax}
        chosen = [by_command[c] for c in row["commands"] if c in by_command]
        if not chosen:
            continue
        wins = sum(r["wins"] for r in chosen)
        games = sum(r["games"] for r in chosen)
        lo, hi = wilson(wins, games)
        label = row["label"]
        if len(chosen) > 1:
            label += " — " + ", ".join(
                f"{_minimax_run(r)}: {r['wins']:g}/{r['games']}" for r in chosen
            )
        lines.append(
            f"| {label} | {games} | {_pct(wins / games)} | {_pct(lo)[:-2]}–{_pct(hi)} "
            f"| {_goal(row['target'], wins / games, lo)} |"
        )
        commands += [f"# {row['short']}", *(r["command"] for r in chosen)]
    pool = data.get("pooled_ratings")
    if pool and pool["ratings"]:
        ranked = sorted(pool["ratings"].items(), key=lambda kv: -kv[1]["mu"])
        lines += [
            "",
            "Ratings over every classic two-player game above (openskill Plackett–Luce, "
            "`bench/strength.png`): "
            + " > ".join(
                f"{name} {r['mu']:.1f} ± {r['sigma']:.1f} ({r['games']} games)".replace("-", "−")
                for name, r in ranked
            )
            + ".",
        ]
    timed = [
        (players, s["decision_seconds"]["hard"])
        for key, players in (
            ("hard_vs_greedy", "two-player"),
            ("hard_vs_3_greedy_45", "four-player"),
            ("hard_vs_greedy_wonder_buildings", "two-player wonder + buildings"),
            ("hard_vs_greedy_galaxy", "two-player galaxy"),
        )
        if (s := runs.get(key)) and "hard" in s.get("decision_seconds", {})
    ]
    if timed:
        lines += [
            "",
            "`hard` decided in "
            + "; ".join(
                f"{t['median']:.2f} s median, {t['p99']:.2f} s p99, {t['max']:.2f} s max over "
                f"{t['decisions']:,} decisions in {players} games"
                for players, t in timed
            )
            + " (two games in parallel on two cores, one game a core; its 0.9 s cap ends "
            "most four-player decisions).",
        ]
    lines += ["", "The commands: [docs/ai.md](docs/ai.md#measuring-strength)."]
    return "\n".join(lines), "\n".join(["```sh", *commands, "```"])


def update_readme(text: str, commands: str) -> None:
    """The table in README.md, the commands that give it in docs/ai.md (between the
    ``bench:strength`` and ``bench:strength-commands`` markers)."""
    for path, marker, body in (
        (ROOT / "README.md", "bench:strength", text),
        (ROOT / "docs" / "ai.md", "bench:strength-commands", commands),
    ):
        pattern = re.compile(rf"(<!-- {marker} -->).*?(<!-- /{marker} -->)", re.S)
        old = path.read_text()
        if pattern.search(old):
            path.write_text(pattern.sub(lambda m, b=body: m[1] + "\n" + b + "\n" + m[2], old))


def _variant(summary: dict[str, Any]) -> bool:
    """Whether a tournament played a variant (its games are rated apart from the classic's)."""
    opts = summary.get("options", {})
    return bool(opts.get("wonder") or opts.get("buildings") or opts.get("ruleset") == "galaxy")


def finish(data: dict[str, Any], out: Path, plot: bool) -> None:
    """The pooled two-player ratings, then the JSON (and the plot)."""
    two = [
        s
        for s in data["tournaments"].values()
        if s["players"] == 2 and s.get("results") and not _variant(s)
    ]
    data["pooled_ratings"] = {
        "tournaments": [k for k, s in data["tournaments"].items() if s in two],
        "ratings": pooled_ratings(two),
    }
    out.write_text(json.dumps(data, indent=1) + "\n")
    if plot and two:
        games = sum(len(s["results"]) for s in two)
        summary = {"ratings": data["pooled_ratings"]["ratings"], "games": games}
        plot_ratings({**summary, "options": {"players": 2}}, out.with_suffix(".png"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated tournament keys")
    ap.add_argument("--quick", action="store_true", help="two games a seat: a smoke run")
    ap.add_argument("--table", action="store_true", help="play nothing: rewrite the table")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "strength.json")
    ap.add_argument("--no-readme", action="store_true", help="do not update README.md")
    args = ap.parse_args()
    if args.quick and args.out == HERE / "strength.json":
        ap.error("--quick needs --out elsewhere: it would replace the measured runs")
    data: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    data["format"] = "tne-bench-strength/1"
    data.setdefault("tournaments", {})
    only = {k for k in args.only.split(",") if k}
    unknown = only - {t["key"] for t in TOURNAMENTS}
    if unknown:
        ap.error(f"unknown tournaments: {', '.join(sorted(unknown))}")
    for t in [] if args.table else TOURNAMENTS:
        if only and t["key"] not in only:
            continue
        games = t["games"] if not args.quick else t["players"] * 2
        print(f"== {t['key']}: {command(t, games)}", flush=True)
        start = time.time()
        journal = None if args.quick else JOURNALS / f"{t['key']}.jsonl"
        summary = run_tournament(
            t["bots"].split(","),
            players=t["players"],
            games=games,
            seed=t["seed"],
            jobs=args.jobs,
            ladder=bool(t.get("ladder")),
            options=parse_options(t.get("options"), t["players"]),
            journal=journal,
            progress=lambda done, total: print(f"   {done}/{total} games", flush=True),
        )
        summary.pop("_records", None)
        summary["command"] = command(t, games)
        summary["wall_seconds"] = round(time.time() - start)
        if args.out.exists():  # another run may have stored its tournaments meanwhile
            data["tournaments"] = json.loads(args.out.read_text())["tournaments"]
        data["tournaments"][t["key"]] = summary
        data["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count()}
        data["tournaments"] = {  # in the order of TOURNAMENTS
            k["key"]: data["tournaments"][k["key"]]
            for k in TOURNAMENTS
            if k["key"] in data["tournaments"]
        }
        finish(data, args.out, plot=False)
        if journal is not None:
            journal.unlink()
        print(f"   done in {summary['wall_seconds']} s", flush=True)
    finish(data, args.out, plot=True)
    minimax_file = HERE / "minimax.json"
    minimax = json.loads(minimax_file.read_text()) if minimax_file.exists() else []
    text, commands = table(data, minimax)
    print(text + "\n\n" + commands)
    if not args.no_readme:
        update_readme(text, commands)


if __name__ == "__main__":
    main()
