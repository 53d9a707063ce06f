"""A live game's audience: the connections of its players and spectators in this process,
those of its players in other processes, and the frames built for them so far.

A frame is built once per version of the game (``touch``) and shared by the connections
that see the same thing (``viewframes.py`` builds them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.jsontypes import JsonDict
from .conn import Conn
from .errors import GameError
from .frames import SeatInfo, error_frame


@dataclass
class FrameCache:
    """The frames built for one version of the game: ``(version, seq)`` they were built
    for, each frame's text by (seat, first log entry), each seat's view, what those views
    share (the engine's ``shared_view``: the board, the turn, the decision, built once for
    every seat), each entry's events in their wire form, and the seats as everybody sees
    them."""

    built_for: tuple[int, int] | None = None
    texts: dict[tuple[int | None, int], str] = field(default_factory=dict)
    views: dict[int | None, JsonDict] = field(default_factory=dict)
    shared: JsonDict | None = None
    wire: dict[int, list[JsonDict]] = field(default_factory=dict)
    seats: list[SeatInfo] | None = None

    def fresh(self, version: tuple[int, int]) -> None:
        """Forget what was built for another version than ``version``."""
        if self.built_for != version:
            self.built_for = version
            self.texts.clear()
            self.views.clear()
            self.shared = None
            self.wire.clear()
            self.seats = None


class Audience:
    """Who watches one game, and the frames they are sent."""

    def __init__(self) -> None:
        self.conns: dict[int, Conn] = {}
        #: connections of other processes, by seat: connection id -> process
        self.remote: dict[int, dict[str, str]] = {}
        #: the version of what the views show (``touch``)
        self.version = 0
        self.frames = FrameCache()

    def online(self) -> set[int]:
        """The seats with a live connection, in this process or another (spectators come
        and go unseen)."""
        here = {c.seat for c in self.conns.values() if c.seat is not None and c.closing is None}
        return here | {seat for seat, conns in self.remote.items() if conns}

    def join(self, conn: Conn, seq: int) -> int:
        """A new connection (the game at step ``seq``), and its key: it takes its seat over
        from older ones, the others see the seat come online, and its first view is due."""
        key = id(conn)
        online = self.online()
        if conn.seat is not None:
            self.take_over(conn.seat, seq)
        self.conns[key] = conn
        if self.online() != online:
            self.broadcast(exclude=key)  # the others see the seat come online
        conn.due(full_log=True)
        return key

    def part(self, key: int, *, quietly: bool = False) -> tuple[Conn | None, int | None]:
        """The connection ``key`` closed: it (``None``: not one of these), and its seat if
        nobody plays it now, here or elsewhere. The others see the seat go offline unless
        ``quietly`` (the server stops)."""
        online = self.online()
        conn = self.conns.pop(key, None)
        if conn is None:
            return None, None
        if not quietly and self.online() != online:
            self.broadcast()
        gone = conn.seat if conn.seat is not None and conn.seat not in self.online() else None
        return conn, gone

    def touch(self) -> None:
        """Something a view shows changed: the frames built so far are stale."""
        self.version += 1

    def broadcast(self, exclude: int | None = None) -> None:
        """A fresh view is due to every connection (but ``exclude``): the players' first.
        Their writers then run first, so that a move's acknowledgement and the opponent's
        view do not wait behind the frames of the game's spectators, whenever they joined."""
        self.touch()
        for key, conn in self.conns.items():
            if key != exclude and conn.seat is not None:
                conn.due()
        for key, conn in self.conns.items():
            if key != exclude and conn.seat is None:
                conn.due()

    def resend_logs(self) -> None:
        """The log shrank (an undo): every connection gets it whole with its next view."""
        for conn in self.conns.values():
            conn.last_log = 0

    def send_error(self, conn: Conn, err: GameError, seq: int, *, with_view: bool = True) -> None:
        """An error frame to ``conn`` only (the game at step ``seq``), then (``with_view``)
        a fresh view."""
        conn.send(error_frame(err.code, err.message, seq))
        if with_view:
            conn.due(full_log=True)

    def expel(self, seat: int, seq: int) -> None:
        """The seat's account was banned: its connections are told why and closed (4403)."""
        for conn in self.conns.values():
            if conn.seat == seat and conn.closing is None:
                conn.send(
                    error_frame(
                        "banned",
                        "a moderator banned the account of this seat: a bot plays it now",
                        seq,
                    )
                )
                conn.close(4403, "banned")

    def take_over(self, seat: int, seq: int, *, announced_only: bool = False) -> None:
        """One live connection a seat: the older ones are told why and closed (4409).
        ``announced_only``: a newer connection opened in another process, which makes
        older only the connections whose claim came before its claim."""
        for old in self.conns.values():
            if old.seat == seat and old.closing is None and (old.announced or not announced_only):
                old.send(
                    error_frame(
                        "taken-over",
                        "this seat was opened in another window or device, "
                        "which plays it now: this connection is closed",
                        seq,
                    )
                )
                old.close(4409, "taken-over")
