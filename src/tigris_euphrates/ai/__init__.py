"""AI players. They receive a seat's view, never the state (see ``base.Bot``).

Levels, weakest first, with their settings: ``levels.LEVELS`` (``random``; ``easy`` and
``greedy``, one-step look-ahead, ``easy`` with softmax noise; ``medium``, ``hard`` and
``expert``, information-set MCTS over determinizations). See docs/ai.md.

The modules may run compiled (mypyc, built with the engine from this same source by
``setup.py``) or as plain Python, with the same decisions; ``COMPILED`` says which. They run
compiled only on the compiled engine, and ``TNE_PURE_PYTHON=1`` asks for the source
(``_core``).
"""

from __future__ import annotations

import sys

from . import _core  # first: it chooses between the compiled modules and the source
from .base import Bot, Budget, RandomBot, ViewBot
from .greedy import GreedyBot
from .levels import (
    DEFAULT_LEVEL,
    LEVELS,
    TIMEOUT_LEVEL,
    GreedyConfig,
    PolicyConfig,
    RandomConfig,
    SearchConfig,
    SearchLevel,
    level_config,
)
from .search import SearchBot

#: Whether this process runs the compiled bots rather than their pure-Python source.
COMPILED: bool = _core.WANT_COMPILED and not str(
    sys.modules[__name__ + ".evaluate"].__file__
).endswith(".py")

#: The level names, weakest first.
BOTS: tuple[str, ...] = tuple(LEVELS)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot by level name (``random``, ``easy``, ``greedy``, ``medium``, ``hard``,
    ``expert``), or a search level with its budget changed (``hard:iterations=400``,
    ``expert:seconds=none``; see ``levels.level_config``), with its own seeded RNG; or
    ``ppo``, the trained policy of docs/rl.md (it needs numpy, the ``rl`` extra)."""
    config = level_config(spec)
    if isinstance(config, PolicyConfig):
        from ..rl.policy import PolicyBot  # numpy: imported only when asked for

        return PolicyBot(seed, name=spec)
    if isinstance(config, SearchLevel):
        return SearchBot(seed, config, name=spec)
    if isinstance(config, GreedyConfig):
        return GreedyBot(seed, config, name=spec)
    assert isinstance(config, RandomConfig)
    return RandomBot(seed, name=spec)


def split_specs(text: str) -> list[str]:
    """A comma-separated list of bot specs: ``hard:iterations=400,greedy`` is two."""
    return [s.strip() for s in text.split(",") if s.strip()]


__all__ = [
    "BOTS",
    "COMPILED",
    "DEFAULT_LEVEL",
    "LEVELS",
    "TIMEOUT_LEVEL",
    "Bot",
    "Budget",
    "GreedyBot",
    "GreedyConfig",
    "PolicyConfig",
    "RandomBot",
    "RandomConfig",
    "SearchBot",
    "SearchConfig",
    "SearchLevel",
    "ViewBot",
    "level_config",
    "make_bot",
    "split_specs",
]
