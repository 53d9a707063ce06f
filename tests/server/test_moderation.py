"""Moderation end to end, on SQLite and on the real PostgreSQL: an admin made on the command
line (``tne admin grant``) bans, mutes, hides chat lines and aborts games through the web
API, and the other players see it (their connections, their sign-ins, their pages); a
non-admin is refused; the players' reports reach the admin's list. Then the same changes
made on the command line reach a running server on PostgreSQL, and are refused on SQLite
while a server holds the database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from accounting import AccountSeat
from support.serving import PATIENCE, LiveServer, Player, SeatClient, postgres_or_skip
from tigris_euphrates.cli import app as cli
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
REPORTS_PER_HOUR = 5


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("moderation")
    limits = Limits(
        games_per_minute=1000,
        games_per_client=1000,
        sign_ups_per_client=1000,
        reports_per_hour=REPORTS_PER_HOUR,
    )
    if request.param == "sqlite":
        url, prefix = f"sqlite:///{data}/t.sqlite3", ""
    else:
        url, prefix = postgres_or_skip(), f"m{uuid.uuid4().hex[:10]}_"
    srv = LiveServer(data_dir=data, database_url=url, table_prefix=prefix, limits=limits)
    srv.db_url, srv.prefix, srv.kind = url, prefix, request.param  # type: ignore[attr-defined]
    try:
        with srv:
            yield srv
    finally:
        if request.param == "postgresql":
            Store(url, prefix).drop_all()


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:6]}"


def tne_admin(server: LiveServer, *args: str) -> Any:
    """``tne admin ARGS`` on the server's database."""
    where = ["--database-url", server.db_url, "--table-prefix", server.prefix]  # type: ignore[attr-defined]
    return CliRunner().invoke(cli, ["admin", *args, *where])


def member(server: LiveServer, stem: str) -> tuple[Player, str]:
    p = Player(server)
    name = unique(stem)
    p.sign_up(name, PASSWORD)
    return p, name


def admin(server: LiveServer) -> Player:
    """A signed-in account made an admin on the command line."""
    p, name = member(server, "Mod")
    result = tne_admin(server, "grant", name)
    assert result.exit_code == 0, result.output
    assert "is an admin now" in result.output
    return p


class Table:
    """A two-seat game between two accounts, Bob (seat 0, to act first) and Cy (seat 1),
    each connected with their session and their seat's link."""

    def __init__(self, server: LiveServer, *, rated: bool = False) -> None:
        self.bob, self.bob_name = member(server, "Bob")
        self.cy, self.cy_name = member(server, "Cy")
        seats = [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]
        r = self.bob.post("/api/games", {"seats": seats, "rated": rated})
        assert r.status_code == 200, r.text
        self.game = r.json()
        self.id = self.game["id"]
        self.tokens = [s["token"] for s in self.game["seats"]]
        self.b = self.join(self.bob, 0)
        self.c = self.join(self.cy, 1)
        self.b.wait_view()
        self.c.wait_view()
        self.server = server

    def join(self, player: Player, seat: int) -> AccountSeat:
        return AccountSeat(
            player.server.ws_url, self.id, player.cookie_header(), {"token": self.tokens[seat]}
        )

    def close(self) -> None:
        for s in (self.b, self.c):
            s.close()


def wait_frame(seat: SeatClient, pred: Any, timeout: float = PATIENCE) -> dict[str, Any]:
    for _ in range(200):
        msg = seat.recv(timeout)
        if pred(msg):
            return msg
    raise AssertionError("no such frame")


def closed_with(seat: SeatClient) -> int:
    """Read until the server closes the connection; its close code."""
    try:
        for _ in range(200):
            seat.recv(30)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return exc.rcvd.code
    raise AssertionError("the connection stayed open")


def say(seat: SeatClient, text: str) -> None:
    seat.send({"type": "chat", "text": text})


def chat_of(seat: SeatClient, pred: Any) -> dict[str, Any]:
    return wait_frame(seat, lambda m: m["type"] == "chat" and pred(m))


# --- the admin role ----------------------------------------------------------------------


def test_a_non_admin_is_refused_everywhere_and_an_admin_made_on_the_command_line_is_not(
    server: LiveServer,
) -> None:
    t = Table(server)
    routes = [
        ("get", "/api/admin/reports", None),
        ("get", "/api/admin/accounts", None),
        ("post", f"/api/admin/accounts/{t.cy_name}/ban", {}),
        ("post", f"/api/admin/accounts/{t.cy_name}/mute", {}),
        ("post", f"/api/admin/games/{t.id}/chat/1/hide", {}),
        ("post", f"/api/admin/games/{t.id}/abort", {}),
        ("post", "/api/admin/reports/1", {"state": "resolved"}),
    ]
    guest = Player(server)
    for method, path, body in routes:
        r = t.bob.http.get(path) if method == "get" else t.bob.post(path, body)
        assert r.status_code == 403 and r.json()["error"] == "not-admin", (path, r.text)
        r = guest.http.get(path) if method == "get" else guest.post(path, body)
        assert r.status_code == 401 and r.json()["error"] == "sign-in", path
    # nothing changed: Cy is neither banned nor muted, the game goes on
    assert t.cy.sign_in(t.cy_name, PASSWORD).status_code == 200
    t.b.move(t.b.last["view"]["legal_actions"][0])  # type: ignore[index]
    assert t.c.wait_view(lambda m: m["seq"] == 1)["seq"] == 1
    # made an admin on the command line, the same session may now
    assert tne_admin(server, "grant", t.bob_name).exit_code == 0
    assert t.bob.http.get("/api/admin/reports").status_code == 200
    listed = t.bob.http.get("/api/admin/accounts").json()["accounts"]
    assert {"name": t.bob_name, "admin": True, "banned": None, "muted": None} in listed
    shown = tne_admin(server, "list")
    assert shown.exit_code == 0 and t.bob_name in shown.output
    # a post without the CSRF header is refused even to an admin
    r = t.bob.post(f"/api/admin/accounts/{t.cy_name}/mute", {}, csrf=False)
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    # revoked, refused again; an unknown name is said so
    assert tne_admin(server, "revoke", t.bob_name).exit_code == 0
    assert t.bob.http.get("/api/admin/reports").status_code == 403
    unknown = tne_admin(server, "grant", unique("Nobody"))
    assert unknown.exit_code == 1 and "no account named" in unknown.output
    t.close()


# --- ban ---------------------------------------------------------------------------------


def test_a_banned_account_cannot_sign_in_its_sessions_end_and_a_bot_plays_its_seat(
    server: LiveServer,
) -> None:
    mod = admin(server)
    t = Table(server)
    r = mod.post(f"/api/admin/accounts/{t.bob_name}/ban", {})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["banned"] is not None
    assert r.json()["seats"] == [{"game": t.id, "seat": 0}]
    # Bob's connection is told why and closed
    assert wait_frame(t.b, lambda m: m["type"] == "error")["code"] == "banned"
    assert closed_with(t.b) == 4403
    # Cy sees a bot take seat 0, and the bot plays its turn: the game goes on
    view = t.c.wait_view(lambda m: m["seats"][0]["kind"] == "bot")
    assert view["seats"][0]["away"] is True
    assert t.c.wait_view(lambda m: m["view"]["to_act"] == 1 and m["seq"] >= 3)
    # Bob's session ended; he cannot sign in again, nor open or take back his seat
    assert t.bob.me() is None
    r = Player(server).sign_in(t.bob_name, PASSWORD)
    assert r.status_code == 403 and r.json()["error"] == "banned"
    again = AccountSeat(server.ws_url, t.id, "", {"token": t.tokens[0]})
    assert again.recv()["code"] == "banned"
    assert closed_with(again) == 4403
    r = httpx.post(f"{server.url}/api/games/{t.id}/seats/0/human", json={"token": t.tokens[0]})
    assert r.status_code == 403 and r.json()["error"] == "banned"
    # an admin is not banned (revoke first); unbanned, Bob signs in (the bot keeps the seat)
    r = mod.post(f"/api/admin/accounts/{mod.me()['name']}/ban", {})
    assert r.status_code == 409 and r.json()["error"] == "is-admin"
    assert mod.post(f"/api/admin/accounts/{t.bob_name}/unban", {}).status_code == 200
    assert Player(server).sign_in(t.bob_name, PASSWORD).status_code == 200
    r = mod.post(f"/api/admin/accounts/{unique('Nobody')}/ban", {})
    assert r.status_code == 404 and r.json()["error"] == "no-player"
    t.close()


# --- mute --------------------------------------------------------------------------------


def test_a_muted_account_writes_in_no_chat(server: LiveServer) -> None:
    mod = admin(server)
    t = Table(server)
    assert mod.post(f"/api/admin/accounts/{t.bob_name}/mute", {}).status_code == 200
    say(t.b, "can you hear me")
    err = wait_frame(t.b, lambda m: m["type"] == "error")
    assert err["code"] == "muted" and "muted" in err["message"]
    # signed out, from his seat's link alone: still muted (the seat is bound to him)
    guest_bob = AccountSeat(server.ws_url, t.id, "", {"token": t.tokens[0]})
    guest_bob.wait_view()
    say(guest_bob, "and now")
    assert wait_frame(guest_bob, lambda m: m["type"] == "error")["code"] == "muted"
    # Cy writes, and reads none of Bob's lines
    say(t.c, "hello")
    lines = chat_of(t.c, lambda m: True)["lines"]
    assert [line["text"] for line in lines] == ["hello"]
    # unmuted, Bob writes again
    assert mod.post(f"/api/admin/accounts/{t.bob_name}/unmute", {}).status_code == 200
    say(guest_bob, "back")
    assert chat_of(t.c, lambda m: True)["lines"][0]["text"] == "back"
    guest_bob.close()
    t.close()


# --- hidden chat lines -------------------------------------------------------------------


def test_a_hidden_line_vanishes_from_every_connection_and_on_reload(server: LiveServer) -> None:
    mod = admin(server)
    t = Table(server)
    watcher = SeatClient(server.ws_url, t.id, None)
    watcher.wait_view()
    say(t.b, "good luck")
    chat_of(t.c, lambda m: m["lines"][-1]["text"] == "good luck")
    say(t.b, "something rude")
    for s in (t.c, watcher):
        chat_of(s, lambda m: m["lines"][-1]["text"] == "something rude")
    r = mod.post(f"/api/admin/games/{t.id}/chat/2/hide", {})
    assert r.status_code == 200, r.text
    for s in (t.c, watcher, t.b):
        frame = chat_of(s, lambda m: m["reset"])
        assert [line["text"] for line in frame["lines"]] == ["good luck"]
    # a page opened (or reloaded) now never gets it
    late = SeatClient(server.ws_url, t.id, None)
    frame = chat_of(late, lambda m: True)
    assert frame["reset"] and [line["text"] for line in frame["lines"]] == ["good luck"]
    # the next line keeps its own number
    say(t.b, "sorry")
    assert chat_of(t.c, lambda m: not m["reset"])["lines"][0]["n"] == 3
    # shown again, it is back; a line that does not exist is said so
    assert mod.post(f"/api/admin/games/{t.id}/chat/2/show", {}).status_code == 200
    frame = chat_of(watcher, lambda m: m["reset"])
    assert [line["n"] for line in frame["lines"]] == [1, 2, 3]
    r = mod.post(f"/api/admin/games/{t.id}/chat/9/hide", {})
    assert r.status_code == 404 and r.json()["error"] == "no-line"
    for s in (watcher, late):
        s.close()
    t.close()


# --- aborted games -----------------------------------------------------------------------


def test_an_aborted_game_refuses_moves_and_is_unrated(server: LiveServer) -> None:
    mod = admin(server)
    t = Table(server, rated=True)
    r = mod.post(f"/api/admin/games/{t.id}/abort", {})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["status"] == "aborted" and r.json()["game"]["rated"] is False
    for s in (t.b, t.c):
        view = s.wait_view(lambda m: m.get("aborted") is True)
        assert view["view"]["over"] is False
    t.b.move(t.b.last["view"]["legal_actions"][0])  # type: ignore[index]
    err = wait_frame(t.b, lambda m: m["type"] == "error")
    assert err["code"] == "game-aborted"
    t.b.send({"type": "undo", "seq": t.b.last["seq"]})  # type: ignore[index]
    assert wait_frame(t.b, lambda m: m["type"] == "error")["code"] == "game-aborted"
    summary = httpx.get(f"{server.url}/api/games/{t.id}").json()
    assert summary["status"] == "aborted" and summary["rated"] is False
    # unrated: no rating, not even when its end is processed again
    ratings = server.app.state.accounts.ratings
    assert ratings.rate_game(t.id) is False
    assert httpx.get(f"{server.url}/api/players/{t.bob_name}").json()["ratings"] == []
    mine = t.bob.http.get("/api/account/games").json()["games"]
    assert [(g["id"], g["status"], g["rated"]) for g in mine] == [(t.id, "aborted", False)]
    # once is enough; a reload still shows it
    r = mod.post(f"/api/admin/games/{t.id}/abort", {})
    assert r.status_code == 409 and r.json()["error"] == "game-aborted"
    late = SeatClient(server.ws_url, t.id, None)
    assert late.wait_view()["aborted"] is True
    late.close()
    t.close()


# --- reports -----------------------------------------------------------------------------


def test_players_report_lines_and_accounts_and_the_admin_reads_them(server: LiveServer) -> None:
    mod = admin(server)
    t = Table(server)
    say(t.c, "you are terrible")
    chat_of(t.b, lambda m: True)
    line = {"kind": "chat", "game": t.id, "n": 1, "reason": "insults"}
    r = t.bob.post("/api/reports", line)
    assert r.status_code == 200, r.text
    assert r.json()["report"]["state"] == "open"
    # one report per reporter and target
    r = t.bob.post("/api/reports", {**line, "reason": "again"})
    assert r.status_code == 409 and r.json()["error"] == "already-reported"
    account = {"kind": "account", "name": t.cy_name, "reason": "rude all game"}
    assert t.bob.post("/api/reports", account).status_code == 200
    # signed in, with the CSRF header, about something that exists, not oneself
    assert Player(server).post("/api/reports", account).status_code == 401
    assert t.bob.post("/api/reports", account, csrf=False).status_code == 403
    r = t.bob.post("/api/reports", {**line, "n": 7})
    assert r.status_code == 404 and r.json()["error"] == "no-line"
    r = t.bob.post("/api/reports", {"kind": "account", "name": t.bob_name, "reason": "me"})
    assert r.status_code == 400 and r.json()["error"] == "bad-report"
    for bad in ({**line, "reason": "   "}, {"kind": "chat", "name": t.cy_name, "reason": "x"}):
        assert t.bob.post("/api/reports", bad).status_code == 422
    # at most REPORTS_PER_HOUR attempts an hour
    r = t.bob.post("/api/reports", {**line, "n": 8})
    assert r.status_code == 429 and r.json()["error"] == "rate-limited"
    assert "retry-after" in r.headers
    # the admin's list: who reported what, when, why, its state
    found = mod.http.get("/api/admin/reports").json()["reports"]
    mine = [x for x in found if x["reporter"] == t.bob_name]
    assert [x["kind"] for x in mine] == ["account", "chat"]
    acc, chat = mine
    assert acc["account"] == t.cy_name and acc["reason"] == "rude all game"
    assert chat["game"] == t.id and chat["n"] == 1 and chat["account"] == t.cy_name
    assert chat["line"]["text"] == "you are terrible" and chat["line"]["hidden"] is False
    assert chat["state"] == "open" and chat["created"] > 0
    # closed, it leaves the open list; the command line lists it too
    r = mod.post(f"/api/admin/reports/{chat['id']}", {"state": "resolved"})
    assert r.status_code == 200
    open_ids = {x["id"] for x in mod.http.get("/api/admin/reports").json()["reports"]}
    assert chat["id"] not in open_ids and acc["id"] in open_ids
    done = mod.http.get("/api/admin/reports", params={"state": "resolved"}).json()["reports"]
    assert [x["closed_by"] for x in done if x["id"] == chat["id"]] == [mod.me()["name"]]
    shown = tne_admin(server, "reports", "--state", "all")
    assert shown.exit_code == 0 and "insults" in shown.output and "rude all game" in shown.output
    assert tne_admin(server, "close", str(acc["id"]), "--state", "dismissed").exit_code == 0
    r = mod.post("/api/admin/reports/999999", {"state": "resolved"})
    assert r.status_code == 404
    t.close()


# --- the command line on a running server ------------------------------------------------


@pytest.mark.parametrize("server", ["postgresql"], indirect=True)
def test_the_command_line_reaches_a_running_server_on_postgresql(server: LiveServer) -> None:
    t = Table(server)
    say(t.b, "first")
    say(t.b, "second")
    chat_of(t.c, lambda m: m["lines"][-1]["text"] == "second")
    hidden = tne_admin(server, "hide", t.id, "2")
    assert hidden.exit_code == 0, hidden.output
    frame = chat_of(t.c, lambda m: m["reset"])
    assert [line["text"] for line in frame["lines"]] == ["first"]
    banned = tne_admin(server, "ban", t.bob_name)
    assert banned.exit_code == 0, banned.output
    assert f"game {t.id}: a bot plays seat 0" in banned.output
    assert closed_with(t.b) == 4403
    t.c.wait_view(lambda m: m["seats"][0]["kind"] == "bot")
    assert Player(server).sign_in(t.bob_name, PASSWORD).json()["error"] == "banned"
    other = Table(server)
    aborted = tne_admin(server, "abort", other.id)
    assert aborted.exit_code == 0, aborted.output
    assert other.c.wait_view(lambda m: m.get("aborted") is True)
    assert httpx.get(f"{server.url}/api/games/{other.id}").json()["status"] == "aborted"
    again = tne_admin(server, "abort", other.id)
    assert again.exit_code == 1 and "aborted already" in again.output
    t.close()
    other.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_the_command_line_refuses_live_changes_on_sqlite_while_a_server_runs(
    server: LiveServer,
) -> None:
    t = Table(server)
    for args in (("ban", t.bob_name), ("abort", t.id), ("hide", t.id, "1")):
        result = tne_admin(server, *args)
        assert result.exit_code == 1 and "web API" in result.output, args
    # nothing changed
    assert Player(server).sign_in(t.bob_name, PASSWORD).status_code == 200
    assert httpx.get(f"{server.url}/api/games/{t.id}").json()["status"] == "active"
    # what needs no live change works while the server runs
    assert tne_admin(server, "mute", t.bob_name).exit_code == 0
    say(t.b, "hello")
    assert wait_frame(t.b, lambda m: m["type"] == "error")["code"] == "muted"
    t.close()


def test_the_command_line_on_a_stopped_sqlite_server(tmp_path) -> None:
    """With no server running, a ban and an abort are written to the database; the server
    started afterwards shows them."""
    url = f"sqlite:///{tmp_path}/t.sqlite3"
    with LiveServer(data_dir=tmp_path, database_url=url) as srv:
        srv.db_url, srv.prefix = url, ""  # type: ignore[attr-defined]
        t = Table(srv)
        other = Table(srv)
        t.close()
        other.close()
    stopped = LiveServer(data_dir=tmp_path, database_url=url)
    stopped.db_url, stopped.prefix = url, ""  # type: ignore[attr-defined]
    result = tne_admin(stopped, "ban", t.bob_name)
    assert result.exit_code == 0 and f"game {t.id}: a bot plays seat 0" in result.output
    assert tne_admin(stopped, "abort", other.id).exit_code == 0
    with stopped:
        summary = httpx.get(f"{stopped.url}/api/games/{t.id}").json()
        assert summary["seats"][0]["kind"] == "bot" and summary["status"] == "active"
        assert httpx.get(f"{stopped.url}/api/games/{other.id}").json()["status"] == "aborted"
        assert Player(stopped).sign_in(t.bob_name, PASSWORD).json()["error"] == "banned"


@pytest.mark.parametrize("server", ["postgresql"], indirect=True)
def test_a_ban_on_the_command_line_aborts_a_rated_games_opening(server: LiveServer) -> None:
    t = Table(server, rated=True)
    t.c.wait_view(lambda m: all(s["account"] for s in m["seats"]))
    banned = tne_admin(server, "ban", t.cy_name)
    assert banned.exit_code == 0, banned.output
    stopped = t.b.wait_view(lambda m: m.get("aborted") is True)
    assert stopped["aborted_by"] == 1 and stopped["aborted_why"] == "bot"
    assert [s["kind"] for s in stopped["seats"]] == ["human", "human"]  # no bot took it
    summary = httpx.get(f"{server.url}/api/games/{t.id}").json()
    assert summary["status"] == "aborted" and summary["rated"] is False
    t.close()
