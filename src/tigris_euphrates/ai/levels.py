"""The bot levels as data: one frozen configuration per level (and, for the search, per
player count), read in one place (``LEVELS``) by ``make_bot``, the server and the docs.

The figures are those the strength table of the README was measured with (docs/ai.md says
how, and what was tried and dropped). With three or four players the leads the search
compares are several times smaller (a move changes one's own value, rarely the best of three
opponents'), so there it explores less, values a turn's first action half by its best second
one (mixmax), ranks with the focused triage, lets a swap that ends the game stand for every
swap of its size, plays other seats' support by the fixed policy, searches only the support
commitments that can be worth their tiles, and may run more iterations under the same time
cap.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass, replace
from typing import Any

from .evaluate import BASIC, FULL, Weights


@dataclass(frozen=True)
class RandomConfig:
    """Uniformly random among the legal actions."""


@dataclass(frozen=True)
class GreedyConfig:
    """The one-step look-ahead: over how many deals of the hidden tiles an action whose
    outcome depends on them (a conflict) is averaged, and the softmax temperature of the
    choice (0: always the best)."""

    worlds: int = 8
    temperature: float = 0.0
    weights: Weights = BASIC


@dataclass(frozen=True)
class SearchConfig:
    """The information-set search of one level at one player count (see ``search``).

    ``iterations`` and ``seconds`` are its default budget (a decision stops at whichever
    comes first); ``root_k`` candidates are kept at the root, ranked over ``root_worlds``
    deals; deeper nodes keep ``node_k``, ranked on a sample of ``node_sample`` actions at
    other seats' nodes and ``own_sample`` at its own (at most ``quiet_sample`` of them
    quiet). ``exploration`` is UCB1's constant in points of lead; ``mixmax`` how far a turn's
    first action is valued by its best second one. ``focused_triage`` picks the focused
    triage over the broad one; ``ending_swaps`` lets one swap that ends the game stand for
    every swap of its size; ``auto_support`` plays other seats' support by the fixed policy
    instead of searching it; ``prune_commits`` searches only the commitments that no other
    beats in every case."""

    iterations: int
    seconds: float | None = 0.9
    root_k: int = 10
    root_worlds: int = 6
    node_k: int = 5
    node_sample: int = 40
    own_sample: int = 90
    quiet_sample: int = 8
    exploration: float = 0.6
    mixmax: float = 0.0
    focused_triage: bool = False
    ending_swaps: bool = False
    auto_support: bool = False
    prune_commits: bool = False
    weights: Weights = FULL

    def for_more_players(self, iterations: int | None = None) -> SearchConfig:
        """The same level with three or four players (see the module docstring)."""
        return replace(
            self,
            iterations=iterations or self.iterations,
            exploration=0.3,
            mixmax=0.5,
            focused_triage=True,
            ending_swaps=True,
            auto_support=True,
            prune_commits=True,
        )


@dataclass(frozen=True)
class SearchLevel:
    """A search level: its configuration with two players and with three or four."""

    two: SearchConfig
    more: SearchConfig

    def config(self, players: int) -> SearchConfig:
        return self.two if players <= 2 else self.more


@dataclass(frozen=True)
class PolicyConfig:
    """A trained policy that ships with the package (``ppo``: masked PPO, docs/rl.md),
    played by ``rl.policy.PolicyBot``; it needs numpy (the ``rl`` extra). Not a level of the
    server's: a research baseline for the command line and the tournaments."""

    name: str


LevelConfig = RandomConfig | GreedyConfig | SearchLevel | PolicyConfig

_MEDIUM = SearchConfig(iterations=100, root_k=6, node_sample=20, own_sample=40)
_HARD = SearchConfig(iterations=800)
_EXPERT = SearchConfig(iterations=1500, seconds=2.5)

#: Every level, weakest first.
LEVELS: dict[str, LevelConfig] = {
    "random": RandomConfig(),
    "easy": GreedyConfig(worlds=3, temperature=1.0),
    "greedy": GreedyConfig(),
    "medium": SearchLevel(_MEDIUM, _MEDIUM.for_more_players()),
    "hard": SearchLevel(_HARD, _HARD.for_more_players(iterations=1600)),
    "expert": SearchLevel(_EXPERT, _EXPERT.for_more_players(iterations=3000)),
}

#: The level a bot seat gets when none is named (the lobby's, the API's and a hand-over's).
DEFAULT_LEVEL = "hard"
#: The level that takes the seat of a player whose clock ran out, unless the game names one.
TIMEOUT_LEVEL = "easy"

#: The trained policies ``make_bot`` plays besides the levels.
POLICIES = ("ppo",)

#: What a bot spec may change on the command line (``hard:iterations=400:seconds=none``).
SETTINGS = ("iterations", "seconds")


def level_config(spec: str) -> LevelConfig:
    """The configuration a bot spec names: a level, optionally with its budget changed for
    every player count, ``level:iterations=N`` and/or ``level:seconds=S`` (``none``: no
    time cap). A spec that fixes the work (``iterations=``) has no time cap unless it says
    ``seconds=`` too, so that it makes the same decisions on any machine, however busy; a
    plain level keeps its cap. Only the search levels take settings; anything else is
    refused, naming what is accepted."""
    level, *parts = spec.split(":")
    if level in POLICIES and not parts:
        return _policy(level)
    try:
        config = LEVELS[level]
    except KeyError:
        known = ", ".join((*LEVELS, *POLICIES))
        raise ValueError(f"unknown bot {level!r}: choose from {known}") from None
    if not parts:
        return config
    if not isinstance(config, SearchLevel):
        raise ValueError(f"{level} takes no settings (only the search levels take {_named()})")
    changes: dict[str, Any] = {}
    for part in parts:
        key, eq, text = (x.strip() for x in part.partition("="))
        if not eq or key not in SETTINGS:
            raise ValueError(f"bad setting {part!r} in {spec!r}: use {_named()}")
        changes[key] = _value(key, text)
    if "iterations" in changes:
        changes.setdefault("seconds", None)  # fixed work: no wall clock unless asked for
    return SearchLevel(replace(config.two, **changes), replace(config.more, **changes))


def _policy(name: str) -> PolicyConfig:
    """A shipped policy's configuration, refused with the way to install its dependency."""
    if importlib.util.find_spec("numpy") is None:
        raise ValueError(
            f"the {name} bot needs numpy: pip install 'tigris-euphrates[rl]' (from a clone: "
            "pip install -e '.[rl]')"
        )
    return PolicyConfig(name)


def _named() -> str:
    return " or ".join(f"{key}=…" for key in SETTINGS)


def _value(key: str, text: str) -> int | float | None:
    """A setting's value: ``iterations`` a whole number ≥ 1, ``seconds`` a positive number
    or ``none``."""
    try:
        value = json.loads(text.lower().replace("none", "null"))
    except ValueError:
        value = text
    if key == "iterations":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        raise ValueError(f"setting 'iterations' takes a whole number of at least 1, not {text!r}")
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    raise ValueError(f"setting 'seconds' takes a positive number or none, not {text!r}")
