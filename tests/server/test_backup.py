"""The operator's backup end to end, on SQLite and on the real PostgreSQL: games played on a
server (a rated game between accounts, a bot game, a resigned game, an unfinished timed game
with an undo and chat) are exported with ``tne export``, imported with ``tne import`` into an
empty database, and a server on that database serves the same records, leaderboard and
profiles and lets the unfinished game go on. An export cut short and resumed is the whole
export; an import refuses a non-empty database and a game that does not replay; the file
holds no password hash, session key or seat token."""

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

from accounting import AccountSeat, play_to_end
from support.serving import LiveServer, Player, SeatClient, postgres_or_skip
from tigris_euphrates.cli import app
from tigris_euphrates.server.backup import export
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
LIMITS = Limits(games_per_minute=1000, games_per_client=1000, bot_games_per_client=1000)


@dataclass
class Played:
    """A source database with games played on it, and what its server answered."""

    engine: str
    url: str
    prefix: str
    tmp: Path
    names: list[str]
    finished: list[str] = field(default_factory=list)
    records: dict[str, Any] = field(default_factory=dict)
    board: Any = None
    profiles: dict[str, Any] = field(default_factory=dict)
    open_game: str = ""
    tokens: list[str] = field(default_factory=list)
    open_view: Any = None
    chat: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    targets: list[tuple[str, str]] = field(default_factory=list)
    moderation: Any = None

    def target(self) -> tuple[str, str]:
        """A new empty database on the same engine: (url, prefix)."""
        if self.engine == "sqlite":
            folder = self.tmp / f"target-{uuid.uuid4().hex[:6]}"
            folder.mkdir()
            return f"sqlite:///{folder}/tne.sqlite3", ""
        target = (self.url, f"r{uuid.uuid4().hex[:10]}_")
        self.targets.append(target)
        return target


def tne(*args: str) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def db_args(url: str, prefix: str) -> list[str]:
    return ["--database-url", url] + (["--table-prefix", prefix] if prefix else [])


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Played]:
    tmp = tmp_path_factory.mktemp("backup")
    if request.param == "sqlite":
        url, prefix = f"sqlite:///{tmp}/source.sqlite3", ""
    else:
        url, prefix = postgres_or_skip(), f"b{uuid.uuid4().hex[:10]}_"
    p = Played(request.param, url, prefix, tmp, [f"Ann{uuid.uuid4().hex[:5]}", "Bob"])
    p.names[1] = f"Bob{uuid.uuid4().hex[:5]}"
    try:
        with LiveServer(data_dir=tmp, database_url=url, table_prefix=prefix, limits=LIMITS) as srv:
            play(srv, p)
            p.secrets.append(srv.app.state.hub.store.accounts.secret("session-key"))
        yield p
    finally:
        if request.param == "postgresql":
            for t_url, t_prefix in [(url, prefix), *p.targets]:
                Store(t_url, t_prefix).drop_all()


def play(srv: LiveServer, p: Played) -> None:
    """A rated game between two accounts (Ann follows Bob, Bob blocked Ann), a bot game, a
    game one player resigned, and an unfinished timed game with an undo and two chat lines;
    what the server answered about them."""
    ann, bob = Player(srv), Player(srv)
    ann.sign_up(p.names[0], PASSWORD)
    bob.sign_up(p.names[1], PASSWORD)
    assert ann.post("/api/social/follow", {"name": p.names[1]}).status_code == 200
    assert bob.post("/api/social/block", {"name": p.names[0]}).status_code == 200
    p.secrets += [ann.http.cookies["tne_session"], bob.http.cookies["tne_session"]]
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    rated = ann.post("/api/games", {"seats": humans, "rated": True}).json()
    t0, t1 = (s["token"] for s in rated["seats"])
    a = AccountSeat(srv.ws_url, rated["id"], ann.cookie_header(), {"token": t0})
    b = AccountSeat(srv.ws_url, rated["id"], bob.cookie_header(), {"token": t1})
    assert play_to_end([a, b])["view"]["over"]
    # a rated game Bob resigned before anyone moved: aborted, unrated
    aborted = ann.post("/api/games", {"seats": humans, "rated": True}).json()
    a2 = AccountSeat(
        srv.ws_url, aborted["id"], ann.cookie_header(), {"token": aborted["seats"][0]["token"]}
    )
    b2 = AccountSeat(
        srv.ws_url, aborted["id"], bob.cookie_header(), {"token": aborted["seats"][1]["token"]}
    )
    a2.wait_view()
    b2.wait_view()
    b2.send({"type": "resign"})
    a2.wait_view(lambda m: m.get("aborted"))
    p.secrets += [s["token"] for s in aborted["seats"]] + [aborted["creator_token"]]
    bots = [{"kind": "bot", "level": "random"}] * 2
    bot_game = httpx.post(f"{srv.url}/api/games", json={"seats": bots}).json()
    resigned = httpx.post(f"{srv.url}/api/games", json={"seats": humans}).json()
    quitter = SeatClient(srv.ws_url, resigned["id"], resigned["seats"][1]["token"])
    quitter.wait_view()
    quitter.send({"type": "resign"})
    quitter.wait_view(lambda m: m["view"]["over"])
    quitter.close()
    p.secrets += [s["token"] for s in resigned["seats"]]
    timed = httpx.post(
        f"{srv.url}/api/games",
        json={"seats": humans, "pace": {"kind": "realtime", "base": 3600, "increment": 10}},
    ).json()
    p.open_game, p.tokens = timed["id"], [s["token"] for s in timed["seats"]]
    p.secrets += [t0, t1, rated["creator_token"], timed["creator_token"], *p.tokens]
    seat = SeatClient(srv.ws_url, p.open_game, p.tokens[0])
    view = seat.wait_view()["view"]
    seat.move(view["legal_actions"][0], 0)
    seat.wait_view(lambda m: m["seq"] == 1)
    seat.send({"type": "undo", "seq": 1})
    view = seat.wait_view(lambda m: m["seq"] == 2)["view"]
    seat.move(view["legal_actions"][-1], 2)
    seat.wait_view(lambda m: m["seq"] == 3)
    for text in ("good luck", "have fun"):
        seat.send({"type": "chat", "text": text})
        deadline = time.monotonic() + 10
        while text not in [ln["text"] for ln in chat_of(seat)]:
            assert time.monotonic() < deadline, "the chat line did not come back"
            seat.try_recv(0.2)
    p.chat = [ln["text"] for ln in chat_of(seat)]
    # moderation (Ann an admin, Bob muted, reported by Ann) and a hint taken in the open game
    store = srv.app.state.hub.store
    ann_id, bob_id = ann.me()["id"], bob.me()["id"]
    store.moderation.set_admin(ann_id, True)
    store.moderation.set_muted(bob_id, True)
    store.moderation.report(ann_id, "account", "rude", account_id=bob_id)
    assert store.hints.take(p.open_game, 0, 20) == 1
    p.moderation = store.moderation.dump()
    p.finished = [rated["id"], bot_game["id"], resigned["id"], aborted["id"]]
    deadline = time.monotonic() + 120
    while httpx.get(f"{srv.url}/api/games/{bot_game['id']}/record").status_code != 200:
        assert time.monotonic() < deadline, "the bot game did not end"
        time.sleep(0.2)
    for game_id in p.finished:
        p.records[game_id] = httpx.get(f"{srv.url}/api/games/{game_id}/record").json()
    p.board = board(srv)
    for name in p.names:
        p.profiles[name] = httpx.get(f"{srv.url}/api/players/{name}").json()
    p.open_view = open_view(srv, p)
    for client in (a, b, a2, b2, seat, ann, bob):
        client.close()


def board(srv: LiveServer) -> Any:
    """The leaderboard, but when it was answered."""
    answer = httpx.get(f"{srv.url}/api/leaderboard").json()
    answer.pop("updated")
    return answer


def chat_of(client: SeatClient) -> list[dict[str, Any]]:
    return [ln for f in client.frames if f.get("type") == "chat" for ln in f["lines"]]


def open_view(srv: LiveServer, p: Played) -> Any:
    r = httpx.get(f"{srv.url}/api/games/{p.open_game}/view", params={"token": p.tokens[0]})
    return r.json()


def export_file(p: Played, name: str = "backup.jsonl") -> Path:
    path = p.tmp / f"{uuid.uuid4().hex[:6]}-{name}"
    result = tne("export", path, *db_args(p.url, p.prefix))
    assert result.exit_code == 0, result.output
    return path


def test_an_import_serves_the_same_games_ratings_and_profiles(played: Played) -> None:
    path = export_file(played)
    text = path.read_text()
    # no secret: no password hash, session key or cookie, no seat or creator token
    assert "$argon2" not in text and "password" not in text
    for secret in played.secrets:
        assert secret not in text
    assert path.stat().st_mode & 0o077 == 0  # it holds the unfinished games' secrets
    url, prefix = played.target()
    result = tne("import", path, *db_args(url, prefix))
    assert result.exit_code == 0, result.output
    assert "imported 5 games, 2 accounts and 2 ratings" in result.output
    with LiveServer(data_dir=played.tmp, database_url=url, table_prefix=prefix) as srv:
        for game_id in played.finished:
            record = httpx.get(f"{srv.url}/api/games/{game_id}/record").json()
            assert record == played.records[game_id]
            assert record["seed_source"] == "server"
        assert board(srv) == played.board
        for name in played.names:
            assert httpx.get(f"{srv.url}/api/players/{name}").json() == played.profiles[name]
        # the unfinished game: the same position, chat and clock, and it goes on
        assert open_view(srv, played) == played.open_view
        seat = SeatClient(srv.ws_url, played.open_game, played.tokens[0])
        frame = seat.wait_view()
        assert [ln["text"] for ln in chat_of(seat)] == played.chat
        assert frame["clock"] is not None and frame["seq"] == 3
        seat.move(frame["view"]["legal_actions"][0], 3)
        assert seat.wait_view(lambda m: m["seq"] == 4)["seq"] == 4
        seat.close()
        # the accounts came back without their passwords, until the operator sets one
        ann = Player(srv)
        assert ann.sign_in(played.names[0], PASSWORD).json()["error"] == "sign-in-failed"
        result = CliRunner().invoke(
            app,
            ["set-password", played.names[0].upper(), "--stdin", *db_args(url, prefix)],
            input="a new password 42\n",
        )
        assert result.exit_code == 0, result.output
        assert ann.sign_in(played.names[0], "a new password 42").status_code == 200
        assert ann.me()["name"] == played.names[0]
        ann.close()
        # new accounts take new ids (on PostgreSQL the ids' sequence goes on after the import)
        cy = Player(srv)
        assert cy.sign_up(f"Cy{uuid.uuid4().hex[:5]}", PASSWORD)["account"]["id"] == 3
        cy.close()
    # the moderators, mutes and reports, and the hints taken, came back too
    target = Store(url, prefix)
    assert target.moderation.dump() == played.moderation
    assert target.moderation.standing(played.moderation[0][0]["account_id"]).admin
    assert target.hints.used(played.open_game, 0) == 1
    # a second import into that database is refused and changes nothing
    again = tne("import", path, *db_args(url, prefix))
    assert again.exit_code == 1 and "not empty" in again.output
    assert len(Store(url, prefix).games.ids()) == 5


def test_an_export_cut_short_and_resumed_is_the_whole_export(played: Played) -> None:
    store = Store(played.url, played.prefix)
    whole = played.tmp / f"{uuid.uuid4().hex[:6]}-whole.jsonl"
    export(store, whole, page=1)
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    assert [json.loads(x)["kind"] for x in lines].count("game") == 5
    # cut inside the header, after it, inside each game, among the accounts, before the end
    cuts = {10, len(lines[0])}
    cuts |= {sum(len(x) for x in lines[:n]) + 7 for n in range(1, len(lines))}
    cuts |= {len(data) - len(lines[-1])}
    for cut in sorted(cuts):
        path = played.tmp / f"{uuid.uuid4().hex[:6]}-cut.jsonl"
        path.write_bytes(data[:cut])
        result = tne("export", path, "--resume", *db_args(played.url, played.prefix))
        assert result.exit_code == 0, result.output
        assert strip_time(path.read_bytes()) == strip_time(data), cut
    # a whole export is left alone; without --resume an existing file is refused
    result = tne("export", whole, "--resume", *db_args(played.url, played.prefix))
    assert "complete already" in result.output and whole.read_bytes() == data
    result = tne("export", whole, *db_args(played.url, played.prefix))
    assert result.exit_code == 1 and "--resume" in result.output
    store.close()


def strip_time(data: bytes) -> list[Any]:
    """The export's lines, but when it started."""
    lines = [json.loads(x) for x in data.splitlines()]
    lines[0].pop("started")
    return lines


def test_an_export_of_some_games_holds_those(played: Played) -> None:
    path = played.tmp / f"{uuid.uuid4().hex[:6]}-some.jsonl"
    result = tne("export", path, "--game", played.open_game, *db_args(played.url, played.prefix))
    assert result.exit_code == 0, result.output
    games = [x for x in map(json.loads, path.read_text().splitlines()) if x["kind"] == "game"]
    assert [g["id"] for g in games] == [played.open_game]
    # the seed and whole log of the unfinished game, undo included, and its record
    game = games[0]
    assert [entry[2] for entry in game["log"]][1] == "undo" and game["record"]["seed"]
    assert game["clock"]["pace"]["kind"] == "realtime" and len(game["chat"]) == 2
    later = played.tmp / f"{uuid.uuid4().hex[:6]}-later.jsonl"
    result = tne("export", later, "--since", "2999-01-01", *db_args(played.url, played.prefix))
    assert result.exit_code == 0 and "exported 0 games" in result.output
    result = tne("export", later, "--until", "yesterday", *db_args(played.url, played.prefix))
    assert result.exit_code == 2 and "--until" in result.output


def test_a_game_that_does_not_replay_stops_the_import_or_is_skipped(played: Played) -> None:
    lines = [json.loads(x) for x in export_file(played).read_text().splitlines()]
    bad = next(x for x in lines if x["kind"] == "game" and x["id"] == played.finished[1])
    bad["log"][5][2] = "pass" if bad["log"][5][2] != "pass" else "tile red a1"
    path = played.tmp / f"{uuid.uuid4().hex[:6]}-bad.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    url, prefix = played.target()
    result = tne("import", path, *db_args(url, prefix))
    assert result.exit_code == 1 and played.finished[1] in result.output
    assert Store(url, prefix).db.holding() == []  # nothing was written
    result = tne("import", path, "--skip-bad", *db_args(url, prefix))
    assert result.exit_code == 0 and f"skipped game {played.finished[1]}" in result.output
    kept = [played.finished[0], played.finished[2], played.finished[3], played.open_game]
    assert sorted(Store(url, prefix).games.ids()) == sorted(kept)


def test_an_export_cut_short_is_not_imported(played: Played) -> None:
    data = export_file(played).read_bytes()
    path = played.tmp / f"{uuid.uuid4().hex[:6]}-short.jsonl"
    path.write_bytes(data[: len(data) // 2])
    url, prefix = played.target()
    result = tne("import", path, *db_args(url, prefix))
    assert result.exit_code == 1 and "--resume" in result.output
    assert Store(url, prefix).db.holding() == []


def test_an_export_moves_a_database_to_the_other_engine(played: Played) -> None:
    """SQLite to PostgreSQL and back: the same games, accounts and ratings."""
    path = export_file(played)
    if played.engine == "sqlite":
        url, prefix = postgres_or_skip(), f"r{uuid.uuid4().hex[:10]}_"
        played.targets.append((url, prefix))
    else:
        folder = played.tmp / f"other-{uuid.uuid4().hex[:6]}"
        folder.mkdir()
        url, prefix = f"sqlite:///{folder}/tne.sqlite3", ""
    result = tne("import", path, *db_args(url, prefix))
    assert result.exit_code == 0, result.output
    source, target = Store(played.url, played.prefix), Store(url, prefix)
    assert target.games.backup.dump(limit=10) == source.games.backup.dump(limit=10)
    assert target.ratings.dump() == source.ratings.dump()
    assert target.accounts.dump() == source.accounts.dump()
    social = source.social.dump()
    assert [(x["follows"] != [], x["blocks"] != []) for x in social] == [
        (True, False),
        (False, True),
    ]
    assert target.social.dump() == social
    source.close()
    target.close()


def test_an_export_runs_beside_a_running_server(played: Played) -> None:
    with LiveServer(
        data_dir=played.tmp, database_url=played.url, table_prefix=played.prefix
    ) as srv:
        assert httpx.get(f"{srv.url}/api/games/{played.open_game}").status_code == 200
        path = export_file(played)
    assert path.read_text().count('"kind":"game"') == 5
