"""The greedy player: one-step look-ahead with the static evaluation (``rank``).

For every legal action it plays the action on a state built from its view, lets the decisions
inside that action (support, war order, monument, treasure) run with the fixed policies of
``evaluate.settle``, and scores the result with ``evaluate.value_for``. When the outcome
depends on hidden tiles (a conflict: the opponent's support) it averages over several
determinizations, so it attacks in conflicts it can expect to win. ``easy`` is the same
look-ahead choosing among the good actions at random (softmax).
"""

from __future__ import annotations

import math

from .base import Budget, View, ViewBot, legal_of, parse
from .levels import GreedyConfig
from .rank import rank_actions


class GreedyBot(ViewBot):
    """One-step look-ahead with the static evaluation (see the module docstring); its
    ``config`` says over how many deals it averages and how much it randomizes."""

    def __init__(self, seed: int = 0, config: GreedyConfig | None = None, name: str = "") -> None:
        self.config = config or GreedyConfig()
        super().__init__(seed, name or "greedy")

    def __repr__(self) -> str:
        """The call that makes this bot afresh (its RNG at the start, nothing heard yet)."""
        return f"GreedyBot({self.seed}, {self.config!r}, name={self.name!r})"

    def choose(self, view: View, budget: Budget | None = None) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        cfg = self.config
        det = self.determinizer(view)
        worlds = [det.sample(self.rng) for _ in range(cfg.worlds)]
        actions = [parse(t) for t in legal]
        ranked = rank_actions(worlds[0], det.seat, actions, worlds, cfg.weights)
        if cfg.temperature <= 0:
            return str(ranked[0][1])
        best = ranked[0][0]
        weights = [math.exp((v - best) / cfg.temperature) for v, _ in ranked]
        pick = self.rng.random() * sum(weights)
        for w, (_, a) in zip(weights, ranked, strict=True):
            pick -= w
            if pick <= 0:
                return str(a)
        return str(ranked[-1][1])
