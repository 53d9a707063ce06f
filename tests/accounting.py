"""Helpers for the account tests: a signed-in HTTP client, a websocket seat opened with the
account's session cookie, a password hasher that counts its checks, and a scripted two-seat
game played to its end quickly (every action swaps the largest set of tiles offered, or
passes: the bag runs out in about 22 actions)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from support.serving import LiveServer, SeatClient


class Player:
    """A browser's worth of HTTP state: cookies (session, CSRF) and the CSRF header."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.csrf = self.http.get("/api/account").json()["csrf"]

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        return self.http.post(path, json=body if body is not None else {}, headers=headers)

    def sign_up(self, name: str, password: str, seats: list[dict[str, str]] | None = None) -> Any:
        r = self.post(
            "/api/account/signup", {"name": name, "password": password, "seats": seats or []}
        )
        assert r.status_code == 200, r.text
        return r.json()

    def sign_in(self, name: str, password: str) -> httpx.Response:
        return self.post("/api/account/signin", {"name": name, "password": password})

    def me(self) -> Any:
        return self.http.get("/api/account").json()["account"]

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    def close(self) -> None:
        self.http.close()


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
            open_timeout=20,
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
