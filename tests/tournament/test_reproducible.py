"""Fixed work is fixed: a bot spec that fixes the work (``iterations=``) has no wall-clock
cap, so the same seed, bots and options give byte-identical records in one process, on a
pool of processes, and on a machine whose cores are busy with other work."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.tournament import run_tournament

#: A search level at a fixed amount of work, against random (short games).
BOTS = ["hard:iterations=20", "random"]


def test_a_spec_that_fixes_the_work_has_no_time_cap() -> None:
    for players in (2, 4):
        assert make_bot("hard:iterations=400").default_budget(players) == Budget(None, 400)
        both = make_bot("hard:iterations=400:seconds=2").default_budget(players)
        assert both == Budget(2.0, 400)
    # the levels as shipped keep their caps, and a time-only spec keeps the level's work
    assert make_bot("hard").default_budget(2) == Budget(0.9, 800)
    assert make_bot("expert").default_budget(4) == Budget(2.5, 3000)
    assert make_bot("hard:seconds=2").default_budget(2) == Budget(2.0, 800)


@contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes that burn a core each for as long as the block runs."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def records(summary: dict[str, Any]) -> list[str]:
    """Each game's record as the bytes a file of it holds."""
    return [json.dumps(r, sort_keys=True) for r in summary["_records"]]


def test_the_same_tournament_gives_the_same_records_on_a_busy_machine() -> None:
    kwargs: dict[str, Any] = {"players": 2, "games": 2, "seed": 5, "records": True}
    quiet = run_tournament(BOTS, jobs=1, **kwargs)
    with busy_cores(2):
        busy = run_tournament(BOTS, jobs=2, **kwargs)
    assert len(records(quiet)) == 2
    assert records(busy) == records(quiet)
    assert busy["results"] == quiet["results"]
    assert busy["ratings"] == quiet["ratings"]
