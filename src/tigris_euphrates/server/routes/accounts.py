"""Accounts: sign up, sign in and out (everywhere), the seats a browser holds bound to its
account, and "My games".

Every form post carries the CSRF token (``sessions.py``), checked first. A sign-in that fails
says the same thing whether the name exists or not, and costs the same (the password is
checked against a dummy hash). The limits (``throttle.py``) are taken in the database before
the work they limit, so requests sent together cannot pass them: a sign-in takes its
attempts before its password is checked, a sign-up before its account is made. Names are
stored in NFKC, may hold no invisible character, and are unique by their skeleton
(``store/names.py``): a name that looks like another one is taken.
"""

from __future__ import annotations

import asyncio
import re
from typing import Annotated

from fastapi import APIRouter, Request, Response
from fastapi import Path as PathParam
from pydantic import Field, StringConstraints, field_validator

from ...store.accounts import Account, AccountGame, NameTaken, name_key
from ...store.names import invisible, normal
from .. import throttle
from ..accounts import AccountService, game_line, public_account
from ..answers import accounts as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, Client, CurrentAccount, HubDep, LimitsDep, SignedIn, StoreDep
from ..errors import GameError
from ..inputs import GAME_ID_PATTERN, NameQuery, Strict, Token
from ..live import LiveGame, hash_token
from ..passwords import MAX_PASSWORD, MIN_PASSWORD

#: a name: 3 to 24 letters, digits, '_', '-', '.', or inner spaces
NAME_PATTERN = r"^[^\W][\w .-]{1,22}[^\W]$"
SIGN_IN_FAILED = "wrong name or password"

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]

router = APIRouter()


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
        value = normal(value)
        bad = invisible(value)
        if bad is not None:
            raise ValueError(f"a name may not hold invisible or formatting characters ({bad})")
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


def _proofs(seats: list[SeatProof]) -> list[tuple[str, str]]:
    return [(p.game, hash_token(p.token)) for p in seats]


async def _signed_in_response(
    service: AccountService,
    request: Request,
    response: Response,
    account: Account,
    seats: list[SeatProof],
) -> answers.SignedIn:
    claimed = await service.db(service.accounts.claim, account.id, _proofs(seats))
    await service.sign_in(request, response, account)
    return {
        "account": public_account(account),
        "claimed": [{"game": g, "seat": s} for g, s in claimed],
    }


@router.get("/api/account", responses=refusals())
async def who(
    request: Request,
    response: Response,
    service: AccountsDep,
    hub: HubDep,
    account: CurrentAccount,
    store: StoreDep,
) -> answers.Who:
    """The signed-in account (``null``: a guest; ``admin``: whether it moderates, so the
    page links the admins' page) and the CSRF token the page sends back."""
    token = service.sessions.csrf_token(request, response)
    response.headers["Cache-Control"] = "no-store"
    if account is None:
        return {"account": None, "csrf": token}
    standing = await hub.db(store.moderation.standing, account.id)
    return {"account": {**public_account(account), "admin": standing.admin}, "csrf": token}


@router.post("/api/account/signup", responses=refusals("csrf", "rate-limited", "name-taken"))
async def sign_up(
    body: SignUp,
    request: Request,
    response: Response,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    client: Client,
) -> answers.SignedIn:
    """A new account. Every try counts against ``sign_ups_per_client``, taken first."""
    service.check_csrf(request)
    await throttle.take(hub, [throttle.sign_up_limit(limits, client)])
    password_hash = await asyncio.to_thread(service.passwords.hash, body.password)
    try:
        account = await service.db(service.accounts.create, body.name, password_hash)
    except NameTaken:
        raise GameError(
            "name-taken", "this name, or one that looks like it, is taken: choose another one"
        ) from None
    return await _signed_in_response(service, request, response, account, body.seats)


@router.post(
    "/api/account/signin",
    responses=refusals("csrf", "rate-limited", "sign-in-failed", "banned"),
)
async def sign_in(
    body: Credentials,
    request: Request,
    response: Response,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    client: Client,
    store: StoreDep,
) -> answers.SignedIn:
    """Sign in (a failure says the same whether the name exists or not); the seats this
    browser holds are bound to the account."""
    service.check_csrf(request)
    key = name_key(body.name)
    known = key in service.sessions.known(request)
    held = await throttle.take(hub, throttle.sign_in_limits(limits, client, key, known))
    if held.delay > 0:
        await asyncio.sleep(held.delay)  # past the name's ceiling: its turn
    account = await _check_password(service, body)
    if account is None:
        raise GameError("sign-in-failed", SIGN_IN_FAILED)  # the attempts held are failures
    await throttle.give_back(hub, held, forget="p:")
    standing = await service.db(store.moderation.standing, account.id)
    if standing.banned is not None:  # said only to whoever knows the password
        raise GameError("banned", "a moderator banned this account: it cannot sign in")
    return await _signed_in_response(service, request, response, account, body.seats)


async def _check_password(service: AccountService, body: Credentials) -> Account | None:
    """The account if the password is its own (a name without one costs the same work)."""
    account: Account | None = await service.db(service.accounts.by_name, body.name)
    stored = account.password_hash if account else None
    ok = await asyncio.to_thread(service.passwords.verify, stored, body.password)
    if not ok or account is None:
        return None
    if service.passwords.needs_rehash(account.password_hash):
        new = await asyncio.to_thread(service.passwords.hash, body.password)
        await service.db(service.accounts.set_password_hash, account.id, new)
    return account


@router.post("/api/account/signout", responses=refusals("csrf"))
async def sign_out(request: Request, response: Response, service: AccountsDep) -> answers.SignedOut:
    """This browser's session ends on the server: its cookie, even a copy, opens nothing."""
    service.check_csrf(request)
    await service.sign_out(request, response)
    return {"account": None}


@router.post("/api/account/signout-everywhere", responses=refusals("csrf", "sign-in"))
async def sign_out_everywhere(
    request: Request, response: Response, service: AccountsDep
) -> answers.SignedOut:
    """Every session of the account ends, in every browser (this one included)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    await service.db(service.accounts.close_sessions, account.id)
    await service.db(service.accounts.next_generation, account.id)
    service.sessions.sign_out(request, response)
    return {"account": None}


@router.post("/api/account/claim", responses=refusals("csrf", "sign-in"))
async def claim(body: Claim, request: Request, service: AccountsDep) -> answers.Claimed:
    """Bind to the signed-in account the seats this browser holds."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    claimed = await service.db(service.accounts.claim, account.id, _proofs(body.seats))
    return {"claimed": [{"game": g, "seat": s} for g, s in claimed]}


@router.get("/api/account/seats/{game_id}", responses=refusals())
async def my_seats(
    game_id: GameId, service: AccountsDep, account: CurrentAccount
) -> answers.MySeats:
    """The seats of the game bound to the signed-in account (none for a guest)."""
    if account is None:
        return {"seats": []}
    bound = await service.db(service.accounts.seats_of_game, game_id)
    return {"seats": sorted(s for s, a in bound.items() if a == account.id)}


@router.get("/api/account/games", responses=refusals("sign-in"))
async def my_games(account: SignedIn, service: AccountsDep, hub: HubDep) -> answers.MyGames:
    """Every game of the signed-in account: those where it is their turn first, then the
    other unfinished ones, then the finished ones (each part most recent first)."""
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id)
    lines = []
    for g in games:
        live: LiveGame | None = None
        if g.status == "active":
            try:
                live = await hub.get(g.id)
            except GameError:
                live = None
        lines.append(game_line(g, live))
    order = {True: 0, False: 1}
    lines.sort(key=lambda x: (order[x["my_turn"]], x["status"] == "over", -x["updated"]))
    return {"account": public_account(account), "games": lines}
