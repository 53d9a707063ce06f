"""The seed decides every hand and the bag: nobody at the table may choose or learn it.

Games with people get 128 secret bits from ``secrets``; a client may choose the seed only
when no other person sits (all bots, or one person against bots), and such a record says so;
no answer reveals the seed before the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.serving import LiveServer, SeatClient
from tigris_euphrates import replay, result
from tigris_euphrates.store import Store


@pytest.fixture
def server(db: tuple[str, str], tmp_path: Path) -> Iterator[LiveServer]:
    url, prefix = db
    with LiveServer(database_url=url, table_prefix=prefix, data_dir=tmp_path) as srv:
        yield srv


HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": "random"}


def test_a_client_cannot_choose_the_seed_of_a_game_with_other_people(server: LiveServer) -> None:
    for seats in ([HUMAN, HUMAN], [HUMAN, BOT, HUMAN]):
        r = httpx.post(f"{server.url}/api/games", json={"seats": seats, "seed": 42})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "seed-not-allowed" and "person" in r.json()["message"]


def test_games_with_people_get_long_secret_seeds(server: LiveServer, db: tuple[str, str]) -> None:
    ids = [
        httpx.post(f"{server.url}/api/games", json={"seats": [HUMAN, HUMAN]}).json()["id"]
        for _ in range(6)
    ]
    store = Store(*db)
    seeds = [store.games.load(gid).seed for gid in ids]
    store.close()
    assert len(set(seeds)) == len(seeds)
    assert max(s.bit_length() for s in seeds) > 120  # 128 random bits (all six below: 2^-48)
    assert all(s < 2**128 for s in seeds)


def test_a_client_seed_is_allowed_without_other_people_and_marked_in_the_record(
    server: LiveServer,
) -> None:
    r = httpx.post(f"{server.url}/api/games", json={"seats": [HUMAN, BOT], "seed": 2**100 + 7})
    assert r.status_code == 200, r.text
    bots = httpx.post(f"{server.url}/api/games", json={"seats": [BOT, BOT], "seed": 9}).json()
    watcher = SeatClient(server.ws_url, bots["id"], None)
    watcher.wait_view(lambda m: m["view"]["over"])
    watcher.close()
    record = httpx.get(f"{server.url}/api/games/{bots['id']}/record").json()
    assert record["seed"] == 9 and record["seed_source"] == "client"
    assert result(replay(record)) == record["result"]


def test_the_seed_is_revealed_only_when_the_game_is_over(server: LiveServer) -> None:
    g = httpx.post(f"{server.url}/api/games", json={"seats": [HUMAN, BOT]}).json()
    gid, token = g["id"], g["seats"][0]["token"]
    c = SeatClient(server.ws_url, gid, token)
    c.wait_view()
    c.send({"type": "sync"})
    c.wait_view()
    answers = [
        httpx.get(f"{server.url}/api/games"),
        httpx.get(f"{server.url}/api/games/{gid}"),
        httpx.get(f"{server.url}/api/games/{gid}/view", params={"token": token}),
        httpx.get(f"{server.url}/api/games/{gid}/record"),
        httpx.get(f"{server.url}/api/games/{gid}/replay/0"),
    ]
    assert [a.status_code for a in answers][-2:] == [409, 409]
    r = httpx.post(
        f"{server.url}/api/games/{gid}/seats/0/bot", json={"token": token, "level": "random"}
    )
    assert r.status_code == 200
    c.wait_view(lambda m: m["view"]["over"])
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    seed = str(record["seed"])
    assert record["seed_source"] == "server" and len(seed) > 20
    for answer in answers:
        assert seed not in answer.text
    for frame in c.frames:
        if not frame.get("view", {}).get("over"):
            assert seed not in str(frame)
    c.close()
