"""The bot protocol, and the plumbing every bot that reads a view shares.

A bot gets ``player_view(state, seat)`` (a plain dict, never the state), whose
``legal_actions`` lists the notation of every action it may take, and a ``Budget``; it
returns one of those actions in notation. A bot also ``observe``\\ s the events redacted for
its seat (what a player at the table hears): under hidden scoring that is how it knows the
other players' points. One bot object plays one seat for a whole game, so that a search may
keep what it learnt from one decision to the next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from .. import Action, parse_action
from .determinize import Determinizer, ScoreTally

View = dict[str, Any]
"""A seat's view as ``player_view`` builds it (see docs/formats.md)."""

Event = dict[str, Any]
"""An event as ``redact_event`` gives it to one seat."""


@dataclass(frozen=True)
class Budget:
    """How much a bot may think: wall-clock seconds and/or search iterations (None: the
    level's own figure for that one, see ``Bot.default_budget``)."""

    seconds: float | None = None
    iterations: int | None = None


class Bot(Protocol):
    """A player. ``choose`` must return one of ``view["legal_actions"]``."""

    name: str

    def choose(self, view: View, budget: Budget | None = None) -> str: ...

    def observe(self, events: list[Event]) -> None: ...

    def default_budget(self, players: int) -> Budget: ...


_PARSED: dict[str, Action] = {}


def parse(text: str) -> Action:
    """The action of a notation string, memoised (a view lists hundreds of them)."""
    a = _PARSED.get(text)
    if a is None:
        a = _PARSED[text] = parse_action(text)
    return a


def legal_of(view: View) -> list[str]:
    """The view's legal actions; a view without any is not this seat's decision."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the view offers no legal action: it is not this seat's decision")
    return list(legal)


class RandomBot:
    """Uniformly random among the legal actions (seeded, reproducible)."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        """The call that makes this bot afresh (its RNG at the start)."""
        return f"{type(self).__name__}({self.seed}, name={self.name!r})"

    def choose(self, view: View, budget: Budget | None = None) -> str:
        return str(self.rng.choice(legal_of(view)))

    def observe(self, events: list[Event]) -> None:
        return None

    def default_budget(self, players: int) -> Budget:
        return Budget()


class ViewBot:
    """What every bot that reasons about hidden tiles shares: a seeded RNG, the tally of
    the public scores it heard, and determinizers built from its views."""

    def __init__(self, seed: int = 0, name: str = "view") -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)
        self.tally = ScoreTally()
        self._last_ply = -1

    def observe(self, events: list[Event]) -> None:
        self.tally.observe(events)

    def default_budget(self, players: int) -> Budget:
        return Budget()

    def determinizer(self, view: View) -> Determinizer:
        """The deals of the tiles this seat cannot see, consistent with ``view`` and the
        scores it heard (a view with a lower ply than the last one starts a new game)."""
        ply = view.get("ply", 0)
        if ply < self._last_ply:
            self.tally.reset()
        self._last_ply = ply
        return Determinizer(view, self.tally.scores(view))
