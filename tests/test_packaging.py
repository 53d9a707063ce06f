"""Packaging: the core install (engine and bots) needs nothing outside the standard library,
the extras in pyproject.toml are the ones the code and the ``tne`` messages name, and ``tne``
without an extra says in one line which one to install.

The checks run in a fresh interpreter whose imports go through a finder that refuses modules
(as if they were not installed), so a third-party import added to the engine or the bots
fails here even though the test environment has every extra installed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from tigris_euphrates.__main__ import EXTRA_OF

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

# Installed first in the child: refuses every top-level module in REFUSE, or, when REFUSE is
# None, every one outside the standard library and tigris_euphrates.
REFUSING_FINDER = """
import sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if REFUSE is None:
            refused = top not in sys.stdlib_module_names and top != "tigris_euphrates"
        else:
            refused = top in REFUSE
        if refused:
            raise ModuleNotFoundError(f"No module named {top!r} (refused)", name=top)
        return None

sys.meta_path.insert(0, Refuse())
BEFORE = set(sys.modules)  # what the interpreter loaded first (site hooks)
"""

PLAY_WITH_THE_CORE = """
try:
    import numpy  # installed in the test environment: the finder must refuse it
except ModuleNotFoundError:
    pass
else:
    raise SystemExit("the finder let numpy through")

import importlib
import pkgutil

import tigris_euphrates
import tigris_euphrates.ai
import tigris_euphrates.engine

for package in (tigris_euphrates.ai, tigris_euphrates.engine):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)

from tigris_euphrates import apply, new_game, player_view, redact_event, result, to_act
from tigris_euphrates.ai import make_bot

state = new_game({"players": 2}, 7)
bots = [make_bot("greedy", 7 * 101 + seat) for seat in range(2)]
while not state.over:
    seat = to_act(state)
    state, events = apply(state, bots[seat].choose(player_view(state, seat)))
    for i, bot in enumerate(bots):
        bot.observe([redact_event(e, i) for e in events])
print("over", result(state) is not None)
outside = sorted(
    name for name in set(sys.modules) - BEFORE
    if name.partition(".")[0] not in sys.stdlib_module_names
    and name.partition(".")[0] != "tigris_euphrates"
    and not name.startswith("__")  # aliases of __main__ (multiprocessing's __mp_main__)
)
print("third-party", outside)
"""


def run_refusing(refuse: set[str] | None, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a new interpreter with the refusing finder (see REFUSING_FINDER)."""
    program = f"REFUSE = {sorted(refuse) if refuse is not None else None!r}\n"
    program += REFUSING_FINDER + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_the_engine_and_the_bots_use_only_the_standard_library(tmp_path: Path) -> None:
    """Imports ``tigris_euphrates`` and every module of its engine and its bots, and plays a
    whole greedy game, with every module outside the standard library refused."""
    done = run_refusing(None, PLAY_WITH_THE_CORE, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "over True"
    assert lines[1] == "third-party []"


@pytest.mark.parametrize(
    ("refuse", "argv", "extra"),
    [
        ({"typer", "rich", "click"}, ["selfplay"], "cli"),
        ({"fastapi", "uvicorn", "starlette"}, ["serve", "--port", "1"], "web"),
    ],
)
def test_tne_without_an_extra_names_it_in_one_line(
    tmp_path: Path, refuse: set[str], argv: list[str], extra: str
) -> None:
    code = f"""
    import sys
    sys.argv = ["tne", *{argv!r}]
    from tigris_euphrates.__main__ import main
    main()
    """
    done = run_refusing(refuse, code, tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"pip install 'tigris-euphrates[{extra}]'" in done.stderr


def test_extras_match_the_modules_tne_names() -> None:
    """The core has no dependency; each module ``tne`` maps to an extra is a requirement of
    that extra (or comes with one: click with typer, starlette with fastapi); ``all`` is
    every extra but ``dev`` and ``train``."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    assert project["dependencies"] == []
    extras: dict[str, list[str]] = project["optional-dependencies"]

    def names(extra: str) -> set[str]:
        return {r.split("==")[0].split("[")[0] for r in extras[extra]}

    distribution = {"argon2": "argon2-cffi"}  # modules named unlike their distribution
    for module, extra in EXTRA_OF.items():
        if module not in {"click", "starlette"}:
            assert distribution.get(module, module) in names(extra), (module, extra)
    named = set(EXTRA_OF.values())
    (everything,) = extras["all"]
    assert everything.startswith("tigris-euphrates[") and everything.endswith("]")
    assert set(everything.removeprefix("tigris-euphrates[")[:-1].split(",")) == named
    # ``train`` serves the example training script (examples/rl), not a module ``tne`` names:
    # it stays out of ``all`` so the tests do not install a machine-learning framework.
    assert set(extras) == named | {"all", "dev", "train"}
