"""The compiled core and the pure-Python engine give the same games, step by step.

The same seeded random games are played here (on the compiled core when it is built) and in a
child interpreter with ``TNE_PURE_PYTHON=1`` (the ``.py`` sources): at every step the legal
actions (as objects and as the notations a view lists), the action drawn, the events and the
position after it must be equal, on the public API and on the fast path (``sample_legal`` +
``apply_unchecked``), for every variant.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tigris_euphrates.engine as engine
import tigris_euphrates.engine.words as words
from tigris_euphrates.engine import (
    apply,
    apply_unchecked,
    legal_actions,
    legal_notations,
    new_game,
    sample_legal,
    to_mask,
    to_position,
    to_words,
)

#: One option set per game, round robin: every variant, 2–4 players, both boards.
OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "board": "advanced"},
    {"players": 4},
    {"players": 2, "english_variant": True, "open_scoring": True},
    {"players": 2, "wonder": True, "buildings": True},
    {"players": 3, "wonder": True},
    {"players": 2, "ruleset": "galaxy"},
    {"players": 4, "ruleset": "galaxy", "board": "advanced"},
]
GAMES = 16


def trace(game: int) -> list[Any]:
    """Every step of seeded game ``game``: public API steps, then the fast path's actions
    and final position."""
    options = OPTIONS[game % len(OPTIONS)]
    steps: list[Any] = []
    rng = random.Random(game)
    state = new_game(options, 1000 + game)
    while not state.over:
        legal = [str(a) for a in legal_actions(state)]
        notations = legal_notations(state)
        action = rng.choice(legal)
        state, events = apply(state, action)
        steps.append([legal, notations, action, [e.to_dict() for e in events], to_position(state)])
    rng = random.Random(game)
    state = new_game(options, 2000 + game)
    fast = []
    while not state.over:
        action = sample_legal(state, rng)
        fast.append(str(action))
        state = apply_unchecked(state, action)
    steps.append([fast, to_position(state)])
    return steps


def _pure_traces() -> list[Any]:
    """The traces of the pure-Python engine, from a child interpreter."""
    code = (
        "import json, sys\n"
        "import tigris_euphrates.engine as engine\n"
        "assert not engine.COMPILED\n"
        "from test_compiled import GAMES, trace\n"
        "json.dump([trace(g) for g in range(GAMES)], sys.stdout)\n"
    )
    env = {**os.environ, "TNE_PURE_PYTHON": "1"}
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    out: list[Any] = json.loads(done.stdout)
    return out


def test_the_compiled_core_plays_the_games_of_the_pure_engine() -> None:
    if not engine.COMPILED:
        pytest.skip("the compiled core is not built (pure-Python install): nothing to compare")
    pure = _pure_traces()
    for game in range(GAMES):
        # Through JSON like the child's, so tuples and lists compare alike.
        mine = json.loads(json.dumps(trace(game)))
        theirs = pure[game]
        assert len(mine) == len(theirs), f"game {game}: lengths differ"
        for step, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a == b, f"game {game} ({OPTIONS[game % len(OPTIONS)]}), step {step}"


def test_the_compiled_core_runs_where_it_was_built() -> None:
    """``make test`` sets TNE_EXPECT_COMPILED: there the build must have compiled the core
    (a silent fall-back to pure Python would make the test above skip)."""
    if not os.environ.get("TNE_EXPECT_COMPILED") or os.environ.get("TNE_PURE_PYTHON"):
        pytest.skip("TNE_EXPECT_COMPILED is not set")
    assert engine.COMPILED


def _source_words() -> ModuleType:
    """``words`` run from its source, beside whichever module the core loaded."""
    path = Path(engine.__file__).with_name("words.py")
    spec = importlib.util.spec_from_file_location("tigris_euphrates.engine._words_source", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bfs_region(occupied: int, seed: int) -> int:
    """The region of ``seed``'s occupied cells in ``occupied`` (176-bit ints), by a
    breadth-first search over rows and columns."""
    todo = [c for c in range(176) if (occupied & seed) >> c & 1]
    found = 0
    for c in todo:
        found |= 1 << c
    while todo:
        r, k = divmod(todo.pop(), 16)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            n = rr * 16 + kk
            if 0 <= rr < 11 and 0 <= kk < 16 and occupied >> n & 1 and not found >> n & 1:
                found |= 1 << n
                todo.append(n)
    return found


def test_the_words_are_the_same_on_both_cores() -> None:
    """Every set of cells is four 48-bit words (``words``), which the compiled core holds as
    native 64-bit integers (a shift carrying a bit past bit 63 would wrap there, and a shift
    of a constant could be compiled as a 32-bit one): every primitive of the loaded module
    gives what the source's gives, and the flood the region a breadth-first search finds,
    for every seed, on dense random boards (long floods reaching every row and both edge
    columns) and on the boards of a played game, on whichever core runs here."""
    assert words.__file__.endswith(".py") != engine.COMPILED, "the words run with the core"
    source = _source_words()
    full = to_mask(words.FULL)
    rng = random.Random(5)
    cases = []
    for _ in range(300):
        occupied = (rng.getrandbits(176) | rng.getrandbits(176)) & full
        cells = [c for c in range(176) if occupied >> c & 1]
        cases.append((occupied, 1 << rng.choice(cells)))
        cases.append((occupied, rng.getrandbits(176) & full))
    cases.append((full, 1))
    cases.append((full, 1 << 175))
    cases.append((0, 1 << 40))
    state = new_game({"players": 4}, 7)
    while not state.over:
        occupied = to_mask(state.occupied())
        for cell in words.cells_of(state.occupied())[::3]:
            cases.append((occupied, 1 << cell))
        state = apply_unchecked(state, sample_legal(state, rng))
    for cell in range(176):
        assert words.bit(cell) == source.bit(cell), cell
        for w in (words.EMPTY, words.FULL):
            for name in ("has", "with_cell", "without_cell", "window"):
                assert getattr(words, name)(w, cell) == getattr(source, name)(w, cell), name
    pairs = ("union", "inter", "minus", "xor", "meets", "within")
    ones = ("invert", "empty", "count", "low_cell", "lowest", "single", "cells_of", "dilate")
    for a, b in cases:
        wa, wb = to_words(a), to_words(b)
        for name in pairs:
            assert getattr(words, name)(wa, wb) == getattr(source, name)(wa, wb), name
        for name in (*ones, "halo"):
            assert getattr(words, name)(wa) == getattr(source, name)(wa), name
        cell = rng.randrange(176)
        assert words.window(wa, cell) == source.window(wa, cell)
        assert words.has(wa, cell) == source.has(wa, cell)
    for occupied, seed in cases:
        flooded = words.flood(to_words(occupied), to_words(seed))
        assert flooded == source.flood(to_words(occupied), to_words(seed))
        assert to_mask(flooded) == _bfs_region(occupied, seed)
