"""Which code runs: the compiled modules or the pure-Python source (imported first).

The build (``setup.py``) may compile the modules of the engine, of the bots (``ai``) and of
the research adapters' fast path (``rl.bits``, ``rl.indices``) with mypyc from this same
source; the extension modules then sit beside the ``.py`` files and Python's import system
would prefer them. A package uses them only when its build manifest (``_compiled.json``)
lists its sources exactly as they are now and ``TNE_PURE_PYTHON`` is not set (and, for the
bots and the fast path, only on the compiled engine: they are one build and call it
natively); otherwise a finder that sees only the ``.py`` files is put first on
``sys.meta_path`` for that package's modules, so an edited source never runs against a stale
build and tests can run the source on purpose (the two give the same results bit for bit:
``tests/engine/test_compiled.py``). This module decides for the engine when it is imported;
the bots' and the adapters' packages call ``choose`` for themselves.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
PACKAGE = __name__.rpartition(".")[0]
MANIFEST = "_compiled.json"


def compiled_build_matches(folder: Path) -> bool:
    """Whether a compiled build of every module the manifest in ``folder`` lists is there,
    from today's sources."""
    try:
        listed = json.loads((folder / MANIFEST).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    for name, digest in listed.items():
        stem = name.removesuffix(".py")
        if not any((folder / (stem + suffix)).exists() for suffix in EXTENSION_SUFFIXES):
            return False
        try:
            source = (folder / name).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(source).hexdigest() != digest:
            warnings.warn(
                f"the compiled build was made from other sources ({folder.name}/{name} "
                "changed): running that package's pure-Python source; rebuild with "
                "`make venv` or `pip install -e .`",
                stacklevel=3,
            )
            return False
    return True


class SourceOnly:
    """A finder for one package's modules that sees only their ``.py`` files."""

    def __init__(self, package: str, folder: Path) -> None:
        self.package = package
        self.finder = FileFinder(str(folder), (SourceFileLoader, SOURCE_SUFFIXES))

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.rpartition(".")[0] != self.package:
            return None
        return self.finder.find_spec(name)


def choose(package: str, folder: Path, allowed: bool = True) -> bool:
    """Whether the compiled modules of ``package`` (whose files are in ``folder``) will be
    loaded: when ``allowed``, ``TNE_PURE_PYTHON`` is unset and the build matches the sources.
    Otherwise its modules are served from their ``.py`` files from now on."""
    want = allowed and not os.environ.get("TNE_PURE_PYTHON") and compiled_build_matches(folder)
    if not want and not any(
        isinstance(f, SourceOnly) and f.package == package for f in sys.meta_path
    ):
        sys.meta_path.insert(0, SourceOnly(package, folder))
    return want


#: True when the engine's compiled modules will be loaded.
WANT_COMPILED = choose(PACKAGE, HERE)
