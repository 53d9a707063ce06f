"""Play: the websocket of a seat (or a spectator) on ``/ws/games/{id}``.

Protocol (JSON frames):

- client → ``{"type": "join", "token": "..."}`` first (no token: spectator; or ``"seat"``:
  a seat bound to the signed-in account), then ``{"type": "move", "seq": N, "action": "tile
  red e4" | {"type": "tile", ...}}``, ``{"type": "undo", "seq": N}``, ``{"type": "sync"}``,
  ``{"type": "ping", "t": ...}``, ``{"type": "chat", "text": "..."}``, ``{"type":
  "resign"}``, ``{"type": "abort"}`` (before every player moved) and ``{"type": "name",
  "name": "..."}`` (a guest's nickname for their seat).
- server → ``{"type": "view", "seq", "seat", "view", "seats", "can_undo", "chat", "rematch",
  "log", "log_reset"}`` after every change, ``{"type": "chat", "lines", "reset"}`` (the
  table chat: all of it on joining, then each new line), ``{"type": "pong", "t"}``, and
  ``{"type": "error", "code", "message", "seq"}`` to the sender of a refused message,
  followed by a fresh view.

A connection is refused with an error frame and a close code: 4429 (too many connections
from the address, too many spectators), 4403 (a seat that is not the joiner's), 4404 (no
such game, or a join refused otherwise), 4408 (no join within 30 s), 1011 (the server
failed). Once joined, one task writes (``writer``: the queued frames, then the latest view)
while the connection's own task reads and answers each message in turn (``read_loop``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...store import Store
from ..accounts import AccountService, bind_on_join, seat_of_account
from ..apitokens import bearer
from ..conn import Conn
from ..deps import AccountsDep, Client, ConnectionsDep, HubDep, StoreDep
from ..errors import GameError
from ..frames import encode, error_frame
from ..hub import RESTART, Hub
from ..inputs import (
    GAME_ID_PATTERN,
    Abort,
    BadMessage,
    Chat,
    Hint,
    Join,
    Message,
    Move,
    Nickname,
    Ping,
    Resign,
    Sync,
    Undo,
    read_message,
)
from ..limits import Limits
from ..live import LiveGame
from ..people import set_nickname

log = logging.getLogger("tigris_euphrates.server")

#: The refusals of a join that close the websocket as "forbidden" (4403).
FORBIDDEN_JOIN = ("bad-token", "sign-in", "one-seat", "not-your-seat", "banned", "bot-rated")
#: How long a new connection has to send its join message.
JOIN_SECONDS = 30
#: Messages that are not a join, answered with an error frame, before a join is given up.
JOIN_REFUSALS = 20
#: How often a connection opened with an API token checks that the token still opens its
#: account: a token revoked (or its account banned) closes its game sockets within this
#: time, in whichever process holds them.
TOKEN_CHECK_SECONDS = 5.0

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def play(
    ws: WebSocket,
    game_id: str,
    hub: HubDep,
    service: AccountsDep,
    client: Client,
    connections: ConnectionsDep,
    store: StoreDep,
) -> None:
    """A websocket on a game, counted against its address's ``connections_per_client``."""
    await ws.accept()
    err = connections.take(client)
    if err is not None:
        await refuse(ws, hub, err, 4429)
        return
    try:
        await connection(ws, hub, store, service, game_id)
    finally:
        connections.give_back(client)


async def connection(
    ws: WebSocket, hub: Hub, store: Store, service: AccountService, game_id: str
) -> None:
    """One connection from its join to its end: attached to the game while it lasts."""
    joined = await open_game(ws, hub, store, service, game_id)
    if joined is None:
        return
    game, seat, account = joined
    spectators = sum(1 for c in game.conns.values() if c.seat is None)
    if seat is None and spectators >= hub.limits.spectators_per_game:
        limit = hub.limits.spectators_per_game
        await refuse(
            ws,
            hub,
            GameError(
                "too-many-spectators",
                f"this game has {limit} spectators",
                limit="spectators_per_game",
            ),
            4429,
        )
        return
    hidden = await hidden_seats(hub, store, game, account)
    key, conn = hub.attach(game, seat, hidden)
    conn.account = account
    if hub.draining:  # joined after the drain told the others: told the same, not cut
        conn.close(*RESTART)
    token = bearer(ws)
    if token is not None:

        async def still_valid() -> bool:
            return await service.token_account(token) is not None

        conn.still_valid = still_valid
    send_task = asyncio.create_task(writer(ws, game, conn))
    watcher = asyncio.create_task(watch_token(conn)) if conn.still_valid else None
    try:
        await read_loop(ws, hub, game, seat, conn)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if watcher is not None:
            watcher.cancel()
        hub.detach(game, key)
        await stop_writer(ws, conn, send_task)


async def watch_token(conn: Conn) -> None:
    """Close the connection (4403) once the API token it was opened with no longer opens
    its account, checked every ``TOKEN_CHECK_SECONDS``: a revoked token sees no more views
    of its seat, whether or not it sends anything (a database away: checked again later)."""
    assert conn.still_valid is not None
    while conn.closing is None:
        await asyncio.sleep(TOKEN_CHECK_SECONDS)
        try:
            valid = await conn.still_valid()
        except Exception:
            continue
        if not valid:
            revoked(conn)
            return


async def hidden_seats(
    hub: Hub, store: Store, game: LiveGame, account: int | None
) -> frozenset[int]:
    """The seats of the game held by accounts that ``account`` blocked (their chat is
    hidden from it)."""
    if account is None:
        return frozenset()
    blocked = {i for i, _ in await hub.db(store.social.blocked, account)}
    if not blocked:
        return frozenset()
    bound = await hub.db(store.accounts.seats_of_game, game.id)
    return frozenset(seat for seat, owner in bound.items() if owner in blocked)


async def open_game(
    ws: WebSocket, hub: Hub, store: Store, service: AccountService, game_id: str
) -> tuple[LiveGame, int | None, int | None] | None:
    """The game, the seat the join opens (``None``: spectator) and the signed-in account
    (``None``: a guest), or ``None`` when the connection was refused (an error frame and
    its close code)."""
    try:
        if re.fullmatch(GAME_ID_PATTERN, game_id) is None:
            raise GameError("no-game", "there is no such game (a game id is 12 hex digits)")
        game = await hub.get(game_id)
        seat = await join(ws, hub, service, game)
        if seat is not None and await hub.db(store.moderation.banned_seat, game.id, seat):
            raise GameError("banned", "a moderator banned the account of this seat")
        account = await service.current(ws)
        if seat is not None and account is not None and game.settings.get("quick"):
            await seated(hub, store, game.id, account.id)
        # reading the join took time: the copy held now
        return hub.adopt(game), seat, None if account is None else account.id
    except GameError as err:
        await refuse(ws, hub, err, 4403 if err.code in FORBIDDEN_JOIN else 4404)
    except (TimeoutError, WebSocketDisconnect):
        await refuse(ws, hub, GameError("join-timeout", "no join message within 30 s"), 4408)
    except Exception:  # e.g. the database is down
        log.exception("cannot open game %s", game_id, extra={"game": game_id})
        await refuse(ws, hub, GameError("server-error", "the server failed; try again"), 1011)
    return None


async def seated(hub: Hub, store: Store, game_id: str, account: int) -> None:
    """The account opened its seat of its quick-match game: its lobbies (any process) stop
    taking it there and show the game as in progress."""
    if await hub.db(store.matches.seated, account, game_id):
        hub.lobby.announce(account, "match")


async def join(ws: WebSocket, hub: Hub, service: AccountService, game: LiveGame) -> int | None:
    """Wait (30 s at most) for the join message and return its seat (``None``: spectator).
    A malformed message gets an error frame and the wait goes on; a wrong token raises."""
    deadline = time.monotonic() + JOIN_SECONDS
    refused = 0
    while True:
        text = await asyncio.wait_for(receive_text(ws), max(0.0, deadline - time.monotonic()))
        try:
            msg = parse_frame(text, hub.limits)
            if not isinstance(msg, Join):
                raise BadMessage(
                    "join-first", 'the first message must be {"type": "join", "token": ...}'
                )
        except BadMessage as err:
            hub.metrics.refused(err.code, frame_limit(err))
            refused += 1
            if refused > JOIN_REFUSALS:
                raise GameError("bad-join", "too many messages that are not a join") from None
            await ws.send_text(encode(error_frame(err.code, err.message)))
            continue
        if msg.token is None and msg.seat is not None:
            return await seat_of_account(service, ws, game, msg.seat)
        seat = game.table.seat_for(msg.token)
        if await bind_on_join(service, ws, game, seat) and seat not in game.table.people:
            await hub.read_people(game)  # the table shows the account's name from now on
            hub.names_changed(game)
        return seat


async def writer(ws: WebSocket, game: LiveGame, conn: Conn) -> None:
    """Send what the connection is due: its queued frames, then the latest view; close it
    when it is closing."""
    while True:
        await conn.wake.wait()
        conn.wake.clear()
        while conn.frames:
            await ws.send_text(encode(conn.frames.popleft()))
            if len(conn.frames) < conn.max_frames // 2:
                conn.drained.set()
        if conn.view_due:
            await ws.send_text(game.view_text(conn))
        if conn.closing is not None:
            await ws.close(*conn.closing)
            return


async def read_loop(ws: WebSocket, hub: Hub, game: LiveGame, seat: int | None, conn: Conn) -> None:
    """Read and answer the client's messages until the connection closes; raises
    ``WebSocketDisconnect`` when the client goes."""
    limits = hub.limits
    while conn.closing is None:
        if len(conn.frames) >= conn.max_frames // 2 and not await drained(conn, limits):
            hub.metrics.limit("unread_seconds")
            break
        text = await receive_text(ws)
        read_at = time.perf_counter()
        if hub.draining:  # the process stops: the client connects again and sees where
            conn.close(*RESTART)  # the game is (a close frame, never a cut connection)
            break
        if not conn.rate.take():
            rate_limited(hub, game, conn, limits)
            continue
        await dispatch(hub, game, seat, conn, text, read_at)


async def drained(conn: Conn, limits: Limits) -> bool:
    """Replies pile up: read nothing more from this client until it reads them. ``False``
    (the connection is closed, 1008) when it has not within ``unread_seconds``."""
    conn.drained.clear()
    try:
        await asyncio.wait_for(conn.drained.wait(), limits.unread_seconds)
    except TimeoutError:
        conn.close(1008, "this connection does not read its replies")
        return False
    return True


def rate_limited(hub: Hub, game: LiveGame, conn: Conn, limits: Limits) -> None:
    """A message over the rate is dropped: one error frame a second names the problem for
    every message dropped."""
    hub.metrics.limit("messages_per_second")
    now = time.monotonic()
    if now - conn.limited_at >= 1.0:
        hub.metrics.refused("rate-limited")
        conn.limited_at = now
        game.send_error(
            conn,
            GameError(
                "rate-limited",
                f"at most {limits.messages_per_second:g} messages per second "
                f"({limits.message_burst} at once): messages are dropped "
                "until the allowance refills",
            ),
            with_view=False,
        )


async def dispatch(
    hub: Hub,
    game: LiveGame,
    seat: int | None,
    conn: Conn,
    text: str | None,
    read_at: float | None = None,
) -> None:
    """Answer one message (read at ``read_at``, ``time.perf_counter``); a refused one gets
    an error frame (and a fresh view). A move or undo stored counts its acknowledgement's
    time: from the frame read to the entry committed and its views due."""
    kind = "?"
    try:
        msg = parse_frame(text, hub.limits)
        kind = msg.type
        await answer(hub, game, seat, conn, msg)
        if read_at is not None and isinstance(msg, Move | Undo):
            hub.metrics.ack_seconds.observe(time.perf_counter() - read_at)
    except BadMessage as err:
        hub.metrics.refused(err.code, frame_limit(err))
        game.send_error(conn, GameError(err.code, err.message))
    except GameError as err:
        hub.metrics.refused(err.code, err.limit)
        game.send_error(conn, err)
    except Exception:  # e.g. the database is down: nothing was changed
        log.exception("message %r failed in game %s", kind, game.id, extra={"game": game.id})
        hub.metrics.refused("server-error")
        game.send_error(conn, GameError("server-error", "the server failed; try again"))


async def answer(
    hub: Hub,
    game: LiveGame,
    seat: int | None,
    conn: Conn,
    msg: Message,
) -> None:
    """Carry out one message of a joined connection; raises ``GameError``. A connection
    opened with an API token that was revoked since is closed (4403) before any change
    (``watch_token`` closes it soon in any case)."""
    if isinstance(msg, Move | Undo | Chat) and conn.still_valid and not await conn.still_valid():
        revoked(conn)
        return
    if isinstance(msg, Move):
        await hub.submit(game, seat, msg.seq, msg.action)
    elif isinstance(msg, Undo):
        await hub.undo(game, seat, msg.seq)
    elif isinstance(msg, Sync):
        conn.due(full_log=True)
    elif isinstance(msg, Ping):
        conn.send({"type": "pong", "t": msg.t})
    elif isinstance(msg, Chat):
        await hub.chat.say(game, conn, msg.text)
    elif isinstance(msg, Hint):
        await hub.hints.answer(game, seat, conn, msg.seq)
    elif isinstance(msg, Resign):
        await hub.leave(game, seat, resign=True)
    elif isinstance(msg, Abort):
        await hub.leave(game, seat, resign=False)
    elif isinstance(msg, Nickname):
        await set_nickname(hub, game, seat, msg.name)
    else:
        raise GameError("joined", "this connection has joined already")


def revoked(conn: Conn) -> None:
    """Tell a connection its API token was revoked, and close it (4403)."""
    conn.send(error_frame("bad-token", "this API token was revoked: it opens nothing any more"))
    conn.close(4403, "bad-token")


async def stop_writer(ws: WebSocket, conn: Conn, send_task: asyncio.Task[None]) -> None:
    """End the writer of a connection that is over: a closing connection's writer sends
    what is queued, then closes; a client that does not read gets its connection closed
    from here."""
    closing = conn.closing
    if closing is not None and not send_task.done():
        try:
            await asyncio.wait_for(asyncio.shield(send_task), 2)
        except BaseException:
            send_task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(ws.close(*closing), 2)
    send_task.cancel()
    with contextlib.suppress(BaseException):
        await send_task


async def refuse(ws: WebSocket, hub: Hub, err: GameError, code: int) -> None:
    """An error frame naming the problem, then close ``code``."""
    hub.metrics.refused(err.code, err.limit)
    with contextlib.suppress(Exception):
        await ws.send_text(encode(error_frame(err.code, err.message)))
        await ws.close(code=code, reason=err.code)


async def receive_text(ws: WebSocket) -> str | None:
    """The next text message (``None`` for a binary one); raises ``WebSocketDisconnect``."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


def frame_limit(err: BadMessage) -> str | None:
    """The limit behind a message refused at the door, if one is."""
    return "frame_bytes" if err.code == "too-large" else None


def parse_frame(text: str | None, limits: Limits) -> Message:
    """A client message, checked; raises ``BadMessage`` naming what is wrong."""
    if text is None:
        raise BadMessage("text-only", "messages are JSON text frames, not binary ones")
    if len(text) > limits.frame_bytes or len(text.encode("utf-8", "replace")) > limits.frame_bytes:
        raise BadMessage("too-large", f"messages are at most {limits.frame_bytes} bytes")
    return read_message(text)
