"""The ``State`` accessors read and write the flattened per-seat lists, the engine package
exports what it lists, and everything outside the engine takes engine names from the package
root (the engine's one public face), never from the engine's modules."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import tigris_euphrates
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
    assert engine.to_mask(engine.ALL_CELLS) == (1 << engine.NCELLS) - 1


ROOT = Path(engine.__file__).resolve().parents[3]
PACKAGE = ROOT / "src" / "tigris_euphrates"


def _subpackages() -> set[str]:
    """The package root's modules and subpackages other than the engine (``from .. import
    catalogues`` takes a module, not an engine name)."""
    names = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()
    }
    return names - {"engine", "__init__"}


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an ``import from`` in ``path`` (a file under src/, relative to src/) names,
    relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    parts = list(path.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()  # a package's own module: its level 1 is itself
    else:
        parts.pop()  # a module: its level 1 is its package
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def engine_face_problems(source: str, path: Path) -> list[str]:
    """What in ``source`` (the file at ``path``, relative to the repository's root) goes
    around the package root to reach the engine: an import of the engine or one of its
    modules, or a name taken from the root that its ``__all__`` does not list (nor is one of
    its other modules)."""
    listed = set(tigris_euphrates.__all__)
    modules = _subpackages()
    problems = []
    for node in ast.walk(ast.parse(source)):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            problems += [
                f"{where}: import {alias.name}"
                for alias in node.names
                if alias.name == "tigris_euphrates.engine"
                or alias.name.startswith("tigris_euphrates.engine.")
            ]
        elif isinstance(node, ast.ImportFrom):
            in_src = path.parts[0] == "src"
            module = _absolute(path.relative_to("src"), node) if in_src else node.module
            if module == "tigris_euphrates.engine" or (module or "").startswith(
                "tigris_euphrates.engine."
            ):
                problems.append(f"{where}: from {module} import ...")
            elif module == "tigris_euphrates":
                problems += [
                    f"{where}: from tigris_euphrates import {alias.name}"
                    for alias in node.names
                    if alias.name == "engine" or alias.name not in listed | modules
                ]
    return problems


@pytest.mark.parametrize(
    "folders",
    [
        pytest.param(("src/tigris_euphrates",), id="package"),
        pytest.param(("bench", "support"), id="bench+support"),
        pytest.param(
            ("src/tigris_euphrates/server", "src/tigris_euphrates/store"), id="server+store"
        ),
    ],
)
def test_other_packages_use_the_package_root_only(folders: tuple[str, ...]) -> None:
    """Outside ``engine/`` (the other packages, the benchmarks and their helpers), engine names
    come from the package root, the engine's one public face, and only names its ``__all__``
    lists: no engine module is imported by itself, so the engine's modules can change shape
    behind that face. The server and the store are their own case; the root's ``__init__.py``
    is that face."""
    apart = {"engine", "server", "store"} if folders == ("src/tigris_euphrates",) else {"engine"}
    files = [
        f
        for folder in folders
        for f in sorted((ROOT / folder).rglob("*.py"))
        if not apart & set(f.relative_to(ROOT / folder).parts[:-1]) and f != PACKAGE / "__init__.py"
    ]
    problems = [p for f in files for p in engine_face_problems(f.read_text(), f.relative_to(ROOT))]
    assert files and not problems, "\n".join(problems)


def test_the_check_sees_every_way_around_the_root() -> None:
    """Each way of reaching the engine's modules, and a name the root does not list, is
    reported; names of the root's ``__all__`` and its other modules are not."""
    bench = (
        "import tigris_euphrates.engine\n"
        "import tigris_euphrates.engine.board as board\n"
        "from tigris_euphrates.engine import apply\n"
        "from tigris_euphrates.engine.state import State\n"
        "from tigris_euphrates import engine, not_a_name\n"
        "from tigris_euphrates import apply, catalogues, new_game\n"
    )
    module = (
        "from ..engine import apply\n"
        "from ..engine.board import RED\n"
        "from .. import engine\n"
        "from .. import State, ai\n"
        "from . import evaluate\n"
    )
    found = engine_face_problems(bench, Path("bench/sample.py")) + engine_face_problems(
        module, Path("src/tigris_euphrates/ai/sample.py")
    )
    assert [p.rpartition(": ")[2] for p in found] == [
        "import tigris_euphrates.engine",
        "import tigris_euphrates.engine.board",
        "from tigris_euphrates.engine import ...",
        "from tigris_euphrates.engine.state import ...",
        "from tigris_euphrates import engine",
        "from tigris_euphrates import not_a_name",
        "from tigris_euphrates.engine import ...",
        "from tigris_euphrates.engine.board import ...",
        "from tigris_euphrates import engine",
    ]
