"""The operator's backup carries the puzzles and the live events, on SQLite and on the real
PostgreSQL: a server's database holding puzzles with rated attempts and puzzle ratings,
the setting "my games may become puzzles" (given and refused), and a finished Swiss event
with its entrants, its game and a bye, is exported with ``tne export``, imported with
``tne import`` into an empty database of each engine, and exported again: the same file
(but when it started). A server on the restored database shows the same event; an import
refuses a database that holds only a puzzle."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from accounting import AccountSeat, play_first_turns
from puzzling import game_puzzles
from support.serving import PATIENCE, LiveServer, Player, SeatClient, postgres_or_skip
from tigris_euphrates.cli import app
from tigris_euphrates.coach.puzzles import puzzle_id
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
LIMITS = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
#: the kinds of line of an export, in the order docs/formats.md gives them
ORDER = [
    "header", "game", "account", "rating", "rating_change", "social", "standing", "report",
    "puzzle", "puzzle_attempt", "puzzle_rating", "puzzle_consent",
    "event", "event_entrant", "event_game", "event_bye", "end",
]  # fmt: skip


@dataclass
class Source:
    """A database with puzzles and a live event, and what its server answered."""

    url: str
    prefix: str
    tmp: Path
    event: str = ""
    event_page: Any = None
    targets: list[tuple[str, str]] = field(default_factory=list)

    def target(self, engine: str) -> tuple[str, str]:
        """A new empty database on ``engine``: (url, prefix)."""
        if engine == "sqlite":
            folder = self.tmp / f"target-{uuid.uuid4().hex[:6]}"
            folder.mkdir()
            return f"sqlite:///{folder}/tne.sqlite3", ""
        target = (postgres_or_skip(), f"r{uuid.uuid4().hex[:10]}_")
        self.targets.append(target)
        return target


def tne(*args: Any) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def db_args(url: str, prefix: str) -> list[str]:
    return ["--database-url", url] + (["--table-prefix", prefix] if prefix else [])


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def source(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Source]:
    tmp = tmp_path_factory.mktemp("backup-more")
    if request.param == "sqlite":
        url, prefix = f"sqlite:///{tmp}/source.sqlite3", ""
    else:
        url, prefix = postgres_or_skip(), f"bp{uuid.uuid4().hex[:10]}_"
    s = Source(url, prefix, tmp)
    try:
        with LiveServer(data_dir=tmp, database_url=url, table_prefix=prefix, limits=LIMITS) as srv:
            fill(srv, s)
        yield s
    finally:
        if request.param == "postgresql":
            Store(url, prefix).drop_all()
        for t_url, t_prefix in s.targets:
            Store(t_url, t_prefix).drop_all()


def person(srv: LiveServer, stem: str) -> tuple[Player, str]:
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    player = Player(srv)
    player.sign_up(name, PASSWORD)
    return player, name


def fill(srv: LiveServer, s: Source) -> None:
    """A Swiss event of one round among three (a game played to a resignation, a bye), the
    setting given by two of them and refused by the third, and puzzles answered by two."""
    store: Store = srv.app.state.hub.store
    (admin, admin_name), *people = [person(srv, x) for x in ("Adm", "Eve", "Fay", "Gus")]
    store.moderation.set_admin(admin.me()["id"], True)
    for (p, _), share in zip(people, (True, True, False), strict=True):
        assert p.post("/api/account/puzzles", {"share": share}).json() == {"share": share}
    body = {"kind": "swiss", "name": "Backup night", "rounds": 1, "starts": time.time() + 2}
    ev = admin.post("/api/events", {**body, "pace": {"base": 600, "increment": 5}}).json()
    s.event = ev["id"]
    for p, _ in people:
        assert p.post(f"/api/events/{s.event}/join", {}).status_code == 200
    game, seated = paired(people, s.event)
    finish(srv, game, seated)
    deadline = time.monotonic() + PATIENCE
    while admin.http.get(f"/api/events/{s.event}").json()["state"] != "finished":
        assert time.monotonic() < deadline, "the event did not end"
        time.sleep(0.1)
    s.event_page = event_page(srv, s.event)
    # puzzles of a real analysed game, answered right and wrong by two accounts
    origin = f"bk{uuid.uuid4().hex[:8]}"
    puzzles = [{**p, "id": puzzle_id(origin, p["ply"])} for p in game_puzzles(7)[:2]]
    assert store.puzzles.add(origin, [(p["id"], p) for p in puzzles], time.time()) == 2
    (eve, _), (fay, _), _ = people
    answers = [(eve, 0, "solution"), (fay, 0, "played"), (eve, 1, "played")]
    for player, k, which in answers:
        r = player.post(f"/api/puzzles/{puzzles[k]['id']}/attempt", {"action": puzzles[k][which]})
        assert r.status_code == 200 and r.json()["rated"] is True, r.text
    for p, _ in [(admin, admin_name), *people]:
        p.close()


def event_page(srv: LiveServer, event: str) -> Any:
    """The event's page as a guest sees it, but when it was answered."""
    answer = httpx.get(f"{srv.url}/api/events/{event}").json()
    answer.pop("now")
    return answer


def paired(people: list[tuple[Player, str]], event: str) -> tuple[str, list[Player]]:
    """The event's one game, once paired, and its two players."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        mine = {p: p.http.get(f"/api/events/{event}").json()["me"]["game"] for p, _ in people}
        seated = [p for p, g in mine.items() if g]
        if len(seated) == 2:  # the third has the bye
            return str(mine[seated[0]]), seated
        time.sleep(0.1)
    raise AssertionError("no game was paired")


def finish(srv: LiveServer, game: str, players: list[Player]) -> None:
    """Play the opening, then the second seat resigns."""
    bound = httpx.get(f"{srv.url}/api/games/{game}").json()["seats"]
    me = [p.me()["name"] for p in players]
    seats = [
        AccountSeat(srv.ws_url, game, p.cookie_header(), {"seat": next(
            x["seat"] for x in bound if x.get("account") == name
        )})
        for p, name in zip(players, me, strict=True)
    ]  # fmt: skip
    order: list[SeatClient] = sorted(seats, key=lambda x: x.wait_view()["seat"])
    play_first_turns(order)
    order[1].send({"type": "resign"})
    order[0].wait_view(lambda m: m["view"]["over"])
    for x in seats:
        x.close()


def export_of(url: str, prefix: str, tmp: Path) -> Path:
    path = tmp / f"{uuid.uuid4().hex[:6]}-export.jsonl"
    result = tne("export", path, *db_args(url, prefix))
    assert result.exit_code == 0, result.output
    return path


def lines_of(path: Path) -> list[Any]:
    """The export's lines, but when it started."""
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[0].pop("started")
    return lines


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_puzzles_and_events_come_back_from_an_export(source: Source, engine: str) -> None:
    first = export_of(source.url, source.prefix, source.tmp)
    lines = lines_of(first)
    kinds = [x["kind"] for x in lines]
    assert kinds == sorted(kinds, key=ORDER.index)  # in the documented order
    count = {k: kinds.count(k) for k in ORDER}
    assert count["puzzle"] == 2 and count["puzzle_attempt"] == 3 and count["puzzle_rating"] == 2
    assert count["puzzle_consent"] == 3 and count["event"] == 1 and count["event_entrant"] == 3
    assert count["event_game"] == 1 and count["event_bye"] == 1
    end = lines[-1]
    assert (end["puzzles"], end["events"]) == (2, 1)
    consents = [x["allowed"] for x in lines if x["kind"] == "puzzle_consent"]
    assert sorted(consents) == [False, True, True]
    (game,) = [x for x in lines if x["kind"] == "event_game"]
    assert game["state"] == "over" and sorted(game["ranks"]) == [0, 1]
    url, prefix = source.target(engine)
    result = tne("import", first, *db_args(url, prefix))
    assert result.exit_code == 0, result.output
    assert "with 2 puzzles and 1 live events" in result.output
    # exported again: the same file, every line
    assert lines_of(export_of(url, prefix, source.tmp)) == lines
    with LiveServer(data_dir=source.tmp, database_url=url, table_prefix=prefix) as srv:
        assert event_page(srv, source.event) == source.event_page
    # the database holds rows now: a second import is refused, and changes nothing
    again = tne("import", first, *db_args(url, prefix))
    assert again.exit_code == 1 and "not empty" in again.output


def test_an_import_refuses_a_database_holding_a_puzzle(source: Source) -> None:
    path = export_of(source.url, source.prefix, source.tmp)
    url, prefix = source.target("sqlite")
    target = Store(url, prefix)
    (puzzle,) = game_puzzles(7)[:1]
    target.puzzles.add("g1", [(puzzle_id("g1", puzzle["ply"]), puzzle)], time.time())
    result = tne("import", path, *db_args(url, prefix))
    assert result.exit_code == 1 and "puzzles hold rows" in result.output
    assert target.db.holding() == [target.db.tables.puzzles.name]
    target.close()
