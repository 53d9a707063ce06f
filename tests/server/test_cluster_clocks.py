"""Clocks across server processes on the test PostgreSQL: exactly one process (the holder of
the game's lock) enforces a game's clock, each timeout is written once, and when that
process is killed another one takes the lock and enforces the next deadline."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.serving import SeatClient, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"k{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def test_one_process_enforces_a_clock_and_another_takes_over_when_it_dies(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    short = {"pace_min_seconds": 1}  # a clock of 4 s
    a = ServerProcess(tmp_path / "a", url, prefix, limits=short)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=short)
    with a, b:
        people = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        pace = {"kind": "turn", "base": 4, "level": "random"}
        r = httpx.post(f"{a.url}/api/games", json={"seats": people, "pace": pace})
        assert r.status_code == 200, r.text
        gid = r.json()["id"]
        watcher = SeatClient(b.ws_url, gid, None)  # B holds the game in memory too
        first = watcher.wait_view(lambda m: m["clock"] is not None)
        assert first["clock"]["pace"] == {**pace, "increment": 0.0} and "now" in first
        # Ann never moves: A, which holds the game's lock, hands her seat to the bot
        watcher.wait_view(lambda m: m["seats"][0]["kind"] == "bot")
        a.kill()
        # Bob never moves either: B takes the lock and enforces his deadline
        end = watcher.wait_view(lambda m: m["seats"][1]["kind"] == "bot")
        assert [t["seat"] for t in end["timeouts"]] == [0, 1]
        watcher.close()
        row = Store(url, prefix).games.load(gid)
        timeouts = [action for _, _, action in row.actions if action.endswith(" timeout")]
        assert timeouts == ["seat 0 bot random timeout", "seat 1 bot random timeout"]
        seqs = [seq for seq, _, _ in row.actions]
        assert seqs == list(range(1, len(seqs) + 1))
