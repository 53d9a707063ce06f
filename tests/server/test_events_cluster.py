"""An arena on two server processes and one PostgreSQL database, for real: entrants join
through either process; one process pairs at a time; when that process is killed (SIGKILL)
or stopped (SIGTERM) in the middle of the event the other takes the pairing over within
seconds, and nothing is lost: every finished game counts once and the standings are the
games' results."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

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
