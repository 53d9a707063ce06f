"""Direct challenges and the lobby's signs of life on two server processes sharing one
PostgreSQL database: a challenge made through one process reaches the invited person's
lobby on the other; accepted at the same moment from both processes (two tabs) it makes
one game, which both hear of; a decline through one process is told to the challenger's
lobby on the other; a player seeking a quick match through one process is listed, with the
people online, in a lobby connected to the other."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.sync.client import connect

from support.serving import PATIENCE, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
LIMITS = {"sign_ups_per_client": 1000, "games_per_minute": 1000, "games_per_client": 1000}


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"c{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def client(srv: ServerProcess) -> httpx.Client:
    http = httpx.Client(base_url=srv.url, timeout=PATIENCE)
    http.headers["X-CSRF-Token"] = http.get("/api/account").json()["csrf"]
    return http


def signed_up(srv: ServerProcess, stem: str) -> tuple[httpx.Client, str]:
    http, name = client(srv), f"{stem}{uuid.uuid4().hex[:6]}"
    r = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return http, name


def signed_in(srv: ServerProcess, name: str) -> httpx.Client:
    """A second browser of the account, on ``srv``."""
    http = client(srv)
    r = http.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return http


def lobby(srv: ServerProcess, http: httpx.Client | None) -> Any:
    cookie = None if http is None else "; ".join(f"{c.name}={c.value}" for c in http.cookies.jar)
    headers = None if cookie is None else {"Cookie": cookie}
    return connect(
        f"{srv.ws_url}/ws/lobby", open_timeout=PATIENCE, additional_headers=headers, origin=srv.url
    )  # type: ignore[arg-type]


def until(ws: Any, pred: Any, timeout: float = PATIENCE) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(max(0.01, deadline - time.monotonic())))
        if pred(m):
            return dict(m)


def shows(challenge_id: str, state: str) -> Any:
    return lambda m: (
        m["type"] == "me"
        and any(c["id"] == challenge_id and c["state"] == state for c in m["challenges"])
    )


def test_a_challenge_accepted_at_once_through_two_processes_makes_one_game(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        ann, ann_name = signed_up(a, "ann")
        bob_b, bob_name = signed_up(b, "bob")
        bob_a = signed_in(a, bob_name)  # Bob's second tab, served by the other process
        with lobby(a, ann) as ann_ws, lobby(b, bob_b) as bob_ws:
            until(bob_ws, lambda m: m["type"] == "me")
            r = ann.post("/api/direct", json={"to": [bob_name], "rated": True})
            assert r.status_code == 200, r.text
            cid = r.json()["challenge"]["id"]
            # Bob's lobby, on the other process, shows it at once
            until(bob_ws, shows(cid, "open"))

            def accept(http: httpx.Client) -> httpx.Response:
                return http.post(f"/api/direct/{cid}/accept")

            for _ in range(3):  # both tabs accept at the same moment, then once more
                with ThreadPoolExecutor(2) as pool:
                    answers = list(pool.map(accept, [bob_a, bob_b]))
                for x in answers:
                    assert x.status_code == 200, x.text
                assert len({x.json()["game"] for x in answers}) == 1
            game = answers[0].json()["game"]
            assert game
            told = until(ann_ws, shows(cid, "accepted"))
            assert next(c for c in told["challenges"] if c["id"] == cid)["game"] == game
            until(bob_ws, shows(cid, "accepted"))
        store = Store(url, prefix)
        try:
            seats = store.db.tables.account_seats
            with store.db.engine.connect() as conn:
                games = conn.execute(
                    select(func.count(func.distinct(seats.c.game_id))).where(
                        seats.c.account_id == store.accounts.by_name(bob_name).id  # type: ignore[union-attr]
                    )
                ).scalar_one()
            assert games == 1
        finally:
            store.close()
        for http in (ann, bob_b):  # each process serves the one game
            seen = http.get(f"/api/games/{game}").json()
            assert seen["rated"]
            assert sorted(s["name"] for s in seen["seats"]) == sorted([ann_name, bob_name])


def test_a_decline_through_one_process_reaches_the_challenger_on_the_other(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        ann, _ = signed_up(a, "ann")
        bob, bob_name = signed_up(b, "bob")
        with lobby(a, ann) as ws:
            until(ws, lambda m: m["type"] == "me")
            cid = ann.post("/api/direct", json={"to": [bob_name]}).json()["challenge"]["id"]
            r = bob.post(f"/api/direct/{cid}/decline")
            assert r.status_code == 200, r.text
            told = until(ws, shows(cid, "declined"))
            assert next(c for c in told["challenges"] if c["id"] == cid)["closed_by"] == bob_name
        r = bob.post(f"/api/direct/{cid}/accept")
        assert r.status_code == 409 and r.json()["error"] == "challenge-closed"


def test_seeks_and_people_online_are_listed_across_processes(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        cy, cy_name = signed_up(b, "cy")
        with lobby(a, None) as guest, lobby(b, cy) as cy_ws:
            until(cy_ws, lambda m: m["type"] == "activity")  # Cy is online (on b)
            r = cy.post("/api/match", json={"family": "classic", "players": 4, "pace": "turn"})
            assert r.status_code == 200, r.text
            seen = until(
                guest,
                lambda m: m["type"] == "activity" and any(s["name"] == cy_name for s in m["seeks"]),
            )
            seek = next(s for s in seen["seeks"] if s["name"] == cy_name)
            assert (seek["players"], seek["pace"], seek["rating"]) == (4, "turn", None)
            assert seen["online"] >= 1
            r = cy.post("/api/match/cancel")
            assert r.status_code == 200, r.text
            until(
                guest,
                lambda m: (
                    m["type"] == "activity" and not any(s["name"] == cy_name for s in m["seeks"])
                ),
            )


def test_a_join_and_a_real_time_acceptance_at_once_through_two_processes_leave_no_wait(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """Bob clicks *Play now* in one tab (one process) while accepting a real-time challenge
    in another (the other process), at the same moment, round after round: once the game is
    made Bob never waits in quick match beside it, and nobody is paired with him."""
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    wish = {"family": "galaxy", "players": 2, "pace": "realtime"}
    pace = {"kind": "realtime", "base": 600, "increment": 10}
    with a, b:
        for _ in range(6):
            ann, _ = signed_up(a, "ann")
            bob_b, bob_name = signed_up(b, "bob")
            bob_a = signed_in(a, bob_name)
            r = ann.post("/api/direct", json={"to": [bob_name], "pace": pace})
            assert r.status_code == 200, r.text
            cid = r.json()["challenge"]["id"]
            with ThreadPoolExecutor(2) as pool:
                join = pool.submit(bob_a.post, "/api/match", json=wish)
                accept = pool.submit(bob_b.post, f"/api/direct/{cid}/accept")
                joined, accepted = join.result(), accept.result()
            assert accepted.status_code == 200 and accepted.json()["game"], accepted.text
            assert joined.status_code in (200, 409), joined.text
            for http in (bob_a, bob_b):
                assert http.get("/api/match").json()["match"] is None
        # a stranger looking for that game waits alone: no Bob was left in the queue
        cy, _ = signed_up(b, "cy")
        assert cy.post("/api/match", json=wish).status_code == 200
        time.sleep(2.5)  # two more rounds of the matchmaker on each process
        assert cy.get("/api/match").json()["match"]["state"] == "waiting"


def test_a_challenge_accepted_as_a_table_fills_through_two_processes_makes_one_game(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    """Bob accepts Ann's real-time challenge in one process while taking the last seat of
    Cy's real-time table in the other, at the same moment, round after round: one of the two
    makes Bob's game and the other is refused (in-game), never two games at once."""
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    pace = {"kind": "realtime", "base": 600, "increment": 10}
    with a, b:
        for _ in range(6):
            ann, _ = signed_up(b, "ann")
            cy, _ = signed_up(a, "cy")
            bob_b, bob_name = signed_up(b, "bob")
            bob_a = signed_in(a, bob_name)
            r = ann.post("/api/direct", json={"to": [bob_name], "pace": pace})
            assert r.status_code == 200, r.text
            cid = r.json()["challenge"]["id"]
            r = cy.post("/api/tables", json={"players": 2, "pace": pace})
            assert r.status_code == 200, r.text
            table = r.json()["table"]
            with ThreadPoolExecutor(2) as pool:
                sit = pool.submit(bob_a.post, f"/api/tables/{table}/sit", json={})
                accept = pool.submit(bob_b.post, f"/api/direct/{cid}/accept")
                sat, accepted = sit.result(), accept.result()
            answers = sorted([sat.status_code, accepted.status_code])
            assert answers == [200, 409], (sat.text, accepted.text)
            refused = sat if sat.status_code == 409 else accepted
            assert refused.json()["error"] == "in-game", refused.text
            games = bob_a.get("/api/account/games").json()["games"]
            assert len(games) == 1, games
