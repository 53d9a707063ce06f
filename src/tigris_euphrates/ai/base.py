"""The Bot protocol: a player that sees only a seat's view.

A bot gets ``player_view(state, seat)`` (a plain dict, never the state), whose
``legal_actions`` lists the notation of every action it may take, and a ``Budget``; it
returns one of those actions in notation. Bots may also ``observe`` the events redacted for
their seat (what a player at the table hears), e.g. to remember other players' points under
hidden scoring.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Budget:
    """How much a bot may think: wall-clock seconds and/or search iterations (None: default)."""

    seconds: float | None = None
    iterations: int | None = None


class Bot(Protocol):
    """A player. ``choose`` must return one of ``view["legal_actions"]``."""

    name: str

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str: ...

    def observe(self, events: list[dict[str, Any]]) -> None: ...


class RandomBot:
    """Uniformly random among the legal actions (seeded, reproducible)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("the view offers no legal action: it is not this seat's decision")
        return str(self.rng.choice(legal))

    def observe(self, events: list[dict[str, Any]]) -> None:
        return None
