"""The server's limits, in one place, and the token bucket that enforces the rates.

Every limit protects the other players from one client: memory (outgoing frames, frame and
body sizes), CPU (message rates, spectators, bot work) and the database (games created).
The defaults suit a public server; tests and benchmarks pass their own ``Limits``.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import TypeVar

T = TypeVar("T")

#: Chat lines a connection may write: a burst, then this many a second.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5


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
    #: The shortest base time of a game's clock a new game may ask for (a minute: the
    #: lobby's form says so); shorter clocks only for tests.
    pace_min_seconds: float = 60.0
    #: Request bodies (REST) and websocket messages, in bytes. A frame larger than
    #: ``frame_bytes`` gets an error frame; one larger than ``ws_max_bytes`` is refused by
    #: the websocket layer itself (close 1009) before it is read whole.
    body_bytes: int = 16 * 1024
    frame_bytes: int = 4 * 1024
    ws_max_bytes: int = 64 * 1024
    #: Seconds an idle HTTP connection stays open for the client's next request. Longer
    #: than uvicorn's 5 s, so that a client (or a proxy) reusing a connection after a
    #: pause seldom sends into one the server is closing; short enough that idle
    #: connections do not pile up.
    keep_alive_seconds: int = 30
    #: Games a client (an IP address) may create a minute, and may have under way (games
    #: changed in the last hour), of them running a bot now (created with a bot seat, or
    #: a seat handed to a bot since: ``Hub.hand_to_bot`` refuses beyond the limit too).
    games_per_minute: float = 10.0
    games_per_client: int = 20
    bot_games_per_client: int = 4
    #: Spectators of one game, and websockets of one client, in one server process.
    spectators_per_game: int = 200
    connections_per_client: int = 64
    #: Bot decisions waiting for a worker, over all games of the process.
    bot_queue: int = 500
    #: Hints ("Suggest a move", games that are not rated): how many one seat of a game may
    #: ask for (counted in the database, shared by every process), and the search's budget
    #: for one: a fixed amount of work, ``hint_iterations`` iterations of ``hard``'s search
    #: and no wall-clock cap (the same hint however busy the machine; about 0.4 s of CPU).
    hints_per_seat: int = 20
    hint_iterations: int = 1000
    #: Sign-ins (counted in the database, shared by every process, taken before the
    #: password is checked: ``server/throttle.py``). One client may fail
    #: ``sign_in_failures_per_name`` times for one name, then waits ``sign_in_backoff``
    #: seconds before each further try, doubling each time (at most ``sign_in_window``;
    #: the count starts again after ``sign_in_window`` seconds without a try); it may fail
    #: ``sign_in_failures_per_client`` times in ``sign_in_window`` whatever the names. Past
    #: ``sign_in_name_ceiling`` failures for one name from every client together in
    #: ``sign_in_window``, its passwords are checked ``sign_in_name_spacing`` seconds apart
    #: (a sign-in waits for its turn), except from browsers the account signed in from.
    sign_in_failures_per_name: int = 5
    sign_in_failures_per_client: int = 20
    sign_in_window: float = 900.0
    sign_in_backoff: float = 60.0
    sign_in_name_ceiling: int = 100
    sign_in_name_spacing: float = 10.0
    #: Sign-ups one client may try an hour (each one counts, taken before the work).
    sign_ups_per_client: int = 10
    #: Reports (of a chat line or an account) one signed-in account may send an hour.
    reports_per_hour: int = 10
    #: Confirmation e-mails one account may have sent an hour (each new address sends one).
    confirm_emails_per_account: int = 5
    #: Password-reset requests one client may send an hour, and that may name one account
    #: name or address an hour (from every client together); each counts, whether the
    #: name or address exists or not, taken before the work.
    reset_requests_per_client: int = 10
    reset_requests_per_target: int = 3
    #: API tokens a bot account may hold, and open challenges an account may have sent
    #: (both counted in the database under a lock on the account: atomic across processes).
    tokens_per_account: int = 10
    challenges_per_account: int = 10
    #: Direct challenges between people one account may have waiting for an answer at once
    #: (counted in the database under a lock on the account), and the invitation and
    #: challenge e-mails one account may receive an hour (counted in the database:
    #: ``server/invitemail.py``); past it the invitation is still shown in the lobby.
    direct_challenges_per_account: int = 3
    invite_emails_per_account: int = 3
    #: Answers to puzzles a guest (a client not signed in; its answers rate nothing) may
    #: send a minute, in a burst and then sustained, in each server process: each is judged
    #: by the engine. A signed-in account's first answer to a puzzle is its rated one.
    puzzle_attempts_per_minute: float = 30.0

    @classmethod
    def parse(cls, pairs: list[str]) -> Limits:
        """Limits from ``name=value`` pairs (``tne serve --limit games_per_client=100``);
        raises ``ValueError`` naming an unknown limit or a bad value."""
        values: dict[str, float | int] = {}
        kinds = {f.name: f.type for f in fields(cls)}
        for pair in pairs:
            name, eq, value = pair.partition("=")
            if not eq or name not in kinds:
                raise ValueError(f"unknown limit {name!r}: one of {', '.join(kinds)}")
            number = float(value) if kinds[name] in (float, "float") else int(value)
            if number < 0:
                raise ValueError(f"limit {name} must not be negative")
            values[name] = number
        return cls(**values)  # type: ignore[arg-type]


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


class BotWorkFull(Exception):
    """As many bot decisions wait as the queue holds: try again later."""


class BotWork:
    """Bot decisions wait here for one of ``workers`` slots, at most ``waiting`` of them.

    Each owner (the client that created the game) has its own line, and a freed slot goes
    to the owners in turn: a client running many bot games waits for its own decisions,
    not everybody else's.
    """

    def __init__(self, workers: int, waiting: int) -> None:
        self.workers = max(1, workers)
        self.limit = waiting
        self.busy = 0
        self.lines: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        return sum(len(line) for line in self.lines.values())

    async def run(self, owner: str, start: Callable[[], Awaitable[T]]) -> T:
        """Wait for ``owner``'s turn, then await ``start()`` holding a slot; raises
        ``BotWorkFull`` when the queue is full."""
        if self.busy < self.workers and not self.lines:
            self.busy += 1
        else:
            if self.waiting >= self.limit:
                raise BotWorkFull(f"{self.limit} bot decisions are waiting already")
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.lines.setdefault(owner, deque()).append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # granted, then cancelled before it started
                else:
                    line = self.lines.get(owner)
                    if line is not None and turn in line:
                        line.remove(turn)
                        if not line:
                            del self.lines[owner]
                raise
        try:
            return await start()
        finally:
            self._release()

    def _release(self) -> None:
        self.busy -= 1
        while self.busy < self.workers and self.lines:
            owner, line = next(iter(self.lines.items()))
            turn = line.popleft()
            del self.lines[owner]
            if line:
                self.lines[owner] = line  # to the back of the round
            if turn.cancelled():
                continue
            self.busy += 1
            turn.set_result(None)


class ClientRates:
    """A token bucket per client, forgetting clients whose bucket is full again (so the
    table stays small however many addresses come by)."""

    def __init__(self, per_minute: float, burst: int, size: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.size = size
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, client: str) -> bool:
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= self.size:
                self._forget_idle()
            bucket = self.buckets[client] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def _forget_idle(self) -> None:
        now = time.monotonic()
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[key]
        while len(self.buckets) >= self.size:  # all busy: forget the oldest
            del self.buckets[next(iter(self.buckets))]
