"""Strength benchmark of the bots (not a test): runs the tournaments of the issue and writes
bench/strength.json (every summary) and bench/strength.md (the table and the exact commands).

    .venv/bin/python bench/strength.py            # the full benchmark (about two hours)
    .venv/bin/python bench/strength.py --collect  # tables from the tne tournament JSON files
    .venv/bin/python bench/strength.py --quick    # a smoke run with few games

Each experiment is exactly what ``tne tournament`` with the printed arguments runs; bots use
their level's default budget unless the experiment says otherwise. Results are written after
each experiment, so a partial run leaves its figures behind.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Any

from tigris_euphrates.ai.tournament import plot_ratings, pooled_ratings, run_tournament, wilson

HERE = Path(__file__).parent

#: The version of a bot that played a run kept from before a change of its defaults (today's
#: code plays the command differently): such runs are shown, and added up, apart from
#: today's, and the full benchmark does not play them again.
VERSION_16 = "before the commitment pruning (the sixteenth session's hard)"


def _four_player(key: str, deals: str, games: int, seed: int, version: str = "") -> dict[str, Any]:
    """A run of the four-player target: one hard against three greedy (``deals`` ends the
    title; ``version``: played by an earlier version, see ``VERSION_16``)."""
    exp: dict[str, Any] = {
        "key": key,
        "title": f"one hard vs three greedy, 4 players{deals}",
        "bots": "hard,greedy,greedy,greedy",
        "players": 4,
        "games": games,
        "seed": seed,
        "subject": "hard",
        "target": 0.45,
    }
    if version:
        exp["version"] = version
    return exp


EXPERIMENTS: list[dict[str, Any]] = [
    {
        "key": "greedy_vs_random",
        "title": "greedy vs random, 2 players",
        "bots": "greedy,random",
        "players": 2,
        "games": 200,
        "seed": 1,
        "subject": "greedy",
        "target": 0.95,
    },
    {
        "key": "hard_vs_greedy",
        "title": "hard vs greedy, 2 players",
        "bots": "hard,greedy",
        "players": 2,
        "games": 200,
        "seed": 21,
        "subject": "hard",
        "target": 0.80,
    },
    _four_player("hard_vs_3_greedy", "", 120, 43, VERSION_16),
    _four_player("hard_vs_3_greedy_b", ", other deals", 80, 45, VERSION_16),
    _four_player("hard_vs_3_greedy_c", ", third deals", 80, 47, VERSION_16),
    _four_player("hard_vs_3_greedy_d", ", fourth deals", 80, 49, VERSION_16),
    _four_player("hard_vs_3_greedy_e", ", fifth deals", 80, 57, VERSION_16),
    _four_player("hard_vs_3_greedy_45", " (deals of seed 45)", 80, 45),
    _four_player("hard_vs_3_greedy_47", " (deals of seed 47)", 80, 47),
    _four_player("hard_vs_3_greedy_49", " (deals of seed 49)", 80, 49),
    {
        "key": "medium_vs_greedy",
        "title": "medium vs greedy, 2 players (a ladder step, more games)",
        "bots": "medium,greedy",
        "players": 2,
        "games": 100,
        "seed": 27,
        "subject": "medium",
        "target": 0.5,
        "step": True,
    },
    {
        "key": "hard_vs_medium",
        "title": "hard vs medium, 2 players (a ladder step, more games)",
        "bots": "hard,medium",
        "players": 2,
        "games": 60,
        "seed": 28,
        "subject": "hard",
        "target": 0.5,
        "step": True,
    },
    {
        "key": "ladder",
        "title": "each level against the next, 2 players (ratings)",
        "bots": "random,easy,greedy,medium,hard",
        "players": 2,
        "games": 60,
        "seed": 26,
        "subject": None,
        "target": None,
        "ladder": True,
    },
]


#: The runs of ``bench/minimax.py`` (our bot against a full-depth-4 alpha-beta minimax that
#: sees the true state; as controls, the same minimax on its view, and our search shown the
#: true state too), by file name.
MINIMAX = (
    "hard_vs_minimax",
    "hard_vs_minimax_view",
    "expert_vs_minimax",
    "hard_sees_state_vs_minimax",
)


def command(exp: dict[str, Any], games: int) -> str:
    return (
        f"tne tournament --bots {exp['bots']} --players {exp['players']} --games {games} "
        f"--seed {exp['seed']}{' --ladder' if exp.get('ladder') else ''} "
        f"--out bench/{exp['key']}.json"
    )


def collect(data: dict[str, Any]) -> None:
    """Take the summaries that ``tne tournament`` wrote (``bench/<key>.json``, the printed
    commands) instead of playing the games again, and rate every two-player game of them on
    one scale (levels that never met in one run included)."""
    two_player: list[dict[str, Any]] = []  # full summaries, results kept, for the ratings
    used: list[str] = []
    for exp in EXPERIMENTS:
        path = HERE / f"{exp['key']}.json"
        if not path.exists():
            continue
        summary = json.loads(path.read_text())
        if exp["players"] == 2 and summary.get("results"):
            two_player.append(dict(summary))
            used.append(exp["key"])
        summary.pop("results", None)
        games = summary["pairings"][0]["games"]
        summary["command"] = command(exp, games)
        data["experiments"][exp["key"]] = summary
    exps = data["experiments"]  # in the order of EXPERIMENTS, without the ones it dropped
    data["experiments"] = {e["key"]: exps[e["key"]] for e in EXPERIMENTS if e["key"] in exps}
    data["pooled_ratings"] = {"experiments": used, "ratings": pooled_ratings(two_player)}
    data["minimax"] = {}
    for key in MINIMAX:
        path = HERE / f"{key}.json"
        if path.exists():
            summary = json.loads(path.read_text())
            summary.pop("results", None)
            data["minimax"][key] = summary


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="few games per experiment")
    ap.add_argument("--only", default="", help="comma-separated experiment keys")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument(
        "--collect",
        action="store_true",
        help="rebuild strength.json/.md from the bench/<key>.json files of tne tournament",
    )
    args = ap.parse_args()
    out_json = HERE / "strength.json"
    data: dict[str, Any] = json.loads(out_json.read_text()) if out_json.exists() else {}
    data.setdefault("experiments", {})
    data["machine"] = {"python": platform.python_version(), "cpus": __import__("os").cpu_count()}
    if args.collect:
        collect(data)
        out_json.write_text(json.dumps(data, indent=1) + "\n")
        write_markdown(data)
        return
    only = {k for k in args.only.split(",") if k}
    for exp in EXPERIMENTS:
        if (only and exp["key"] not in only) or exp.get("version"):
            continue
        games = exp["games"] if not args.quick else exp["players"] * 2
        t0 = time.time()
        print(f"== {_title(exp)}: {command(exp, games)}", flush=True)
        summary = run_tournament(
            exp["bots"].split(","),
            players=exp["players"],
            games=games,
            seed=exp["seed"],
            jobs=args.jobs,
            ladder=bool(exp.get("ladder")),
        )
        summary.pop("_records", None)
        summary["wall_seconds"] = time.time() - t0
        summary["command"] = command(exp, games)
        plot_ratings(summary, HERE / f"{exp['key']}.png")
        data["experiments"][exp["key"]] = summary
        out_json.write_text(json.dumps(data, indent=1) + "\n")
        write_markdown(data)
        print(f"   done in {summary['wall_seconds']:.0f} s", flush=True)


def _step(exp: dict[str, Any]) -> bool:
    """A ladder step ("clearly stronger than the level below") rather than a target rate."""
    return bool(exp.get("step"))


def _group(exp: dict[str, Any]) -> tuple[str, int, str, float, bool, str]:
    """The match-up an experiment measures, and the version that played it: its runs on
    other deals are added up."""
    return (
        exp["bots"],
        exp["players"],
        exp["subject"],
        exp["target"],
        _step(exp),
        exp.get("version", ""),
    )


def _title(exp: dict[str, Any]) -> str:
    version = exp.get("version")
    return f"{exp['title']}, {version}" if version else str(exp["title"])


def _goal(target: float, step: bool, rate: float, lo: float) -> str:
    """The target column: a ladder step needs its whole interval above 50 %."""
    if step:
        return "interval above 50 % (" + ("met" if lo > 0.5 else "**not met**") + ")"
    return f"≥ {100 * target:.0f} % (" + ("met" if rate >= target else "**not met**") + ")"


def _pooled_row(
    label: str, subject: str, pairings: list[dict[str, Any]], target: float, step: bool
) -> str:
    """A table row for several runs of one match-up added up."""
    wins = sum(p["bots"][subject]["wins"] for p in pairings)
    games = sum(p["games"] for p in pairings)
    lo, hi = wilson(wins, games)
    return (
        f"| {label} together | {games} | {subject} | {100 * wins / games:.1f} % "
        f"| {100 * lo:.1f}–{100 * hi:.1f} % | {_goal(target, step, wins / games, lo)} | |"
    )


def write_markdown(data: dict[str, Any]) -> None:
    lines = [
        "# Bot strength",
        "",
        "Written by `bench/strength.py` (figures in `bench/strength.json`). Win rates count a",
        "shared first place as a fraction; intervals are 95 % Wilson intervals.",
        "",
        "| experiment | games | subject | win rate | 95 % CI | target "
        "| mean score (subject / others) |",
        "|---|---|---|---|---|---|---|",
    ]
    by_key = {e["key"]: e for e in EXPERIMENTS}
    exps = data["experiments"]
    # Runs of the same match-up on other deals, added up (a ladder step with the ladder's own
    # games of that pair): where there are several, their sum, not each run, meets a target.
    groups: dict[tuple[str, int, str, float, bool, str], list[dict[str, Any]]] = {}
    for key, s in exps.items():
        exp = by_key.get(key)
        if exp is not None and exp["subject"] is not None:
            groups.setdefault(_group(exp), []).append(s["pairings"][0])
    for (bots, _players, _subject, _target, step, _version), pairings in groups.items():
        if step and "ladder" in exps:
            pair = set(bots.split(","))
            pairings += [lp for lp in exps["ladder"]["pairings"] if set(lp["lineup"]) == pair]
    for key, s in exps.items():
        exp = by_key.get(key)
        if exp is None or exp["subject"] is None:
            continue
        (p,) = s["pairings"]
        b = p["bots"][exp["subject"]]
        others = [o for n, o in p["bots"].items() if n != exp["subject"]]
        other_score = others[0]["mean_score"] if others else 0.0
        lo, hi = b["ci95"]
        if len(groups[_group(exp)]) > 1:
            goal = "(the runs together below)"
        else:
            goal = _goal(exp["target"], _step(exp), b["win_rate"], lo)
        lines.append(
            f"| {_title(exp)} | {p['games']} | {exp['subject']} | {100 * b['win_rate']:.1f} % "
            f"| {100 * lo:.1f}–{100 * hi:.1f} % | {goal} "
            f"| {b['mean_score']:.1f} / {other_score:.1f} |"
        )
    for (bots, players, subject, target, step, version), pairings in groups.items():
        if len(pairings) < 2:
            continue
        label = "with the ladder's games" if step else f"({players} players)"
        if version:
            label += f", {version},"
        lines.append(
            _pooled_row(f"all runs of {subject} in {bots} {label}", subject, pairings, target, step)
        )
    # A match-up played by several versions: every version's runs together as well.
    versions: dict[tuple[str, int, str, float, bool], list[list[dict[str, Any]]]] = {}
    for (bots, players, subject, target, step, _version), pairings in groups.items():
        versions.setdefault((bots, players, subject, target, step), []).append(pairings)
    for (bots, players, subject, target, step), by_version in versions.items():
        if len(by_version) < 2:
            continue
        pairings = [p for one in by_version for p in one]
        label = f"all runs of {subject} in {bots} ({players} players), every version,"
        lines.append(_pooled_row(label, subject, pairings, target, step))
    if "ladder" in exps:
        s = exps["ladder"]
        lines += [
            "",
            f"Ratings of the ladder run alone (openskill Plackett–Luce, {s['games']} two-player "
            "games, each level against the next, seats balanced; a level met only its "
            "neighbours, so close results chain into any order: the pooled ratings below "
            "use every two-player game):",
            "",
            "| level | μ | σ | μ − 3σ |",
            "|---|---|---|---|",
        ]
        for name, r in sorted(s["ratings"].items(), key=lambda kv: -kv[1]["mu"]):
            lines.append(f"| {name} | {r['mu']:.1f} | {r['sigma']:.2f} | {r['ordinal']:.1f} |")
        lines += ["", "| pairing | games | win rate of the first | 95 % CI |", "|---|---|---|---|"]
        for p in s["pairings"]:
            a = p["lineup"][0]
            b = p["bots"][a]
            lo, hi = b["ci95"]
            lines.append(
                f"| {' vs '.join(p['lineup'])} | {p['games']} | {100 * b['win_rate']:.0f} % "
                f"| {100 * lo:.0f}–{100 * hi:.0f} % |"
            )
    pool = data.get("pooled_ratings")
    if pool and pool["ratings"]:
        lines += [
            "",
            "Ratings over every two-player game above ("
            + ", ".join(f"`{k}`" for k in pool["experiments"])
            + "; openskill Plackett–Luce, games interleaved across the runs):",
            "",
            "| level | games | μ | σ | μ − 3σ |",
            "|---|---|---|---|---|",
        ]
        for name, r in sorted(pool["ratings"].items(), key=lambda kv: -kv[1]["mu"]):
            lines.append(
                f"| {name} | {r['games']} | {r['mu']:.1f} | {r['sigma']:.2f} | {r['ordinal']:.1f} |"
            )
    runs = data.get("minimax") or {}
    if runs:
        lines += [
            "",
            "Against a minimax (`bench/minimax.py`, two players, seats alternating): alpha-beta "
            "to a depth of four decisions with our evaluation, given the true state (it sees "
            "the other hand and the bag order) or, as a control, its own view (one world dealt "
            "per decision); our bot sees its view, or, as the other control, the true state "
            "dealt as every world of its search:",
            "",
            "| our bot | our bot sees | minimax sees | games | our wins | win rate | 95 % CI "
            "| mean score (ours / minimax) | decision time, median (ours / minimax) |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in runs.values():
            lo, hi = r["ci95"]
            mine, theirs = r["mean_score"]
            t = r["decision_seconds"]
            lines.append(
                f"| {r['bot']} | {r.get('ours_sees', 'view')} | {r['minimax']['sees']} "
                f"| {r['games']} | {r['wins']:g} "
                f"| {100 * r['win_rate']:.1f} % | {100 * lo:.1f}–{100 * hi:.1f} % "
                f"| {mine:.1f} / {theirs:.1f} "
                f"| {t[r['bot']]['median']:.2f} s / {t['minimax']['median']:.2f} s |"
            )
    timed = [
        (key, s["decision_seconds"]["hard"])
        for key, s in exps.items()
        if "hard" in s.get("decision_seconds", {})
    ]
    if timed:
        lines += [
            "",
            "Decision time of `hard` at its default budget (two games in parallel on the two "
            "cores; the 0.9 s cap binds more often on a slower machine):",
            "",
            "| run | decisions | median | p99 | max |",
            "|---|---|---|---|---|",
        ]
        for key, t in timed:
            lines.append(
                f"| `{key}` | {t['decisions']} | {t['median']:.3f} s | {t['p99']:.3f} s "
                f"| {t['max']:.3f} s |"
            )
    notes = HERE / "strength_notes.md"
    if notes.exists():
        lines += ["", notes.read_text().rstrip()]
    lines += ["", "Commands:", "", "```"]
    for s in exps.values():
        lines.append(s["command"])
    for r in runs.values():
        lines.append(r["command"])
    lines += ["```", ""]
    (HERE / "strength.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
