"""A bot account for the tests, through real HTTP and websockets: its owner signed in on
the page, one API token, its event socket (``/ws/bot``)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
from websockets.sync.client import connect

from support.serving import PATIENCE, LiveServer, Player, SeatClient, ServerProcess

PASSWORD = "correct horse battery"


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:6]}"


class Bot:
    """A bot account: its owner signed in on the page, and one API token."""

    def __init__(self, server: LiveServer | ServerProcess, stem: str = "Bot") -> None:
        self.server = server
        self.owner = Player(server)
        self.name = unique(stem)
        self.owner.sign_up(self.name, PASSWORD)
        r = self.owner.post("/api/account/bot", {"confirm": True})
        assert r.status_code == 200, r.text
        made = self.owner.post("/api/account/tokens", {"name": "laptop"})
        assert made.status_code == 200, made.text
        self.token: str = made.json()["token"]
        self.token_id: int = made.json()["id"]
        self.api = httpx.Client(
            base_url=server.url,
            timeout=30,
            headers={"Authorization": f"Bearer {self.token}"},
        )

    def events(self) -> Events:
        return Events(self.server.ws_url, self.token)


class Events:
    """A bot's event socket."""

    def __init__(self, ws_url: str, token: str) -> None:
        self._cm = connect(
            f"{ws_url}/ws/bot",
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=PATIENCE,
        )
        self.ws = self._cm.__enter__()

    def recv(self, timeout: float = PATIENCE) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return data

    def wait(self, kind: str, timeout: float = PATIENCE) -> dict[str, Any]:
        while True:
            frame = self.recv(timeout)
            if frame["type"] == kind:
                return frame

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def close(self) -> None:
        self.ws.close()


class BotSeat(SeatClient):
    """A game websocket opened with an API token, joining the account's seat."""

    def __init__(self, ws_url: str, game_id: str, token: str, seat: int) -> None:
        self._cm = connect(
            f"{ws_url}/ws/games/{game_id}",
            additional_headers={"Authorization": f"Bearer {token}"},
            max_size=2**24,
            open_timeout=PATIENCE,
        )
        self.ws = self._cm.__enter__()
        self.ws.send(json.dumps({"type": "join", "seat": seat}))
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None


def wait_offer(events: Events, offer_id: str) -> dict[str, Any]:
    while True:
        frame = events.wait("challenge")
        if frame["challenge"]["id"] == offer_id:
            return dict(frame["challenge"])
