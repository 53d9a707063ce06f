"""The server's limits, in one place, and the token bucket that enforces the rates.

Every limit protects the other players from one client: memory (outgoing frames, frame and
body sizes), CPU (message rates, spectators, bot work) and the database (games created).
The defaults suit a public server; tests and benchmarks pass their own ``Limits``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one client may ask of the server (see docs/web.md, *Limits*)."""

    #: Websocket messages a connection may send per second, sustained, and in a burst.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: Error and pong frames waiting for a connection that does not read them. From half
    #: of them on the server stops reading from the client; if the client has not read
    #: them after ``unread_seconds`` it is closed (1008). Views are never queued: a
    #: connection holds at most the latest one, built when it can be sent.
    pending_frames: int = 32
    unread_seconds: float = 10.0
    #: How long a seat's player must have been away (no live connection) before the game's
    #: creator may hand the seat to a bot.
    seat_absence_seconds: float = 120.0


class TokenBucket:
    """``rate`` events a second on average, ``burst`` at once."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
