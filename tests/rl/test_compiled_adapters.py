"""The research adapters' numpy-free fast path (``rl.bits``, ``rl.indices``): compiled, it
gives the pure-Python source's integers bit for bit; it only ever runs against the sources it
was built from; and it needs neither numpy nor gymnasium nor PettingZoo to load.

The equality of those integers with the view path (``observe`` of ``player_view``,
``mask_of`` of ``legal_actions``) is tests/rl/test_fast_path.py's, which runs on whichever
build is loaded (``TNE_PURE_PYTHON=1`` for the source).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import tigris_euphrates
import tigris_euphrates.rl as rl
from compiling import child, edited_build, pure_json
from tigris_euphrates import apply_unchecked, legal_actions, new_game, sample_legal, to_act
from tigris_euphrates.rl.bits import feature_counts, legal_bits, plane_bits

#: One seeded random game per option set: every variant, 2–4 players, both boards, open
#: scoring.
OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "board": "advanced", "open_scoring": True},
    {"players": 4, "english_variant": True},
    {"players": 3, "wonder": True, "buildings": True},
    {"players": 2, "ruleset": "galaxy"},
    {"players": 4, "ruleset": "galaxy", "board": "advanced"},
]


def integers(game: int) -> list[Any]:
    """At every step of seeded game ``game``: the legal bits, and every seat's plane bits
    and feature counts."""
    options = OPTIONS[game]
    rng = random.Random(game)
    state = new_game(options, 500 + game)
    out: list[Any] = []
    while True:
        seats = range(options["players"])
        out.append(
            [
                legal_bits(state),
                [plane_bits(state, seat) for seat in seats],
                [[int(c) for c in feature_counts(state, seat)] for seat in seats],
            ]
        )
        if state.over:
            return out
        state = apply_unchecked(state, sample_legal(state, rng))


def test_the_compiled_fast_path_gives_the_pure_integers() -> None:
    if not rl.COMPILED:
        pytest.skip("the compiled fast path is not built (pure-Python install): nothing to compare")
    code = (
        "import json, sys\n"
        "import tigris_euphrates.rl as rl\n"
        "assert not rl.COMPILED\n"
        "from test_compiled_adapters import OPTIONS, integers\n"
        "json.dump([integers(g) for g in range(len(OPTIONS))], sys.stdout)\n"
    )
    pure = pure_json(code, os.path.dirname(__file__))
    for game in range(len(OPTIONS)):
        mine = integers(game)
        assert len(mine) == len(pure[game]), f"game {game}: lengths differ"
        for step, (a, b) in enumerate(zip(mine, pure[game], strict=True)):
            assert a == b, f"game {game} ({OPTIONS[game]}), step {step}"


REPORT = (
    "import json, warnings\n"
    "with warnings.catch_warnings(record=True) as said:\n"
    "    warnings.simplefilter('always')\n"
    "    import tigris_euphrates.ai as ai, tigris_euphrates.engine as engine\n"
    "    import tigris_euphrates.rl as rl\n"
    "print(json.dumps([engine.COMPILED, ai.COMPILED, rl.COMPILED,"
    " [str(w.message) for w in said]]))\n"
)


@pytest.mark.parametrize(
    ("edited", "engine_compiled"), [("rl/bits.py", True), ("engine/board.py", False)]
)
def test_an_edited_source_runs_as_python(
    tmp_path: Path, edited: str, engine_compiled: bool
) -> None:
    """A copy of the build whose source is then edited: the fast path runs its ``.py`` files
    (with a warning naming the file), never the stale extension modules. An edited fast-path
    source leaves the engine and the bots compiled; an edited engine source turns the fast
    path to its source as well, since the compiled fast path calls the compiled engine
    directly."""
    if not rl.COMPILED:
        pytest.skip("the compiled fast path is not built (pure-Python install)")
    before, after = edited_build(tmp_path, edited, REPORT)
    assert before == [True, True, True, []]
    assert after[:3] == [engine_compiled, engine_compiled, False]
    assert any(edited in message for message in after[3]), after[3]


#: Loads ``bits`` with numpy, gymnasium and PettingZoo refused, without the package's
#: ``__init__`` (which imports the numpy modules), the way ``rl/__init__`` would choose the
#: build; prints the number of legal actions, the planes and features made, whether the
#: compiled module ran and whether numpy was loaded.
WITHOUT_NUMPY = """
import importlib.abc, json, sys, types
from pathlib import Path

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("numpy", "gymnasium", "pettingzoo"):
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, Refuse())
import tigris_euphrates.engine as engine
package = types.ModuleType("tigris_euphrates.rl")
package.__path__ = [str(Path(engine.__file__).parent.parent / "rl")]
sys.modules["tigris_euphrates.rl"] = package
from tigris_euphrates.rl import _core
from tigris_euphrates.rl import bits
state = engine.new_game({"players": 3}, 7)
print(json.dumps([
    bits.legal_bits(state).bit_count(),
    bits.plane_bits(state, 1).bit_count(),
    len(bits.feature_counts(state, 1)),
    not bits.__file__.endswith(".py"),
    "numpy" in sys.modules,
]))
"""


def test_the_fast_path_loads_without_numpy() -> None:
    """The modules the build compiles with the engine need only the engine (numpy,
    gymnasium and PettingZoo are the optional ``rl`` extra), compiled or not."""
    done = child(WITHOUT_NUMPY, dict(os.environ))
    assert done.returncode == 0, done.stderr
    legal, planes, features, compiled, numpy = json.loads(done.stdout)
    state = new_game({"players": 3}, 7)
    assert legal == len(legal_actions(state)) and to_act(state) == 0
    assert planes == plane_bits(state, 1).bit_count() > 0
    assert features == 77
    assert compiled == rl.COMPILED and not numpy


def test_the_compiled_fast_path_runs_where_it_was_built() -> None:
    """``make test`` sets TNE_EXPECT_COMPILED: there the build must have compiled the fast
    path with the engine (a silent fall-back to pure Python would make the tests above
    skip)."""
    if not os.environ.get("TNE_EXPECT_COMPILED") or os.environ.get("TNE_PURE_PYTHON"):
        pytest.skip("TNE_EXPECT_COMPILED is not set")
    assert tigris_euphrates.COMPILED and rl.COMPILED
