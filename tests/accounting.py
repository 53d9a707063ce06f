"""Helpers for the account tests: a signed-in HTTP client (``support.serving.Player``, shared
with the benchmarks), a websocket seat opened with the account's session cookie, a password
hasher that counts its checks, a scripted two-seat game played to its end quickly (every
action swaps the largest set of tiles offered, or passes: the bag runs out in about 22
actions), and an account's quick match awaited until the matchmaker pairs it."""

from __future__ import annotations

import json
import time
from typing import Any

from support.serving import PATIENCE, Player, SeatClient


def wait_match(p: Player, timeout: float = PATIENCE) -> dict[str, Any]:
    """The account's quick match (``GET /api/match``) once the matchmaker paired it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = p.http.get("/api/match")
        assert r.status_code == 200, r.text
        m = r.json()["match"]
        if m and m["state"] == "matched":
            return dict(m)
        time.sleep(0.2)
    raise AssertionError("no match")


class AccountSeat(SeatClient):
    """A websocket opened with a player's cookies; ``join`` is the first message."""

    def __init__(
        self,
        ws_url: str,
        game_id: str,
        cookie: str,
        join: dict[str, Any],
        origin: str | None = None,
    ) -> None:
        from websockets.sync.client import connect

        self._cm = connect(
            f"{ws_url}/ws/games/{game_id}",
            max_size=2**24,
            open_timeout=PATIENCE,
            additional_headers={"Cookie": cookie} if cookie else None,
            origin=origin,  # type: ignore[arg-type]
        )
        self.ws = self._cm.__enter__()
        self.ws.send(json.dumps({"type": "join", **join}))
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None


def quick_action(view: dict[str, Any]) -> str:
    legal = view["legal_actions"]
    swaps = [a for a in legal if a.startswith("swap ")]
    if swaps:
        return max(swaps, key=lambda a: sum(int(x.split("=")[1]) for x in a[5:].split(",")))
    return "pass" if "pass" in legal else legal[0]


def play_to_end(seats: list[SeatClient]) -> dict[str, Any]:
    """Play the game through its seats' websockets until it is over; the last view."""
    seq = -1
    for _ in range(400):
        views = [s.wait_view(lambda m, seq=seq: m["seq"] > seq) for s in seats]
        top = max(v["seq"] for v in views)
        views = [s.wait_view(lambda m, top=top: m["seq"] >= top) for s in seats]
        if views[0]["view"]["over"]:
            return views[0]
        actor = views[0]["view"]["to_act"]
        mover = seats[[v["seat"] for v in views].index(actor)]
        mover.move(quick_action(views[[v["seat"] for v in views].index(actor)]["view"]))
        seq = top
    raise AssertionError("the game did not end")


def play_first_turns(seats: list[SeatClient], passes: int | None = None) -> dict[str, Any]:
    """Play quick actions through the seats' websockets until the turn has passed
    ``passes`` times (default: once from every seat, which ends a rated game's opening:
    a resignation counts from there on); the last view."""
    want = len(seats) if passes is None else passes
    seq, passed, turn = -1, 0, 0
    for _ in range(400):
        views = [s.wait_view(lambda m, seq=seq: m["seq"] > seq) for s in seats]
        top = max(v["seq"] for v in views)
        views = [s.wait_view(lambda m, top=top: m["seq"] >= top) for s in seats]
        now = views[0]["view"]["turn"]["player"]
        passed, turn = passed + (now != turn), now
        if passed >= want:
            return views[0]
        actor = views[0]["view"]["to_act"]
        index = [v["seat"] for v in views].index(actor)
        seats[index].move(quick_action(views[index]["view"]))
        seq = top
    raise AssertionError("the turn did not pass")


class CountingHasher:
    """argon2's hasher, counting the password checks (``verified``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.verified = 0

    def verify(self, stored: str, password: str) -> bool:
        self.verified += 1
        return bool(self.inner.verify(stored, password))

    def hash(self, password: str) -> str:
        return str(self.inner.hash(password))

    def check_needs_rehash(self, stored: str) -> bool:
        return bool(self.inner.check_needs_rehash(stored))
