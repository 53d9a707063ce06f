"""Build hook: compile the rules engine with mypyc when possible, else install pure Python.

The engine (``src/tigris_euphrates/engine``) is plain typed Python. When mypyc (a build
requirement) and a C compiler with the Python headers are at hand, its modules are compiled
from that same source into C extension modules that sit beside the ``.py`` files; the
package then runs the compiled core and falls back to the source by itself
(``tigris_euphrates.engine``: ``TNE_PURE_PYTHON=1``, or a build that no longer matches the
sources). Without mypyc or a compiler, or when any step of the compilation fails, the install
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
ENGINE = ROOT / "src" / "tigris_euphrates" / "engine"
#: The build's record of the sources it compiled (checked when the package is imported).
MANIFEST = "_compiled.json"
#: Modules left as Python: ``__init__`` and ``_core`` (they choose the core), and the modules
#: of dataclasses with class variables, which mypyc cannot compile (it takes the class
#: variables for fields).
PURE = {"__init__.py", "_core.py", "actions.py", "decisions.py", "events.py"}


def _say(message: str) -> None:
    print(f"tigris-euphrates: {message}", file=sys.stderr)


def _compiled_sources() -> list[Path]:
    return sorted(p for p in ENGINE.glob("*.py") if p.name not in PURE)


def _have_compiler() -> bool:
    """A C compiler and the Python headers, as distutils will look for them."""
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(cc) and shutil.which(cc[0]) is not None and headers.exists()


def _write_manifest(where: Path) -> None:
    sources = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in _compiled_sources()}
    (where / MANIFEST).write_text(json.dumps({"sources": sources}, indent=1) + "\n")


def _ext_modules() -> list[Any]:
    (ENGINE / MANIFEST).unlink(missing_ok=True)
    if os.environ.get("TNE_PURE_PYTHON"):
        _say("TNE_PURE_PYTHON is set: installing the pure-Python engine")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: installing the pure-Python engine")
        return []
    if not _have_compiler():
        _say("no C compiler or Python headers: installing the pure-Python engine")
        return []
    paths = [str(p.relative_to(ROOT)) for p in _compiled_sources()]
    try:
        modules: list[Any] = mypycify(paths, opt_level="3", group_name="tigris_euphrates._engine")
    except (Exception, SystemExit) as e:  # mypyc reports type errors by exiting
        _say(f"mypyc failed ({e}): installing the pure-Python engine")
        return []
    _write_manifest(ENGINE)
    return modules


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves a pure-Python install behind instead of failing."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            _say(f"compiling the engine failed ({e}): installing the pure-Python engine")
            self._forget_core()

    def _forget_core(self) -> None:
        # Without the manifest the package never loads compiled modules (stale or partial).
        (ENGINE / MANIFEST).unlink(missing_ok=True)
        built = Path(self.build_lib) / "tigris_euphrates" / "engine" / MANIFEST
        built.unlink(missing_ok=True)


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
