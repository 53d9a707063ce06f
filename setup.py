"""Build hook: compile the rules engine, the bots and the research adapters' numpy-free fast
path with mypyc when possible, else install pure Python.

The engine (``src/tigris_euphrates/engine``), the bots (``src/tigris_euphrates/ai``) and the
integer work of the research adapters (``rl/bits.py``, ``rl/indices.py``) are plain typed
Python. When mypyc (a build requirement) and a C compiler with the Python headers are at
hand, their modules are compiled from that same source, in one group (the bots and the
adapters call the engine natively), into C extension modules that sit beside the ``.py``
files; each package then runs the compiled modules and falls back to the source by itself
(``tigris_euphrates.engine._core``: ``TNE_PURE_PYTHON=1``, or a build that no longer matches
the sources). Without mypyc or a compiler, or when any step of the compilation fails, the install
goes on as pure Python with a warning. ``TNE_PURE_PYTHON=1`` at build time skips the
compilation altogether.

Everything else (metadata, extras, package data) is in pyproject.toml.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "tigris_euphrates"
#: The build's record of the sources it compiled, one per package (checked when the package
#: is imported).
MANIFEST = "_compiled.json"
#: The compiled packages, each with the modules left as Python. The engine's ``__init__`` and
#: ``_core`` choose the core; its ``actions``, ``decisions`` and ``events`` hold dataclasses
#: with class variables, which mypyc cannot compile (it takes the class variables for
#: fields). The bots' ``__init__`` and ``_core`` choose theirs; the modules of the bot
#: classes and their configurations stay Python classes (subclassed, pickled to worker
#: processes, patched in tests), which compiled classes cannot all be.
PURE: dict[str, set[str]] = {
    "engine": {"__init__.py", "_core.py", "actions.py", "decisions.py", "events.py"},
    "ai": {"__init__.py", "_core.py", "base.py", "greedy.py", "levels.py", "search.py"},
}
#: The packages of which only the modules named are compiled: the research adapters' integer
#: work, which needs only the engine (the rest of ``rl`` needs numpy, gymnasium and
#: PettingZoo, optional extras).
ONLY: dict[str, set[str]] = {"rl": {"bits.py", "indices.py"}}
PACKAGES = (*PURE, *ONLY)
#: mypy options of the compilation: the modules mypyc only reads (the packages' Python
#: modules, ``rl``'s numpy ones among them, whose dependencies the isolated build does not
#: have) are followed without reporting their errors; ``mypy --strict`` checks them all.
MYPY_OPTIONS = ["--follow-imports=silent"]


def _say(message: str) -> None:
    print(f"tigris-euphrates: {message}", file=sys.stderr)


def _compiled_sources(package: str) -> list[Path]:
    if package in ONLY:
        return sorted(PACKAGE / package / name for name in ONLY[package])
    return sorted(p for p in (PACKAGE / package).glob("*.py") if p.name not in PURE[package])


def _have_compiler() -> bool:
    """A C compiler and the Python headers, as distutils will look for them."""
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(cc) and shutil.which(cc[0]) is not None and headers.exists()


def _write_manifests() -> None:
    for package in PACKAGES:
        sources = {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in _compiled_sources(package)
        }
        (PACKAGE / package / MANIFEST).write_text(json.dumps({"sources": sources}, indent=1) + "\n")


def _forget_manifests(where: Path) -> None:
    for package in PACKAGES:
        (where / package / MANIFEST).unlink(missing_ok=True)


def _ext_modules() -> list[Any]:
    _forget_manifests(PACKAGE)
    if os.environ.get("TNE_PURE_PYTHON"):
        _say("TNE_PURE_PYTHON is set: installing pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: installing pure Python")
        return []
    if not _have_compiler():
        _say("no C compiler or Python headers: installing pure Python")
        return []
    paths = [str(p.relative_to(ROOT)) for package in PACKAGES for p in _compiled_sources(package)]
    try:
        modules: list[Any] = mypycify(
            [*MYPY_OPTIONS, *paths], opt_level="3", group_name="tigris_euphrates._engine"
        )
    except (Exception, SystemExit) as e:  # mypyc reports type errors by exiting
        _say(f"mypyc failed ({e}): installing pure Python")
        return []
    _write_manifests()
    return modules


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves a pure-Python install behind instead of failing."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            _say(f"compiling failed ({e}): installing pure Python")
            # Without the manifests the packages never load compiled modules (stale or partial).
            _forget_manifests(PACKAGE)
            _forget_manifests(Path(self.build_lib) / "tigris_euphrates")


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
