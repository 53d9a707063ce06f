"""AI players. They receive a seat's view, never the state (see ``base.Bot``)."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Budget, RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by level name (``random``, ...) with its own seeded RNG."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Bot", "Budget", "RandomBot", "make_bot"]
