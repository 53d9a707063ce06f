"""AI players. They receive a seat's view, never the state (see ``base.Bot``).

Levels, weakest first: ``random``, ``easy`` (greedy look-ahead with softmax noise),
``greedy`` (one-step look-ahead), ``medium`` and ``hard`` (information-set MCTS over
determinizations: 100 iterations with narrower samples, and 800; both capped at 0.9 s a
decision), ``expert`` (1500 iterations, capped at 2.5 s). With three or four players hard
and expert get twice the iterations (same caps). See docs/ai.md.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from typing import Any

from .base import Bot, Budget, RandomBot
from .evaluate import Weights
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


def _setting(text: str) -> Any:
    """A setting's value: JSON (``0.15``, ``true``, ``null``, ``[12, 6]``), else the text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return tuple(value) if isinstance(value, list) else value


def _kinds(hint: Any) -> tuple[type, ...]:
    """The plain types a setting's annotation (or its default's type) admits: ``float |
    None`` gives ``(float, NoneType)``, ``tuple[int, int]`` gives ``(tuple,)``."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(k for arg in typing.get_args(hint) for k in _kinds(arg))
    origin = typing.get_origin(hint)
    if origin is not None:
        return (origin,)
    return (hint,) if isinstance(hint, type) else ()


def _fits(value: Any, kinds: tuple[type, ...]) -> bool:
    """Whether a setting's JSON value has one of ``kinds`` (a whole number is a float, but a
    boolean is not a number)."""
    if not kinds:
        return True
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    return isinstance(value, kinds)


def _kind_names(kinds: tuple[type, ...]) -> str:
    """What ``kinds`` are called on the command line, for the error that refuses a value."""
    names = {bool: "true or false", int: "a whole number", float: "a number"}
    names.update({type(None): "null", tuple: "a list", str: "text"})
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def split_specs(text: str) -> list[str]:
    """A comma-separated list of bot specs, commas inside brackets kept: ``hard:
    hand_weights=[0.5,1.3,1.1,1.1],greedy`` is two specs."""
    specs: list[str] = []
    depth = 0
    part = ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth <= 0:
            specs.append(part)
            part = ""
        else:
            part += ch
    specs.append(part)
    return [s.strip() for s in specs if s.strip()]


def bot_class(spec: str) -> Callable[[int], Bot]:
    """The bot class of ``spec``: a level name, optionally with settings that change it,
    ``level:key=value:key=value`` (e.g. ``hard:infer_hands=true:hand_support=0.15``).

    A key is a class attribute of the level (``iterations``, ``root_k``, ``infer_hands``,
    ``multi_exploration``, …) or a field of its evaluation ``Weights`` (``hand_support``,
    ``war_potential``, …); values are JSON. This is how an experiment names a variant on the
    command line, so ``tne tournament`` can measure it and its summary says what was played.
    """
    level, *parts = spec.split(":")
    try:
        cls = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot {level!r}: choose from {', '.join(BOTS)}") from None
    if not parts:
        return cls
    attrs: dict[str, Any] = {}
    weights: dict[str, Any] = {}
    fields = typing.get_type_hints(Weights)
    hints = typing.get_type_hints(cls)
    base_weights = getattr(cls, "weights", None)
    for part in parts:
        key, eq, text = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad setting {part!r} in {spec!r}: use key=value")
        value = _setting(text)
        if isinstance(base_weights, Weights) and key in fields:
            kinds, into = _kinds(fields[key]), weights
        elif key.isidentifier() and not key.startswith("_") and hasattr(cls, key):
            current = getattr(cls, key)
            if callable(current):
                raise ValueError(f"{key!r} of {level} is a method, not a setting")
            kinds, into = _kinds(hints.get(key, type(current))), attrs
        else:
            raise ValueError(f"{level} has no setting {key!r}")
        if not _fits(value, kinds):
            raise ValueError(
                f"setting {key!r} of {level} takes {_kind_names(kinds)}, not {text.strip()!r}"
            )
        into[key] = value
    if weights:
        assert isinstance(base_weights, Weights)
        attrs["weights"] = dataclasses.replace(base_weights, **weights)
    attrs["name"] = spec
    variant: Callable[[int], Bot] = type(f"{cls.__name__}Variant", (cls,), attrs)
    return variant


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by level name (``random``, ``easy``, ``greedy``, ``medium``, ``hard``,
    ``expert``), or a level with settings (``bot_class``), with its own seeded RNG."""
    return bot_class(name)(seed)


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
    "bot_class",
    "make_bot",
    "split_specs",
]
