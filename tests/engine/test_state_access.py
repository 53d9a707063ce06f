"""The ``State`` accessors read and write the flattened per-seat lists, and the engine
package exports everything other packages import."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import tigris_euphrates.engine as engine
from tigris_euphrates.engine import State, apply, legal_actions, new_game


def _played(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    s = new_game({"players": 3}, seed=seed)
    for _ in range(plies):
        if s.over:
            break
        s, _ = apply(s, rng.choice(legal_actions(s)))
    return s


def test_readers_match_the_flat_lists() -> None:
    s = _played(5, 60)
    for seat in range(s.players):
        assert s.hand(seat) == tuple(s.hands[seat * 4 : seat * 4 + 4])
        assert s.score(seat) == tuple(s.scores[seat * 5 : seat * 5 + 5])
        assert s.leaders_of(seat) == tuple(s.leaders[seat * 4 : seat * 4 + 4])
        assert s.swapped_of(seat) == tuple(s.swapped[seat * 4 : seat * 4 + 4])
        for colour in range(4):
            assert s.hand_count(seat, colour) == s.hands[seat * 4 + colour]
            assert s.leader(seat, colour) == s.leaders[seat * 4 + colour]


def test_writers_touch_one_seat_only() -> None:
    s = new_game({"players": 3}, seed=2)
    before = s.copy()
    w = s.copy()
    w.clear_hand(1)
    assert w.hand(1) == (0, 0, 0, 0)
    w.add_to_hand(1, 2)
    w.add_to_hand(1, 0, 3)
    w.add_swapped(1, 3, 2)
    assert w.hand(1) == (3, 0, 1, 0)
    assert w.swapped_of(1) == (0, 0, 0, 2)
    for seat in (0, 2):
        assert w.hand(seat) == s.hand(seat)
        assert w.swapped_of(seat) == (0, 0, 0, 0)
    assert s == before


def test_the_package_exports_what_it_lists() -> None:
    for name in engine.__all__:
        assert hasattr(engine, name), name
    assert engine.ALL_CELLS == (1 << engine.NCELLS) - 1


def test_other_packages_use_only_what_the_engine_lists() -> None:
    """Outside ``engine/`` (the other packages and the benchmarks), every name taken from the
    engine is in its ``__all__`` and no engine module is imported by itself: the engine's
    modules can change shape behind that surface."""
    root = Path(engine.__file__).resolve().parents[3]
    files = [
        f
        for f in [
            *(root / "src" / "tigris_euphrates").rglob("*.py"),
            *(root / "bench").glob("*.py"),
        ]
        if "engine" not in f.relative_to(root).parts
    ]
    listed = set(engine.__all__)
    stray = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                module = node.module.removeprefix("tigris_euphrates.")
                if module.startswith("engine."):
                    stray.append(f"{path.name}: from {node.module} import …")
                elif module == "engine":
                    stray += [
                        f"{path.name}: {alias.name}"
                        for alias in node.names
                        if alias.name not in listed and alias.name != "*"
                    ]
            elif isinstance(node, ast.Import):
                stray += [
                    f"{path.name}: import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("tigris_euphrates.engine.")
                ]
    assert files and not stray, stray
