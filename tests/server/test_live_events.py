"""Live events through real HTTP and websockets, on SQLite and on the real PostgreSQL: an
arena pairs its entrants at once and again after each game (not the same opponent twice in a
row while another is free), its standings are the games' results, a paused entrant is not
paired; a Swiss event plays its rounds with a bye for the odd one out and ends; who may make,
see and enter which event; the results export as a tournament record."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from accounting import AccountSeat, play_first_turns
from botting import Bot
from support.serving import PATIENCE, LiveServer, Player, postgres_or_skip
from tigris_euphrates.cli import app
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
PACE = {"base": 600, "increment": 5}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("events")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    kwargs: dict[str, Any] = {"data_dir": data, "limits": limits}
    if request.param == "sqlite":
        with LiveServer(database_url=f"sqlite:///{data}/t.sqlite3", **kwargs) as srv:
            yield srv
        return
    url = postgres_or_skip()
    prefix = f"e{uuid.uuid4().hex[:10]}_"
    try:
        with LiveServer(database_url=url, table_prefix=prefix, **kwargs) as srv:
            yield srv
    finally:
        Store(url, prefix).drop_all()


class Person(Player):
    """A signed-up player and its name."""

    def __init__(self, server: LiveServer, name: str) -> None:
        super().__init__(server)
        self.name = name


def person(server: LiveServer, stem: str, *, admin: bool = False) -> Person:
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    player = Person(server, name)
    player.sign_up(name, PASSWORD)
    if admin:
        store = server.app.state.hub.store
        store.moderation.set_admin(store.accounts.by_name(name).id, True)
    return player


def make(admin: Player, **spec: Any) -> dict[str, Any]:
    body = {"name": "Friday arena", "pace": PACE, "starts": time.time(), **spec}
    r = admin.post("/api/events", body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def page(p: Player, event: str) -> dict[str, Any]:
    r = p.http.get(f"/api/events/{event}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_game(p: Person, event: str, besides: frozenset[str] = frozenset()) -> str:
    """The player's event game under way, once the pairing made one (not in ``besides``)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        game = page(p, event)["me"]["game"]
        if game is not None and game not in besides:
            return str(game)
        time.sleep(0.1)
    raise AssertionError("no game was paired")


def seat(server: LiveServer, p: Person, game: str) -> AccountSeat:
    bound = p.http.get(f"/api/games/{game}").json()
    mine = next(s["seat"] for s in bound["seats"] if s.get("account") == p.name)
    return AccountSeat(server.ws_url, game, p.cookie_header(), {"seat": mine})


def finish(server: LiveServer, game: str, winner: Person, loser: Person) -> None:
    """Play the opening, then ``loser`` resigns."""
    seats = [seat(server, winner, game), seat(server, loser, game)]
    order = sorted(seats, key=lambda s: s.wait_view()["seat"])
    play_first_turns(order)
    seats[1].send({"type": "resign"})
    seats[0].wait_view(lambda m: m["view"]["over"])
    for s in seats:
        s.close()


def test_an_arena_pairs_again_after_each_game_and_its_standings_are_the_results(
    server: LiveServer, tmp_path: Path
) -> None:
    admin = person(server, "Adm", admin=True)
    people = [person(server, s) for s in ("Ann", "Bob", "Cy", "Dee")]
    ev = make(admin, kind="arena", minutes=30)
    assert ev["state"] == "scheduled" and ev["kind"] == "arena"
    for p in people:
        r = p.post(f"/api/events/{ev['id']}/join", {})
        assert r.status_code == 200, r.text
    ann, bob, cy, dee = people
    first = {p.name: wait_game(p, ev["id"]) for p in people}
    assert len(frozenset(first.values())) == 2  # two games of two
    summary = httpx.get(f"{server.url}/api/games/{first[ann.name]}").json()
    assert summary["rated"] is True
    opponent = next(p for p in people if p is not ann and first[p.name] == first[ann.name])
    others = [p for p in people if p not in (ann, opponent)]
    finish(server, first[ann.name], ann, opponent)
    finish(server, first[others[0].name], others[0], others[1])
    # everyone is paired again, and nobody with the opponent of their last game
    second = {p.name: wait_game(p, ev["id"], frozenset(first.values())) for p in people}
    assert second[ann.name] != second[opponent.name]
    view = page(ann, ev["id"])
    assert view["state"] == "running"
    points = {line["name"]: line["points"] for line in view["standings"]}
    assert points[ann.name] == "2" and points[opponent.name] == "0"
    assert points[others[0].name] == "2" and points[others[1].name] == "0"
    assert all(line["playing"] for line in view["standings"])
    # the record reads as a tournament's: `tne ratings` rates everyone from it
    rec = httpx.get(f"{server.url}/api/events/{ev['id']}/record").json()
    assert len(rec["results"]) == 2
    path = tmp_path / "event.json"
    path.write_text(json.dumps(rec))
    rated = CliRunner().invoke(app, ["ratings", str(path), "--out", str(tmp_path / "r.json")])
    assert rated.exit_code == 0, rated.output
    assert set(json.loads((tmp_path / "r.json").read_text())["ratings"]) == {p.name for p in people}
    # a paused entrant is not paired again after its game
    assert ann.post(f"/api/events/{ev['id']}/leave").json()["me"]["state"] == "paused"
    for p in (ann, bob, cy, dee):
        p.close()


def test_a_swiss_event_plays_its_rounds_with_a_bye_and_ends(server: LiveServer) -> None:
    admin = person(server, "Adm", admin=True)
    people = [person(server, s) for s in ("Eve", "Fay", "Gus")]
    ev = make(admin, kind="swiss", rounds=2, name="Swiss night", starts=time.time() + 2)
    for p in people:
        assert p.post(f"/api/events/{ev['id']}/join", {}).status_code == 200
    for n in (1, 2):
        paired = people
        games: dict[str, list[Person]] = {}
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline and not games:
            views = {p.name: page(p, ev["id"]) for p in paired}
            if all(v["round"] == n for v in views.values()):
                for p in paired:
                    g = views[p.name]["me"]["game"]
                    if g:
                        games.setdefault(g, []).append(p)
            time.sleep(0.1)
        assert len(games) == 1, games  # three entrants: one game and a bye
        ((game, (a, b)),) = games.items()
        bye = next(p for p in people if p not in (a, b))
        assert page(bye, ev["id"])["me"]["bye"] is True
        finish(server, game, a, b)
    deadline = time.monotonic() + PATIENCE
    while page(admin, ev["id"])["state"] != "finished":
        assert time.monotonic() < deadline, "the event did not end"
        time.sleep(0.1)
    final = page(admin, ev["id"])
    assert len(final["podium"]) == 3
    assert sum(line["score"] for line in final["standings"]) == 4  # two games and two byes
    assert final["tiebreaks"][0] == "buchholz"


def test_who_may_make_see_and_enter_an_event(server: LiveServer) -> None:
    admin = person(server, "Adm", admin=True)
    ann, bob = person(server, "Ann"), person(server, "Bob")
    # a player makes only private events; a public one is refused
    r = ann.post("/api/events", {"kind": "arena", "name": "Mine", "pace": PACE, "minutes": 30})
    assert r.status_code == 403 and r.json()["error"] == "admin-only"
    private = ann.post(
        "/api/events",
        {"kind": "arena", "name": "Friends", "pace": PACE, "minutes": 30, "private": True},
    ).json()
    assert private["invite"]
    assert private["id"] not in [
        e["id"] for e in httpx.get(f"{server.url}/api/events").json()["events"]
    ]
    assert bob.http.get(f"/api/events/{private['id']}").status_code == 404
    r = bob.post(f"/api/events/{private['id']}/join", {"invite": "wrong"})
    assert r.status_code == 404
    r = bob.post(f"/api/events/{private['id']}/join", {"invite": private["invite"]})
    assert r.status_code == 200 and r.json()["me"]["entered"] is True
    assert r.json()["invite"] is None  # only its maker is shown the code
    assert bob.http.get(f"/api/events/{private['id']}").status_code == 200  # an entrant sees it
    # the rating range is kept; bad events are refused with what is wrong
    ranged = make(admin, kind="arena", minutes=30, rating_min=1600)
    r = bob.post(f"/api/events/{ranged['id']}/join", {})
    assert r.status_code == 403 and r.json()["error"] == "rating-range"
    r = admin.post("/api/events", {"kind": "swiss", "name": "No rounds", "pace": PACE})
    assert r.status_code == 400 and "rounds" in r.json()["message"]
    assert httpx.get(f"{server.url}/api/events/000000000000").status_code == 404
    for p in (admin, ann, bob):
        p.close()


def test_bot_accounts_enter_only_where_allowed_and_play_unrated_labelled_games(
    server: LiveServer,
) -> None:
    admin = person(server, "Adm", admin=True)
    ann = person(server, "Ann")
    bot = Bot(server, "Robo")
    people_only = make(admin, kind="arena", minutes=30, starts=time.time() + 600)
    r = bot.api.post(f"/api/events/{people_only['id']}/join", json={})
    assert r.status_code == 403 and r.json()["error"] == "bot-not-allowed"
    ev = make(admin, kind="arena", minutes=30, bots=True)
    events = bot.events()
    assert bot.api.post(f"/api/events/{ev['id']}/join", json={}).status_code == 200
    assert ann.post(f"/api/events/{ev['id']}/join", {}).status_code == 200
    game = wait_game(ann, ev["id"])
    told = events.wait("game")  # the bot's event socket hears of its seat
    assert told["game"] == game and told["rated"] is False
    assert httpx.get(f"{server.url}/api/games/{game}").json()["rated"] is False
    lines = {line["name"]: line for line in page(ann, ev["id"])["standings"]}
    assert lines[bot.name]["bot"] is True and lines[ann.name]["bot"] is False
    events.close()
    for p in (admin, ann):
        p.close()


def test_a_recurring_event_schedules_its_next_occurrence_once_it_starts(
    server: LiveServer,
) -> None:
    admin = person(server, "Adm", admin=True)
    ann = person(server, "Ann")
    r = ann.post(
        "/api/events",
        {"kind": "arena", "name": "Hourly", "pace": PACE, "minutes": 30, "repeat_minutes": 60},
    )
    assert r.status_code == 403 and r.json()["error"] == "admin-only"
    ev = make(admin, kind="arena", name="Hourly", minutes=30, repeat_minutes=60)
    deadline = time.monotonic() + PATIENCE
    while True:
        listed = httpx.get(f"{server.url}/api/events").json()["events"]
        later = [e for e in listed if e["name"] == "Hourly" and e["id"] != ev["id"]]
        if later:
            break
        assert time.monotonic() < deadline, "no next occurrence"
        time.sleep(0.1)
    (nxt,) = later
    assert nxt["state"] == "scheduled" and nxt["starts"] == ev["starts"] + 3600
    assert nxt["repeat_minutes"] == 60
    admin.close()
    ann.close()


def test_an_event_name_with_control_characters_is_refused(server: LiveServer) -> None:
    admin = person(server, "Adm", admin=True)
    body = {"kind": "arena", "name": "Bad\u202ename", "pace": PACE, "minutes": 30}
    r = admin.post("/api/events", body)
    assert r.status_code == 422, r.text
    assert "control characters" in r.text
    admin.close()


def test_an_events_games_are_played_with_its_ruleset_and_variants(server: LiveServer) -> None:
    admin = person(server, "Adm", admin=True)
    ann, bob = person(server, "Ann"), person(server, "Bob")
    r = admin.post(
        "/api/events",
        {"kind": "arena", "name": "Nope", "pace": PACE, "minutes": 30, "options": {"nope": 1}},
    )
    assert r.status_code == 400 and "options" in r.json()["message"]
    ev = make(admin, kind="arena", minutes=30, options={"wonder": True, "buildings": True})
    assert ev["options"] == {"wonder": True, "buildings": True}
    galaxy = make(admin, kind="arena", minutes=30, ruleset="galaxy", starts=time.time() + 600)
    assert galaxy["options"] == {"ruleset": "galaxy"}
    for p in (ann, bob):
        assert p.post(f"/api/events/{ev['id']}/join", {}).status_code == 200
    game = wait_game(ann, ev["id"])
    options = httpx.get(f"{server.url}/api/games/{game}").json()["options"]
    assert options["wonder"] is True and options["buildings"] is True and options["players"] == 2
    for p in (admin, ann, bob):
        p.close()
