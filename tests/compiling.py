"""Helpers of the tests that hold the compiled build to the sources: a child interpreter on
the pure-Python sources, and a copy of the build with one source edited after it was built."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import tigris_euphrates


def child(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -c code`` with ``env``, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )


def pure_json(code: str, folder: str) -> Any:
    """What ``code`` prints as JSON in a child interpreter running every ``.py`` source
    (``TNE_PURE_PYTHON=1``), with the tests' ``folder`` importable."""
    env = {**os.environ, "TNE_PURE_PYTHON": "1"}
    # the test's folder and the tests' own (where this module and its kin are imported from)
    path = [folder, str(Path(__file__).parent), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(path)
    done = child(code, env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def edited_build(tmp_path: Path, edited: str, report: str) -> tuple[Any, Any]:
    """What ``report`` prints as JSON on a copy of the installed package (with its built
    extension modules), before and after one line is added to its source ``edited``
    (a path inside the package, e.g. ``ai/evaluate.py``)."""
    package = Path(tigris_euphrates.__file__).parent
    copy = tmp_path / "tigris_euphrates"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    env = {k: v for k, v in os.environ.items() if k != "TNE_PURE_PYTHON"}
    env["PYTHONPATH"] = str(tmp_path)
    before = child(report, env)
    assert before.returncode == 0, before.stderr
    with (copy / edited).open("a") as f:
        f.write("\n# edited after the build\n")
    after = child(report, env)
    assert after.returncode == 0, after.stderr
    return json.loads(before.stdout), json.loads(after.stdout)
