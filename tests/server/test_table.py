"""The table around a game, through real HTTP and websockets: which games the public lobby
lists, the not-found page, compressed answers, the table chat and the rematch."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.serving import PATIENCE, LiveServer, SeatClient
from tigris_euphrates.server.limits import Limits

#: The tests' HTTP client: it waits for an answer as long as the tests wait for any event.
http = httpx.Client(timeout=PATIENCE)

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("table")
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(games_per_minute=1000, games_per_client=1000, bot_games_per_client=1000),
    ) as srv:
        yield srv


def create(server: LiveServer, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    r = http.post(f"{server.url}/api/games", json={"seats": seats, **body})
    assert r.status_code == 200, r.text
    return r.json()


def lobby_ids(server: LiveServer) -> list[str]:
    return [g["id"] for g in http.get(f"{server.url}/api/games?limit=50").json()["games"]]


def chat_lines(client: SeatClient, count: int, timeout: float = PATIENCE) -> list[dict[str, Any]]:
    """The chat lines this client has received, once there are ``count`` of them."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [ln for f in client.frames if f.get("type") == "chat" for ln in f["lines"]]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        client.try_recv(0.2)


def test_only_games_their_creator_lists_are_in_the_public_lobby(server: LiveServer) -> None:
    friends = create(server, HUMANS)
    hotseat = create(server, [{"kind": "human"}, {"kind": "human"}])
    public = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], listed=True)
    ids = lobby_ids(server)
    assert public["id"] in ids
    assert friends["id"] not in ids and hotseat["id"] not in ids
    # an unlisted game is private, not secret from its link: it opens and can be watched
    summary = http.get(f"{server.url}/api/games/{friends['id']}")
    assert summary.status_code == 200 and summary.json()["seats"][0]["name"] == "Ann"
    r = http.post(f"{server.url}/api/games", json={"seats": HUMANS, "listed": "yes"})
    assert r.status_code == 422 and "listed" in r.json()["message"]


def test_unknown_games_and_paths_answer_a_404_page(server: LiveServer) -> None:
    for path in (
        "/game/000000000000",
        "/replay/ffffffffffff",
        "/game/no%20such",
        "/nowhere/at/all",
    ):
        r = http.get(server.url + path)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html") and "js/main.js" in r.text
    r = http.get(server.url + "/api/nothing")
    assert r.status_code == 404 and r.json()["error"] == "not-found"
    g = create(server, HUMANS)
    assert http.get(f"{server.url}/game/{g['id']}").status_code == 200


def test_pages_scripts_and_json_are_compressed(server: LiveServer) -> None:
    for path in ("/", "/static/js/game.js", "/static/style.css", "/api/catalogues/en/classic"):
        plain = http.get(server.url + path, headers={"Accept-Encoding": "identity"})
        br = http.get(server.url + path, headers={"Accept-Encoding": "gzip, deflate, br"})
        gz = http.get(server.url + path, headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in plain.headers, path
        assert br.headers["content-encoding"] == "br", path
        assert gz.headers["content-encoding"] == "gzip", path
        # the same bytes once decoded, in fewer bytes on the wire
        assert br.content == gz.content == plain.content, path
        assert int(br.headers["content-length"]) < len(plain.content), path


def test_table_chat_players_write_spectators_read(server: LiveServer) -> None:
    g = create(server, HUMANS)
    ann = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    watcher = SeatClient(server.ws_url, g["id"], None)
    ann.wait_view()
    watcher.wait_view()
    ann.send({"type": "chat", "text": "  <b>hello</b> & good luck  "})
    [line] = chat_lines(watcher, 1)
    # stored and sent as the text typed (trimmed): the page shows it as text, never as HTML
    assert line["text"] == "<b>hello</b> & good luck"
    assert line["name"] == "Ann" and line["seat"] == 0 and line["n"] == 1
    # a spectator reads but may not write; nothing is added
    watcher.send({"type": "chat", "text": "hi from the rail"})
    err = next(f for f in iter(lambda: watcher.recv(), None) if f["type"] == "error")
    assert err["code"] == "chat-closed" and "players" in err["message"]
    # too long, empty, control characters: refused with the reason, nothing stored
    for bad in ("x" * 301, "   ", "bell\x07"):
        ann.send({"type": "chat", "text": bad})
        err = next(f for f in iter(lambda: ann.recv(), None) if f["type"] == "error")
        assert err["code"] == "bad-message", bad
    # a burst, then the rate limit
    for i in range(6):
        ann.send({"type": "chat", "text": f"line {i}"})
    codes = []
    deadline = time.monotonic() + 5
    while "chat-too-fast" not in codes and time.monotonic() < deadline:
        f = ann.try_recv(0.5)
        if f and f["type"] == "error":
            codes.append(f["code"])
    assert "chat-too-fast" in codes
    # a new connection gets the chat so far (stored in the database)
    later = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    lines = chat_lines(later, 5)
    assert [ln["text"] for ln in lines] == ["<b>hello</b> & good luck"] + [
        f"line {i}" for i in range(4)
    ]
    stored = server.app.state.hub.store.chat.lines(g["id"])
    assert [ln.text for ln in stored] == [ln["text"] for ln in lines]
    for c in (ann, watcher, later):
        c.close()


def test_the_creator_sets_who_may_chat(server: LiveServer) -> None:
    everyone = create(server, HUMANS, chat="everyone")
    watcher = SeatClient(server.ws_url, everyone["id"], None)
    assert watcher.wait_view()["chat"] == "everyone"
    watcher.send({"type": "chat", "text": "nice move"})
    [line] = chat_lines(watcher, 1)
    assert line["seat"] is None and line["name"] == "Spectator"
    watcher.close()
    off = create(server, HUMANS, chat="off")
    ann = SeatClient(server.ws_url, off["id"], off["seats"][0]["token"])
    assert ann.wait_view()["chat"] == "off"
    ann.send({"type": "chat", "text": "hello?"})
    err = next(f for f in iter(lambda: ann.recv(), None) if f["type"] == "error")
    assert err["code"] == "chat-closed"
    ann.close()
    r = http.post(f"{server.url}/api/games", json={"seats": HUMANS, "chat": "shouting"})
    assert r.status_code == 422


def finished_game(server: LiveServer) -> dict[str, Any]:
    """A finished game with a person in seat 0 (handed to a bot, which played it out)."""
    g = create(
        server,
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random", "name": "Rex"}],
        seed=11,
        listed=True,
        chat="everyone",
    )
    tok = g["seats"][0]["token"]
    r = http.post(
        f"{server.url}/api/games/{g['id']}/seats/0/bot", json={"token": tok, "level": "random"}
    )
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while http.get(f"{server.url}/api/games/{g['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.3)
    return g


def test_rematch_same_settings_seats_rotated_one_click(server: LiveServer) -> None:
    g = finished_game(server)
    gid, tok = g["id"], g["seats"][0]["token"]
    watcher = SeatClient(server.ws_url, gid, None)
    assert watcher.wait_view()["rematch"] is None
    # only the game's players or creator ask; a stranger's token opens nothing
    r = http.post(f"{server.url}/api/games/{gid}/rematch", json={"token": "x" * 24})
    assert r.status_code == 403
    r = http.post(f"{server.url}/api/games/{gid}/rematch", json={"token": tok})
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    assert new != gid and r.json()["link"] == f"/game/{new}"
    # everybody at the old table hears of it at once
    assert watcher.wait_view(lambda m: m["rematch"] == new)["rematch"] == new
    # asking again (the other player, the creator) gives the same rematch
    again = http.post(
        f"{server.url}/api/games/{gid}/rematch", json={"token": g["creator_token"]}
    ).json()
    assert again["id"] == new
    old = http.get(f"{server.url}/api/games/{gid}").json()
    fresh = http.get(f"{server.url}/api/games/{new}").json()
    assert fresh["options"] == old["options"] and fresh["status"] == "active"
    # the same people, the next seat starts: Ann started the first game, Rex the rematch
    assert [(s["kind"], s["name"], s["level"]) for s in fresh["seats"]] == [
        ("bot", "Rex", "random"),
        ("human", "Ann", None),
    ]
    assert new in lobby_ids(server)
    # the old link's token opens the same person's seat of the new game
    ann = SeatClient(server.ws_url, new, tok)
    first = ann.wait_view()
    assert first["seat"] == 1 and first["chat"] == "everyone" and first["rematch"] is None
    # the creator's token still lets the creator manage the new table
    assert server.app.state.hub.games[new].table.is_creator(g["creator_token"])
    ann.close()
    watcher.close()


def test_no_rematch_before_the_end(server: LiveServer) -> None:
    g = create(server, HUMANS)
    r = http.post(
        f"{server.url}/api/games/{g['id']}/rematch", json={"token": g["seats"][0]["token"]}
    )
    assert r.status_code == 409 and r.json()["error"] == "not-over"


def _two_processes(tmp_path: Any) -> tuple[Any, Any, str, str]:
    """Two server processes on one PostgreSQL database (under a fresh table prefix)."""
    from support.serving import ServerProcess, postgres_or_skip

    url = postgres_or_skip()
    import uuid

    prefix = f"t{uuid.uuid4().hex[:10]}_"
    fast = {"messages_per_second": 10_000, "message_burst": 10_000}
    a = ServerProcess(tmp_path / "a", url, prefix, limits=fast)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=fast)
    return a, b, url, prefix


def finished_bot_game(url: str) -> dict[str, Any]:
    """A game of two random bots created through the server at ``url`` and played to its
    end (the creation's answer: its id and the creator's token)."""
    bots = [{"kind": "bot", "level": "random"}] * 2
    done: dict[str, Any] = http.post(f"{url}/api/games", json={"seats": bots}).json()
    deadline = time.monotonic() + 120
    while http.get(f"{url}/api/games/{done['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    return done


def test_chat_crosses_server_processes(tmp_path: Any) -> None:
    """On PostgreSQL with two processes, a line written through one reaches the readers on
    the other."""
    from tigris_euphrates.store import Store

    a, b, url, prefix = _two_processes(tmp_path)
    try:
        with a, b:
            g = http.post(f"{a.url}/api/games", json={"seats": HUMANS}).json()
            ann = SeatClient(a.ws_url, g["id"], g["seats"][0]["token"])
            watcher = SeatClient(b.ws_url, g["id"], None)
            ann.wait_view()
            watcher.wait_view()
            ann.send({"type": "chat", "text": "across"})
            [line] = chat_lines(watcher, 1)
            assert line["text"] == "across" and line["name"] == "Ann"
            ann.close()
            watcher.close()
    finally:
        Store(url, prefix).drop_all()


def test_rematch_is_announced_across_server_processes(tmp_path: Any) -> None:
    """On PostgreSQL with two processes, a rematch made through one is announced to the old
    table on the other."""
    from tigris_euphrates.store import Store

    a, b, url, prefix = _two_processes(tmp_path)
    try:
        with a, b:
            done = finished_bot_game(a.url)
            rail = SeatClient(b.ws_url, done["id"], None)
            rail.wait_view()
            r = http.post(
                f"{a.url}/api/games/{done['id']}/rematch", json={"token": done["creator_token"]}
            )
            new = r.json()["id"]
            assert rail.wait_view(lambda m: m["rematch"] == new)["rematch"] == new
            rail.close()
    finally:
        Store(url, prefix).drop_all()


def test_a_process_that_missed_announcements_reads_the_table_again(tmp_path: Any) -> None:
    """A rematch and a chat line stored by another process while this one was not listening
    (its connection to the database cut) still reach this process's spectators."""
    from support.serving import cut_listeners
    from tigris_euphrates.store import Store

    a, b, url, prefix = _two_processes(tmp_path)
    store = Store(url, prefix)
    try:
        with a, b:
            done = finished_bot_game(a.url)
            bots = [{"kind": "bot", "level": "random"}] * 2
            new = http.post(f"{a.url}/api/games", json={"seats": bots}).json()["id"]
            rail = SeatClient(b.ws_url, done["id"], None)
            assert rail.wait_view()["rematch"] is None
            # Written as another process would, with no announcement: only a process that
            # reads the table again can know.
            settings = store.games.settings(done["id"])
            store.games.set_settings(done["id"], {**settings, "rematch": new})
            store.chat.add(done["id"], 1, 0, "Ann", "good game")
            assert cut_listeners(url, prefix) == 2
            assert rail.wait_view(lambda m: m["rematch"] == new)["rematch"] == new
            assert [ln["text"] for ln in chat_lines(rail, 1)] == ["good game"]
            rail.close()
    finally:
        store.drop_all()
