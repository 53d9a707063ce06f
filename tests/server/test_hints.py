"""Hints ("Suggest a move"): refused in a rated game and to a spectator, counted per seat
(on SQLite and PostgreSQL), computed from the seat's view only (the hidden tiles and the bag
dealt anew give the same hint), explained by what the move really does, in every language
of the page."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from accounting import AccountSeat
from support.serving import LiveServer, Player, SeatClient, live_server_on
from tigris_euphrates import apply, from_position, new_game, player_view
from tigris_euphrates.ai import Budget
from tigris_euphrates.ai.determinize import Determinizer
from tigris_euphrates.catalogues import HERE as CATALOGUES
from tigris_euphrates.server.conn import Conn
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.server.inputs import BadMessage, read_message
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.suggest import explain, suggest
from tigris_euphrates.store import Store

LIMITS = Limits(
    games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000, hints_per_seat=3
)
#: a small fixed budget: the same work on any machine
FEW = dict(bot_seconds=None, limits=LIMITS)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("hints")
    limits = Limits(**{**LIMITS.__dict__, "hint_iterations": 40})
    yield from live_server_on(request.param, data, stem="h", limits=limits)


def create(server: LiveServer, seats: list[dict[str, Any]]) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/games", json={"seats": seats})
    assert r.status_code == 200, r.text
    return dict(r.json())


def ask(client: SeatClient) -> dict[str, Any]:
    """Ask for a hint at the step on screen; the answer (a hint or an error frame)."""
    assert client.last is not None
    client.send({"type": "hint", "seq": client.last["seq"]})
    while True:
        frame = client.recv(60)
        if frame["type"] in ("hint", "error"):
            return frame


def test_a_hint_against_a_bot_is_a_legal_move_with_its_reason(server: LiveServer) -> None:
    g = create(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}])
    a = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    view = a.wait_view()
    hint = ask(a)
    assert hint["type"] == "hint" and hint["seq"] == view["seq"] and hint["seat"] == 0
    assert hint["action"] in view["view"]["legal_actions"]
    assert hint["reason"]["key"].startswith("hint_why_") and hint["left"] == 2
    # the seat's count: three hints a game, then refused (nothing else changes)
    assert ask(a)["left"] == 1 and ask(a)["left"] == 0
    err = ask(a)
    assert err["type"] == "error" and err["code"] == "rate-limited" and "3 hints" in err["message"]
    a.move(hint["action"])
    assert a.wait_view(lambda m: m["seq"] >= 1)
    a.close()


def test_a_spectator_gets_no_hint_and_a_waiting_seat_none_either(server: LiveServer) -> None:
    g = create(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    s = SeatClient(server.ws_url, g["id"], None)
    s.wait_view()
    err = ask(s)
    assert err["code"] == "spectator" and not any(f["type"] == "hint" for f in s.frames)
    b = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    b.wait_view()
    assert ask(b)["code"] == "not-your-turn"  # seat 0 starts
    # the hint of the seat to act goes to its connection only
    a = SeatClient(server.ws_url, g["id"], g["seats"][0]["token"])
    a.wait_view()
    assert ask(a)["type"] == "hint"
    s.drain(0.5)
    b.drain(0.5)
    assert not any(f["type"] == "hint" for f in s.frames + b.frames)
    for c in (s, b, a):
        c.close()


def test_a_rated_game_refuses_hints(server: LiveServer) -> None:
    ann, bob = Player(server), Player(server)
    ann.sign_up(f"Ann{uuid.uuid4().hex[:8]}", "correct horse battery")
    bob.sign_up(f"Bob{uuid.uuid4().hex[:8]}", "correct horse battery")
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    r = ann.post("/api/games", {"seats": seats, "rated": True})
    assert r.status_code == 200, r.text
    g = r.json()
    a = AccountSeat(server.ws_url, g["id"], ann.cookie_header(), {"token": g["seats"][0]["token"]})
    a.wait_view()
    err = ask(a)
    assert err["type"] == "error" and err["code"] == "rated"
    assert not any(f["type"] == "hint" for f in a.frames)
    a.close()
    ann.close()
    bob.close()


def played(seed: int, steps: int) -> Any:
    """A two-player game after ``steps`` actions chosen at random (seeded)."""
    rng = random.Random(seed)
    state = new_game({"players": 2}, seed)
    for _ in range(steps):
        seat = next(s for s in range(2) if player_view(state, s)["legal_actions"])
        legal = player_view(state, seat)["legal_actions"]
        state, _ = apply(state, rng.choice(legal))
        if state.over:
            break
    return state


def resampled(state: Any, seat: int, seed: int) -> Any:
    """Another state that ``seat`` cannot tell from ``state``: the tiles it does not see
    (the other hands, the bag) dealt anew."""
    view = player_view(state, seat)
    other = Determinizer(view, [[0] * 5 for _ in view["players"]]).sample(random.Random(seed))
    other.scores = state.scores[:]  # the same scores: only the tiles are dealt anew
    assert player_view(other, seat) == view
    return other


def test_a_hint_never_depends_on_hidden_tiles(tmp_path: Path) -> None:
    """The server's whole path (``HintDesk.answer``): the game's state swapped for states
    whose hidden tiles and bag were dealt anew gives the same hint and the same reason."""

    async def hints() -> list[dict[str, Any]]:
        store = Store(f"sqlite:///{tmp_path / 'h.sqlite3'}")
        limits = Limits(hint_iterations=60, hints_per_seat=10)
        hub = Hub(store, bot_seconds=None, bot_processes=0, limits=limits, client_seeds=True)
        await hub.start()
        try:
            seats = [{"kind": "human"}, {"kind": "human"}]
            game, _, _ = await hub.create({"players": 2}, seats, seed=3)
            state = played(3, 9)
            seat = next(s for s in range(2) if player_view(state, s)["legal_actions"])
            out = []
            for deal in range(3):
                game.log.state = state if deal == 0 else resampled(state, seat, deal)
                assert game.state.bag != state.bag or deal == 0
                conn = Conn(seat, limits)
                await hub.hints.answer(game, seat, conn, game.seq)
                out.append(dict(conn.frames.popleft()))
            return out
        finally:
            await hub.stop()
            store.close()

    got = asyncio.run(hints())
    assert [h.pop("left") for h in got] == [9, 8, 7]  # each one counted
    assert got[0]["action"] and got[0] == got[1] == got[2]


def lesson(name: str) -> dict[str, Any]:
    """The position of a tutorial lesson."""
    path = Path(__file__).parents[2] / f"src/tigris_euphrates/lessons/{name}.json"
    return dict(json.loads(path.read_text())["position"])


def test_the_reason_is_what_the_move_does() -> None:
    """A tile placed next to one's own leader scores that colour: the hint says so, and
    names the weakest colour when it is one; a move in a revolt that wins it says so."""
    state = from_position(lesson("revolt"))
    view = player_view(state, 0)
    why = {a: explain(view, a)["key"] for a in view["legal_actions"]}
    assert "hint_why_start_revolt" in why.values()
    leader_moves = [a for a, k in why.items() if k == "hint_why_start_revolt"]
    assert "leader red j7" in leader_moves
    state, _ = apply(state, "leader red j7")
    attacker = player_view(state, 0)
    assert explain(attacker, "commit 3") == {"key": "hint_why_support", "colour": "red", "n": 3}
    # the attacker commits nothing: the defender's one red tile ties, and a tie is the defender's
    state, _ = apply(state, "commit 0")
    defender = player_view(state, 1)
    won = {"key": "hint_why_win_revolt", "colour": "red", "mine": 2, "theirs": 2}
    assert explain(defender, "commit 1") == won
    # a catastrophe on the only temple next to the other king drives him off the board
    cat = player_view(from_position(lesson("catastrophes")), 0)
    assert explain(cat, "catastrophe k7") == {"key": "hint_why_drive_out", "colour": "black"}
    # a green tile placed by the green leader scores green, the weakest colour
    tiles = from_position(lesson("tiles"))
    assert explain(player_view(tiles, 0), "tile green j7") == {
        "key": "hint_why_point_weakest",
        "colour": "green",
        "n": 1,
    }


def test_suggest_is_reproducible_from_the_view() -> None:
    state = played(11, 7)
    seat = next(s for s in range(2) if player_view(state, s)["legal_actions"])
    view = player_view(state, seat)
    budget = Budget(seconds=None, iterations=40)
    assert suggest(view, budget) == suggest(json.loads(json.dumps(view)), budget)


def test_every_reason_has_its_sentence_in_each_language() -> None:
    keys = {
        "hint_why_win_revolt", "hint_why_win_war", "hint_why_points", "hint_why_points_weakest",
        "hint_why_point", "hint_why_point_weakest",
        "hint_why_monument", "hint_why_treasure", "hint_why_start_revolt", "hint_why_start_war",
        "hint_why_support", "hint_why_catastrophe", "hint_why_drive_out",
        "hint_why_leader", "hint_why_tile",
        "hint_why_swap", "hint_why_pass", "hint_why_withdraw", "hint_why_decline",
        "hint_why_best",
    }  # fmt: skip
    for lang in ("en", "de", "fr"):
        ui = json.loads((CATALOGUES / f"{lang}.classic.json").read_text())["ui"]
        assert keys <= set(ui), (lang, keys - set(ui))


def test_a_bad_hint_message_is_refused() -> None:
    for text in ('{"type":"hint"}', '{"type":"hint","seq":-1}', '{"type":"hint","seq":"1"}'):
        with pytest.raises(BadMessage):
            read_message(text)
