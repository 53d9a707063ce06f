"""The ASGI app: REST for the lobby and records, a websocket per seat for play, static UI.

``create_app`` is a factory with a lifespan: no settings, engines or connections exist at
import time. Protocol (JSON frames) on ``/ws/games/{id}``:

- client → ``{"type": "join", "token": "..."}`` first (no token: spectator), then
  ``{"type": "move", "seq": N, "action": "tile red e4" | {"type": "tile", ...}}``,
  ``{"type": "undo", "seq": N}``, ``{"type": "sync"}``, ``{"type": "chat", "text": "..."}``.
- server → ``{"type": "view", "seq", "seat", "view", "seats", "can_undo", "chat", "rematch",
  "log", "log_reset"}`` after every change, ``{"type": "chat", "lines", "reset"}`` (the
  table chat: all of it on joining, then each new line), and ``{"type": "error", "code",
  "message", "seq"}`` to the sender of a refused message, followed by a fresh view.

Pages and JSON answers are compressed (br, else gzip) when the browser accepts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from brotli_asgi import BrotliMiddleware
from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import DEFAULT_RULESET, RULESETS, InvalidAction, player_view, replay
from ..ai import TIMEOUT_LEVEL
from ..store import GameRow, ServerLock, Store, StoreInUse, database_url_for
from .accounts import (
    account_holder,
    bind_on_join,
    check_csrf,
    seat_of_account,
    signed_in,
    start_accounts,
)
from .accounts import router as account_router
from .bots import bot_levels, default_level
from .catalogues import router as catalogue_router
from .clocks import PaceError, pace_from_dict
from .errors import GameError
from .frames import OutFrame, encode, error_frame
from .hub import Hub
from .inputs import (
    GAME_ID_PATTERN,
    MAX_CHAT,
    TOKEN_PATTERN,
    BadMessage,
    Chat,
    CreateGame,
    Join,
    Move,
    Ping,
    Rematch,
    SeatChange,
    SeatReturn,
    Sync,
    Undo,
    error_message,
    read_message,
)
from .limits import Limits
from .live import LiveGame
from .mail import Mailer, MailSettings
from .notify import router as notify_router
from .rematch import rematch

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("tigris_euphrates.server")

#: The refusals of a join that close the websocket as "forbidden" (4403).
FORBIDDEN_JOIN = ("bad-token", "sign-in", "one-seat", "not-your-seat")
#: Paths whose unknown addresses answer JSON; any other unknown address gets the page,
#: which shows "not found" with a link to the lobby (status 404).
API_PREFIXES = ("/api/", "/ws/", "/static/")
#: The lobby's page cursor: ``created:id`` of the last game of the previous page.
CURSOR_PATTERN = r"^[0-9]{1,12}(\.[0-9]{1,12})?:[0-9A-Za-z_-]{1,32}$"

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]
Seat = Annotated[int, PathParam(ge=0, le=3)]


class SafeJSONResponse(JSONResponse):
    """JSON whose encoding cannot fail: a lone surrogate that slipped past the door is
    sent as a replacement character instead of turning the answer into a 500."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "replace")


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    *,
    bot_seconds: float | None = 2.0,
    bot_iterations: int | None = None,
    bot_delay: float = 0.0,
    bot_processes: int = 1,
    table_prefix: str = "",
    tune_gc: bool = False,
    limits: Limits | None = None,
    client_seeds: bool = False,
    confirm_seconds: float = 5.0,
    mail: MailSettings | None = None,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """A server app; the database is opened when it starts (SQLite in ``data_dir``).

    ``tune_gc`` (for a process that only serves: ``tne serve``) freezes the objects alive
    at start-up out of the garbage collector and makes young collections rarer. ``limits``
    (default ``Limits()``) bounds what one client may ask. ``client_seeds`` accepts a
    client's seed for every game, even with several people (tests and local study: whoever
    chooses the seed knows every hand); by default only games without another person.
    ``confirm_seconds``: how long the page holds the last step of a player's turn, with
    "End turn" and "Cancel", before sending it by itself (0: no confirmation, no question
    before a pass; scripted tests).
    ``mail`` is where the turn e-mails go (default: ``MailSettings.from_env()``; none
    configured: no e-mail is sent); ``clock`` the time the games' clocks read (tests).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = database_url_for(data_dir, database_url)
        alone = ServerLock(url)  # SQLite serves one process: a second one is refused
        alone.acquire()
        store = await asyncio.to_thread(Store, url, table_prefix)
        settings = mail if mail is not None else MailSettings.from_env()
        hub = Hub(
            store,
            bot_seconds=bot_seconds,
            bot_iterations=bot_iterations,
            bot_delay=bot_delay,
            bot_processes=bot_processes,
            limits=limits,
            client_seeds=client_seeds,
            clock=clock,
            mailer=Mailer(settings) if settings is not None else None,
        )
        app.state.hub = hub
        await start_accounts(app, hub)
        await hub.start()
        if tune_gc:
            # Long-lived objects (modules, loaded games) leave the collector's generations and
            # young collections run less often: fewer pauses in the middle of a move.
            gc.freeze()
            gc.set_threshold(20_000, 20, 20)
        try:
            yield
        finally:
            await hub.stop()
            store.close()
            alone.release()

    app = FastAPI(
        title="Tigris & Euphrates",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        default_response_class=SafeJSONResponse,
    )
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(catalogue_router)
    app.include_router(account_router)
    app.include_router(notify_router)
    app.add_middleware(BodyLimit, limit=(limits or Limits()).body_bytes)
    # br for the browsers that accept it (all current ones), gzip for the others
    app.add_middleware(BrotliMiddleware, quality=5, minimum_size=400, gzip_fallback=True)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(GameError)
    async def _game_error(request: Request, exc: GameError) -> JSONResponse:
        status = exc.status
        headers = None
        if exc.retry_after is not None:
            headers = {"Retry-After": str(max(1, round(exc.retry_after)))}
        return SafeJSONResponse(
            {"error": exc.code, "message": exc.message}, status_code=status, headers=headers
        )

    @app.exception_handler(InvalidAction)
    async def _invalid(request: Request, exc: InvalidAction) -> JSONResponse:
        return SafeJSONResponse({"error": exc.code, "message": exc.message}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _refused(request: Request, exc: RequestValidationError) -> JSONResponse:
        return SafeJSONResponse(
            {"error": "bad-request", "message": error_message(list(exc.errors()))},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and not request.url.path.startswith(API_PREFIXES):
            return not_found()
        code = {404: "not-found", 405: "bad-method", 409: "conflict", 413: "too-large"}
        return SafeJSONResponse(
            {"error": code.get(exc.status_code, "bad-request"), "message": str(exc.detail)},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    page = STATIC / "index.html"

    def not_found() -> FileResponse:
        return FileResponse(page, status_code=404, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    @app.get("/game/{game_id}", include_in_schema=False)
    @app.get("/replay/{game_id}", include_in_schema=False)
    @app.get("/account", include_in_schema=False)
    @app.get("/me", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/players/{name}", include_in_schema=False)
    async def index(
        request: Request, game_id: str | None = None, name: str | None = None
    ) -> FileResponse:
        """The page; 404 (the same page, which then says so) for a game that does not exist."""
        if game_id is not None:
            hub = hub_of(request)
            known = game_id in hub.games or (
                re.fullmatch(GAME_ID_PATTERN, game_id) is not None
                and await hub.db(hub.store.games.exists, game_id)
            )
            if not known:
                return not_found()
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        return {
            "bot_levels": bot_levels(),
            "default_level": default_level(),
            "timeout_level": TIMEOUT_LEVEL,
            "default_ruleset": DEFAULT_RULESET,
            "rulesets": [ruleset.facts() for ruleset in RULESETS.values()],
            "seat_absence_seconds": hub_of(request).limits.seat_absence_seconds,
            "chat_max": MAX_CHAT,
            "confirm_seconds": confirm_seconds,
        }

    @app.get("/api/games")
    async def list_games(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=50)] = 20,
        before: Annotated[str | None, Query(max_length=80, pattern=CURSOR_PATTERN)] = None,
    ) -> dict[str, Any]:
        """A page of the lobby, newest game first: small summaries (no log, no view) and
        ``next``, the cursor of the following page (``?before=``), ``null`` at the end."""
        hub = hub_of(request)
        after = None
        if before is not None:
            created, _, game_id = before.partition(":")
            after = (float(created), game_id)
        rows = await hub.db(hub.store.games.page, limit + 1, after)
        games = [lobby_summary(row) for row in rows[:limit]]
        paces = await hub.db(hub.store.clocks.paces, [g["id"] for g in games])
        for g in games:
            g["pace"] = paces.get(g["id"])
        last = rows[limit - 1] if len(rows) > limit else None
        return {"games": games, "next": f"{last.created!r}:{last.id}" if last else None}

    @app.post("/api/games")
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        options = {**body.options, "players": len(body.seats)}
        seats = [seat.model_dump() for seat in body.seats]
        if body.rated:  # a rated game is made by a signed-in player, from the page
            check_csrf(request)
            await signed_in(request)
        try:
            pace = None
            if body.pace is not None:
                pace = pace_from_dict(
                    {**body.pace.model_dump(), "level": body.pace.level or default_level()}
                )
        except PaceError as exc:
            raise GameError("bad-pace", str(exc)) from None
        game, tokens, creator = await hub_of(request).create(
            options,
            seats,
            body.seed,
            client=client_of(request),
            listed=body.listed,
            settings={"chat": body.chat},
            rated=body.rated,
            pace=pace,
        )
        return {
            "id": game.id,
            "seats": [
                {
                    "seat": i,
                    "kind": game.seats[i]["kind"],
                    "token": tok,
                    "link": f"/game/{game.id}#t={tok}" if tok else None,
                }
                for i, tok in enumerate(tokens)
            ],
            "spectator_link": f"/game/{game.id}",
            "creator_token": creator,
            "rated": game.rated,
        }

    @app.get("/api/games/{game_id}")
    async def game_summary(game_id: GameId, request: Request) -> dict[str, Any]:
        return (await hub_of(request).get(game_id)).summary()

    @app.get("/api/games/{game_id}/view")
    async def game_view(
        game_id: GameId,
        request: Request,
        token: Annotated[str | None, Query(pattern=TOKEN_PATTERN)] = None,
    ) -> dict[str, Any]:
        hub = hub_of(request)
        game = await hub.get(game_id)
        seat = game.seat_for(token)
        return {"seq": game.seq, "seat": seat, "view": player_view(game.state, seat)}

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: GameId, request: Request) -> Response:
        game = await hub_of(request).get(game_id)
        if not game.over:
            raise HTTPException(409, "the record of a game is published when the game is over")
        body = json.dumps(game.record(), indent=1)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="tne-{game.id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay/{step}")
    async def game_replay(game_id: GameId, step: int, request: Request) -> dict[str, Any]:
        """Step ``step`` of a finished game: the action played and the public view after it."""
        game = await hub_of(request).get(game_id)
        if not game.over:
            raise HTTPException(409, "only finished games can be replayed")
        actions = [e.action for e in game.entries]
        step = max(0, min(step, len(actions)))
        record = {"options": game.options, "seed": game.seed, "actions": actions[:step]}
        state = replay(record)
        view = player_view(state, None)
        # The game is over, so everything is public (RULES.md §10): every hand and score row.
        view["players"] = [player_view(state, p)["players"][p] for p in range(len(game.seats))]
        return {
            "id": game.id,
            "step": step,
            "total": len(actions),
            "action": actions[step - 1] if step else None,
            "actor": game.entries[step - 1].seat if step else None,
            "seats": game.public_seats(),
            "view": view,
        }

    @app.get("/api/games/{game_id}/moves")
    async def game_moves(game_id: GameId, request: Request) -> dict[str, Any]:
        """The move list of a finished game, for its replay: every log entry (seat, action,
        events) with nothing hidden any more, and the game's statistics."""
        game = await hub_of(request).get(game_id)
        if not game.over:
            raise HTTPException(409, "only finished games can be replayed")
        log = [
            {
                "seq": e.seq,
                "seat": e.seat,
                "action": e.action,
                "events": [ev.to_dict() for ev in e.events],
            }
            for e in game.entries
        ]
        return {"id": game.id, "seats": game.public_seats(), "log": log, "stats": game.stats()}

    @app.post("/api/games/{game_id}/seats/{seat}/bot")
    async def seat_to_bot(
        game_id: GameId, seat: Seat, body: SeatChange, request: Request
    ) -> dict[str, Any]:
        """A bot takes the seat: asked by the seat's player (its token), or by the game's
        creator (the creator's token) once the seat's player has been away long enough."""
        hub = hub_of(request)
        game = await hub.get(game_id)
        holder = await account_holder(request, game, seat, body.token)
        await hub.hand_to_bot(game, body.token, seat, body.level, holder)
        return game.summary()

    @app.post("/api/games/{game_id}/rematch")
    async def game_rematch(game_id: GameId, body: Rematch, request: Request) -> dict[str, Any]:
        """The finished game's rematch (created by the first player who asks): its id and
        its page. The tokens of the old game open the same seats of the new one."""
        hub = hub_of(request)
        game = await hub.get(game_id)
        new = await rematch(hub, game, body.token, client_of(request))
        return {"id": new, "link": f"/game/{new}"}

    @app.post("/api/games/{game_id}/seats/{seat}/human")
    async def seat_to_human(
        game_id: GameId, seat: Seat, body: SeatReturn, request: Request
    ) -> dict[str, Any]:
        """The seat's player takes it back from the bot that held it: with the seat's token,
        or signed in with the account the seat is bound to."""
        hub = hub_of(request)
        game = await hub.get(game_id)
        holder = await account_holder(request, game, seat, body.token)
        await hub.take_back(game, body.token, seat, holder)
        return game.summary()

    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        hub = hub_of(ws)
        client = client_of(ws)
        if hub.client_conns[client] >= hub.limits.connections_per_client:
            await refuse(
                ws,
                GameError(
                    "too-many-connections",
                    f"at most {hub.limits.connections_per_client} connections from one address",
                ),
                4429,
            )
            return
        hub.client_conns[client] += 1
        try:
            await connection(ws, hub, game_id)
        finally:
            hub.client_conns[client] -= 1
            if hub.client_conns[client] <= 0:
                del hub.client_conns[client]

    async def connection(ws: WebSocket, hub: Hub, game_id: str) -> None:
        limits = hub.limits
        try:
            if re.fullmatch(GAME_ID_PATTERN, game_id) is None:
                raise GameError("no-game", "there is no such game (a game id is 12 hex digits)")
            game = await hub.get(game_id)
            seat = await join(ws, hub, game)
            game = hub.adopt(game)  # reading the join took time: the copy held now
        except GameError as err:
            await refuse(ws, err, 4403 if err.code in FORBIDDEN_JOIN else 4404)
            return
        except (TimeoutError, WebSocketDisconnect):
            await refuse(ws, GameError("join-timeout", "no join message within 30 s"), 4408)
            return
        except Exception:  # e.g. the database is down
            log.exception("cannot open game %s", game_id)
            await refuse(ws, GameError("server-error", "the server failed; try again"), 1011)
            return
        spectators = sum(1 for c in game.conns.values() if c.seat is None)
        if seat is None and spectators >= hub.limits.spectators_per_game:
            limit = hub.limits.spectators_per_game
            await refuse(
                ws, GameError("too-many-spectators", f"this game has {limit} spectators"), 4429
            )
            return
        key, conn = hub.attach(game, seat)

        async def writer() -> None:
            while True:
                await conn.wake.wait()
                conn.wake.clear()
                while conn.frames:
                    await ws.send_text(_dumps(conn.frames.popleft()))
                    if len(conn.frames) < conn.max_frames // 2:
                        conn.drained.set()
                if conn.view_due:
                    await ws.send_text(game.view_text(conn))
                if conn.closing is not None:
                    await ws.close(*conn.closing)
                    return

        send_task = asyncio.create_task(writer())
        try:
            while conn.closing is None:
                if len(conn.frames) >= conn.max_frames // 2:
                    # replies pile up: read nothing more from this client until it reads
                    conn.drained.clear()
                    try:
                        await asyncio.wait_for(conn.drained.wait(), limits.unread_seconds)
                    except TimeoutError:
                        conn.close(1008, "this connection does not read its replies")
                        break
                text = await receive_text(ws)
                if not conn.rate.take():
                    # one error frame a second names the problem for every message dropped
                    now = time.monotonic()
                    if now - conn.limited_at >= 1.0:
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
                    continue
                kind = "?"
                try:
                    msg = parse_frame(text, limits)
                    kind = msg.type
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
                    else:
                        raise GameError("joined", "this connection has joined already")
                except BadMessage as err:
                    game.send_error(conn, GameError(err.code, err.message))
                except GameError as err:
                    game.send_error(conn, err)
                except Exception:  # e.g. the database is down: nothing was changed
                    log.exception("message %r failed in game %s", kind, game.id)
                    game.send_error(conn, GameError("server-error", "the server failed; try again"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.detach(game, key)
            closing = conn.closing
            if closing is not None and not send_task.done():
                # the writer sends what is queued, then closes; a client that does not
                # read gets its connection closed from here
                try:
                    await asyncio.wait_for(asyncio.shield(send_task), 2)
                except BaseException:
                    send_task.cancel()
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(ws.close(*closing), 2)
            send_task.cancel()
            with contextlib.suppress(BaseException):
                await send_task

    return app


def _dumps(msg: OutFrame) -> str:
    return encode(msg)


def client_of(request: Request | WebSocket) -> str:
    """Who is asking, for the per-client limits: a hash of the address (behind a proxy,
    run uvicorn with ``--proxy-headers`` and ``--forwarded-allow-ips`` so that this is the
    player's address, not the proxy's)."""
    host = request.client.host if request.client is not None else ""
    return hashlib.sha256(host.encode("utf-8", "replace")).hexdigest()[:32]


async def refuse(ws: WebSocket, err: GameError, code: int) -> None:
    """An error frame naming the problem, then close ``code``."""
    with contextlib.suppress(Exception):
        await ws.send_text(_dumps(error_frame(err.code, err.message)))
        await ws.close(code=code, reason=err.code)


def lobby_summary(row: GameRow) -> dict[str, Any]:
    """A game as the lobby lists it: a few hundred bytes whatever its length."""
    result = row.result or {}
    return {
        "id": row.id,
        "created": row.created,
        "status": row.status,
        "options": row.options,
        "seats": [
            {"seat": i, "kind": s.get("kind"), "level": s.get("level"), "name": s.get("name")}
            for i, s in enumerate(row.seats)
        ],
        "ranking": result.get("ranking"),
        "rated": row.rated,
    }


def uvicorn_options(limits: Limits | None = None) -> dict[str, Any]:
    """uvicorn settings every way of serving the app shares: the websocket layer refuses a
    message over ``Limits.ws_max_bytes`` (close 1009) before reading it whole, and no
    per-message compression (it cost 13 % of the server's CPU per action)."""
    limits = limits or Limits()
    return {
        "ws_max_size": limits.ws_max_bytes,
        "ws_per_message_deflate": False,
        "h11_max_incomplete_event_size": 16 * 1024,
    }


async def receive_text(ws: WebSocket) -> str | None:
    """The next text message (``None`` for a binary one); raises ``WebSocketDisconnect``."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


def parse_frame(text: str | None, limits: Limits) -> Join | Move | Undo | Sync | Ping | Chat:
    """A client message, checked; raises ``BadMessage`` naming what is wrong."""
    if text is None:
        raise BadMessage("text-only", "messages are JSON text frames, not binary ones")
    if len(text) > limits.frame_bytes or len(text.encode("utf-8", "replace")) > limits.frame_bytes:
        raise BadMessage("too-large", f"messages are at most {limits.frame_bytes} bytes")
    return read_message(text)


async def join(ws: WebSocket, hub: Hub, game: LiveGame) -> int | None:
    """Wait (30 s at most) for the join message and return its seat (``None``: spectator).
    A malformed message gets an error frame and the wait goes on; a wrong token raises."""
    deadline = time.monotonic() + 30
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
            refused += 1
            if refused > 20:
                raise GameError("bad-join", "too many messages that are not a join") from None
            await ws.send_text(_dumps(error_frame(err.code, err.message)))
            continue
        if msg.token is None and msg.seat is not None:
            return await seat_of_account(ws, game, msg.seat)
        seat = game.seat_for(msg.token)
        await bind_on_join(ws, game, seat)
        return seat


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with a JSON 413, before the app sees it:
    a declared ``Content-Length`` over the limit at once, a body without one when it grows
    over the limit (the body is read here, at most ``limit`` bytes, then handed on)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(scope, receive, send)
                return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], then=receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request bodies are at most {self.limit} bytes"
        response = SafeJSONResponse({"error": "too-large", "message": message}, status_code=413)
        await response(scope, receive, send)


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` that gives ``messages`` first, then waits on ``then``."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive


def check_alone(url: str) -> None:
    """Exit with one line when another server process already serves this SQLite
    database (the server itself refuses it too, with a traceback)."""
    lock = ServerLock(url)
    try:
        lock.acquire()
    except StoreInUse as exc:
        raise SystemExit(f"tne serve: {exc}") from None
    lock.release()


#: The environment variables from which ``app_from_env`` builds the app of each worker
#: process of ``tne serve --workers N``.
ENV_SETTINGS = {
    "database_url": "TNE_DATABASE_URL",
    "bot_seconds": "TNE_BOT_SECONDS",
    "bot_delay": "TNE_BOT_DELAY",
    "limits": "TNE_LIMITS",
    "table_prefix": "TNE_TABLE_PREFIX",
}


def app_from_env() -> FastAPI:
    """The app of one worker process (``uvicorn --factory
    tigris_euphrates.server.app:app_from_env --workers N``): PostgreSQL from
    ``TNE_DATABASE_URL``, ``TNE_BOT_SECONDS``, ``TNE_BOT_DELAY``, ``TNE_LIMITS``
    (``name=value`` pairs separated by commas) and ``TNE_TABLE_PREFIX`` (tests)."""
    env = os.environ
    pairs = [p for p in env.get(ENV_SETTINGS["limits"], "").split(",") if p]
    return create_app(
        database_url=env.get(ENV_SETTINGS["database_url"]),
        bot_seconds=float(env.get(ENV_SETTINGS["bot_seconds"], "2.0")),
        bot_delay=float(env.get(ENV_SETTINGS["bot_delay"], "0.4")),
        limits=Limits.parse(pairs),
        table_prefix=env.get(ENV_SETTINGS["table_prefix"], ""),
        tune_gc=True,
    )
