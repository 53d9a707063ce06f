"""AI players. They receive a seat's view, never the state (see ``base.Bot``).

Levels, weakest first: ``random``, ``easy`` (greedy look-ahead with softmax noise),
``greedy`` (one-step look-ahead), ``medium`` and ``hard`` (information-set MCTS over
determinizations: 100 iterations with narrower samples, and 800; both capped at 0.9 s a
decision), ``expert`` (1500 iterations, capped at 2.5 s). With three or four players hard
and expert get twice the iterations (same caps). See docs/ai.md.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Budget, RandomBot
from .greedy import EasyBot, GreedyBot
from .search import ExpertBot, HardBot, MediumBot, SearchBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "greedy": GreedyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by level name (``random``, ``easy``, ``greedy``, ``medium``, ``hard``) with its
    own seeded RNG."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}") from None


__all__ = [
    "BOTS",
    "Bot",
    "Budget",
    "EasyBot",
    "ExpertBot",
    "GreedyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
]
