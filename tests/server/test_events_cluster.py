"""An arena on two server processes and one PostgreSQL database, for real: entrants join
through either process; one process pairs at a time; when that process is killed (SIGKILL)
or stopped (SIGTERM) in the middle of the event the other takes the pairing over within
seconds, and nothing is lost: every finished game counts once and the standings are the
games' results."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from accounting import AccountSeat, play_first_turns
from support.serving import PATIENCE, Player, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
LIMITS = {
    "messages_per_second": 10_000,
    "message_burst": 10_000,
    "sign_ups_per_client": 1000,
    "games_per_minute": 1000,
    "games_per_client": 1000,
}


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"v{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


class Person:
    """A signed-up account and its cookies, spoken for through any process."""

    def __init__(self, srv: ServerProcess, stem: str) -> None:
        self.name = f"{stem}{uuid.uuid4().hex[:6]}"
        self.player = Player(srv)
        self.player.sign_up(self.name, PASSWORD)

    def get(self, srv: ServerProcess, path: str) -> Any:
        r = httpx.get(
            f"{srv.url}{path}", headers={"Cookie": self.player.cookie_header()}, timeout=PATIENCE
        )
        assert r.status_code == 200, r.text
        return r.json()


def under_way(store: Store) -> dict[int, int]:
    """How many games under way each account holds a seat of."""
    s, g = store.db.tables.account_seats, store.db.tables.games
    query = (
        select(s.c.account_id, func.count())
        .select_from(s.join(g, g.c.id == s.c.game_id))
        .where(g.c.status == "active")
        .group_by(s.c.account_id)
    )
    with store.db.engine.connect() as conn:
        return {int(account): int(n) for account, n in conn.execute(query)}


def event_game(p: Person, srv: ServerProcess, event: str, besides: set[str]) -> str:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            game = p.get(srv, f"/api/events/{event}")["me"]["game"]
        except httpx.HTTPError:
            game = None  # the process is starting again
        if game is not None and game not in besides:
            return str(game)
        time.sleep(0.2)
    raise AssertionError("no game was paired")


def finish(srv: ServerProcess, game: str, winner: Person, loser: Person) -> None:
    """Play the opening through ``srv``, then ``loser`` resigns."""
    bound = httpx.get(f"{srv.url}/api/games/{game}", timeout=PATIENCE).json()["seats"]
    seat_of = {s.get("account"): s["seat"] for s in bound}
    seats = [
        AccountSeat(srv.ws_url, game, p.player.cookie_header(), {"seat": seat_of[p.name]})
        for p in (winner, loser)
    ]
    play_first_turns(sorted(seats, key=lambda s: s.wait_view()["seat"]))
    seats[1].send({"type": "resign"})
    seats[0].wait_view(lambda m: m["view"]["over"])
    for s in seats:
        s.close()


def play_round(
    srv: ServerProcess, people: list[Person], event: str, seen: set[str], wins: dict[str, int]
) -> None:
    """Every entrant's next game, paired by whichever process pairs: the first-listed
    player of each game wins it."""
    games: dict[str, list[Person]] = {}
    for p in people:
        games.setdefault(event_game(p, srv, event, seen), []).append(p)
    assert sorted(len(v) for v in games.values()) == [2, 2], games
    for game, (a, b) in games.items():
        finish(srv, game, a, b)
        wins[a.name] += 1
        seen.add(game)


def test_the_pairing_survives_a_kill_and_a_stop_of_the_process_that_pairs(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a:
        time.sleep(2)  # A is alone: it takes the pairing
        with b:
            admin = Person(a, "Adm")
            store = Store(url, prefix)
            store.moderation.set_admin(store.accounts.by_name(admin.name).id, True)
            body = {"kind": "arena", "name": "Two processes", "minutes": 30}
            body |= {"pace": {"base": 600, "increment": 5}, "starts": time.time()}
            r = admin.player.post("/api/events", body)
            assert r.status_code == 200, r.text
            event = r.json()["id"]
            people = [Person(srv, n) for srv, n in ((a, "Ann"), (b, "Bob"), (a, "Cy"), (b, "Di"))]
            for p in people:  # each through the process it signed up on
                r = p.player.post(f"/api/events/{event}/join", {})
                assert r.status_code == 200, r.text
            seen: set[str] = set()
            wins = {p.name: 0 for p in people}
            play_round(b, people, event, seen, wins)
            a.kill()  # the pairing process dies mid-event
            play_round(b, people, event, seen, wins)
            a.start()
            b.terminate()  # and the other stops on purpose: A pairs again
            play_round(a, people, event, seen, wins)
            b.start()
            standings = admin.get(b, f"/api/events/{event}")["standings"]
    by_name = {line["name"]: line for line in standings}
    assert sum(line["games"] for line in standings) == 12  # six games, each counted once
    for p in people:
        assert by_name[p.name]["wins"] == wins[p.name]
    rows = store.events.games_of(event)
    assert len({g.game_id for g in rows}) == len(rows) >= 6
    assert all(len(set(g.seats)) == 2 for g in rows)


def test_a_players_events_are_limited_even_when_asked_at_once_through_both_processes(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        ann = Person(a, "Ann")
        body = {"kind": "arena", "name": "Mine", "minutes": 30, "private": True}
        body |= {"pace": {"base": 600, "increment": 5}}
        cookie = ann.player.cookie_header()
        headers = {"Cookie": cookie, "X-CSRF-Token": ann.player.csrf}

        def make(srv: ServerProcess) -> int:
            r = httpx.post(f"{srv.url}/api/events", json=body, headers=headers, timeout=PATIENCE)
            return r.status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(make, [a, b] * 4))
        assert sorted(codes) == [200] * 3 + [429] * 5, codes


def test_dozens_of_entrants_joining_and_leaving_through_two_processes_play_once_each(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """Twenty entrants join through both processes at once, some pause and come back at
    awkward moments (just paired, just finished), games end in parallel: nobody is ever in
    two games, every finished game counts once, and the standings are the games' results."""
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    store = Store(url, prefix)
    with a, b:
        admin = Person(a, "Adm")
        store.moderation.set_admin(store.accounts.by_name(admin.name).id, True)
        body = {"kind": "arena", "name": "Crowd", "minutes": 30}
        body |= {"pace": {"base": 600, "increment": 5}, "starts": time.time()}
        event = admin.player.post("/api/events", body).json()["id"]
        procs = (a, b)
        people = [Person(procs[i % 2], f"P{i}") for i in range(20)]

        def post(p: Person, i: int, what: str) -> int:
            srv = procs[i % 2]
            r = httpx.post(
                f"{srv.url}/api/events/{event}/{what}",
                json={},
                headers={"Cookie": p.player.cookie_header(), "X-CSRF-Token": p.player.csrf},
                timeout=PATIENCE,
            )
            return r.status_code

        rng = random.Random(7)
        doubles: list[str] = []
        stop = threading.Event()

        def watch() -> None:  # nobody in two games under way, at any moment
            while not stop.is_set():
                for account, n in under_way(store).items():
                    if n > 1:
                        doubles.append(f"{account} in {n} games")
                time.sleep(0.05)

        checker = threading.Thread(target=watch, daemon=True)
        checker.start()
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(lambda ip: post(ip[1], ip[0], "join"), enumerate(people))) == {200}
            finished: set[str] = set()
            for _ in range(2):
                games: dict[str, list[Person]] = {}
                for p in people:
                    games.setdefault(
                        event_game(p, procs[rng.randrange(2)], event, finished), []
                    ).append(p)
                assert all(len(v) == 2 for v in games.values()), games
                # some pause just after being paired, and come back at once
                movers = rng.sample(range(len(people)), 6)
                list(pool.map(lambda i: post(people[i], i, "leave"), movers))
                list(pool.map(lambda i: post(people[i], i, "join"), movers))
                list(
                    pool.map(lambda g: finish(procs[rng.randrange(2)], g[0], *g[1]), games.items())
                )
                finished |= set(games)
        deadline = time.monotonic() + PATIENCE  # the pairing process reads the last results
        while {g.game_id for g in store.events.games_of(event) if g.state != "playing"} < finished:
            assert time.monotonic() < deadline, "the results were not read"
            time.sleep(0.1)
        stop.set()
        checker.join(PATIENCE)
        detail = admin.get(a, f"/api/events/{event}")
    assert doubles == []
    rows = [g for g in store.events.games_of(event) if g.state == "over"]
    assert {g.game_id for g in rows} == finished  # each finished game counted, once
    assert sum(line["games"] for line in detail["standings"]) == 2 * len(rows)
    wins: dict[str, int] = {}
    names = {e.account_id: e.name for e in store.events.entrants(event)}
    for g in rows:
        assert g.ranks is not None
        winner = names[g.seats[g.ranks.index(0)]]
        wins[winner] = wins.get(winner, 0) + 1
    for line in detail["standings"]:
        assert line["wins"] == wins.get(line["name"], 0), line
