"""Hostile inputs for the routes and the socket where people meet (open tables, quick
match, friends, blocks, invitations, the lobby's websocket), for ``hostile.Campaign``.

The table under attack is the campaign's own (its client opened it); hostile requests
reach it only with wrong tokens or as the account seated there already, so that a
campaign checks afterwards that it is still open with its one seat (``table_unchanged``).
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.hostile_values import encode_body, mutate, protocol_close, quoted, send, weird_value
from tigris_euphrates.server.inputs import read_message

if TYPE_CHECKING:
    from support.hostile import Campaign, Target

Case = tuple[str, str, dict[str, str], bytes | None]


def meet_case(c: Campaign, t: Target) -> Case:
    """One hostile request of the meeting routes (most posts carry the CSRF token)."""
    rng: random.Random = c.rng
    table = rng.choice([t.table_id] * 4 + ["nope", "0" * 12, "x" * 40, "%ff", "-"])
    bad_token = rng.choice(["x" * 24, "", "a" * 65, t.tokens[0], quoted(weird_value(rng))])
    headers = {"content-type": "application/json"}
    if rng.random() < 0.85:
        headers["X-CSRF-Token"] = c.csrf
    kind = rng.randrange(9)
    if kind == 0:
        path = rng.choice(["/api/tables", "/api/social", "/api/match", f"/api/tables/{table}"])
        return "GET", path, {}, None
    if kind == 1:
        base: dict[str, Any] = {
            "players": rng.choice([2, 3, 4]),
            "options": {"board": "standard"},
            "rated": rng.random() < 0.5,
            "min_rating": rng.choice([None, -5, 1450.5]),
            "max_rating": rng.choice([None, 1600, 1e300]),
            "allow_bots": rng.random() < 0.5,
            "chat": rng.choice(["players", "everyone", "off"]),
            "pace": {"kind": "turn", "base": 86400},
        }
        return "POST", "/api/tables", headers, encode_body(rng, mutate(rng, base))
    if kind == 2:
        body = mutate(rng, {"name": rng.choice(["Gus", "", "x" * 50])})
        return "POST", f"/api/tables/{table}/sit", headers, encode_body(rng, body)
    if kind == 3:
        verb = rng.choice(["start", "leave"])
        body = mutate(rng, {"token": bad_token})
        return "POST", f"/api/tables/{table}/{verb}", headers, encode_body(rng, body)
    if kind == 4:
        token = rng.choice([t.table_token, bad_token])
        body = mutate(rng, {"token": token, "name": rng.choice(["Hostile", "Hostile2", "nobody"])})
        return "POST", f"/api/tables/{table}/invite", headers, encode_body(rng, body)
    if kind == 5:
        base = {
            "family": rng.choice(["classic", "galaxy", "chess"]),
            "players": rng.choice([2, 3, 4, 5]),
            "pace": rng.choice(["realtime", "turn", "blitz"]),
            "bot_after": rng.choice([None, 0, 30, 601, -1]),
        }
        path = rng.choice(["/api/match", "/api/match", "/api/match/cancel"])
        return "POST", path, headers, encode_body(rng, mutate(rng, base))
    if kind == 6:
        invite = rng.choice(["1", "0", "-1", "99999999999999", "x", quoted(weird_value(rng))])
        return "POST", f"/api/invites/{invite}/decline", headers, encode_body(rng, {})
    verb = rng.choice(["follow", "unfollow", "block", "unblock"])
    name = rng.choice(["Hostile", "Hostile2", "nobody", weird_value(rng)])
    return "POST", f"/api/social/{verb}", headers, encode_body(rng, mutate(rng, {"name": name}))


def lobby_frames(c: Campaign, n: int) -> None:
    """``n`` hostile frames on the lobby's socket: each is answered by an error frame
    naming the problem, or by a pong (a valid ping); only a frame over the protocol's size
    limit closes the socket."""
    ws: Any = None
    marker = 2 * 10**6
    try:
        for _ in range(n):
            if ws is None:
                ws = connect(f"{c.ws_url}/ws/lobby", open_timeout=20, max_size=2**24).__enter__()
            frame = c.frame()
            marker += 1
            c.tally.inputs += 1
            c.tally.routes["lobby"] += 1
            try:
                send(ws, frame)
                ws.send(json.dumps({"type": "ping", "t": marker}))
                answers = []
                while True:
                    msg = json.loads(ws.recv(timeout=20))
                    if msg.get("type") == "pong" and msg.get("t") == marker:
                        break
                    if msg["type"] in ("error", "pong"):
                        answers.append(msg)
            except ConnectionClosed:
                code = ws.close_code or 0
                c.tally.closes[code] += 1
                assert code == protocol_close(frame), ("lobby closed", code, repr(frame)[:200])
                ws = None
                continue
            assert answers, ("lobby: no answer", repr(frame)[:200])
            for msg in answers:
                c.tally.frames["lobby-" + msg.get("code", msg["type"])] += 1
                if msg["type"] == "error":
                    assert msg["code"] != "server-error" and msg["message"], msg
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()


def table_unchanged(c: Campaign, t: Target) -> None:
    """The table under attack is still open (no wrong token started it or made its creator
    leave), its creator in the first seat; a seat the campaign's own client took validly
    (signed in again as another account, or signed out: a guest) holds a name under the
    character policy."""
    tables = c.http.get("/api/tables").json()["tables"]
    mine = [x for x in tables if x["id"] == t.table_id]
    assert mine, ("the table under attack is gone", t.table_id)
    seats = mine[0]["seats"]
    assert seats[0]["seat"] == 0 and seats[0]["name"] == "Hostile", mine[0]
    for seat in seats[1:]:
        assert read_message(json.dumps({"type": "chat", "text": seat["name"]})), seat
