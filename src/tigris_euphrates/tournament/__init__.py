"""Bots against bots: the referee loop, seat-balanced tournaments in parallel processes,
their statistics, openskill ratings and plots.

Everything here works on the bots' public protocol (``ai.Bot``); openskill and matplotlib
are imported only when ratings or a plot are asked for.
"""

from __future__ import annotations

from .plots import plot_ratings
from .ratings import pooled_ratings, rate_results
from .referee import GameOutcome, Omniscient, play_game
from .run import deal, lineups, parse_options, run_tournament, write_outputs
from .stats import FORMAT, percentile, places, summarize, wilson

__all__ = [
    "FORMAT",
    "GameOutcome",
    "Omniscient",
    "deal",
    "lineups",
    "parse_options",
    "percentile",
    "places",
    "play_game",
    "plot_ratings",
    "pooled_ratings",
    "rate_results",
    "run_tournament",
    "summarize",
    "wilson",
    "write_outputs",
]
