"""The websockets open from each client address of one process, against the limit
``Limits.connections_per_client``: every websocket route (a game, the lobby, a bot's event
socket) takes a place here when it opens and gives it back when it closes."""

from __future__ import annotations

from collections import Counter

from .errors import GameError


class Connections:
    """The open websockets of each client (an address hash) of this process."""

    def __init__(self, most: int) -> None:
        #: the most websockets one client may hold open at once
        self.most = most
        self.open: Counter[str] = Counter()

    def take(self, client: str) -> GameError | None:
        """Count one more websocket of ``client``; the refusal (``too-many-connections``,
        nothing counted) when it holds ``most`` already."""
        if self.open[client] >= self.most:
            return GameError(
                "too-many-connections",
                f"at most {self.most} connections from one address",
                limit="connections_per_client",
            )
        self.open[client] += 1
        return None

    def give_back(self, client: str) -> None:
        """One websocket of ``client`` closed."""
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]
