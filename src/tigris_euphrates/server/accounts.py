"""Accounts on the web: sign up, sign in and out (everywhere), the seats bound to an account,
"My games", profiles with statistics, leaderboards.

Every form post carries the CSRF token (``sessions.py``). A sign-in that fails says the same
thing whether the name exists or not, and costs the same (the password is checked against a
dummy hash); failures are counted per name and per client in the database (every process
shares the counts) and refused beyond the ``Limits`` (``sign_in_failures_per_name``,
``sign_in_failures_per_client``, ``sign_in_window``), also for a name that has no account.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request, Response
from fastapi import Path as PathParam
from pydantic import AfterValidator, Field, StringConstraints, field_validator
from starlette.requests import HTTPConnection

from ..store.accounts import Account, AccountGame, Accounts, NameTaken, name_key
from ..store.ratings import FAMILIES, SIZES, Ratings
from .errors import GameError
from .hub import Hub
from .inputs import GAME_ID_PATTERN, MAX_NAME, NameQuery, Strict, Token, check_text
from .live import LiveGame, hash_token
from .passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords
from .player_stats import fill_stats, player_stats, stats_csv
from .sessions import Session, Sessions, same_origin

#: the window of ``Limits.sign_ups_per_client``
SIGN_UP_WINDOW = 3600.0
#: a name: 3 to 24 letters, digits, '_', '-', '.', or inner spaces
NAME_PATTERN = r"^[^\W][\w .-]{1,22}[^\W]$"
SIGN_IN_FAILED = "wrong name or password"
#: a rating family in a query: one of the rulesets' families
FAMILY_PATTERN = "^(" + "|".join(re.escape(f) for f in FAMILIES) + ")$"

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]
#: A player's name in a path: the character policy before any query (PostgreSQL refuses a
#: NUL in a text parameter; no account name holds a control character).
PlayerName = Annotated[
    str,
    PathParam(min_length=1, max_length=4 * MAX_NAME),
    AfterValidator(partial(check_text, limit=MAX_NAME)),
]


class SeatProof(Strict):
    """A seat this browser holds: the game and the seat's secret token."""

    game: Annotated[str, StringConstraints(pattern=GAME_ID_PATTERN)]
    token: Token


Proofs = Annotated[list[SeatProof], Field(max_length=500)]


class Credentials(Strict):
    name: NameQuery
    password: Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]
    #: the seats this browser holds (its guest games), bound to the account
    seats: Proofs = Field(default_factory=list)


class SignUp(Credentials):
    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if re.fullmatch(NAME_PATTERN, value) is None or "  " in value:
            raise ValueError(
                "a name is 3 to 24 letters, digits, '_', '-', '.' or single inner spaces"
            )
        return value

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        if len(value) < MIN_PASSWORD:
            raise ValueError(f"a password is at least {MIN_PASSWORD} characters")
        return value


class Claim(Strict):
    seats: Proofs


@dataclass
class AccountService:
    """What the account endpoints share: the store's account and rating tables, the
    password hasher and the session signer."""

    hub: Hub
    accounts: Accounts
    ratings: Ratings
    passwords: Passwords
    sessions: Sessions

    async def db(self, fn: Any, *args: Any) -> Any:
        return await self.hub.db(fn, *args)

    async def current(self, conn: HTTPConnection) -> Account | None:
        """The signed-in account of a request or websocket (``None``: a guest, a cookie
        signed out everywhere since, or a websocket opened by another site's page)."""
        if conn.scope["type"] == "websocket" and not same_origin(conn):
            return None
        session = self.sessions.read(conn)
        if session is None:
            return None
        account: Account | None = await self.db(self.accounts.by_id, session.account_id)
        if account is None or account.generation != session.generation:
            return None
        return account


def service_of(conn: HTTPConnection) -> AccountService:
    service: AccountService = conn.app.state.accounts
    return service


async def start_accounts(app: FastAPI, hub: Hub) -> AccountService:
    """Make the account service of a starting app (after its hub): the key that signs its
    cookies comes from the store, and rated games whose end was not counted yet (the server
    stopped in between) are counted now."""
    store = hub.store
    accounts, ratings = store.accounts, store.ratings
    passwords = await asyncio.to_thread(Passwords)
    key = await hub.db(accounts.secret, "session-key")
    service = AccountService(hub, accounts, ratings, passwords, Sessions(key))
    store.games.finish_hooks.append(ratings.rate_game)
    for game_id in await hub.db(ratings.unrated_finished):
        await hub.db(ratings.rate_game, game_id)
    app.state.accounts = service
    return service


def check_csrf(request: Request) -> None:
    if not service_of(request).sessions.csrf_ok(request):
        raise GameError(
            "csrf",
            "this form was not sent by the game's page (missing or wrong CSRF token): "
            "reload the page and try again",
        )


async def signed_in(request: Request) -> Account:
    account = await service_of(request).current(request)
    if account is None:
        raise GameError("sign-in", "sign in first")
    return account


def public_account(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "created": account.created}


async def bind_on_join(conn: HTTPConnection, game: LiveGame, seat: int | None) -> None:
    """A signed-in player who opens a seat binds it to their account. A rated game's seat
    is taken by accounts only, one seat an account; raises ``GameError`` otherwise."""
    if seat is None:
        return
    service = service_of(conn)
    account = await service.current(conn)
    if account is None:
        if game.rated:
            raise GameError(
                "sign-in",
                "this is a rated game: sign in (or sign up) to take your seat, then open "
                "the link again",
            )
        return
    bound = await service.db(service.accounts.seats_of_game, game.id)
    if game.rated and any(a == account.id and s != seat for s, a in bound.items()):
        raise GameError("one-seat", "in a rated game an account takes one seat only")
    owner = bound.get(seat)
    if owner is None:
        owner = await service.db(service.accounts.bind_seat, game.id, seat, account.id)
    if game.rated and owner != account.id:
        raise GameError("not-your-seat", "another account holds this seat of the rated game")


async def seat_of_account(conn: HTTPConnection, game: LiveGame, seat: int) -> int:
    """The seat, if the signed-in account holds it; raises ``GameError``."""
    service = service_of(conn)
    account = await service.current(conn)
    if account is None:
        raise GameError("bad-token", "sign in to open your seats of this game")
    bound = await service.db(service.accounts.seats_of_game, game.id)
    if bound.get(seat) != account.id:
        raise GameError("bad-token", f"seat {seat + 1} of this game is not yours")
    return seat


async def account_holder(
    request: Request, game: LiveGame, seat: int, token: str | None
) -> int | None:
    """For a seat change asked without a token: the seat, if the signed-in account holds it
    (the post must carry the CSRF token); ``None`` when a token was given."""
    if token is not None:
        return None
    if await service_of(request).current(request) is None:
        raise GameError(
            "bad-token", "give the seat's token (its link), or sign in to the account holding it"
        )
    check_csrf(request)
    return await seat_of_account(request, game, seat)


router = APIRouter()


def _proofs(seats: list[SeatProof]) -> list[tuple[str, str]]:
    return [(p.game, hash_token(p.token)) for p in seats]


async def _signed_in_response(
    request: Request, response: Response, account: Account, seats: list[SeatProof]
) -> dict[str, Any]:
    service = service_of(request)
    claimed = await service.db(service.accounts.claim, account.id, _proofs(seats))
    service.sessions.sign_in(request, response, Session(account.id, account.generation))
    return {
        "account": public_account(account),
        "claimed": [{"game": g, "seat": s} for g, s in claimed],
    }


@router.get("/api/account")
async def who(request: Request, response: Response) -> dict[str, Any]:
    """The signed-in account (``null``: a guest) and the CSRF token the page sends back."""
    service = service_of(request)
    account = await service.current(request)
    token = service.sessions.csrf_token(request, response)
    response.headers["Cache-Control"] = "no-store"
    return {"account": public_account(account) if account else None, "csrf": token}


@router.post("/api/account/signup")
async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    service = service_of(request)
    from .app import client_of

    key, most = f"s:{client_of(request)}", service.hub.limits.sign_ups_per_client
    if await service.db(service.accounts.failures, key, SIGN_UP_WINDOW) >= most:
        wait = await service.db(service.accounts.retry_after, key, SIGN_UP_WINDOW)
        raise GameError(
            "rate-limited",
            f"at most {most} new accounts an hour from one address",
            retry_after=wait,
        )
    await service.db(service.accounts.fail, key, SIGN_UP_WINDOW)  # counts every sign-up
    password_hash = await asyncio.to_thread(service.passwords.hash, body.password)
    try:
        account = await service.db(service.accounts.create, body.name, password_hash)
    except NameTaken:
        raise GameError("name-taken", "this name is taken: choose another one") from None
    return await _signed_in_response(request, response, account, body.seats)


@router.post("/api/account/signin")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    service = service_of(request)
    from .app import client_of

    limits = service.hub.limits
    window = limits.sign_in_window
    keys = [
        (f"a:{name_key(body.name)[:90]}", limits.sign_in_failures_per_name),
        (f"c:{client_of(request)}", limits.sign_in_failures_per_client),
    ]
    for key, limit in keys:
        if await service.db(service.accounts.failures, key, window) >= limit:
            wait = await service.db(service.accounts.retry_after, key, window)
            raise GameError(
                "rate-limited",
                f"too many failed sign-ins: try again in {max(1, round(wait / 60))} min",
                retry_after=wait,
            )
    account: Account | None = await service.db(service.accounts.by_name, body.name)
    stored = account.password_hash if account else None
    ok = await asyncio.to_thread(service.passwords.verify, stored, body.password)
    if not ok or account is None:
        for key, _ in keys:
            await service.db(service.accounts.fail, key, window)
        raise GameError("sign-in-failed", SIGN_IN_FAILED)
    await service.db(service.accounts.forget_failures, keys[0][0])
    if service.passwords.needs_rehash(account.password_hash):
        new = await asyncio.to_thread(service.passwords.hash, body.password)
        await service.db(service.accounts.set_password_hash, account.id, new)
    return await _signed_in_response(request, response, account, body.seats)


@router.post("/api/account/signout")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    check_csrf(request)
    service_of(request).sessions.sign_out(request, response)
    return {"account": None}


@router.post("/api/account/signout-everywhere")
async def sign_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
    """Every session of the account ends, in every browser (this one included)."""
    check_csrf(request)
    account = await signed_in(request)
    service = service_of(request)
    await service.db(service.accounts.next_generation, account.id)
    service.sessions.sign_out(request, response)
    return {"account": None}


@router.post("/api/account/claim")
async def claim(body: Claim, request: Request) -> dict[str, Any]:
    """Bind to the signed-in account the seats this browser holds."""
    check_csrf(request)
    account = await signed_in(request)
    service = service_of(request)
    claimed = await service.db(service.accounts.claim, account.id, _proofs(body.seats))
    return {"claimed": [{"game": g, "seat": s} for g, s in claimed]}


@router.get("/api/account/seats/{game_id}")
async def my_seats(game_id: GameId, request: Request) -> dict[str, Any]:
    """The seats of the game bound to the signed-in account (none for a guest)."""
    service = service_of(request)
    account = await service.current(request)
    if account is None:
        return {"seats": []}
    bound = await service.db(service.accounts.seats_of_game, game_id)
    return {"seats": sorted(s for s, a in bound.items() if a == account.id)}


def _game_line(g: AccountGame, live: LiveGame | None) -> dict[str, Any]:
    to_act = live.actor() if live is not None and not live.over else None
    return {
        "id": g.id,
        "seat": g.seat,
        "status": "over" if live is not None and live.over else g.status,
        "rated": g.rated,
        "created": g.created,
        "updated": g.updated,
        "options": g.options,
        "seats": [
            {
                "seat": i,
                "kind": s.get("kind"),
                "level": s.get("level"),
                "name": s.get("name"),
                "account": g.players.get(i),
            }
            for i, s in enumerate(g.seats)
        ],
        "ranking": (g.result or {}).get("ranking"),
        "to_act": to_act,
        "my_turn": to_act == g.seat and to_act is not None,
    }


@router.get("/api/account/games")
async def my_games(request: Request) -> dict[str, Any]:
    """Every game of the signed-in account: those where it is their turn first, then the
    other unfinished ones, then the finished ones (each part most recent first)."""
    account = await signed_in(request)
    service = service_of(request)
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id)
    lines = []
    for g in games:
        live = None
        if g.status == "active":
            try:
                live = await service.hub.get(g.id)
            except GameError:
                live = None
        lines.append(_game_line(g, live))
    order = {True: 0, False: 1}
    lines.sort(key=lambda x: (order[x["my_turn"]], x["status"] == "over", -x["updated"]))
    return {"account": public_account(account), "games": lines}


async def _player(request: Request, name: str) -> Account:
    service = service_of(request)
    account: Account | None = await service.db(service.accounts.by_name, name)
    if account is None:
        raise GameError("no-player", "there is no player of that name")
    return account


@router.get("/api/players/{name}")
async def profile(name: PlayerName, request: Request) -> dict[str, Any]:
    """A player's public page: name, ratings (with their rank), recent games, statistics
    and rating history. Unfinished games show no hidden information: only who plays."""
    service = service_of(request)
    account = await _player(request, name)
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id)
    await service.db(fill_stats, service.hub.store, games)
    ratings = await service.db(service.ratings.of_account, account.id)
    history = await service.db(service.ratings.history, account.id)
    return {
        "account": public_account(account),
        "ratings": [
            {
                "family": r.family,
                "size": r.size,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "games": r.games,
                "rank": r.rank,
            }
            for r in ratings
        ],
        "history": history,
        "stats": player_stats(games),
        "games": [_game_line(g, None) for g in games[:20]],
    }


@router.get("/api/players/{name}/stats.csv")
async def profile_csv(name: PlayerName, request: Request) -> Response:
    """The player's finished games, one line each, as CSV."""
    service = service_of(request)
    account = await _player(request, name)
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id, 10_000)
    await service.db(fill_stats, service.hub.store, games)
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", account.name)
    return Response(
        stats_csv(games),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="tne-{safe}-games.csv"'},
    )


@router.get("/api/leaderboard")
async def leaderboard(
    request: Request,
    family: Annotated[str, Query(pattern=FAMILY_PATTERN)] = FAMILIES[0],
    size: Annotated[str, Query(pattern="^(2p|multi)$")] = "2p",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """A page of the leaderboard (best first) and, for a signed-in player on it, their
    neighbourhood: the five above and the five below."""
    service = service_of(request)
    top, total = await service.db(service.ratings.board, family, size, limit, offset)
    account = await service.current(request)
    around: list[Any] = []
    if account is not None:
        at = await service.db(service.ratings.position, account.id, family, size)
        if at is not None:
            start = max(0, at - 5)
            around, _ = await service.db(service.ratings.board, family, size, 11, start)

    def line(r: Any) -> dict[str, Any]:
        return {
            "rank": r.rank,
            "name": r.name,
            "ordinal": r.ordinal,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "me": account is not None and r.account_id == account.id,
        }

    return {
        "family": family,
        "size": size,
        "families": list(FAMILIES),
        "sizes": list(SIZES),
        "total": total,
        "offset": offset,
        "top": [line(r) for r in top],
        "around": [line(r) for r in around],
        "updated": time.time(),
    }
