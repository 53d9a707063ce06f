"""Every websocket frame of scripted sessions, both directions, is what it was when the
fixture ``tests/server/frames/<session>.json.gz`` was recorded: a change of the server that
alters what a client sends or receives (a view, a log entry, an event, an error's code or
message, a chat line, a close code, a REST answer, or the order or number of frames) fails
here, naming the session, the connection, the frame and the first key path that differs.

Each session is played twice: against one server process on SQLite, and against two
processes on one PostgreSQL database with the connections of one game spread over both
(typically seat 0 through process A, seat 1 and a spectator through process B). Both must
give the same frames, the recorded ones. The server is driven only from outside: ``python
-m tigris_euphrates.server`` processes, HTTP and websockets.

The scripts are lockstep: after each message sent, the test reads on every connection that
must react until it holds the frame(s) it should (after a move, every connection's latest
view shows the new step; across processes, a seat coming online or going offline is awaited
everywhere before the next step), so no two steps ever pile up in one connection's outbox.
What still differs from run to run is normalised, and nothing else:

- random values: game ids and tokens become ``<game:N>`` and ``<token:N>`` (numbered in
  the order the session met them, so an id that must recur does), and times (``created``,
  ``now``, ``offline_since``, a chat line's ``at``, a clock's ``since``, ``deadline`` and
  ``banks``) become ``<time>``. A rematch gets a secret seed: in a seat's view of it the
  hand, the unseen tiles and the legal actions (all dealt from that seed) become
  ``<secret deal>``;
- bot moves: a bot plays as soon as it is to act, without waiting for the connections to
  read the previous step, and a connection that is behind is sent only the latest view
  (``Conn.due`` in the server): how many views a connection gets while bots play depends on
  timing. Frames of such stretches are marked ``"stretch": true``, and in them each run of
  consecutive views a connection received is folded into the one view the server sends a
  connection that read nothing meanwhile: the last view, with the log entries of the whole
  run (from the last ``log_reset`` in it on). Outside bot stretches every frame is compared
  as received.

The fixture holds one JSON event a line (``{"sent": ...}``, ``{"sent_text": ...}``,
``{"received": ...}``, ``{"closed": {"code", "reason"}}`` when the server closed,
``{"close": 1000}`` when the client did) per connection, then the HTTP calls; it is
gzipped (the views repeat the board and the legal actions: 2.8 MB of JSON, 120 kB
compressed). Read it with ``zcat``. Re-record it, after a change meant to alter frames
(never to make this test pass), with ``python tests/server/test_frames.py --renew`` (it
needs the test PostgreSQL, and refuses to write when the two databases differ).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

if __name__ == "__main__":  # ``--renew``: the repository's shared helpers, as pytest has them
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from support.serving import PATIENCE, REQUIRE_POSTGRES, ServerProcess, postgres_or_skip

FRAMES = Path(__file__).parent / "frames"
DATABASES = ("sqlite", "postgresql")
#: The scripted clients write faster than people and create many games from one address.
LIMITS: dict[str, float] = {
    "pace_min_seconds": 1,
    "messages_per_second": 10_000,
    "message_burst": 10_000,
    "games_per_minute": 10_000,
    "games_per_client": 10_000,
    "bot_games_per_client": 10_000,
}
#: How long a wait for a frame may take before the session fails.
WAIT = PATIENCE
#: After a session, stray frames would come within this time (none may).
QUIET = 0.15

Frame = dict[str, Any]
View = dict[str, Any]
Pred = Callable[[View], bool]

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


# --- the servers ----------------------------------------------------------------------------


@dataclass
class Servers:
    """The server processes of one database: ``a`` and ``b`` (the same one on SQLite)."""

    database: str
    a: ServerProcess
    b: ServerProcess


@contextlib.contextmanager
def servers(database: str, tmp: Path, url: str | None = None) -> Iterator[Servers]:
    """One SQLite process, or two processes on fresh tables of the test PostgreSQL."""
    if database == "sqlite":
        with ServerProcess(tmp / "sqlite", client_seeds=True, limits=LIMITS) as one:
            yield Servers(database, one, one)
        return
    from tigris_euphrates.store import Store

    assert url is not None
    prefix = f"f{uuid.uuid4().hex[:10]}_"
    a = ServerProcess(tmp / "a", url, prefix, client_seeds=True, limits=LIMITS)
    b = ServerProcess(tmp / "b", url, prefix, client_seeds=True, limits=LIMITS)
    try:
        with a, b:
            yield Servers(database, a, b)
    finally:
        Store(url, prefix).drop_all()


# --- one session: its connections, its HTTP calls, its normalisation -------------------------


class Closed(Exception):
    """The server closed the connection."""


class Conn:
    """One websocket of a session; every frame it sends or receives is recorded."""

    def __init__(self, session: Session, name: str, srv: ServerProcess, game: str) -> None:
        from websockets.sync.client import connect

        self.session = session
        self.name = name
        self.events: list[dict[str, Any]] = session.connections.setdefault(name, [])
        self.ws = connect(
            f"{srv.ws_url}/ws/games/{game}", max_size=2**24, open_timeout=20, compression=None
        ).__enter__()
        self.last: View | None = None  # the latest view frame
        self.joined = False
        self.frames: list[Frame] = []  # every frame received, in order
        self.open = True

    # sending

    def send(self, msg: Any) -> None:
        self._record({"sent": msg})
        self.ws.send(json.dumps(msg))

    def send_text(self, text: str, shown: str | None = None) -> None:
        """Send raw text (not JSON, or too large to record whole: ``shown`` stands for it)."""
        self._record({"sent_text": text if shown is None else shown})
        self.ws.send(text)

    def join(self, token: str | None) -> None:
        self.send({"type": "join", "token": token})
        self.joined = True

    def move(self, action: Any, seq: int | None = None) -> None:
        assert self.last is not None
        self.send(
            {"type": "move", "seq": self.last["seq"] if seq is None else seq, "action": action}
        )

    def close(self) -> None:
        """Close from the client's side (the server then counts the seat offline)."""
        self._record({"close": 1000})
        self.ws.close()
        self.open = False

    # receiving

    def recv(self, timeout: float = WAIT) -> Frame:
        from websockets.exceptions import ConnectionClosed

        try:
            text = self.ws.recv(timeout=timeout)
        except ConnectionClosed as exc:
            if self.open:
                rcvd = exc.rcvd
                closed = {"code": rcvd.code, "reason": rcvd.reason} if rcvd else None
                self._record({"closed": closed})
                self.open = False
            raise Closed(self.name) from None
        assert isinstance(text, str), "the server sends text frames"
        frame: Frame = json.loads(text)
        self.frames.append(frame)
        self._record({"received": frame})
        if frame.get("type") == "view":
            self.last = frame
        return frame

    def wait(self, pred: Callable[[Frame], bool], what: str = "a frame") -> Frame:
        """Receive until a frame satisfying ``pred`` arrives."""
        deadline = time.monotonic() + WAIT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.session.name}: {self.name} never received {what}")
            try:
                frame = self.recv(left)
            except TimeoutError:
                continue
            if pred(frame):
                return frame

    def wait_view(self, pred: Pred = lambda v: True, what: str = "the view") -> View:
        """The latest view if it satisfies ``pred``, else the next one that does."""
        if self.last is not None and pred(self.last):
            return self.last
        return self.wait(lambda f: f.get("type") == "view" and pred(f), what)

    def next_view(self) -> View:
        """The next view frame (after the one held now)."""
        held = self.last
        return self.wait(lambda f: f.get("type") == "view" and f is not held, "a fresh view")

    def wait_error(self, code: str) -> Frame:
        """The next error frame, which must have ``code`` (then the fresh view, if any, is
        read by the caller's next wait)."""
        frame = self.wait(lambda f: f.get("type") == "error", f"an error {code!r}")
        assert frame["code"] == code, (self.name, frame)
        return frame

    def wait_closed(self) -> None:
        """Receive until the server closes the connection."""
        with contextlib.suppress(Closed):
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    self.recv(max(0.01, deadline - time.monotonic()))
            raise TimeoutError(f"{self.session.name}: {self.name} was never closed")

    def _record(self, event: dict[str, Any]) -> None:
        if self.session.stretch is not None:
            event["stretch"] = self.session.stretch
        self.events.append(event)


class Session:
    """The connections and HTTP calls of one scripted session, recorded."""

    def __init__(self, name: str, srv: Servers) -> None:
        self.name = name
        self.srv = srv
        self.connections: dict[str, list[dict[str, Any]]] = {}
        self.http: list[dict[str, Any]] = []
        self.conns: list[Conn] = []
        #: random strings met (ids, tokens) -> their placeholder
        self.names: dict[str, str] = {}
        self.counts: dict[str, int] = {}
        #: games created with the server's secret seed (a rematch)
        self.secret: set[str] = set()
        #: the number of the bot stretch under way (``None``: lockstep)
        self.stretch: int | None = None
        self.stretches = 0

    # random values

    def known(self, value: str | None, kind: str) -> None:
        if value and value not in self.names:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.names[value] = f"<{kind}:{self.counts[kind]}>"

    def learn(self, answer: dict[str, Any]) -> None:
        """The ids and tokens of a create (or rematch) answer."""
        self.known(answer.get("id"), "game")
        for seat in answer.get("seats", []):
            self.known(seat.get("token"), "token")
        self.known(answer.get("creator_token"), "token")

    # HTTP

    def call(
        self, srv: ServerProcess, method: str, path: str, body: Any = None, status: int = 200
    ) -> Any:
        r = httpx.request(method, srv.url + path, json=body, timeout=WAIT)
        answer = r.json()
        assert r.status_code == status, (method, path, r.status_code, answer)
        if method == "POST" and (path == "/api/games" or path.endswith("/rematch")):
            self.learn(answer)
        self.http.append(
            {
                "request": {"method": method, "path": path, "body": body},
                "response": {"status": r.status_code, "body": answer},
            }
        )
        return answer

    def create(self, srv: ServerProcess, seats: list[dict[str, Any]], **body: Any) -> Any:
        return self.call(srv, "POST", "/api/games", {"seats": seats, **body})

    # websockets

    def connect(
        self, name: str, srv: ServerProcess, game: str, token: str | None = None, join: bool = True
    ) -> Conn:
        conn = Conn(self, name, srv, game)
        self.conns.append(conn)
        if join:
            conn.join(token)
        return conn

    def viewers(self) -> list[Conn]:
        return [c for c in self.conns if c.open and c.joined]

    def views(self, pred: Pred, conns: list[Conn] | None = None, what: str = "the view") -> None:
        """Every open connection (or ``conns``) holds a view satisfying ``pred``."""
        for conn in conns if conns is not None else self.viewers():
            conn.wait_view(pred, what)

    def step(self, seq: int, conns: list[Conn] | None = None, pred: Pred | None = None) -> None:
        """Every open connection (or ``conns``) holds the view of step ``seq``."""
        self.views(lambda v: v["seq"] == seq and (pred is None or pred(v)), conns, f"step {seq}")

    @contextlib.contextmanager
    def bots(self) -> Iterator[None]:
        """A bot stretch: what the connections receive meanwhile is folded (see the
        module's docstring)."""
        self.stretches += 1
        self.stretch = self.stretches
        try:
            yield
        finally:
            self.stretch = None

    def until_people(self, pred: Pred = lambda v: True) -> View:
        """Inside a bot stretch: wait until the bots stop (a person is to act, or the game
        is over) and every connection holds that same step (and ``pred``)."""
        assert self.stretch is not None
        conns = self.viewers()
        first = conns[0].wait_view(lambda v: still(v) and pred(v), "the bots to stop")
        seq = first["seq"]
        self.views(lambda v: v["seq"] == seq and pred(v), conns, f"step {seq}")
        return first

    # the recording

    def finish(self) -> dict[str, Any]:
        """Check that no stray frame follows, close everything, return the normalised
        recording."""
        time.sleep(QUIET)
        for conn in self.conns:
            while conn.open:
                try:
                    conn.recv(0.01)
                except (TimeoutError, Closed):
                    break
        for conn in self.conns:
            if conn.open:
                conn.open = False
                conn.ws.close()
        return self.normalised()

    def normalised(self) -> dict[str, Any]:
        pattern = re.compile("|".join(re.escape(v) for v in sorted(self.names, key=len)[::-1]))
        secret = {self.names[g] for g in self.secret}

        def text(s: str) -> str:
            if not self.names:
                return s
            return pattern.sub(lambda m: self.names[m.group(0)], s)

        connections = {
            name: [normalise(e, text, secret) for e in fold(events)]
            for name, events in self.connections.items()
        }
        http = [normalise(call, text, secret) for call in self.http]
        return {"connections": connections, "http": http}


def still(view: View) -> bool:
    """No bot is to act: the game is over or a person is to act."""
    actor = view["view"]["to_act"]
    return view["view"]["over"] or actor is None or view["seats"][actor]["kind"] != "bot"


def online(view: View) -> list[bool]:
    return [s["online"] for s in view["seats"]]


def kinds(view: View) -> list[str]:
    return [s["kind"] for s in view["seats"]]


def after(seq: int) -> Pred:
    """A view of a step after ``seq``."""
    return lambda v: bool(v["seq"] > seq)


# --- normalisation ----------------------------------------------------------------------------


def fold(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run of consecutive views received in one bot stretch becomes the one view a
    connection that read nothing meanwhile would have been sent: the last view, with the
    log entries of the whole run from its last ``log_reset`` on (``Hub.view_text``)."""
    out: list[dict[str, Any]] = []
    for event in events:
        stretch = event.get("stretch")
        frame = event.get("received")
        prev = out[-1] if out else None
        if (
            stretch is not None
            and frame is not None
            and frame.get("type") == "view"
            and prev is not None
            and prev.get("stretch") == stretch
            and prev.get("received", {}).get("type") == "view"
        ):
            before = prev["received"]
            log = frame["log"] if frame["log_reset"] else before["log"] + frame["log"]
            merged = {**frame, "log": log, "log_reset": before["log_reset"] or frame["log_reset"]}
            out[-1] = {"received": merged, "stretch": stretch}
        else:
            out.append(dict(event))
    for event in out:
        if "stretch" in event:
            event["stretch"] = True
    return out


TIME = "<time>"
DEAL = "<secret deal>"


def normalise(obj: Any, text: Callable[[str], str], secret: set[str]) -> Any:
    """``obj`` with its ids and tokens replaced (``text``) and its times masked; a seat's
    view of a game dealt from a secret seed (``secret``) with the dealt tiles masked."""
    if isinstance(obj, str):
        return text(obj)
    if isinstance(obj, list):
        return [normalise(x, text, secret) for x in obj]
    if not isinstance(obj, dict):
        return obj
    out = {text(k): normalise(v, text, secret) for k, v in obj.items()}
    for key in ("created", "now", "offline_since"):
        if is_number(out.get(key)):
            out[key] = TIME
    if {"n", "text", "at"} <= out.keys():  # a chat line
        out["at"] = TIME
    if "pace" in out and "banks" in out:  # a clock
        out["banks"] = [TIME for _ in out["banks"]]
        for key in ("since", "deadline"):
            if is_number(out.get(key)):
                out[key] = TIME
    if out.get("type") == "view" and out.get("game") in secret and out.get("seat") is not None:
        view = out["view"]
        view["players"][out["seat"]]["hand"] = DEAL
        view["unseen"] = DEAL
        view["legal_actions"] = DEAL
    return out


def is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


# --- the sessions ------------------------------------------------------------------------------


def auto(session: Session, seats: list[Conn], rng: random.Random, actions: int) -> None:
    """``actions`` lockstep actions of a game of people, each chosen by ``rng`` among the
    legal actions of the seat to act (``seats[i]`` plays seat ``i``)."""
    for _ in range(actions):
        last = seats[0].last
        assert last is not None
        actor = seats[last["view"]["to_act"]]
        assert actor.last is not None and actor.last["seq"] == last["seq"]
        seq = last["seq"]
        actor.move(rng.choice(actor.last["view"]["legal_actions"]), seq=seq)
        session.step(seq + 1)


def auto_with_bots(session: Session, me: Conn, rng: random.Random, turns: int) -> None:
    """``me`` plays ``turns`` actions chosen by ``rng``; the bots answer between them (each
    action opens a bot stretch that ends when ``me`` is to act again)."""
    for _ in range(turns):
        assert me.last is not None
        view = me.last
        assert view["view"]["to_act"] == view["seat"]
        with session.bots():
            me.move(rng.choice(view["view"]["legal_actions"]), seq=view["seq"])
            session.until_people(after(view["seq"]))


def bot_game(s: Session) -> None:
    """Ann (process A) against a random bot, watched through B; Ann plays a few actions,
    then hands her seat to a random bot (through B), and the bots play to the end. A
    spectator who comes after the end gets the whole finished game."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, [HUMANS[0], {"kind": "bot", "level": "random", "name": "Rex"}], seed=21)
    gid, tok = g["id"], g["seats"][0]["token"]
    rail = s.connect("rail", b, gid)
    rail.wait_view()
    ann = s.connect("ann", a, gid, tok)
    ann.wait_view()
    s.views(lambda v: online(v) == [True, True])
    auto_with_bots(s, ann, random.Random(21), 6)
    with s.bots():
        s.call(b, "POST", f"/api/games/{gid}/seats/0/bot", {"token": tok, "level": "random"})
        end = s.until_people(lambda v: v["view"]["over"])
    s.call(b, "GET", f"/api/games/{gid}")
    late = s.connect("late", b, gid)
    late.wait_view()
    assert late.last is not None and late.last["seq"] == end["seq"]


# The script of ``human``: a seeded game of two people (seed HUMAN_SEED) in which a revolt,
# a war and a monument come early; "undo" marks where the actor takes back the action just
# made (and then makes it again).
HUMAN_SEED = 5
HUMAN_SCRIPT = [
    "tile green j3",
    "leader red l1",
    "leader red j1",
    "commit 2",
    "commit 0",
    "leader red o2",
    "leader black f2",
    "undo",
    "tile black f7",
    "tile green p11",
    "tile black c10",
    "tile black e11",
    "tile red c11",
    "tile red k5",
    "leader red n6",
    "tile red i2",
    "leader blue p1",
    "tile green h11",
    "tile black f9",
    "tile blue f1",
    "leader green b1",
    "tile green o3",
    "tile black a2",
    "leader blue g3",
    "tile green j2",
    "leader black h7",
    "tile red p9",
    "tile red o2",
    "tile blue a4",
    "tile red l2",
    "leader black k4",
    "tile black a5",
    "tile red l1",
    "tile green d11",
    "tile green g2",
    "tile green b10",
    "tile red c3",
    "leader black k10",
    "tile blue o4",
    "tile black a11",
    "leader black j5",
    "tile blue d7",
    "tile red b11",
    "tile blue m7",
    "tile blue o5",
    "leader blue i3",
    "tile red k2",
    "monument red-black k1",
    "tile red e7",
    "tile green h2",
    "commit 3",
    "commit 1",
]


def human(s: Session) -> None:
    """Ann (A) and Bob (B) play a seeded game through a revolt, a war and a monument, with
    an undo; a spectator (B) watches throughout and another (A) comes and goes midway."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=HUMAN_SEED)
    gid = g["id"]
    rail = s.connect("rail", b, gid)
    rail.wait_view()
    ann = s.connect("ann", a, gid, g["seats"][0]["token"])
    ann.wait_view()
    rail.wait_view(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, g["seats"][1]["token"])
    s.views(lambda v: online(v) == [True, True])
    seats = [ann, bob]
    seq = 0
    for i, action in enumerate(HUMAN_SCRIPT):
        if i == len(HUMAN_SCRIPT) // 2:
            late = s.connect("late", a, gid)
            late.wait_view()
        if i == 3 * len(HUMAN_SCRIPT) // 4:
            late.close()
        assert ann.last is not None
        actor = seats[ann.last["view"]["to_act"]]
        if action == "undo":
            assert actor.last is not None and actor.last["can_undo"]
            actor.send({"type": "undo", "seq": seq})
            seq += 1
            s.step(seq)
            actor.move(HUMAN_SCRIPT[i - 1], seq=seq)
        else:
            actor.move(action, seq=seq)
        seq += 1
        s.step(seq)
    events = {
        e["type"] + ":" + str(e.get("kind", ""))
        for f in rail.frames
        if f.get("type") == "view"
        for entry in f["log"]
        for e in entry["events"]
    }
    assert {"conflict_started:revolt", "conflict_started:war", "monument_built:"} <= events


def reconnect(s: Session) -> None:
    """Bob's connection drops and comes back (through B, then through A); Ann opens her seat
    a second time (the older connection is told it was taken over and closed)."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=31)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rail = s.connect("rail", b, gid)
    rail.wait_view()
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    rail.wait_view(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    rng = random.Random(31)
    auto(s, [ann, bob], rng, 3)
    bob.close()
    s.views(lambda v: online(v) == [True, False])
    bob = s.connect("bob again", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    auto(s, [ann, bob], rng, 3)
    bob.close()
    s.views(lambda v: online(v) == [True, False])
    bob = s.connect("bob through A", a, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    auto(s, [ann, bob], rng, 2)
    ann2 = s.connect("ann again", a, gid, tokens[0])
    ann2.wait_view()
    ann.wait_error("taken-over")
    ann.wait_closed()
    auto(s, [ann2, bob], rng, 3)


def errors(s: Session) -> None:
    """Refusals: a message before the join, a bad token, an unknown game, an illegal move,
    a move out of turn, malformed messages, an oversized message (refused, and one over
    the websocket layer's limit, which closes the connection), a stale step, a spectator's
    move and undo, an undo that is not allowed, a second join, a bad REST request."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=41)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rail = s.connect("rail", b, gid, join=False)
    rail.send({"type": "sync"})
    rail.wait_error("join-first")
    rail.send_text("{")
    rail.wait_error("bad-json")
    rail.join(None)
    rail.wait_view()
    stranger = s.connect("stranger", a, gid, "x" * 24)
    stranger.wait_error("bad-token")
    stranger.wait_closed()
    nowhere = s.connect("nowhere", a, "000000000000", join=False)  # refused before a join
    nowhere.wait_error("no-game")
    nowhere.wait_closed()
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    rail.wait_view(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    viewers = [ann, bob, rail]

    def refused(conn: Conn, code: str) -> None:
        conn.wait_error(code)
        conn.next_view()  # the fresh view after the error

    # out of turn, illegal, stale, malformed, oversized; each gets an error and a fresh view
    bob.move("pass", seq=0)
    refused(bob, "not-your-turn")
    ann.move("tile red e1", seq=0)  # e1 is a river: no temple there
    refused(ann, "tile-on-river")
    ann.move("commit 2", seq=0)  # no conflict to support
    refused(ann, "wrong-decision")
    ann.move("tile mauve a1", seq=0)
    refused(ann, "bad-colour")
    ann.move("pass", seq=5)
    refused(ann, "stale")
    ann.send_text("not json at all")
    refused(ann, "bad-json")
    ann.send({"type": "move", "seq": 0})
    refused(ann, "bad-message")
    ann.send({"type": "dance"})
    refused(ann, "bad-message")
    ann.send({"type": "join", "token": tokens[0]})
    refused(ann, "joined")
    big = json.dumps({"type": "chat", "text": "x" * 5000})
    ann.send_text(big, f"<{len(big)} bytes: a chat line of 5000 x>")
    refused(ann, "too-large")
    rail.move("pass", seq=0)
    refused(rail, "spectator")
    rail.send({"type": "undo", "seq": 0})
    refused(rail, "spectator")
    ann.send({"type": "undo", "seq": 0})
    refused(ann, "no-undo")
    # a legal move is still taken, and answered on every connection
    assert ann.last is not None
    ann.move(ann.last["view"]["legal_actions"][0], seq=0)
    s.step(1, viewers)
    ann.move("pass", seq=0)  # made against an old step
    refused(ann, "stale")
    # over the websocket layer's own limit: the connection is closed, the seat offline
    huge = "x" * 70_000
    bob.send_text(huge, "<70000 bytes of x>")
    bob.wait_closed()
    s.views(lambda v: online(v) == [True, False], [ann, rail])
    bob = s.connect("bob again", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    # REST refusals
    s.call(a, "POST", "/api/games", {"seats": HUMANS, "chat": "shouting"}, status=422)
    s.call(b, "POST", f"/api/games/{gid}/seats/1/bot", {"token": tokens[0]}, status=403)
    s.call(b, "POST", f"/api/games/{gid}/rematch", {"token": tokens[0]}, status=409)


def chat(s: Session) -> None:
    """The table chat under each policy: players write and everyone reads (across
    processes); a spectator may not write unless the table says ``everyone``; nobody
    writes when it is ``off``; bad lines and a burst over the rate are refused; a late
    comer gets the chat so far."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=51)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rail = s.connect("rail", b, gid)
    rail.wait_view()
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    rail.wait_view(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    readers = [ann, bob, rail]
    lines = 0

    def said(conns: list[Conn] | None = None) -> None:
        nonlocal lines
        lines += 1
        for conn in conns or readers:
            conn.wait(lambda f: f.get("type") == "chat" and f["lines"][-1]["n"] == lines)

    ann.send({"type": "chat", "text": "  <b>hello</b> & good luck  "})
    said()
    bob.send({"type": "chat", "text": "Grüße — 你好 🙂"})
    said()
    rail.send({"type": "chat", "text": "hi from the rail"})
    rail.wait_error("chat-closed")
    rail.next_view()
    for bad in ("x" * 301, "   ", "bell\x07"):
        ann.send({"type": "chat", "text": bad})
        ann.wait_error("bad-message")
        ann.next_view()
    auto(s, [ann, bob], random.Random(51), 2)
    for i in range(4):  # with the first line, a burst of five
        ann.send({"type": "chat", "text": f"line {i}"})
        said()
    ann.send({"type": "chat", "text": "one too many"})
    ann.wait_error("chat-too-fast")
    ann.next_view()
    late = s.connect("late", a, gid)
    late.wait(lambda f: f.get("type") == "chat")  # the chat so far
    late.wait_view()
    readers.append(late)

    everyone = s.create(a, HUMANS, seed=52, chat="everyone")
    rail2 = s.connect("rail everyone", b, everyone["id"])
    rail2.wait_view()
    ann2 = s.connect("ann everyone", a, everyone["id"], everyone["seats"][0]["token"])
    ann2.wait_view()
    rail2.wait_view(lambda v: online(v) == [True, False])
    rail2.send({"type": "chat", "text": "nice move"})
    lines = 0
    said([rail2, ann2])

    off = s.create(a, HUMANS, seed=53, chat="off")
    ann3 = s.connect("ann off", b, off["id"], off["seats"][0]["token"])
    ann3.wait_view()
    ann3.send({"type": "chat", "text": "hello?"})
    ann3.wait_error("chat-closed")
    ann3.next_view()


def to_bots(s: Session, gid: str, tokens: list[str], conn: Conn) -> None:
    """Both players of a 2-seat game leave their seats to random bots, which play to the
    end: first the player not to act (through B; that bot waits for its turn), then the
    player to act (through A)."""
    assert conn.last is not None
    actor, seq = conn.last["view"]["to_act"], conn.last["seq"]
    body = {"token": tokens[1 - actor], "level": "random"}
    s.call(s.srv.b, "POST", f"/api/games/{gid}/seats/{1 - actor}/bot", body)
    s.step(seq + 1, pred=lambda v: kinds(v).count("bot") == 1)
    with s.bots():
        body = {"token": tokens[actor], "level": "random"}
        s.call(s.srv.a, "POST", f"/api/games/{gid}/seats/{actor}/bot", body)
        s.until_people(lambda v: v["view"]["over"])


def rematch(s: Session) -> None:
    """A game of two people ends (both hand their seats to random bots); a rematch is asked
    (through B) by a player, asked again by the creator (the same game), refused to a
    stranger; the old table hears of it at once, and the old links open the new game (the
    same person's seat, the seats rotated by one)."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=61, chat="everyone", listed=True)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rail = s.connect("rail", b, gid)
    rail.wait_view()
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    rail.wait_view(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    auto(s, [ann, bob], random.Random(61), 3)
    to_bots(s, gid, tokens, ann)
    s.call(b, "POST", f"/api/games/{gid}/rematch", {"token": "x" * 24}, status=403)
    new = s.call(b, "POST", f"/api/games/{gid}/rematch", {"token": tokens[0]})
    s.secret.add(new["id"])
    s.views(lambda v: v["rematch"] == new["id"])
    again = s.call(a, "POST", f"/api/games/{gid}/rematch", {"token": g["creator_token"]})
    assert again["id"] == new["id"]
    s.call(a, "GET", f"/api/games/{new['id']}")
    rail_new = s.connect("rail new", b, new["id"])
    rail_new.wait_view()
    ann_new = s.connect("ann new", a, new["id"], tokens[0])
    ann_new.wait_view()  # her token opens her seat of the rematch: the second, rotated
    rail_new.wait_view(lambda v: online(v) == [False, True])


def clock(s: Session) -> None:
    """A realtime clock runs out: Ann never comes, a bot of the pace's level takes her seat
    and plays it; Bob (B) plays his turns in time; Ann takes her seat back (with the grace
    time) and plays; then both leave their seats to random bots, which end the game (and
    its clock)."""
    a, b = s.srv.a, s.srv.b
    pace = {"kind": "realtime", "base": CLOCK_BASE, "increment": 10, "level": "greedy"}
    g = s.create(a, HUMANS, seed=71, pace=pace)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rng = random.Random(71)
    with s.bots():
        s.connect("rail", a, gid)
        bob = s.connect("bob", b, gid, tokens[1])
        s.until_people(lambda v: v["timeouts"] != [] and online(v) == [True, True])
    for _ in range(4):  # Bob's actions; the bot plays Ann's turns between them
        assert bob.last is not None and bob.last["view"]["to_act"] == 1
        with s.bots():
            bob.move(rng.choice(bob.last["view"]["legal_actions"]))
            s.until_people(after(bob.last["seq"]))
    assert bob.last is not None and bob.last["view"]["to_act"] == 1
    s.call(b, "POST", f"/api/games/{gid}/seats/0/human", {"token": tokens[0]})
    s.views(lambda v: kinds(v) == ["human", "human"])
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    s.views(lambda v: online(v) == [True, True])
    s.call(a, "GET", f"/api/games/{gid}")
    auto(s, [ann, bob], rng, 4)
    to_bots(s, gid, tokens, ann)
    s.call(b, "GET", f"/api/games/{gid}")


#: The realtime pace's base time (s): the shortest that leaves Bob, who must finish his first
#: turn within it after the bot's last move, a wide margin on a busy machine; Ann's clock,
#: which runs from the game's creation, takes as long to run out.
CLOCK_BASE = 2.0


def spectators(s: Session) -> None:
    """Spectators on both processes watch a game; one asks for the whole log (``sync``) and
    pings; one leaves and another comes late (the whole log at once)."""
    a, b = s.srv.a, s.srv.b
    g = s.create(a, HUMANS, seed=81)
    gid, tokens = g["id"], [x["token"] for x in g["seats"]]
    rail_a = s.connect("rail A", a, gid)
    rail_a.wait_view()
    rail_b = s.connect("rail B", b, gid)
    rail_b.wait_view()
    ann = s.connect("ann", a, gid, tokens[0])
    ann.wait_view()
    s.views(lambda v: online(v) == [True, False])
    bob = s.connect("bob", b, gid, tokens[1])
    s.views(lambda v: online(v) == [True, True])
    rng = random.Random(81)
    auto(s, [ann, bob], rng, 4)
    rail_b.send({"type": "sync"})
    rail_b.next_view()
    rail_b.send({"type": "ping", "t": 42})
    rail_b.wait(lambda f: f.get("type") == "pong")
    rail_a.close()
    auto(s, [ann, bob], rng, 4)
    late = s.connect("late", b, gid)
    late.wait_view()
    auto(s, [ann, bob], rng, 2)


SESSIONS: dict[str, Callable[[Session], None]] = {
    "bot_game": bot_game,
    "human": human,
    "reconnect": reconnect,
    "errors": errors,
    "chat": chat,
    "rematch": rematch,
    "spectators": spectators,
    "clock": clock,
}


def record(name: str, srv: Servers) -> dict[str, Any]:
    session = Session(name, srv)
    try:
        SESSIONS[name](session)
        return session.finish()
    finally:
        for conn in session.conns:
            with contextlib.suppress(Exception):
                conn.ws.close()


# --- the fixture and the comparison -------------------------------------------------------------


def fixture_path(name: str) -> Path:
    return FRAMES / f"{name}.json.gz"


def load(name: str) -> Any:
    return json.loads(gzip.decompress(fixture_path(name).read_bytes()))


def save(name: str, recording: dict[str, Any]) -> None:
    """Write the recording (gzip with no time stamp: the same frames give the same bytes)."""
    data = dump(recording).encode()
    fixture_path(name).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def dump(recording: dict[str, Any]) -> str:
    """The recording as JSON, one frame a line."""
    parts = ["{", ' "connections": {']
    conns = list(recording["connections"].items())
    for i, (name, events) in enumerate(conns):
        parts.append(f"  {json.dumps(name)}: [")
        for j, event in enumerate(events):
            comma = "," if j + 1 < len(events) else ""
            parts.append("   " + json.dumps(event, ensure_ascii=False, sort_keys=True) + comma)
        parts.append("  ]" + ("," if i + 1 < len(conns) else ""))
    parts.append(" },")
    parts.append(' "http": [')
    calls = recording["http"]
    for j, call in enumerate(calls):
        comma = "," if j + 1 < len(calls) else ""
        parts.append("  " + json.dumps(call, ensure_ascii=False, sort_keys=True) + comma)
    parts.append(" ]")
    parts.append("}")
    return "\n".join(parts) + "\n"


def first_difference(expected: Any, actual: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first key path where ``actual`` differs from ``expected``, with both values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = list(expected) + [k for k in actual if k not in expected]
        for key in sorted(keys, key=lambda k: k != "type"):  # a frame's type first
            if key not in actual or key not in expected:
                return f"{path}.{key}", expected.get(key, "<absent>"), actual.get(key, "<absent>")
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (x, y) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path} (length)", len(expected), len(actual)
        return None
    if expected != actual or type(expected) is not type(actual):
        return path, expected, actual
    return None


def short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def describe(event: dict[str, Any] | None) -> str:
    if event is None:
        return "nothing"
    for key in ("received", "sent"):
        if key in event and isinstance(event[key], dict):
            frame = event[key]
            extra = f" seq {frame['seq']}" if "seq" in frame else ""
            extra += f" code {frame['code']}" if "code" in frame else ""
            return f"{key} {frame.get('type')}{extra}"
    return short(event, 120)


def differences(name: str, database: str, expected: Any, actual: Any) -> str | None:
    """A readable account of the first difference between two recordings, or ``None``."""
    where = f"session {name!r} on {database}"
    exp_conns, act_conns = expected["connections"], actual["connections"]
    if list(exp_conns) != list(act_conns):
        return f"{where}: connections {list(act_conns)}, recorded {list(exp_conns)}"
    for conn, exp_events in exp_conns.items():
        act_events = act_conns[conn]
        for i in range(max(len(exp_events), len(act_events))):
            exp = exp_events[i] if i < len(exp_events) else None
            act = act_events[i] if i < len(act_events) else None
            found = first_difference(exp, act)
            if found is None:
                continue
            path, e, a = found
            return (
                f"{where}, connection {conn!r}, frame {i} "
                f"(recorded: {describe(exp)}; now: {describe(act)}; "
                f"the one before: {describe(exp_events[i - 1] if i else None)}):\n"
                f"  first difference at {path or '(the whole frame)'}\n"
                f"  recorded: {short(e)}\n"
                f"  now:      {short(a)}"
            )
    exp_http, act_http = expected["http"], actual["http"]
    for i in range(max(len(exp_http), len(act_http))):
        exp = exp_http[i] if i < len(exp_http) else None
        act = act_http[i] if i < len(act_http) else None
        found = first_difference(exp, act)
        if found is not None:
            path, e, a = found
            return (
                f"{where}, HTTP call {i}: first difference at {path or '(the whole call)'}\n"
                f"  recorded: {short(e)}\n  now:      {short(a)}"
            )
    return None


# --- the test -------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=DATABASES)
def cluster(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Servers]:
    database: str = request.param
    url = postgres_or_skip() if database == "postgresql" else None
    with servers(database, tmp_path_factory.mktemp(database), url) as srv:
        yield srv


@pytest.mark.parametrize("name", list(SESSIONS))
def test_frames_are_as_recorded(cluster: Servers, name: str) -> None:
    expected = load(name)
    actual = record(name, cluster)
    problem = differences(name, cluster.database, expected, actual)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def renew() -> None:
    """Record every session on both databases and write the fixture (refused when the two
    databases do not give the same frames)."""
    import tempfile

    os.environ[REQUIRE_POSTGRES] = "1"  # the frames are recorded on both databases
    url = postgres_or_skip()  # fails, naming the address, when PostgreSQL does not answer
    recordings: dict[str, dict[str, Any]] = {}
    for database in DATABASES:
        with tempfile.TemporaryDirectory() as tmp, servers(database, Path(tmp), url) as srv:
            for name in SESSIONS:
                start = time.monotonic()
                recording = record(name, srv)
                count = sum(len(e) for e in recording["connections"].values())
                took = time.monotonic() - start
                print(
                    f"{database} {name}: {count} frames, {len(recording['http'])} HTTP calls, "
                    f"{took:.1f} s"
                )
                if name in recordings:
                    problem = differences(name, database, recordings[name], recording)
                    if problem is not None:
                        sys.exit(f"the databases differ (nothing written):\n{problem}")
                recordings[name] = recording
    FRAMES.mkdir(exist_ok=True)
    for name, recording in recordings.items():
        save(name, recording)
        print(f"{name} -> {fixture_path(name)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--renew"]:
        sys.exit("usage: python tests/server/test_frames.py --renew")
    renew()
