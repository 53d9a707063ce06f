"""What a tournament's games say: win rates with Wilson intervals, places, scores, game
lengths and decision times per bot, and ratings (``ratings``)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from ..ai import Budget
from .ratings import rate_results

FORMAT = "tne-tournament/1"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (ties counted as half wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def places(keys: Sequence[Any]) -> list[int]:
    """Each seat's place from the result's score keys: 1 + the seats strictly ahead, so a
    shared place is shared."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarize(
    bots: Sequence[str],
    players: int,
    options: dict[str, Any],
    seed: int,
    budget: Budget | None,
    ups: list[tuple[str, ...]],
    done: list[dict[str, Any]],
) -> dict[str, Any]:
    """The summary of a tournament (``tne-tournament/1``): per lineup of ``ups`` what its
    games (of ``done``, in order) say, the ratings, the decision times, the results and the
    faults."""
    names = list(dict.fromkeys(bots))
    pairings = [
        _pairing(lineup, [r for r in done if r["lineup"] == li]) for li, lineup in enumerate(ups)
    ]
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
        "ratings": rate_results(names, done),
        "decision_seconds": _decision_seconds(names, done),
        "lengths": {
            "mean_plies": statistics.fmean(r["plies"] for r in done) if done else 0.0,
            "mean_turns": statistics.fmean(r["turns"] for r in done) if done else 0.0,
        },
        "results": [
            {k: r[k] for k in ("index", "seats", "seed", "scores", "ranks", "turns", "end")}
            for r in done
        ],
        "faults": [
            {"index": r["index"], "bot": r["seats"][f["seat"]], **f}
            for r in done
            for f in r.get("faults", [])
        ],
        "_records": [r["record"] for r in done if "record" in r],
    }


def _pairing(lineup: tuple[str, ...], games: list[dict[str, Any]]) -> dict[str, Any]:
    """What the games of one lineup say: each of its bots' figures, shared first places,
    game lengths and how the games ended."""
    plies = [r["plies"] for r in games]
    turns = [r["turns"] for r in games]
    return {
        "lineup": list(lineup),
        "games": len(games),
        "bots": {name: _bot_figures(name, lineup, games) for name in dict.fromkeys(lineup)},
        "draws_for_first": sum(1 for r in games if r["ranks"].count(1) > 1),
        "length": {
            "mean_plies": statistics.fmean(plies) if plies else 0.0,
            "mean_turns": statistics.fmean(turns) if turns else 0.0,
            "min_turns": min(turns, default=0),
            "max_turns": max(turns, default=0),
            "ended_by": {
                end: sum(1 for r in games if r["end"] == end)
                for end in ("treasures", "bag", "forfeit")
            },
        },
    }


def _bot_figures(name: str, lineup: tuple[str, ...], games: list[dict[str, Any]]) -> dict[str, Any]:
    """One bot's figures over the games of a lineup (all its seats together): wins (a shared
    first place split), the win rate per game with its interval, mean score and place."""
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
    n_games = len(games)
    lo, hi = wilson(wins, n_games)
    return {
        "seats": lineup.count(name),
        "wins": wins,
        "games": n_games,
        "win_rate": wins / n_games if n_games else 0.0,
        "ci95": [lo, hi],
        "mean_score": statistics.fmean(scores) if scores else 0.0,
        "mean_rank": statistics.fmean(ranks) if ranks else 0.0,
        "seat_games": seats_played,
    }


def _decision_seconds(names: list[str], done: list[dict[str, Any]]) -> dict[str, Any]:
    """Each bot's decisions and their times (median, 99th percentile, longest), over every
    game."""
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in done:
        for seat, who in enumerate(r["seats"]):
            times[who].extend(r["times"][seat])
    return {
        name: {
            "decisions": len(ts),
            "median": statistics.median(ts) if ts else 0.0,
            "p99": percentile(ts, 0.99),
            "max": max(ts, default=0.0),
        }
        for name, ts in times.items()
    }
