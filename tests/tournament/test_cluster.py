"""``tne tournament --ray``: a small tournament on a local Ray instance gives the same results,
records and journal as the same tournament run locally (about 30 s on two busy cores,
most of it Ray's start)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from tigris_euphrates.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
PYBOT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples/bots/pybot.py'))}"


def games_of(summary: dict[str, Any]) -> tuple[Any, Any, Any]:
    """What decides a tournament's games: their results, records and ratings (the decision
    times are measured, so they differ from run to run)."""
    return summary["results"], summary["_records"], summary["ratings"]


def test_a_tournament_on_ray_matches_the_local_run(tmp_path: Path) -> None:
    bots = ["random", PYBOT, "random"]
    kwargs: dict[str, Any] = {"games": 2, "seed": 9, "records": True, "logs": tmp_path}
    local_journal = tmp_path / "local.jsonl"
    local = run_tournament(bots, jobs=1, journal=local_journal, **kwargs)
    # A stopped run on the cluster: its journal holds the first two games only.
    journal = tmp_path / "ray.jsonl"
    lines = local_journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:3]) + "\n")
    seen: list[tuple[int, int]] = []
    on_ray = run_tournament(
        bots, ray="auto", journal=journal, progress=lambda d, t: seen.append((d, t)), **kwargs
    )
    assert games_of(on_ray) == games_of(local)
    assert [r["index"] for r in on_ray["results"]] == list(range(6))
    # Progress counted the journal's games, then each game as it finished.
    assert seen == [(2, 6), (3, 6), (4, 6), (5, 6), (6, 6)]

    def by_index(path: Path) -> dict[int, Any]:
        games = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        return {g["index"]: {k: v for k, v in g.items() if k != "times"} for g in games}

    assert by_index(journal) == by_index(local_journal)
    assert journal.read_text().splitlines()[0] == lines[0]
