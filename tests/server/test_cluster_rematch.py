"""One rematch per game, whatever the processes: two real server processes on one PostgreSQL
database, each asked for the rematch of the same finished game at the same moment (a
barrier), many times. Both answers name the same new game, and the database holds that one
game only: no orphan game that one of the players would land in and that would count
against its creator's limits."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.serving import ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

#: the test asks far more than a person would, from one address
GENEROUS = {
    "messages_per_second": 10_000,
    "message_burst": 10_000,
    "games_per_minute": 10_000,
    "games_per_client": 10_000,
    "bot_games_per_client": 10_000,
}
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
ROUNDS = 20


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"r{uuid.uuid4().hex[:10]}_"
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
    return game


def wait_over(srv: ServerProcess, game_id: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{srv.url}/api/games/{game_id}", timeout=30).json()["status"] == "over":
            return
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not end")


def at_once(asks: list[tuple[ServerProcess, str, str]]) -> list[httpx.Response]:
    """Each ``(process, game, token)`` asks that process for the game's rematch, all at the
    same moment (a barrier); the answers in the same order."""
    barrier = threading.Barrier(len(asks))
    answers: list[httpx.Response | None] = [None] * len(asks)

    def ask(i: int) -> None:
        srv, game_id, token = asks[i]
        barrier.wait()
        answers[i] = httpx.post(
            f"{srv.url}/api/games/{game_id}/rematch", json={"token": token}, timeout=60
        )

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(asks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in answers if r is not None]


def test_two_processes_asked_at_once_make_one_rematch(tmp_path: Path, pg: tuple[str, str]) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=GENEROUS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=GENEROUS)
    with a, b:
        games = [finished_game(a) for _ in range(ROUNDS)]
        for g in games:
            wait_over(a, g["id"])
            wait_over(b, g["id"])  # process B holds the finished game too
        store = Store(url, prefix)
        try:
            before = set(store.games.ids())
            for g in games:
                answers = at_once(
                    [(a, g["id"], g["seats"][0]["token"]), (b, g["id"], g["seats"][1]["token"])]
                )
                assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
                ids = {r.json()["id"] for r in answers}
                assert len(ids) == 1, f"two rematches of {g['id']}: {ids}"
                # the old game names it, and asking again through either process returns it
                assert store.games.settings(g["id"])["rematch"] in ids
                again = at_once([(b, g["id"], g["seats"][0]["token"])])
                assert again[0].json()["id"] in ids
            made = set(store.games.ids()) - before
            assert len(made) == ROUNDS, f"{len(made)} games made for {ROUNDS} rematches"
        finally:
            store.close()
