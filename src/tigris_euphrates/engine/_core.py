"""Which engine runs: the compiled core or the pure-Python source (imported first).

The build (``setup.py``) may compile the engine's modules with mypyc from this same source;
the extension modules then sit beside the ``.py`` files and Python's import system would
prefer them. They are used only when the build's manifest (``_compiled.json``) lists the
sources exactly as they are now and ``TNE_PURE_PYTHON`` is not set; otherwise a finder that
sees only the ``.py`` files is put first on ``sys.meta_path`` for this package's modules, so
an edited source never runs against a stale build and tests can run the pure engine on
purpose (the two give the same results bit for bit: ``tests/engine/test_compiled.py``).
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


def _compiled_build_matches() -> bool:
    """Whether a compiled build of every listed module is here, from today's sources."""
    try:
        listed = json.loads((HERE / MANIFEST).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    for name, digest in listed.items():
        stem = name.removesuffix(".py")
        if not any((HERE / (stem + suffix)).exists() for suffix in EXTENSION_SUFFIXES):
            return False
        try:
            source = (HERE / name).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(source).hexdigest() != digest:
            warnings.warn(
                f"the compiled engine was built from other sources ({name} changed): running "
                "the pure-Python engine; rebuild with `make venv` or `pip install -e .`",
                stacklevel=2,
            )
            return False
    return True


class SourceOnly:
    """A finder for this package's modules that sees only their ``.py`` files."""

    def __init__(self) -> None:
        self.finder = FileFinder(str(HERE), (SourceFileLoader, SOURCE_SUFFIXES))

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.rpartition(".")[0] != PACKAGE:
            return None
        return self.finder.find_spec(name)


#: True when the compiled modules will be loaded.
WANT_COMPILED = not os.environ.get("TNE_PURE_PYTHON") and _compiled_build_matches()
if not WANT_COMPILED and not any(isinstance(f, SourceOnly) for f in sys.meta_path):
    sys.meta_path.insert(0, SourceOnly())
