"""The post-game analyses across two real server processes on one PostgreSQL database: the
analyses of several finished games, each asked through both processes, are each taken by
exactly one worker once (which process takes which is the queue's choice), done once, and
every reader gets the same stored result, which is the analysis ``tne analyse`` would write
for the game's record. An unfinished game is refused."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import ServerProcess, postgres_or_skip
from tigris_euphrates.coach.analysis import AnalysisBudget, analyse
from tigris_euphrates.store import Store

GENEROUS = {
    "games_per_minute": 10_000,
    "games_per_client": 10_000,
    "bot_games_per_client": 10_000,
}
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
GAMES = 3
#: a small analysis budget (the default's work is the same, only longer)
BUDGET = AnalysisBudget(iterations=16, worlds=1)


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"a{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def finished_game(srv: ServerProcess) -> dict[str, Any]:
    """A two-person game whose players both left it to random bots, which end it."""
    r = httpx.post(f"{srv.url}/api/games", json={"seats": HUMANS}, timeout=30)
    assert r.status_code == 200, r.text
    game = dict(r.json())
    for seat in (0, 1):
        body = {"token": game["seats"][seat]["token"], "level": "random"}
        r = httpx.post(f"{srv.url}/api/games/{game['id']}/seats/{seat}/bot", json=body, timeout=30)
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{srv.url}/api/games/{game['id']}", timeout=30).json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    return game


def analysis(srv: ServerProcess, game_id: str, ask: bool = False) -> dict[str, Any]:
    call = httpx.post if ask else httpx.get
    r = call(f"{srv.url}/api/games/{game_id}/analysis", timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_each_analysis_is_done_once_by_one_of_two_processes(
    tmp_path: Path, pg: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, prefix = pg
    monkeypatch.setenv("TNE_ANALYSIS_ITERATIONS", str(BUDGET.iterations))
    monkeypatch.setenv("TNE_ANALYSIS_WORLDS", str(BUDGET.worlds))
    a = ServerProcess(tmp_path / "a", url, prefix, limits=GENEROUS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=GENEROUS)
    with a, b:
        unfinished = httpx.post(f"{a.url}/api/games", json={"seats": HUMANS}, timeout=30).json()
        refused = httpx.post(f"{b.url}/api/games/{unfinished['id']}/analysis", timeout=30)
        assert refused.status_code == 409 and "finished" in refused.text
        games = [finished_game(a) for _ in range(GAMES)]
        for g in games:
            assert analysis(a, g["id"])["state"] == "none"
            for srv in (a, b):
                assert analysis(srv, g["id"], ask=True)["state"] in ("queued", "running", "done")
        deadline = time.monotonic() + 600
        while not all(analysis(b, g["id"])["state"] == "done" for g in games):
            assert time.monotonic() < deadline, "the analyses did not end"
            time.sleep(0.5)
        store = Store(url, prefix)
        try:
            rows = [store.analyses.get(g["id"]) for g in games]
            assert all(row is not None and row.attempts == 1 for row in rows)
        finally:
            store.close()
        for g in games:
            shown = [analysis(srv, g["id"]) for srv in (a, b)]
            assert shown[0] == shown[1] and shown[0]["done"] == shown[0]["total"]
            record = httpx.get(f"{a.url}/api/games/{g['id']}/record", timeout=30).json()
            assert shown[0]["analysis"] == analyse(record, BUDGET)
            assert analysis(a, g["id"], ask=True)["state"] == "done"  # kept, not run again
