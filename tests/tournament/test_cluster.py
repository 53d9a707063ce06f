"""``tne tournament --ray``: a small tournament on a local Ray instance gives the same results,
records and journal as the same tournament run locally (about 30 s on two busy cores,
most of it Ray's start)."""

from __future__ import annotations

import importlib
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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
        bots, ray="local", journal=journal, progress=lambda d, t: seen.append((d, t)), **kwargs
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


def test_the_local_run_needs_no_ray() -> None:
    code = (
        "import sys\n"
        "from tigris_euphrates.tournament import run_tournament\n"
        "run_tournament(['random', 'random'], games=2, jobs=1)\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_without_the_extra_ray_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def no_ray(name: str, package: str | None = None) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_ray)
    with pytest.raises(ValueError, match=r"tigris-euphrates\[cluster\]"):
        run_tournament(["random", "random"], games=2, ray="auto")


class FlakyRay:
    """A ``ray`` module whose client session fails to open ``failures`` times."""

    def __init__(self, failures: int) -> None:
        self.failures, self.inits, self.shutdowns = failures, 0, 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs: Any) -> None:
        self.inits += 1
        if self.inits <= self.failures:
            raise ConnectionAbortedError("Initialization failure from server")

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.mark.parametrize(
    ("address", "failures", "joined", "inits"),
    [
        ("ray://head:10001", 2, True, 3),  # a busy head: the third try opens the session
        ("ray://head:10001", 3, False, 3),  # three failures: the error, as Ray said it
        ("auto", 1, False, 1),  # no client: nothing to try again
    ],
)
def test_a_ray_client_session_that_fails_to_open_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, address: str, failures: int, joined: bool, inits: int
) -> None:
    from tigris_euphrates.tournament import cluster

    fake = FlakyRay(failures)
    monkeypatch.setattr(cluster, "_ray", lambda: fake)
    monkeypatch.setattr(cluster, "CONNECT_PAUSE", 0.0)
    if joined:
        assert cluster.connect(address) == (fake, True)
    else:
        with pytest.raises(ConnectionAbortedError, match="Initialization failure"):
            cluster.connect(address)
    assert fake.inits == inits
