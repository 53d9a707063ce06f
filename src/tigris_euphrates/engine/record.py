"""Game records (``tne-record/1`` of FORMATS.md) and replay.

A record is options + seed (or an explicit ``start`` position) + every decision in notation.
Replaying folds ``apply`` over the actions, so it reproduces the game bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import Action
from .errors import InvalidAction
from .events import Event
from .load import from_position
from .play import apply
from .position import to_position
from .scoring import result
from .state import RULES_VERSION, Options, State, new_game

FORMAT = "tne-record/1"


def start_of(record: dict[str, Any]) -> State:
    """The state a record starts from."""
    if not isinstance(record, dict):
        raise InvalidAction("bad-record", "a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise InvalidAction("bad-record", f"unknown record format {record.get('format')!r}")
    if "start" in record:
        return from_position(record["start"])
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidAction("bad-record", "a record needs an integer seed or a start position")
    return new_game(record.get("options", {}), seed)


def replay_steps(record: dict[str, Any]) -> Iterator[tuple[State, str, State, list[Event]]]:
    """Each step of a record: (state before, action, state after, events)."""
    state = start_of(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidAction("bad-record", "actions must be a list of strings")
    for ply, text in enumerate(actions):
        try:
            after, events = apply(state, text)
        except ValueError as e:
            code = getattr(e, "code", "bad-record")
            raise type(e)(code, f"action {ply + 1} ({text!r}): {e}") from e
        yield state, text, after, events
        state = after


def replay(record: dict[str, Any], ply: int | None = None) -> State:
    """The state after the record's actions (or after its first ``ply`` actions)."""
    state = start_of(record)
    if ply == 0:
        return state
    for i, (_, _, after, _) in enumerate(replay_steps(record), start=1):
        state = after
        if ply is not None and i >= ply:
            break
    return state


def make_record(
    options: dict[str, Any] | Options,
    actions: list[Action] | list[str],
    *,
    seed: int | None = None,
    start: State | None = None,
    final: State | None = None,
) -> dict[str, Any]:
    """A record of a game; ``result`` is written when ``final`` is a finished state."""
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    rec: dict[str, Any] = {"format": FORMAT, "rules": RULES_VERSION, "options": opts.to_dict()}
    if start is not None:
        rec["start"] = to_position(start)
    elif seed is not None:
        rec["seed"] = seed
    else:
        raise ValueError("a record needs a seed or a start position")
    rec["actions"] = [str(a) for a in actions]
    if final is not None and final.over:
        rec["result"] = result(final)
    return rec
