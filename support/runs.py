"""A benchmark's file of runs: a JSON list holding one run per command, each run saying in its
``command`` how to play it again (``bench/minimax.py`` keeps its runs so, ``bench/strength.py``
reads them by command)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The repository's root: commands name the files inside it from there.
ROOT = Path(__file__).resolve().parents[1]


def shown(out: str) -> str:
    """The ``--out`` path as a command run from the project's root would give it: relative
    inside the project, absolute outside it."""
    path = Path(out).resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def keep(path: Path, run: dict[str, Any]) -> None:
    """Write ``run`` into the list of runs at ``path``, in place of the run with the same
    command (a run played again) or after the others."""
    runs: list[dict[str, Any]] = json.loads(path.read_text()) if path.exists() else []
    for i, old in enumerate(runs):
        if old["command"] == run["command"]:
            runs[i] = run
            break
    else:
        runs.append(run)
    path.write_text(json.dumps(runs, indent=1) + "\n")
