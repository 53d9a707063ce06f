"""Meeting people: open tables, quick match and the live lobby (``/ws/lobby``).

Every post carries the page's CSRF token. Opening a table, inviting and quick match need an
account; a guest may take a seat at a table that is not rated. A seat's secret token is
given to its player once, in the answer (the page keeps it): it proves the seat to leave,
start or invite from, and opens the game's seat when the table starts.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Literal

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from pydantic import Field

from ...store import FAMILIES
from ..answers import meeting as answers
from ..answers.errors import refusals
from ..clocks import PaceError, pace_from_dict
from ..deps import AccountsDep, Client, ConnectionsDep, CurrentAccount, HubDep, SignedIn
from ..errors import GameError
from ..frames import MeFrame, TablesFrame, encode, error_frame
from ..hub import RESTART, Hub
from ..inputs import (
    GAME_ID_PATTERN,
    BadMessage,
    Name,
    NameQuery,
    OptionName,
    OptionValue,
    PaceSpec,
    Ping,
    Strict,
    Token,
)
from ..lobbyfeed import LobbyConn
from ..meeting import MAX_BOT_AFTER, SeatTicket
from .play import parse_frame, receive_text, refuse

TableId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]
#: A displayed rating (``store.ratings.displayed``: a newcomer's is 1500, never below 0).
Rating = Annotated[float, Field(ge=0, le=10000)]

router = APIRouter()


class OpenTableBody(Strict):
    """``POST /api/tables``: a table with ``players`` seats, its creator in the first."""

    players: Annotated[int, Field(ge=2, le=4)]
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    pace: PaceSpec | None = None
    rated: bool = False
    #: the displayed ratings (as the table and the leaderboards show them) an account needs
    #: to sit
    min_rating: Rating | None = None
    max_rating: Rating | None = None
    #: whether the creator may start early with AI players (the server's bots) in the free
    #: seats (the game is then not rated)
    allow_bots: bool = True
    #: whether bot accounts may take its seats (and are offered them on their event
    #: socket); refused (``bot-rated``) for a rated table
    bot_accounts: bool = False
    chat: Literal["players", "everyone", "off"] = "players"


class SitBody(Strict):
    """``POST /api/tables/{id}/sit``: a guest's nickname (an account sits under its name)."""

    name: Name | None = None


class SeatBody(Strict):
    token: Token


class InviteBody(Strict):
    token: Token
    name: NameQuery


class QueueBody(Strict):
    """``POST /api/match``: the game wanted, and after how many seconds a bot may fill
    the table (``None``: never)."""

    family: Annotated[str, Field(max_length=16)]
    players: Annotated[int, Field(ge=2, le=4)] = 2
    pace: Literal["realtime", "turn"] = "realtime"
    bot_after: Annotated[float, Field(ge=0, le=MAX_BOT_AFTER)] | None = None


def ticket(t: SeatTicket) -> answers.Ticket:
    return {
        "table": t.table,
        "seat": t.seat,
        "token": t.token,
        "game": t.game,
        "link": f"/game/{t.game}#t={t.token}" if t.game else None,
    }


@router.get("/api/tables", responses=refusals())
async def open_tables(hub: HubDep) -> TablesFrame:
    """The open tables and the tables started lately (what the lobby's socket sends)."""
    return await hub.lobby.tables_frame()


@router.post(
    "/api/tables",
    responses=refusals(
        "csrf", "sign-in", "rate-limited", "bad-range", "bad-pace", "bot-rated", "in-game"
    ),
)
async def open_table(
    body: OpenTableBody, request: Request, hub: HubDep, service: AccountsDep, client: Client
) -> answers.Ticket:
    """A new open table (an account's), listed in the lobby until it fills or expires."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    if not hub.newgames.game_rates.take(client):
        raise GameError(
            "rate-limited",
            f"at most {hub.limits.games_per_minute:g} new games a minute from one address",
            retry_after=60 / max(hub.limits.games_per_minute, 1e-9),
            limit="games_per_minute",
        )
    low, high = body.min_rating, body.max_rating
    if low is not None and high is not None and low > high:
        raise GameError("bad-range", "the lowest rating is above the highest")
    try:
        pace = None if body.pace is None else pace_from_dict(body.pace.model_dump())
    except PaceError as exc:
        raise GameError("bad-pace", str(exc)) from None
    options = {**body.options, "players": body.players}
    t = await hub.meeting.open_table(
        account,
        options,
        pace,
        body.rated,
        (low, high),
        body.allow_bots,
        body.chat,
        bot_accounts=body.bot_accounts,
    )
    return ticket(t)


@router.post(
    "/api/tables/{table_id}/sit",
    responses=refusals(
        "csrf",
        "no-table",
        "table-full",
        "table-closed",
        "already-seated",
        "rating-range",
        "blocked",
        "sign-in",
        "in-game",
        "bot-rated",
    ),
)
async def sit(
    table_id: TableId, body: SitBody, request: Request, hub: HubDep, service: AccountsDep
) -> answers.Ticket:
    """Take the first free seat; the answer names the game when this seat filled it."""
    service.check_csrf(request)
    account = await service.current(request)
    return ticket(await hub.meeting.sit(table_id, account, body.name or ""))


@router.post(
    "/api/tables/{table_id}/start",
    responses=refusals("csrf", "no-table", "not-creator", "no-bots", "table-closed"),
)
async def start(
    table_id: TableId, body: SeatBody, request: Request, hub: HubDep, service: AccountsDep
) -> answers.TableStarted:
    """The creator starts the table now, AI players taking the free seats (then not
    rated)."""
    service.check_csrf(request)
    game = await hub.meeting.start(table_id, body.token)
    return {"game": game, "link": f"/game/{game}#t={body.token}"}


@router.post("/api/tables/{table_id}/leave", responses=refusals("csrf", "no-table", "bad-token"))
async def leave(
    table_id: TableId, body: SeatBody, request: Request, hub: HubDep, service: AccountsDep
) -> answers.TableLeft:
    """Give the seat up (the creator's leaving closes the table)."""
    service.check_csrf(request)
    return {"state": await hub.meeting.leave(table_id, body.token)}


@router.post(
    "/api/tables/{table_id}/invite",
    responses=refusals(
        "csrf", "sign-in", "no-table", "bad-token", "no-account", "blocked", "too-many-invites"
    ),
)
async def invite(
    table_id: TableId, body: InviteBody, request: Request, hub: HubDep, service: AccountsDep
) -> answers.Invited:
    """Invite an account by name: told in its lobby, and by e-mail if it asked for them."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    mailed = await hub.meeting.invite(table_id, body.token, account, body.name)
    return {"invited": body.name, "mailed": mailed}


@router.get("/api/lobby/me", responses=refusals("sign-in"))
async def my_corner(account: SignedIn, hub: HubDep) -> MeFrame:
    """The signed-in account's corner of the lobby, as its lobby socket sends it (its
    quick match, its games in progress, invitations, friends)."""
    return await hub.lobby.me_frame(account.id)


@router.get("/api/match", responses=refusals("sign-in"))
async def match_state(account: SignedIn, hub: HubDep) -> answers.MatchState:
    """The signed-in account's quick match (``null``: not queued)."""
    return {"match": (await hub.lobby.me_frame(account.id))["match"]}


@router.post(
    "/api/match",
    responses=refusals("csrf", "sign-in", "bad-family", "bot-quick-match", "in-game"),
)
async def queue(
    body: QueueBody, request: Request, hub: HubDep, service: AccountsDep
) -> answers.Queued:
    """Wait for a quick match; the answer holds the seat token the game will take (refused
    to a bot account: ``bot-quick-match``)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    if body.family not in FAMILIES:
        raise GameError("bad-family", f"a family is one of {', '.join(FAMILIES)}")
    token = await hub.meeting.join_queue(
        account, body.family, body.players, body.pace, body.bot_after
    )
    return {"token": token}


@router.post("/api/match/cancel", responses=refusals("csrf", "sign-in"))
async def unqueue(request: Request, hub: HubDep, service: AccountsDep) -> answers.Unqueued:
    """Stop waiting for a quick match (``left``: whether the account was waiting)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    return {"left": await hub.meeting.leave_queue(account)}


@router.websocket("/ws/lobby")
async def lobby_socket(
    ws: WebSocket,
    hub: HubDep,
    service: AccountsDep,
    account: CurrentAccount,
    client: Client,
    connections: ConnectionsDep,
) -> None:
    """The live lobby: the open tables and the account's corner, pushed on every change;
    the client sends only pings."""
    await ws.accept()
    err = connections.take(client)
    if err is not None:
        await refuse(ws, hub, err, 4429)
        return
    key, conn = await hub.lobby.attach(None if account is None else account.id)
    if hub.draining:  # came after the drain told the others: told the same (1012)
        hub.lobby.close_all(*RESTART)
    sender = asyncio.create_task(_lobby_writer(ws, conn))
    try:
        await _lobby_reader(ws, hub, conn)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.lobby.detach(key)
        if conn.closing is not None:  # the writer sends the close frame first
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(sender), 2)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
        connections.give_back(client)


async def _lobby_writer(ws: WebSocket, conn: LobbyConn) -> None:
    while True:
        await conn.wake.wait()
        conn.wake.clear()
        if conn.closed:
            await ws.close(1008, "too many unread frames")
            return
        while conn.frames:
            await ws.send_text(encode(conn.frames.popleft()))
        if conn.closing is not None:
            await ws.close(*conn.closing)
            return


async def _lobby_reader(ws: WebSocket, hub: Hub, conn: LobbyConn) -> None:
    while not conn.closed and conn.closing is None:
        text = await receive_text(ws)
        try:
            msg = parse_frame(text, hub.limits)
            if not isinstance(msg, Ping):
                raise BadMessage("lobby-pings-only", "the lobby's socket takes only pings")
        except BadMessage as err:
            hub.metrics.refused(err.code, None)
            conn.send(error_frame(err.code, err.message))
            continue
        conn.send({"type": "pong", "t": msg.t})
