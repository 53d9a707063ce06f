"""openskill (Plackett–Luce) ratings of bots from game results: one tournament's, or
several pooled on one scale. openskill is imported when ratings are asked for, so the
referee and the statistics work without it."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


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
