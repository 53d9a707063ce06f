"""Hostile inputs for the server, generated from a seed: REST requests and websocket frames.

Shared by the bounded suite in ``make test`` (tests/server/test_hostile.py) and the long run
(bench/hostile.py). Each input is built from a valid request or message, then broken: a
field replaced by a value of another type, a huge or nested one, text with lone
surrogates, control characters or unicode digits, a key dropped or added, raw bytes, bad
JSON, a binary frame, an oversized one. They reach every route that reads a path, a query
string or a body (games, seats, rematch, moves, accounts, players, leaderboard, catalogues,
unsubscribe, the tutorial's lessons, bot accounts: tokens, challenges, the bots' leaderboard,
with API tokens good and bad, and the meeting routes of ``hostile_meet``: open tables, quick
match, friends, blocks, invitations) and every websocket message (join with a token or an
account's seat, move, undo, sync, ping, chat, hint; a bot account's event socket: accept,
decline, challenge, ping; the lobby's socket too). ``Campaign`` sends them to a live server
and checks what a user cares about:

- no answer is a 5xx, and no error frame says ``server-error``;
- every refused input gets a 4xx with a message, or an error frame naming the problem;
- a websocket is never closed without a reason (only a frame over the protocol's size
  limit closes it, with 1009);
- nothing refused changes the game under attack (its log and seats stay as they were, and
  its chat holds only lines its seated player wrote under the character policy).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support.hostile_meet import lobby_frames, meet_case, table_unchanged
from support.hostile_values import WEIRD_TEXT, mutate, raw_text, send, weird_value
from support.hostile_values import encode_body as _encode
from support.hostile_values import protocol_close as _protocol_close
from support.hostile_values import quoted as _quoted
from tigris_euphrates.server.inputs import (
    Abort,
    BadMessage,
    Chat,
    Nickname,
    Ping,
    Resign,
    Sync,
    check_text,
    read_message,
)
from tigris_euphrates.server.people import NICKNAME_MAX

PASSWORD = "correct horse battery"


@dataclass
class Target:
    """The game under attack (two people, nobody moved yet) and what its players hold, and
    another game whose tokens open nothing in it (the accounts claim that game's seats)."""

    game_id: str
    tokens: list[str]
    other_id: str
    other_creator: str
    other_token: str
    #: a bot account's name and API token (the campaign's client holds it)
    bot_name: str = ""
    bot_token: str = ""
    #: the open table under attack (opened by the campaign's account) and its seat token
    table_id: str = ""
    table_token: str = ""


@dataclass
class Tally:
    """What the campaign sent and what came back."""

    rest: Counter[int] = field(default_factory=Counter)
    #: requests per kind of route (``route_of``)
    routes: Counter[str] = field(default_factory=Counter)
    frames: Counter[str] = field(default_factory=Counter)
    closes: Counter[int] = field(default_factory=Counter)
    created: int = 0
    inputs: int = 0
    #: whether the campaign's client was signed in to an account
    signed_in: bool = False
    seconds: float = 0.0


class Campaign:
    """Hostile inputs against a live server, checked as they come back (``AssertionError``
    names the input that broke a rule)."""

    def __init__(self, url: str, ws_url: str, seed: int) -> None:
        self.url = url
        self.ws_url = ws_url
        self.rng = random.Random(seed)
        self.http = httpx.Client(base_url=url, timeout=30)
        self.tally = Tally()
        #: the CSRF token of this client's cookie: account posts carry it (or a wrong one)
        self.csrf = str(self.http.get("/api/account").json()["csrf"])

    def close(self) -> None:
        self.http.close()

    def target(self) -> Target:
        """The game under attack and another one; this client signs up (as ``Hostile``)
        so that the routes of a signed-in account get hostile inputs too (a campaign after
        another on the same server signs in, which the limits may refuse)."""
        for path in ("/api/account/signup", "/api/account/signin"):
            r = self.http.post(
                path,
                json={"name": "Hostile", "password": PASSWORD},
                headers={"X-CSRF-Token": self.csrf},
            )
            if r.status_code == 200:
                self.tally.signed_in = True
                break
        bot_name, bot_token = self._bot_account()
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        game = self.http.post("/api/games", json={"seats": seats}).json()
        other = self.http.post("/api/games", json={"seats": seats}).json()
        self.tally.created += 2
        table = self.http.post(
            "/api/tables", json={"players": 3}, headers={"X-CSRF-Token": self.csrf}
        ).json()
        return Target(
            game["id"],
            [s["token"] for s in game["seats"]],
            other["id"],
            other["creator_token"],
            other["seats"][0]["token"],
            bot_name,
            bot_token,
            str(table.get("table", "")),
            str(table.get("token", "")),
        )

    def _bot_account(self) -> tuple[str, str]:
        """A bot account (``HostileBot``, signed up or in by a client of its own) and a new
        API token of it; ``("", "")`` if the limits refused its sign-up and sign-in."""
        with httpx.Client(base_url=self.url, timeout=30) as owner:
            csrf = {"X-CSRF-Token": str(owner.get("/api/account").json()["csrf"])}
            for path in ("/api/account/signup", "/api/account/signin"):
                body = {"name": "HostileBot", "password": PASSWORD}
                if owner.post(path, json=body, headers=csrf).status_code == 200:
                    break
            else:
                return "", ""
            owner.post("/api/account/bot", json={"confirm": True}, headers=csrf)
            made = owner.post("/api/account/tokens", json={"name": "hostile"}, headers=csrf)
            return "HostileBot", str(made.json()["token"])

    # --- REST ---------------------------------------------------------------------------

    def rest_case(self, t: Target) -> tuple[str, str, dict[str, str], bytes | None]:
        """One hostile request ``(method, path, headers, body)``: one in 22 each of the kinds
        below (two for game creation, seat changes, game pages, accounts and lessons, three
        for the meeting routes: ``hostile_meet``)."""
        rng = self.rng
        gid = rng.choice([t.game_id] * 4 + ["nope", "0" * 12, "x" * 40, "a%00b", "%ff", "-"])
        seat = rng.choice(["0", "1", "2", "4", "-1", "99999999999", "x", "1.5"])
        json_headers = {"content-type": "application/json"}
        kind = rng.randrange(22)
        if kind == 21:
            return self.bot_case(t)
        if 16 <= kind <= 18:
            return meet_case(self, t)
        if kind <= 1:
            base: dict[str, Any] = {
                "seats": [
                    {"kind": "human", "name": "Ann"},
                    {"kind": rng.choice(["human", "bot"]), "level": "random"},
                ],
                "options": {"board": "standard", "open_scoring": False},
                "listed": rng.choice([True, False]),
                "chat": rng.choice(["players", "everyone", "off"]),
                "rated": rng.random() < 0.2,
            }
            if rng.random() < 0.5:
                base["pace"] = {
                    "kind": rng.choice(["realtime", "turn"]),
                    "base": rng.choice([600, 86400]),
                    "increment": 5,
                    "level": "random",
                }
            body = mutate(rng, base)
            headers = {**json_headers, "X-CSRF-Token": self.csrf} if base["rated"] else json_headers
            return "POST", "/api/games", headers, _encode(rng, body)
        if kind <= 3:
            token = rng.choice([t.tokens[1], t.other_creator, "x" * 20, "", "a" * 65])
            # a seat token only against another seat: a player may hand their own seat
            target_seat = "0" if token == t.tokens[1] else seat
            body = mutate(rng, {"token": token, "level": "random"})
            what = rng.choice(["bot", "human"])
            path = f"/api/games/{gid}/seats/{target_seat}/{what}"
            return "POST", path, json_headers, _encode(rng, body)
        if kind == 4:
            token = rng.choice([t.tokens[1], t.other_creator, "x" * 20, "", "a" * 65])
            body = mutate(rng, {"token": token})
            return "POST", f"/api/games/{gid}/rematch", json_headers, _encode(rng, body)
        if kind == 5:
            params = rng.choice(
                [
                    f"?limit={_quoted(weird_value(rng))}",
                    f"?before={_quoted(weird_value(rng))}",
                    "?limit=5&before=1.5:abc",
                    "?before=" + "9" * 100,
                    "",
                ]
            )
            return "GET", f"/api/games{params}", {}, None
        if kind in (6, 14):
            step = rng.choice(["0", "-1", "5", "99999999999999999999", "x", "1e3"])
            suffix = rng.choice(
                [
                    "",
                    "/record",
                    "/moves",
                    f"/replay/{step}",
                    "/view?token=" + rng.choice(["x" * 30, _quoted(weird_value(rng))]),
                ]
            )
            return "GET", f"/api/games/{gid}{suffix}", {}, None
        if kind == 7:
            junk = rng.choice([b"", b"{", b"\xff\xfe\x00", b"x" * 30_000, b"[1,2]", b"null"])
            ctype = rng.choice(["application/json", "text/plain", "multipart/form-data", ""])
            headers = {"content-type": ctype} if ctype else {}
            return (
                "POST",
                rng.choice(["/api/games", f"/api/games/{gid}/seats/0/bot"]),
                headers,
                junk,
            )
        if kind == 8:
            path = rng.choice(["/api/nothing", "/api/games/", "/static/../x", "/api/meta", "/"])
            return rng.choice(["GET", "DELETE", "PUT", "PATCH"]), path, {}, None
        if kind <= 10:
            return self.account_case(t)
        if kind == 11:
            name = rng.choice(
                ["Hostile", _quoted(weird_value(rng)), _quoted(rng.choice(WEIRD_TEXT))]
            )
            return "GET", f"/api/players/{name}" + rng.choice(["", "/stats.csv"]), {}, None
        if kind == 12:
            token = rng.choice(["abc.def", _quoted(weird_value(rng)), "x" * 300])
            query = rng.choice([f"?t={token}", "", f"?t={token}&t=1", "?x=1"])
            return rng.choice(["GET", "POST"]), f"/unsubscribe{query}", {}, None
        if kind == 13:
            parts = ["en", "de", "classic", "galaxy", _quoted(weird_value(rng))]
            path = f"/api/catalogues/{rng.choice(parts)}/{rng.choice(parts)}"
            return "GET", rng.choice([path, "/api/catalogues", path + "/x"]), {}, None
        if kind >= 16:
            return self.lesson_case()
        params = "&".join(
            f"{key}={rng.choice([_quoted(weird_value(rng)), good])}"
            for key, good in (
                ("family", "classic"),
                ("size", "2p"),
                ("limit", "5"),
                ("offset", "0"),
            )
            if rng.random() < 0.6
        )
        return "GET", f"/api/leaderboard?{params}", {}, None

    def lesson_case(self) -> tuple[str, str, dict[str, str], bytes | None]:
        """A request of the tutorial: a lesson's page of the API, or a play of a lesson
        (its actions broken, too many, or aimed at a lesson that is not there)."""
        rng = self.rng
        lesson = rng.choice(["tiles", "revolt", "galaxy", "nope", "x" * 40, "%00", "a..b", "TILES"])
        if rng.random() < 0.3:
            return "GET", rng.choice(["/api/lessons", f"/api/lessons/{lesson}"]), {}, None
        actions = rng.choice(
            [
                ["tile green j7"],
                ["leader red j7", "commit 3"],
                ["pass"] * rng.choice([1, 2, 3, 13]),
                [rng.choice(WEIRD_TEXT)],
            ]
        )
        body = mutate(rng, {"actions": actions})
        path = f"/api/lessons/{lesson}/play"
        return "POST", path, {"content-type": "application/json"}, _encode(rng, body)

    def account_case(self, t: Target) -> tuple[str, str, dict[str, str], bytes | None]:
        """A request of the account routes: most posts carry this client's CSRF token (so
        that their bodies reach the database), some a wrong one or none."""
        rng = self.rng
        if rng.random() < 0.25:
            gid = rng.choice([t.game_id, t.other_id, _quoted(weird_value(rng))])
            path = rng.choice(
                [
                    "/api/account",
                    "/api/account/games",
                    "/api/account/notifications",
                    "/api/account/email",
                    f"/api/account/seats/{gid}",
                ]
            )
            return "GET", path, {}, None
        what = rng.choice(
            [
                "signup",
                "signin",
                "claim",
                "notifications",
                "signout",
                "password",
                "email",
                "email/confirm",
                "forgot",
                "reset/check",
                "reset",
            ]
        )
        headers = {"content-type": "application/json"}
        csrf = rng.random()
        if csrf < 0.8 and what != "signout":  # this client stays signed in
            headers["X-CSRF-Token"] = self.csrf
        elif csrf < 0.9:
            headers["X-CSRF-Token"] = rng.choice(["x", self.csrf[:-1] + "x", "null"])
        proof = {"game": t.other_id, "token": t.other_token}
        # a wrong password: a sign-in that passes the checks costs a password hash, and
        # after a few failures the limits refuse them before hashing (but after the name
        # has been looked up)
        base: dict[str, Any] = {
            "signup": {"name": "Hostile2", "password": PASSWORD, "seats": [proof]},
            "signin": {"name": "Hostile", "password": "not the password"},
            "claim": {"seats": [proof]},
            "notifications": {"email": "a@example.org", "enabled": True},
            "signout": {},
            # the current password is wrong: the campaign's account keeps its own
            "password": {"current": "not the password", "password": PASSWORD + "!"},
            "email": {"email": "a@example.org", "password": "not the password"},
            "email/confirm": {"token": t.other_token + ".x" * 10},
            "forgot": {"who": rng.choice(["Hostile", "a@example.org", "Nobody"])},
            "reset/check": {"token": t.other_token * 2},
            "reset": {"token": t.other_token * 2, "password": PASSWORD},
        }[what]
        if what == "signout" and rng.random() < 0.5:
            what = "signout-everywhere"
        return "POST", f"/api/account/{what}", headers, _encode(rng, mutate(rng, base))

    def bot_case(self, t: Target) -> tuple[str, str, dict[str, str], bytes | None]:
        """A request of the bot account routes, with the bot's API token, a broken one, or
        this client's session (a person: no token of its own). Never one that revokes the
        bot's token (ids far from the few made) or makes this client a bot."""
        rng = self.rng
        headers = {"content-type": "application/json"}
        auth = rng.choice(
            [
                f"Bearer {t.bot_token}",
                f"Bearer {t.bot_token}",
                f"Bearer {t.bot_token[:-1]}",
                "Bearer tneb_" + "A" * 43,
                "Bearer",
                "Basic abc",
                "Bearer " + _quoted(rng.choice(WEIRD_TEXT)),
                "",
            ]
        )
        if auth and t.bot_token:
            headers["Authorization"] = auth
        else:
            headers["X-CSRF-Token"] = self.csrf
        cid = rng.choice(["0" * 12, "abc", "f" * 12, _quoted(weird_value(rng)), "%00"])
        tid = rng.choice(["0", "-1", "99999999", "2147483648", "x", "1.5", _quoted("٣")])
        what = rng.randrange(9)
        if what == 0 and "Authorization" in headers:
            body = mutate(rng, {"confirm": True})
            return "POST", "/api/account/bot", headers, _encode(rng, body)
        if what <= 1:
            return "GET", rng.choice(["/api/account/tokens", "/api/challenges"]), headers, None
        if what == 2:
            body = mutate(rng, {"name": rng.choice(["laptop", "x" * 41, "a/b"])})
            return "POST", "/api/account/tokens", headers, _encode(rng, body)
        if what == 3:
            return "DELETE", f"/api/account/tokens/{tid}", headers, None
        if what in (4, 5):
            base = {"to": t.bot_name or "HostileBot", "options": {"ruleset": "classic"}}
            body = mutate(rng, {**base, "rated": rng.random() < 0.3})
            return "POST", "/api/challenges", headers, _encode(rng, body)
        if what in (6, 7):
            verb = rng.choice(["accept", "decline", "cancel"])
            body = mutate(rng, {"reason": rng.choice(["busy", "x" * 300, ""])})
            return "POST", f"/api/challenges/{cid}/{verb}", headers, _encode(rng, body)
        value = rng.choice(["true", "false", _quoted(weird_value(rng))])
        return "GET", f"/api/leaderboard?bots={value}", headers, None

    def rest(self, t: Target, n: int) -> None:
        for _ in range(n):
            method, path, headers, content = self.rest_case(t)
            r = self.http.request(method, path, headers=headers, content=content)
            self.tally.inputs += 1
            self.tally.rest[r.status_code] += 1
            self.tally.routes[route_of(path)] += 1
            assert r.status_code < 500, (method, path, content, r.status_code, r.text[:300])
            if r.status_code >= 400 and path.startswith("/api"):
                body = r.json()
                assert body.get("message"), (method, path, content, r.text[:300])
            if method == "POST" and path == "/api/games" and r.status_code == 200:
                self.tally.created += 1

    # --- websockets -----------------------------------------------------------------------

    def frame(self) -> str | bytes:
        rng = self.rng
        kind = rng.randrange(10)
        if kind <= 1:
            return raw_text(rng)
        base = rng.choice(
            [
                {"type": "move", "seq": 0, "action": "tile red e4"},
                {
                    "type": "move",
                    "seq": 0,
                    "action": {"type": "tile", "colour": "red", "cell": "e4"},
                },
                {"type": "move", "seq": 0, "action": {"type": "swap", "tiles": {"red": 1}}},
                {"type": "undo", "seq": 0},
                {"type": "sync"},
                {"type": "ping", "t": 1},
                {"type": "join", "token": None},
                {"type": "join", "seat": 1},
                {"type": "chat", "text": "good luck"},
                {"type": "chat", "text": "good luck"},
                {"type": "hint", "seq": 0},
                {"type": "resign"},
                {"type": "abort"},
                {"type": "name", "name": "Eve"},
            ]
        )
        msg = mutate(rng, base)
        text = json.dumps(msg)
        if rng.randrange(20) == 0:
            text = text[: rng.randrange(len(text))]  # cut short
        return text

    def _open(self, t: Target, token: str | None) -> ClientConnection:
        ws = connect(
            f"{self.ws_url}/ws/games/{t.game_id}", open_timeout=20, max_size=2**24
        ).__enter__()
        ws.send(json.dumps({"type": "join", "token": token}))
        first = json.loads(ws.recv(timeout=20))
        while first["type"] == "chat":  # the chat so far comes before the view
            first = json.loads(ws.recv(timeout=20))
        assert first["type"] == "view", first
        return ws

    def _answers(self, ws: ClientConnection, marker: int) -> list[dict[str, Any]]:
        """Frames up to the pong of ``marker`` (sent after the hostile frame)."""
        ws.send(json.dumps({"type": "ping", "t": marker}))
        out: list[dict[str, Any]] = []
        while True:
            msg = json.loads(ws.recv(timeout=20))
            if msg.get("type") == "pong" and msg.get("t") == marker:
                return out
            out.append(msg)

    def sockets(self, t: Target, n: int) -> None:
        """``n`` hostile frames from a spectator and from the seat that is not to act."""
        conns: dict[str | None, ClientConnection] = {}
        marker = 10**6
        try:
            for i in range(n):
                token = None if i % 2 else t.tokens[1]
                frame = self.frame()
                if _leaves(frame):
                    # a valid resign, abort or nickname would change the game under attack:
                    # the spectator sends it, and must be refused
                    token = None
                if token not in conns:
                    conns[token] = self._open(t, token)
                ws = conns[token]
                marker += 1
                self.tally.inputs += 1
                try:
                    send(ws, frame)
                    answers = self._answers(ws, marker)
                    if _expected(frame) == "view" and not any(m["type"] == "view" for m in answers):
                        answers.append(json.loads(ws.recv(timeout=20)))  # after the pong
                except ConnectionClosed:
                    code = ws.close_code or 0
                    self.tally.closes[code] += 1
                    assert code == _protocol_close(frame), (
                        "closed",
                        code,
                        ws.close_reason,
                        repr(frame)[:200],
                    )
                    del conns[token]
                    continue
                self._check(frame, answers)
        finally:
            for ws in conns.values():
                with contextlib.suppress(Exception):
                    ws.close()

    def bot_frame(self) -> str | bytes:
        """A hostile message for a bot's event socket: broken from a valid one, or raw. A
        challenge goes to ``Hostile`` (a person: refused), an accept or decline to no
        challenge, so that none makes a game."""
        rng = self.rng
        if rng.randrange(10) <= 1:
            return raw_text(rng)
        base = rng.choice(
            [
                {"type": "accept", "id": "0" * 12},
                {"type": "decline", "id": "f" * 12, "reason": "busy"},
                {"type": "challenge", "to": "Hostile", "options": {}, "rated": False},
                {"type": "ping", "t": 1},
            ]
        )
        return json.dumps(mutate(rng, base))

    def bot_sockets(self, t: Target, n: int) -> None:
        """``n`` hostile messages on the bot account's event socket: each is answered (an
        error frame, or a pong for a valid ping) and the socket stays open unless the
        websocket layer closes it (not UTF-8, over the size limit)."""
        if not t.bot_token:
            return
        ws: ClientConnection | None = None
        marker = 2 * 10**6
        try:
            for _ in range(n):
                if ws is None:
                    ws = connect(
                        f"{self.ws_url}/ws/bot",
                        additional_headers={"Authorization": f"Bearer {t.bot_token}"},
                        open_timeout=20,
                    ).__enter__()
                    assert json.loads(ws.recv(timeout=20))["type"] == "hello"
                frame = self.bot_frame()
                marker += 1
                self.tally.inputs += 1
                self.tally.routes["ws/bot"] += 1
                try:
                    send(ws, frame)
                    answers = self._answers(ws, marker)
                except ConnectionClosed:
                    code = ws.close_code or 0
                    self.tally.closes[code] += 1
                    assert code == _protocol_close(frame), ("closed", code, repr(frame)[:200])
                    ws = None
                    continue
                errors = [m for m in answers if m["type"] == "error"]
                for msg in errors:
                    self.tally.frames[msg["code"]] += 1
                    assert msg["code"] != "server-error" and msg["message"], msg
                if not _bot_ping(frame):
                    assert errors, (repr(frame)[:200], answers[:2])
        finally:
            if ws is not None:
                with contextlib.suppress(Exception):
                    ws.close()

    def first_frames(self, t: Target, n: int) -> None:
        """``n`` hostile first frames (before a join) on fresh connections, each followed
        by a valid join that must still be served."""
        for _ in range(n):
            self.tally.inputs += 1
            with connect(f"{self.ws_url}/ws/games/{t.game_id}", open_timeout=20) as ws:
                frame = self.frame()
                frames: list[dict[str, Any]] = []
                try:
                    send(ws, frame)
                    if not _is_join(frame):  # a join is answered itself (refused: then closed)
                        ws.send(json.dumps({"type": "join", "token": None}))
                    while True:
                        msg = json.loads(ws.recv(timeout=20))
                        frames.append(msg)
                        if msg["type"] == "view":
                            break
                except ConnectionClosed:
                    code = ws.close_code or 0
                    self.tally.closes[code] += 1
                    # a close says why: over the size limit (1009), or after an error frame
                    # (a join with a wrong token: 4403)
                    told = any(m["type"] == "error" for m in frames)
                    assert code == _protocol_close(frame) or (told and 4400 <= code < 4500), (
                        "closed",
                        code,
                        ws.close_reason,
                        repr(frame)[:200],
                        frames,
                    )
                for msg in frames:
                    self.tally.frames[msg.get("code", msg["type"])] += 1
                    if msg["type"] == "error":
                        assert msg["code"] != "server-error" and msg["message"], msg
                if _is_join(frame) or ws.close_code is not None:
                    continue  # the hostile frame was a join itself (a view, or a refusal)
                assert frames[0]["type"] == "error", (repr(frame)[:200], frames[0])

    def nicknames(self, t: Target, n: int) -> None:
        """``n`` hostile nicknames from the other game's first seat: each is refused with
        ``bad-name`` (or as a bad message), or becomes the seat's name under the character
        policy, at most ``NICKNAME_MAX`` characters, trimmed."""
        rng = self.rng
        with connect(f"{self.ws_url}/ws/games/{t.other_id}", open_timeout=20) as ws:
            ws.send(json.dumps({"type": "join", "token": t.other_token}))
            while json.loads(ws.recv(timeout=20))["type"] != "view":
                pass
            for i in range(n):
                name = weird_value(rng) if rng.randrange(3) == 0 else rng.choice(WEIRD_TEXT)
                frame = json.dumps({"type": "name", "name": name})
                self.tally.inputs += 1
                send(ws, frame)
                answers = self._answers(ws, 2 * 10**6 + i)
                for msg in answers:
                    self.tally.frames[msg.get("code", msg["type"])] += 1
                    assert msg.get("code") != "server-error", (frame[:200], msg)
                    if msg["type"] == "view":
                        shown = msg["seats"][0]["name"]
                        assert shown == check_text(shown, NICKNAME_MAX).strip(), shown
                        assert shown and len(shown) <= NICKNAME_MAX, shown
                if not any(m["type"] == "error" for m in answers):
                    assert isinstance(name, str), (frame[:200], answers[:2])

    def chat(self, t: Target) -> list[dict[str, Any]]:
        """The chat of the game under attack, as a new spectator receives it (before its
        first view; no frame when there is none)."""
        lines: list[dict[str, Any]] = []
        with connect(f"{self.ws_url}/ws/games/{t.game_id}", open_timeout=20) as ws:
            ws.send(json.dumps({"type": "join", "token": None}))
            while (msg := json.loads(ws.recv(timeout=20)))["type"] != "view":
                if msg["type"] == "chat":
                    lines = list(msg["lines"]) if msg["reset"] else lines + msg["lines"]
        return lines

    def _check(self, frame: str | bytes, answers: list[dict[str, Any]]) -> None:
        for msg in answers:
            self.tally.frames[msg.get("code", msg["type"])] += 1
            if msg["type"] == "error":
                assert msg["code"] != "server-error", (repr(frame)[:200], msg)
                assert msg["message"], msg
        expected = _expected(frame)
        kinds = {m["type"] for m in answers}
        if expected == "pong":
            return  # answered by a pong of its own (or an error, if it was not one)
        if expected == "chat":  # the seat's line to everybody, or refused (too fast, closed)
            assert kinds & {"chat", "error"}, (repr(frame)[:200], answers[:2])
            return
        assert expected in kinds, (repr(frame)[:200], answers[:2])


def route_of(path: str) -> str:
    """The kind of route a request went to: ``games/rematch``, ``players``, ``unsubscribe``."""
    parts = path.split("?", 1)[0].strip("/").split("/")
    if parts[0] != "api" or len(parts) < 2:
        return parts[0]
    if parts[1] == "games" and len(parts) > 3:
        return f"games/{parts[3] if parts[3] != 'seats' or len(parts) < 6 else parts[5]}"
    return parts[1]


def _parsed(frame: str | bytes) -> Any:
    if isinstance(frame, bytes):
        return None
    try:
        return read_message(frame)
    except BadMessage:
        return None
    except Exception:
        return None


def _expected(frame: str | bytes) -> str:
    """What a frame must be answered with: a view (a valid sync), a pong (a valid ping), a
    chat line or an error (a valid chat: the seat's lines are written until it writes too
    fast, a spectator's are refused), or an error frame (anything else: from a spectator or
    a seat not to act, no move is legal)."""
    msg = _parsed(frame)
    if isinstance(msg, Sync):
        return "view"
    if isinstance(msg, Ping):
        return "pong"
    if isinstance(msg, Chat):
        return "chat"
    return "error"


def _bot_ping(frame: str | bytes) -> bool:
    """Whether ``frame`` is a valid ping of the bot's event socket (answered by a pong)."""
    try:
        msg = json.loads(frame)
    except (ValueError, RecursionError):
        return False
    if not isinstance(msg, dict) or msg.get("type") != "ping" or set(msg) - {"type", "t"}:
        return False
    t = msg.get("t")
    return (
        t is None
        or (isinstance(t, str) and len(t) <= 64)
        or (isinstance(t, int | float) and not isinstance(t, bool))
    )


def _leaves(frame: str | bytes) -> bool:
    """Whether a frame is a valid resign, abort or nickname (a seat's would be carried
    out)."""
    return isinstance(_parsed(frame), Resign | Abort | Nickname)


def _is_join(frame: str | bytes) -> bool:
    msg = _parsed(frame)
    return msg is not None and msg.type == "join"


def run(
    url: str,
    ws_url: str,
    seed: int,
    rest: int,
    frames: int,
    first: int,
    bot_frames: int = 0,
    lobby: int = 0,
) -> Tally:
    """A whole campaign against the server at ``url``: ``rest`` requests, ``frames``
    websocket frames in play, ``first`` first frames, ``bot_frames`` messages on a bot
    account's event socket and ``lobby`` frames on the lobby's socket; the game and the open
    table under attack are then checked unchanged. Returns the tally."""
    campaign = Campaign(url, ws_url, seed)
    start = time.monotonic()
    try:
        t = campaign.target()
        before = campaign.http.get(f"/api/games/{t.game_id}").json()
        campaign.rest(t, rest)
        campaign.sockets(t, frames)
        campaign.first_frames(t, first)
        campaign.bot_sockets(t, bot_frames)
        lobby_frames(campaign, lobby)
        campaign.nicknames(t, max(20, first // 5))
        after = campaign.http.get(f"/api/games/{t.game_id}").json()
        assert after["seq"] == before["seq"] == 0, (before, after)
        assert [(s["kind"], s["name"]) for s in after["seats"]] == [
            (s["kind"], s["name"]) for s in before["seats"]
        ]
        for line in campaign.chat(t):
            assert line["seat"] == 1, line  # the seat that wrote; no spectator (``players``)
            assert read_message(json.dumps({"type": "chat", "text": line["text"]})), line
        table_unchanged(campaign, t)
    finally:
        campaign.close()
    campaign.tally.seconds = time.monotonic() - start
    return campaign.tally
