"""Tournaments between bots: seat-balanced games in parallel processes, with statistics.

``run_tournament`` is the engine behind ``tne tournament``: it plays every lineup (each
combination of ``players`` entries of the bot list) ``games`` times, rotating the lineup
through the seats so that every bot sits in every seat equally often, and returns a JSON-able
summary: win rates with 95 % Wilson intervals per lineup, mean final score (lowest colour,
treasures included) and rank, game lengths, decision times, and openskill (Plackett–Luce)
ratings over all games, rated in the order of the game index so results do not depend on
which process finished first.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from . import bot_class, make_bot
from .arena import play_game
from .base import Budget

FORMAT = "tne-tournament/1"


def parse_options(text: str | None, players: int) -> dict[str, Any]:
    """Game options from ``key=value,...`` (bare ``advanced``, ``english``, ``open`` allowed)."""
    opts: dict[str, Any] = {"players": players}
    if not text:
        return opts
    aliases = {
        "advanced": ("board", "advanced"),
        "standard": ("board", "standard"),
        "english": ("english_variant", True),
        "english_variant": ("english_variant", True),
        "open": ("open_scoring", True),
        "open_scoring": ("open_scoring", True),
        "hidden": ("open_scoring", False),
    }
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            key, value = (x.strip() for x in part.split("=", 1))
            parsed: Any = value
            if value.lower() in ("true", "yes", "1"):
                parsed = True
            elif value.lower() in ("false", "no", "0"):
                parsed = False
            opts[key] = parsed
        elif part in aliases:
            key, val = aliases[part]
            opts[key] = val
        else:
            raise ValueError(f"unknown option {part!r}: use key=value or advanced/english/open")
    return opts


def lineups(bots: Sequence[str], players: int, ladder: bool = False) -> list[tuple[str, ...]]:
    """The distinct lineups: combinations of ``players`` entries of ``bots`` (in list order).

    ``ladder``: only neighbours in the list meet (``players`` consecutive entries), which
    rates a list of levels, weakest first, at a fraction of the cost of every pairing.
    """
    if len(bots) < players:
        raise ValueError(
            f"{len(bots)} bot(s) for {players} seats: list one bot per seat "
            "(e.g. hard,greedy,greedy,greedy)"
        )
    if ladder:
        return list(
            dict.fromkeys(tuple(bots[i : i + players]) for i in range(len(bots) - players + 1))
        )
    seen: dict[tuple[str, ...], None] = {}
    for combo in itertools.combinations(range(len(bots)), players):
        seen.setdefault(tuple(bots[i] for i in combo), None)
    return list(seen)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (ties counted as half wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def deal(
    seed: int, index: int, game: int, lineup: Sequence[str]
) -> tuple[list[str], int, list[int]]:
    """Game ``index`` of a tournament with ``seed``, the ``game``-th of its lineup: the
    seats (the lineup turned by ``game``, so every bot sits in every seat in turn), the game
    seed and each seat's bot seed. Tools that replay a tournament's deals with another
    bot (``bench/oracle.py``) take them from here."""
    players = len(lineup)
    shift = game % players
    seats = list(lineup[shift:]) + list(lineup[:shift])
    game_seed = seed * 1_000_003 + index
    return seats, game_seed, [game_seed * 10 + s + 1 for s in range(players)]


def places(keys: Sequence[Any]) -> list[int]:
    """Each seat's place from the result's score keys: 1 + the seats strictly ahead, so a
    shared place is shared."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def _play_task(task: dict[str, Any]) -> dict[str, Any]:
    seats: list[str] = task["seats"]
    bots = [make_bot(name, task["bot_seeds"][i]) for i, name in enumerate(seats)]
    budgets = [task["budget"] if name not in ("random",) else None for name in seats]
    out = play_game(bots, task["options"], task["seed"], budgets, names=seats)
    keys = out.result["scores"]
    n = len(seats)
    ranks = places(keys)
    summary: dict[str, Any] = {
        "index": task["index"],
        "lineup": task["lineup"],
        "seats": seats,
        "seed": task["seed"],
        "scores": [k[0] for k in keys],
        "ranks": ranks,
        "plies": out.plies,
        "turns": out.turns,
        "end": out.result["end"],
        "times": out.times,
        "n": n,
    }
    if task.get("record"):
        summary["record"] = out.record()
    return summary


def run_tournament(
    bots: Sequence[str],
    players: int = 2,
    games: int = 20,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    budget: Budget | None = None,
    jobs: int | None = None,
    records: bool = False,
    progress: Callable[[int, int], None] | None = None,
    ladder: bool = False,
) -> dict[str, Any]:
    """Play the tournament and return its summary (see the module docstring).

    ``games`` is per lineup. ``budget`` (None: each level's default) applies to every bot.
    ``jobs`` processes (default: every core; 1 plays in this process). ``ladder``: only
    neighbours in ``bots`` meet (see ``lineups``).
    """
    for name in bots:
        bot_class(name)  # a level, or a level with settings: refused here if unknown
    opts = dict(options or {})
    opts["players"] = players
    tasks = []
    ups = lineups(bots, players, ladder)
    index = 0
    for li, lineup in enumerate(ups):
        for g in range(games):
            seats, game_seed, bot_seeds = deal(seed, index, g, lineup)
            tasks.append(
                {
                    "index": index,
                    "lineup": li,
                    "seats": seats,
                    "seed": game_seed,
                    "bot_seeds": bot_seeds,
                    "options": opts,
                    "budget": budget,
                    "record": records,
                }
            )
            index += 1
    total = len(tasks)
    done: list[dict[str, Any]] = []
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if jobs <= 1 or total <= 1:
        for t in tasks:
            done.append(_play_task(t))
            if progress:
                progress(len(done), total)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:
            for res in pool.map(_play_task, tasks, chunksize=1):
                done.append(res)
                if progress:
                    progress(len(done), total)
    done.sort(key=lambda r: r["index"])
    return summarize(bots, players, opts, seed, budget, ups, done)


def rate_results(names: Sequence[str], results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """openskill (Plackett–Luce) ratings from game results (``seats`` and ``ranks`` of each),
    updated game by game in the order given. A bot in several seats of one game is one
    player per seat; its rating is then the mean of the seats' updates."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for r in results:
        teams = [[ratings[name]] for name in r["seats"]]
        new = model.rate(teams, ranks=r["ranks"])
        by_name: dict[str, list[Any]] = {}
        for name, team in zip(r["seats"], new, strict=True):
            by_name.setdefault(name, []).append(team[0])
        for name, got in by_name.items():
            mu = statistics.fmean(x.mu for x in got)
            sigma = statistics.fmean(x.sigma for x in got)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {
        name: {
            "mu": ratings[name].mu,
            "sigma": ratings[name].sigma,
            "ordinal": ratings[name].mu - 3 * ratings[name].sigma,
        }
        for name in names
    }


def pooled_ratings(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Ratings over the games of several tournaments (their ``results``), so that levels
    that never met in one run are still placed on one scale. The games are interleaved
    (first game of each run, then the second, ...) so that no run's games all come last."""
    names: list[str] = []
    runs: list[list[dict[str, Any]]] = []
    for summary in summaries:
        names.extend(summary["bots"])
        runs.append(list(summary.get("results", [])))
    order: list[dict[str, Any]] = []
    for i in range(max((len(r) for r in runs), default=0)):
        order.extend(run[i] for run in runs if i < len(run))
    counts: dict[str, int] = {}
    for r in order:
        for name in set(r["seats"]):
            counts[name] = counts.get(name, 0) + 1
    out = rate_results(list(dict.fromkeys(names)), order)
    for name, row in out.items():
        row["games"] = counts.get(name, 0)
    return out


def summarize(
    bots: Sequence[str],
    players: int,
    options: dict[str, Any],
    seed: int,
    budget: Budget | None,
    ups: list[tuple[str, ...]],
    done: list[dict[str, Any]],
) -> dict[str, Any]:
    names = list(dict.fromkeys(bots))
    pairings = []
    for li, lineup in enumerate(ups):
        games = [r for r in done if r["lineup"] == li]
        entrants = list(dict.fromkeys(lineup))
        per_bot: dict[str, Any] = {}
        for name in entrants:
            wins = 0.0
            scores: list[int] = []
            ranks: list[int] = []
            seats_played = 0
            for r in games:
                for seat, who in enumerate(r["seats"]):
                    if who != name:
                        continue
                    seats_played += 1
                    scores.append(r["scores"][seat])
                    ranks.append(r["ranks"][seat])
                    if r["ranks"][seat] == 1:
                        wins += 1.0 / r["ranks"].count(1)
            copies = lineup.count(name)
            # Win rate of the bot (all its seats together) per game.
            n_games = len(games)
            lo, hi = wilson(wins, n_games)
            per_bot[name] = {
                "seats": copies,
                "wins": wins,
                "games": n_games,
                "win_rate": wins / n_games if n_games else 0.0,
                "ci95": [lo, hi],
                "mean_score": statistics.fmean(scores) if scores else 0.0,
                "mean_rank": statistics.fmean(ranks) if ranks else 0.0,
                "seat_games": seats_played,
            }
        plies = [r["plies"] for r in games]
        turns = [r["turns"] for r in games]
        pairings.append(
            {
                "lineup": list(lineup),
                "games": len(games),
                "bots": per_bot,
                "draws_for_first": sum(1 for r in games if r["ranks"].count(1) > 1),
                "length": {
                    "mean_plies": statistics.fmean(plies) if plies else 0.0,
                    "mean_turns": statistics.fmean(turns) if turns else 0.0,
                    "min_turns": min(turns, default=0),
                    "max_turns": max(turns, default=0),
                    "ended_by": {
                        end: sum(1 for r in games if r["end"] == end)
                        for end in ("treasures", "bag")
                    },
                },
            }
        )
    rated = rate_results(names, done)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in done:
        for seat, who in enumerate(r["seats"]):
            times[who].extend(r["times"][seat])
    return {
        "format": FORMAT,
        "bots": list(bots),
        "players": players,
        "options": options,
        "seed": seed,
        "budget": None
        if budget is None
        else {"seconds": budget.seconds, "iterations": budget.iterations},
        "games": len(done),
        "pairings": pairings,
        "ratings": rated,
        "decision_seconds": {
            name: {
                "decisions": len(ts),
                "median": statistics.median(ts) if ts else 0.0,
                "p99": _pct(ts, 0.99),
                "max": max(ts, default=0.0),
            }
            for name, ts in times.items()
        },
        "lengths": {
            "mean_plies": statistics.fmean(r["plies"] for r in done) if done else 0.0,
            "mean_turns": statistics.fmean(r["turns"] for r in done) if done else 0.0,
        },
        "results": [
            {k: r[k] for k in ("index", "seats", "seed", "scores", "ranks", "turns", "end")}
            for r in done
        ],
        "_records": [r["record"] for r in done if "record" in r],
    }


def write_outputs(
    summary: dict[str, Any],
    json_path: Path,
    plot_path: Path | None,
    records_dir: Path | None = None,
) -> None:
    """Write the JSON summary, the ratings plot and (on request) one record per game."""
    records = summary.pop("_records", [])
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
        for i, rec in enumerate(records):
            (records_dir / f"game-{i:05d}.json").write_text(json.dumps(rec) + "\n")
        summary["records_dir"] = str(records_dir)
    if plot_path is not None:
        plot_ratings(summary, plot_path)
        summary["plot"] = str(plot_path)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(summary, indent=2) + "\n")


def plot_ratings(summary: dict[str, Any], path: Path) -> None:
    """A PNG of each bot's openskill rating (mu) with a ±2σ bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = summary["ratings"]
    names = sorted(ratings, key=lambda n: ratings[n]["mu"])
    mus = [ratings[n]["mu"] for n in names]
    errs = [2 * ratings[n]["sigma"] for n in names]
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(names) + 1.6))
    ax.errorbar(mus, range(len(names)), xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("openskill rating μ (bars: ±2σ)")
    opts = summary["options"]
    ax.set_title(f"{summary['games']} games, {opts.get('players')} players")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
