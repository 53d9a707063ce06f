"""The server through real HTTP and websockets: views per seat, refusals, tokens, undo."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from support.serving import LiveServer, SeatClient
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.responses import STATIC
from tigris_euphrates.stats import record_stats


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("data")
    # seeded games of two people: positions the tests know (never on a public server)
    # this module creates more games than the per-address limit of a minute allows
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        client_seeds=True,
        limits=Limits(games_per_minute=1000, games_per_client=1000),
    ) as srv:
        yield srv


def create(server: LiveServer, seats: list[dict], seed: int = 7, **options) -> dict:
    r = httpx.post(
        f"{server.url}/api/games", json={"seats": seats, "seed": seed, "options": options}
    )
    assert r.status_code == 200, r.text
    return r.json()


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_lobby_meta_and_page(server: LiveServer) -> None:
    meta = httpx.get(f"{server.url}/api/meta").json()
    assert "random" in meta["bot_levels"] and meta["default_level"] in meta["bot_levels"]
    page = httpx.get(f"{server.url}/")
    assert page.status_code == 200 and "js/main.js" in page.text
    assert httpx.get(f"{server.url}/static/js/main.js").status_code == 200
    # the page asks for every module at once (a module no page preloads would load late)
    modules = sorted(p.name for p in (STATIC / "js").glob("*.js"))
    preloaded = sorted(re.findall(r'rel="modulepreload" href="/static/js/([a-z]+\.js)"', page.text))
    assert preloaded == modules
    for name in modules:
        assert httpx.get(f"{server.url}/static/js/{name}").status_code == 200
    g = httpx.post(f"{server.url}/api/games", json={"seats": HUMANS, "listed": True}).json()
    assert httpx.get(f"{server.url}/game/{g['id']}").status_code == 200
    assert g["id"] in [x["id"] for x in httpx.get(f"{server.url}/api/games").json()["games"]]


def test_bad_requests(server: LiveServer) -> None:
    r = httpx.post(f"{server.url}/api/games", json={"seats": HUMANS, "options": {"board": "moon"}})
    assert r.status_code == 400 and "board" in r.json()["message"]
    r = httpx.post(f"{server.url}/api/games", json={"seats": [{"kind": "bot", "level": "x"}] * 2})
    assert r.status_code == 400 and r.json()["error"] == "bad-level"
    assert httpx.get(f"{server.url}/api/games/nope").status_code == 404


@pytest.mark.parametrize(
    "options",
    [
        {"wonder": True},
        {"buildings": True},
        {"wonder": True, "buildings": True, "board": "advanced", "english_variant": True},
        {"ruleset": "galaxy", "open_scoring": True},
        {"ruleset": "galaxy", "board": "advanced", "english_variant": True},
    ],
)
def test_every_variant_reaches_the_engine(server: LiveServer, options: dict) -> None:
    """The lobby's options go to the engine as sent: the game, its summary and every
    view (what the page shows as the options in force) carry them."""
    g = create(server, HUMANS, **options)
    summary = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    spectator = SeatClient(server.ws_url, g["id"], None)
    view = spectator.wait_view()["view"]
    spectator.close()
    for key, value in options.items():
        assert summary["options"][key] == value
        assert view["options"][key] == value
    assert ("buildings" in view) == bool(options.get("buildings"))


@pytest.mark.parametrize("variant", ["wonder", "buildings"])
def test_a_variant_the_galaxy_refuses_is_a_400_that_says_why(
    server: LiveServer, variant: str
) -> None:
    r = httpx.post(
        f"{server.url}/api/games",
        json={"seats": HUMANS, "options": {"ruleset": "galaxy", variant: True}},
    )
    assert r.status_code == 400
    assert r.json()["error"] == "bad-option"
    assert variant in r.json()["message"] and "galaxy" in r.json()["message"]
    r = httpx.post(f"{server.url}/api/games", json={"seats": HUMANS, "options": {"ruleset": "x"}})
    assert r.status_code == 400 and "ruleset" in r.json()["message"]


def test_the_catalogues_are_served(server: LiveServer) -> None:
    listing = httpx.get(f"{server.url}/api/catalogues").json()
    assert {"classic", "galaxy"} <= set(listing["themes"]) and "en" in listing["languages"]
    galaxy = httpx.get(f"{server.url}/api/catalogues/en/galaxy").json()
    assert galaxy["words"]["treasure"] == "alien artifact"
    assert galaxy["terms"]["leader"]["blue"] == "mining foreman"
    missing = httpx.get(f"{server.url}/api/catalogues/en/steampunk")
    assert missing.status_code == 404 and "steampunk" in missing.json()["message"]
    assert {"en", "de", "fr"} <= set(listing["languages"])
    assert listing["names"]["de"] == "Deutsch" and listing["names"]["fr"] == "Français"
    german = httpx.get(f"{server.url}/api/catalogues/de/galaxy").json()
    assert german["language"] == "de" and german["words"]["treasure"] == "Alien-Artefakt"
    french = httpx.get(f"{server.url}/api/catalogues/fr/classic").json()
    assert french["terms"]["leader"]["black"] == "roi"
    assert httpx.get(f"{server.url}/api/catalogues/xx/classic").status_code == 404
    facts = {r["name"]: r for r in httpx.get(f"{server.url}/api/meta").json()["rulesets"]}
    # the page reads each ruleset's facts, not its name
    assert facts["galaxy"]["theme"] == "galaxy" and facts["galaxy"]["family"] == "galaxy"
    assert not facts["galaxy"]["monuments"] and not facts["galaxy"]["wonder"]
    assert facts["classic"]["wonder"] and facts["classic"]["boards"] == ["standard", "advanced"]


def test_two_seats_get_different_views(server: LiveServer) -> None:
    g = create(server, HUMANS)
    a = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    b = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    va, vb = a.wait_view()["view"], b.wait_view()["view"]
    assert va["seat"] == 0 and vb["seat"] == 1
    assert "hand" in va["players"][0] and "hand" not in va["players"][1]
    assert "hand" in vb["players"][1] and "hand" not in vb["players"][0]
    assert va["legal_actions"] and not vb["legal_actions"]  # seat 0 starts
    a.close()
    b.close()


def test_stale_and_illegal_moves_get_errors_only_to_the_sender(server: LiveServer) -> None:
    g = create(server, HUMANS)
    a = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    b = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    first = a.wait_view()
    b.wait_view()
    b.drain()
    a.drain()
    # illegal: a tile on a river cell
    a.move("tile red e1")
    err = a.recv()
    assert err["type"] == "error" and err["seq"] == 0 and err["message"]
    fresh = a.recv()
    assert fresh["type"] == "view" and fresh["seq"] == 0 and fresh["view"] == first["view"]
    # malformed
    a.move({"type": "tile", "colour": "purple", "cell": "e4"})
    assert a.recv()["type"] == "error" and a.recv()["type"] == "view"
    # a legal move, then a stale one made against step 0
    move = first["view"]["legal_actions"][0]
    a.move(move)
    assert a.wait_view(lambda m: m["seq"] == 1)["view"]["ply"] == 1
    b.wait_view(lambda m: m["seq"] == 1)
    a.move(a.last["view"]["legal_actions"][0], seq=0)
    err = a.recv()
    assert err["type"] == "error" and err["code"] == "stale" and "step" in err["message"]
    assert a.recv()["seq"] == 1
    # not the other seat's turn
    b.move("pass")
    err = b.recv()
    assert err["code"] == "not-your-turn"
    assert b.recv()["seq"] == 1
    # the other side saw none of the refusals
    assert a.try_recv(0.3) is None
    assert all(f["type"] == "view" for f in b.frames[:-2])
    a.close()
    b.close()


def test_wrong_token_is_refused(server: LiveServer) -> None:
    g = create(server, HUMANS)
    c = SeatClient(server.ws_url, g["id"], "not-a-token")
    err = c.recv()
    assert err["type"] == "error" and err["code"] == "bad-token"
    with pytest.raises(Exception):  # noqa: B017 - the server closed the socket
        c.recv(2)
    assert c.ws.close_code == 4403
    r = httpx.get(f"{server.url}/api/games/{g['id']}/view", params={"token": "nope"})
    assert r.status_code == 403


def test_spectator_cannot_act(server: LiveServer) -> None:
    g = create(server, HUMANS)
    s = SeatClient(server.ws_url, g["id"], None)
    v = s.wait_view()
    assert v["seat"] is None and not v["view"]["legal_actions"]
    assert all("hand" not in p for p in v["view"]["players"])
    s.move("pass")
    assert s.recv()["code"] == "spectator"
    assert s.recv()["seq"] == 0
    s.close()


def test_undo_own_last_action_while_it_revealed_nothing(server: LiveServer) -> None:
    g = create(server, HUMANS)
    a = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    v0 = a.wait_view()
    assert v0["can_undo"] is False
    tile = next(x for x in v0["view"]["legal_actions"] if x.startswith("tile"))
    a.move(tile)
    v1 = a.wait_view(lambda m: m["seq"] == 1)
    assert v1["can_undo"] is True
    a.send({"type": "undo", "seq": 1})
    v2 = a.wait_view(lambda m: m["seq"] == 2)
    assert v2["view"] == v0["view"] and v2["log"] == [] and v2["log_reset"]
    # the second action of a turn draws tiles: no undo after it
    a.move(tile)
    a.wait_view(lambda m: m["seq"] == 3)
    a.move("pass")
    v4 = a.wait_view(lambda m: m["seq"] == 4)
    assert v4["can_undo"] is False
    a.send({"type": "undo", "seq": 4})
    assert a.recv()["code"] == "no-undo"
    a.close()


def test_hand_a_seat_to_a_bot_and_records(server: LiveServer) -> None:
    g = create(server, HUMANS)
    gid, tok = g["id"], g["seats"][0]["token"]
    assert httpx.get(f"{server.url}/api/games/{gid}/record").status_code == 409
    assert httpx.get(f"{server.url}/api/games/{gid}/replay/1").status_code == 409
    assert httpx.get(f"{server.url}/api/games/{gid}/moves").status_code == 409
    watcher = SeatClient(server.ws_url, gid, None)
    assert watcher.wait_view()["stats"] is None  # no statistics before the end
    watcher.close()
    # no token and no account: refused, and the answer says what would do
    r = httpx.post(f"{server.url}/api/games/{gid}/seats/1/bot", json={"token": None})
    assert r.status_code == 403 and "token" in r.json()["message"]
    r = httpx.post(f"{server.url}/api/games/{gid}/seats/1/bot", json={"token": "not-a-token"})
    assert r.status_code == 403
    r = httpx.post(f"{server.url}/api/games/{gid}/seats/1/bot", json={"token": tok})
    assert r.status_code == 403 and r.json()["error"] == "not-your-seat"
    for seat in (1, 0):  # each player leaves their own seat
        r = httpx.post(
            f"{server.url}/api/games/{gid}/seats/{seat}/bot",
            json={"token": g["seats"][seat]["token"], "level": "random"},
        )
        assert r.status_code == 200, r.text
    s = SeatClient(server.ws_url, gid, None)
    end = s.wait_view(lambda m: m["view"]["over"])
    assert end["view"]["result"]["ranking"]
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    assert record["format"] == "tne-record/1" and record["seed"] == 7 and record["result"]
    step = httpx.get(f"{server.url}/api/games/{gid}/replay/3").json()
    assert step["step"] == 3 and step["action"] == record["actions"][2]
    # the end's statistics, in the view frame and with the move list, are the record's
    stats = record_stats(record)
    assert end["stats"] == stats and stats["over"]
    moves = httpx.get(f"{server.url}/api/games/{gid}/moves").json()
    assert [m["action"] for m in moves["log"]] == record["actions"]
    assert moves["stats"] == stats
    s.close()


@pytest.mark.parametrize(
    "level,players,cap,iterations,expected",
    [
        ("hard", 2, 2.0, None, (0.9, 800)),  # the level's own budget: what was measured
        ("hard", 4, 2.0, None, (0.9, 1600)),  # more iterations with more players, same cap
        ("medium", 2, 2.0, None, (0.9, 100)),
        ("expert", 2, 2.0, None, (2.0, 1500)),  # the server's thinking time caps a slow level
        ("hard", 2, 0.2, None, (0.2, 800)),
        ("greedy", 2, 2.0, None, (2.0, None)),  # no budget of its own: the server's
        ("hard", 2, 2.0, 30, (0.9, 30)),  # the server's iteration count replaces the level's
        ("hard", 4, None, 30, (None, 30)),  # no time cap at all: a fixed amount of work
        ("hard", 2, None, None, (None, 800)),
        ("greedy", 2, None, None, (None, None)),
    ],
)
def test_server_bots_play_their_levels_budget(
    level: str,
    players: int,
    cap: float | None,
    iterations: int | None,
    expected: tuple[float | None, int | None],
) -> None:
    """A bot seat in the web app plays at its level's strength: ``medium`` and ``hard`` keep
    their own iteration counts (the server's ``--bot-seconds`` is only a ceiling), so the
    levels people pick are the levels of the strength table."""
    from tigris_euphrates.ai import make_bot
    from tigris_euphrates.ai.base import Budget
    from tigris_euphrates.server import aiseats

    budget = aiseats.bot_budget(make_bot(level, 1), players, cap, iterations)
    assert budget == Budget(seconds=expected[0], iterations=expected[1])


def test_server_bots_hear_the_steps_they_missed_then_choose() -> None:
    """The hub keeps one bot per seat and hands it, before each decision, the steps it has
    not heard yet, each step's events redacted for its seat and one ``observe`` a step, as
    the tournament's referee does: under hidden scoring that is how it knows the other
    scores, and the other seats' lost defences bound their hands."""
    from tigris_euphrates.ai import make_bot
    from tigris_euphrates.ai.base import Budget
    from tigris_euphrates.server import aiseats

    bot = make_bot("hard", 1)
    heard: list[list[dict]] = []
    seen: list[Budget | None] = []
    bot.observe = heard.append  # type: ignore[method-assign]
    bot.choose = lambda view, budget=None: seen.append(budget) or "pass"  # type: ignore[method-assign]
    steps = [
        [{"type": "points_scored", "seat": 1, "colour": "red", "points": 1}],
        [{"type": "turn_started", "player": 0}],
    ]
    view = {"legal_actions": ["pass"], "players": [{}] * 2}
    budget = Budget(seconds=None, iterations=30)
    choice, same = aiseats._decide(bot, steps, view, budget)
    assert choice == "pass" and same is bot
    assert heard == steps and seen == [budget]
