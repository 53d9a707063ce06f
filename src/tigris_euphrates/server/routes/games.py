"""The lobby and the games over REST: list and create games, a game's summary, a seat's
view, the record and the replay of a finished game, seat changes (to a bot and back) and the
rematch. Play itself goes over the websocket (``play.py``)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi import Path as PathParam

from ... import player_view, replay
from ...store import GameRow
from ..accounts import account_holder
from ..aiseats import default_level
from ..answers.errors import refusals
from ..answers.games import (
    GamesPage,
    GameSummary,
    LobbyGame,
    MoveList,
    NewGame,
    RematchAnswer,
    ReplayStep,
    SeatView,
)
from ..clocks import PaceError, pace_from_dict
from ..deps import AccountsDep, Client, HubDep, LimitsDep, StoreDep
from ..errors import GameError
from ..frames import LogLine
from ..inputs import (
    GAME_ID_PATTERN,
    TOKEN_PATTERN,
    CreateGame,
    Rematch,
    SeatChange,
    SeatReturn,
)
from ..live import LiveGame
from ..newgames import SeatWanted
from ..rematch import rematch
from ..seatinfo import is_named, seat_name

#: The lobby's page cursor: ``created:id`` of the last game of the previous page.
CURSOR_PATTERN = r"^[0-9]{1,12}(\.[0-9]{1,12})?:[0-9A-Za-z_-]{1,32}$"

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]
Seat = Annotated[int, PathParam(ge=0, le=3)]

router = APIRouter()


def lobby_summary(row: GameRow) -> LobbyGame:
    """A game as the lobby lists it: a few hundred bytes whatever its length."""
    return {
        "id": row.id,
        "created": row.created,
        "status": row.status,
        "options": row.options,
        "seats": [
            {
                "seat": i,
                "kind": s.get("kind"),
                "level": s.get("level"),
                "name": seat_name(i, s),
                "named": is_named(i, s),
            }
            for i, s in enumerate(row.seats)
        ],
        "ranking": row.result["ranking"] if row.result else None,
        "rated": row.rated,
    }


def summary_of(game: LiveGame) -> GameSummary:
    """The game's summary (``viewframes.summary``)."""
    return game.summary()


@router.get("/api/games", responses=refusals())
async def list_games(
    hub: HubDep,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
    before: Annotated[str | None, Query(max_length=80, pattern=CURSOR_PATTERN)] = None,
) -> GamesPage:
    """A page of the lobby, newest game first: small summaries (no log, no view) and
    ``next``, the cursor of the following page (``?before=``), ``null`` at the end."""
    after = None
    if before is not None:
        created, _, game_id = before.partition(":")
        after = (float(created), game_id)
    rows = await hub.db(store.games.page, limit + 1, after)
    games = [lobby_summary(row) for row in rows[:limit]]
    paces = await hub.db(store.clocks.paces, [g["id"] for g in games])
    for g in games:
        g["pace"] = paces.get(g["id"])
    last = rows[limit - 1] if len(rows) > limit else None
    return {"games": games, "next": f"{last.created!r}:{last.id}" if last else None}


@router.post(
    "/api/games",
    responses=refusals(
        "bad-pace", "rate-limited", "too-many-games", "too-many-bot-games", "sign-in", "csrf"
    ),
)
async def create_game(
    body: CreateGame,
    request: Request,
    hub: HubDep,
    service: AccountsDep,
    client: Client,
    limits: LimitsDep,
) -> NewGame:
    """A new game: its seats (a person's with its secret token and link), the spectators'
    link and the creator's token (which may hand an absent player's seat to a bot)."""
    options = {**body.options, "players": len(body.seats)}
    seats: list[SeatWanted] = [
        {"kind": s.kind, "level": s.level, "name": s.name} for s in body.seats
    ]
    if body.rated:  # a rated game is made by a signed-in player, from the page
        service.check_csrf(request)
        await service.signed_in(request)
    try:
        pace = None
        if body.pace is not None:
            pace = pace_from_dict(
                {**body.pace.model_dump(), "level": body.pace.level or default_level()}
            )
    except PaceError as exc:
        raise GameError("bad-pace", str(exc)) from None
    if pace is not None and pace.base < limits.pace_min_seconds:
        raise GameError(
            "bad-pace", f"a clock's base time is at least {limits.pace_min_seconds:g} s"
        )
    game, tokens, creator = await hub.create(
        options,
        seats,
        body.seed,
        client=client,
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


@router.get("/api/games/{game_id}", responses=refusals("no-game"))
async def game_summary(game_id: GameId, hub: HubDep) -> GameSummary:
    """The game as everybody may see it: its seats, status, step, who is to act, the
    result once over, the clock."""
    return summary_of(await hub.get(game_id))


@router.get("/api/games/{game_id}/view", responses=refusals("no-game", "bad-token"))
async def game_view(
    game_id: GameId,
    hub: HubDep,
    token: Annotated[str | None, Query(pattern=TOKEN_PATTERN)] = None,
) -> SeatView:
    """What the seat of ``token`` (no token: a spectator) sees of the game now."""
    game = await hub.get(game_id)
    seat = game.table.seat_for(token)
    return {"seq": game.seq, "seat": seat, "view": player_view(game.state, seat)}


@router.get(
    "/api/games/{game_id}/record",
    response_class=Response,
    responses={
        200: {
            "content": {"application/json": {"schema": {"type": "object"}}},
            "description": "The game's record (``tne-record``): options, seed and actions, "
            "as a file to download.",
        },
        **refusals("no-game", "conflict"),
    },
)
async def game_record(game_id: GameId, hub: HubDep) -> Response:
    game = await hub.get(game_id)
    if not game.ended:  # over, or aborted: nobody plays it again
        raise HTTPException(409, "the record of a game is published when the game is over")
    body = json.dumps(game.record(), indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="tne-{game.id}.json"'},
    )


@router.get("/api/games/{game_id}/replay/{step}", responses=refusals("no-game", "conflict"))
async def game_replay(game_id: GameId, step: int, hub: HubDep) -> ReplayStep:
    """Step ``step`` of a finished (or aborted) game: the action played and the public view
    after it."""
    game = await hub.get(game_id)
    if not game.ended:
        raise HTTPException(409, "only finished games can be replayed")
    actions = [e.action for e in game.entries]
    step = max(0, min(step, len(actions)))
    record = {"options": game.options, "seed": game.log.seed, "actions": actions[:step]}
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


@router.get("/api/games/{game_id}/moves", responses=refusals("no-game", "conflict"))
async def game_moves(game_id: GameId, hub: HubDep) -> MoveList:
    """The move list of a finished (or aborted) game, for its replay: every log entry (seat,
    action, events) with nothing hidden any more, the log's seat notes (hand-overs to bots,
    seats taken back, resignations, an abort: ``frames.SeatNote``), the game's statistics
    and whether it was aborted (``aborted``)."""
    game = await hub.get(game_id)
    if not game.ended:
        raise HTTPException(409, "only finished games can be replayed")
    log: list[LogLine] = [
        {
            "seq": e.seq,
            "seat": e.seat,
            "action": e.action,
            "events": [ev.to_dict() for ev in e.events],
        }
        for e in game.entries
    ]
    return {
        "id": game.id,
        "seats": game.public_seats(),
        "log": log,
        "seat_log": game.seat_log,
        "stats": game.stats(),
        "aborted": game.aborted,
    }


@router.post(
    "/api/games/{game_id}/seats/{seat}/bot",
    responses=refusals("no-game", "bad-token", "not-your-seat", "game-over", "seat-online"),
)
async def seat_to_bot(
    game_id: GameId,
    seat: Seat,
    body: SeatChange,
    request: Request,
    hub: HubDep,
    service: AccountsDep,
) -> GameSummary:
    """A bot takes the seat: asked by the seat's player (its token), or by the game's
    creator (the creator's token) once the seat's player has been away long enough."""
    game = await hub.get(game_id)
    holder = await account_holder(service, request, game, seat, body.token)
    await hub.hand_to_bot(game, body.token, seat, body.level, holder)
    return summary_of(game)


@router.post(
    "/api/games/{game_id}/rematch",
    responses=refusals(
        "no-game", "not-over", "bad-token", "not-your-seat", "sign-in", "csrf", "in-game"
    ),
)
async def game_rematch(
    game_id: GameId,
    body: Rematch,
    request: Request,
    hub: HubDep,
    service: AccountsDep,
    client: Client,
) -> RematchAnswer:
    """The finished game's rematch (created by the first player who asks): its id and
    its page. The tokens of the old game open the same people's seats of the new one; a
    player whose account holds a seat asks without a token."""
    game = await hub.get(game_id)
    if body.token is None:
        account = await service.signed_in(request)
        service.check_csrf(request)
        bound = await service.db(service.accounts.seats_of_game, game.id)
        if account.id not in bound.values():
            raise GameError("not-your-seat", "only the game's players ask for its rematch")
    new = await rematch(hub, game, body.token, client)
    return {"id": new, "link": f"/game/{new}"}


@router.post(
    "/api/games/{game_id}/seats/{seat}/human",
    responses=refusals("no-game", "bad-token", "not-your-seat", "game-over"),
)
async def seat_to_human(
    game_id: GameId,
    seat: Seat,
    body: SeatReturn,
    request: Request,
    hub: HubDep,
    service: AccountsDep,
) -> GameSummary:
    """The seat's player takes it back from the bot that held it: with the seat's token,
    or signed in with the account the seat is bound to."""
    game = await hub.get(game_id)
    holder = await account_holder(service, request, game, seat, body.token)
    await hub.take_back(game, body.token, seat, holder)
    return summary_of(game)
