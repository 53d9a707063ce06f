"""One websocket of a game, as the live game sees it: its seat and its outbox."""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from collections.abc import Awaitable, Callable

from .frames import OutFrame
from .limits import CHAT_BURST, CHAT_PER_SECOND, Limits, TokenBucket


class Conn:
    """One websocket: its seat (``None``: spectator) and its outbox.

    The outbox holds the error and pong frames not yet sent and a flag, *a view is due*.
    When half of ``Limits.pending_frames`` wait, the server reads nothing more from the
    client until it reads them, and closes it after ``Limits.unread_seconds``. The view
    itself is built when the connection can take it, so however many steps, syncs or seat
    changes pile up for a slow reader, it gets only the latest one.
    """

    def __init__(self, seat: int | None, limits: Limits) -> None:
        self.seat = seat
        #: the signed-in account that opened it (``None``: a guest): a muted or banned
        #: account may not write in the chat
        self.account: int | None = None
        #: for a connection opened with an API token: whether the token still opens its
        #: account (checked before each change it asks for: a revoked token stops there)
        self.still_valid: Callable[[], Awaitable[bool]] | None = None
        #: the seats whose chat lines this connection is not sent: their accounts are
        #: blocked by its account
        self.hidden: frozenset[int] = frozenset()
        self.frames: deque[OutFrame] = deque()
        self.view_due = False
        self.full_log = False
        self.last_log = 0  # how many log entries this connection has been sent
        self.wake = asyncio.Event()
        self.drained = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.max_frames = limits.pending_frames
        self.rate = TokenBucket(limits.messages_per_second, limits.message_burst)
        #: this connection among all processes' (the cluster's presence messages)
        self.cid = secrets.token_hex(4)
        #: whether its claim of the seat came back in the cluster's common order
        self.announced = False
        self.limited_at = -1.0  # when the last rate-limited error frame was queued
        self.chat_rate = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)

    def send(self, frame: OutFrame) -> None:
        """Queue a frame that is not a view (an error, a pong)."""
        if self.closing is not None:
            return
        if len(self.frames) >= self.max_frames:
            self.close(1008, "too many unread replies: this connection does not read them")
            return
        self.frames.append(frame)
        self.wake.set()

    def due(self, *, full_log: bool = False) -> None:
        """A fresh view is due (with the whole log when ``full_log``)."""
        self.view_due = True
        self.full_log = self.full_log or full_log
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (``code`` 1001: server leaving; 1008:
        abuse; 4xxx: the game's reasons)."""
        if self.closing is None:
            self.closing = (code, reason)
            self.wake.set()
