"""A plot of a tournament's ratings (matplotlib, imported when a plot is asked for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
