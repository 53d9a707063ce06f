"""Accounts on the server: the account service the routes share (the store's account and
rating tables, passwords, sessions), who is signed in, and the seats bound to accounts.

The routes are in ``routes/accounts.py`` (sign up, in and out, "My games") and
``routes/players.py`` (profiles, leaderboards); the websocket's join binds a seat here. Every
form post carries the CSRF token (``sessions.py``): ``AccountService.check_csrf``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from ..store.accounts import Account, AccountGame, Accounts, name_key
from ..store.bots import Bots
from ..store.ratings import Ratings
from .answers.accounts import GameLine, PublicAccount
from .apitokens import TOKEN_PATTERN, bearer, token_digest
from .errors import GameError
from .hub import Hub
from .live import LiveGame
from .passwords import Passwords
from .seatinfo import is_named, seat_name
from .sessions import SESSION_SECONDS, Sessions, new_session, same_origin


@dataclass
class AccountService:
    """What the account endpoints share: the store's account, rating and bot account
    tables, the password hasher, the session signer, and ``run``, which runs a blocking
    store call off the event loop (the hub's database workers)."""

    accounts: Accounts
    ratings: Ratings
    passwords: Passwords
    sessions: Sessions
    run: Callable[..., Awaitable[Any]]
    bots: Bots

    async def db(self, fn: Any, *args: Any) -> Any:
        return await self.run(fn, *args)

    async def current(self, conn: HTTPConnection) -> Account | None:
        """The signed-in account of a request or websocket (``None``: a guest, a session
        signed out since, here or everywhere, or a websocket opened by another site's
        page). A request with an ``Authorization`` header is the bot account of its API
        token, whatever cookie it carries (``None`` if the token opens none)."""
        given = bearer(conn)
        if given is not None:
            return await self.token_account(given)
        if conn.scope["type"] == "websocket" and not same_origin(conn):
            return None
        session = self.sessions.read(conn)
        if session is None:
            return None
        account: Account | None = await self.db(
            self.accounts.session_account, session.digest, SESSION_SECONDS
        )
        if (
            account is None
            or account.id != session.account_id
            or account.generation != session.generation
        ):
            return None
        return account

    async def token_account(self, token: str) -> Account | None:
        """The bot account an API token opens (``None``: malformed, unknown or revoked, or
        its account is banned)."""
        if re.fullmatch(TOKEN_PATTERN, token) is None:
            return None
        found = await self.db(self.bots.token_account, token_digest(token))
        return None if found is None else found[0]

    async def sign_in(self, conn: HTTPConnection, response: Response, account: Account) -> None:
        """Open a session of the account (kept by the server) and set its cookie, and
        remember that the account signed in from this browser."""
        session = new_session(account.id, account.generation)
        await self.db(self.accounts.open_session, account.id, session.digest, SESSION_SECONDS)
        self.sessions.sign_in(conn, response, session)
        self.sessions.remember(conn, response, name_key(account.name))

    async def sign_out(self, conn: HTTPConnection, response: Response) -> None:
        """End this browser's session on the server and delete its cookie."""
        session = self.sessions.read(conn)
        if session is not None:
            await self.db(self.accounts.close_session, session.digest)
        self.sessions.sign_out(conn, response)

    async def signed_in(self, conn: HTTPConnection) -> Account:
        """The signed-in account; raises ``GameError`` (``sign-in``) for a guest."""
        account = await self.current(conn)
        if account is None and bearer(conn) is not None:
            raise GameError("bad-token", "this API token opens no account (revoked?)")
        if account is None:
            raise GameError("sign-in", "sign in first")
        return account

    def check_csrf(self, request: Request) -> None:
        """Raises ``GameError`` (``csrf``) unless the post carries the page's CSRF token
        or an API token (``Authorization``: no cookie counts then)."""
        if bearer(request) is None and not self.sessions.csrf_ok(request):
            raise GameError(
                "csrf",
                "this form was not sent by the game's page (missing or wrong CSRF token): "
                "reload the page and try again",
            )


async def start_accounts(hub: Hub) -> AccountService:
    """The account service of a starting app (after its hub): the key that signs its
    cookies comes from the store, and rated games whose end was not counted yet (the server
    stopped in between) are counted now."""
    store = hub.store
    accounts, ratings = store.accounts, store.ratings
    passwords = await asyncio.to_thread(Passwords)
    key = await hub.db(accounts.secret, "session-key")
    service = AccountService(accounts, ratings, passwords, Sessions(key), hub.db, store.bots)
    store.games.finish_hooks.append(ratings.rate_game)
    for game_id in await hub.db(ratings.unrated_finished):
        await hub.db(ratings.rate_game, game_id)
    return service


def public_account(account: Account) -> PublicAccount:
    return {
        "id": account.id,
        "name": account.name,
        "created": account.created,
        "bot": account.is_bot,
    }


def bot_seat_refused(account: Account, rated: bool, owner: int | None) -> GameError | None:
    """Why a bot account may not take a seat of a rated game it is not bound to already
    (only a bots' challenge binds a bot to a rated game's seat); ``None`` if it may."""
    if account.is_bot and rated and owner != account.id:
        return GameError(
            "bot-rated",
            "a bot account plays rated games only against bots, through challenges",
        )
    return None


async def bind_on_join(
    service: AccountService, conn: HTTPConnection, game: LiveGame, seat: int | None
) -> bool:
    """A signed-in player who opens a seat binds it to their account (returns whether it
    is bound to theirs now). A rated game's seat is taken by accounts only, one seat an
    account; raises ``GameError`` otherwise."""
    if seat is None:
        return False
    account = await service.current(conn)
    if account is None:
        if game.rated:
            raise GameError(
                "sign-in",
                "this is a rated game: sign in (or sign up) to take your seat, then open "
                "the link again",
            )
        return False
    bound = await service.db(service.accounts.seats_of_game, game.id)
    if game.rated and any(a == account.id and s != seat for s, a in bound.items()):
        raise GameError("one-seat", "in a rated game an account takes one seat only")
    owner = bound.get(seat)
    refused = bot_seat_refused(account, game.rated, owner)
    if refused is not None:
        raise refused
    if owner is None:
        owner = await service.db(service.accounts.bind_seat, game.id, seat, account.id)
    if game.rated and owner != account.id:
        raise GameError("not-your-seat", "another account holds this seat of the rated game")
    return bool(owner == account.id)


async def seat_of_account(
    service: AccountService, conn: HTTPConnection, game: LiveGame, seat: int
) -> int:
    """The seat, if the signed-in account holds it; raises ``GameError``."""
    account = await service.current(conn)
    if account is None:
        raise GameError("bad-token", "sign in to open your seats of this game")
    bound = await service.db(service.accounts.seats_of_game, game.id)
    if bound.get(seat) != account.id:
        raise GameError("bad-token", f"seat {seat + 1} of this game is not yours")
    return seat


async def account_holder(
    service: AccountService, request: Request, game: LiveGame, seat: int, token: str | None
) -> int | None:
    """For a seat change asked without a token: the seat, if the signed-in account holds it
    (the post must carry the CSRF token); ``None`` when a token was given."""
    if token is not None:
        return None
    if await service.current(request) is None:
        raise GameError(
            "bad-token", "give the seat's token (its link), or sign in to the account holding it"
        )
    service.check_csrf(request)
    return await seat_of_account(service, request, game, seat)


def game_line(g: AccountGame, live: LiveGame | None) -> GameLine:
    """A game of an account as "My games" and the profiles list it (``live``: the game in
    memory, which knows whose turn it is)."""
    to_act = live.log.actor() if live is not None and not live.over else None
    status = g.status
    if live is not None and live.ended:  # ahead of its row: stored just after
        status = "over" if live.over else "aborted"
    return {
        "id": g.id,
        "seat": g.seat,
        "status": status,
        "rated": g.rated,
        "created": g.created,
        "updated": g.updated,
        "options": g.options,
        "seats": [
            {
                "seat": i,
                "kind": s.get("kind"),
                "level": s.get("level"),
                "name": g.players.get(i) or seat_name(i, s),
                "named": i in g.players or is_named(i, s),
                "account": g.players.get(i),
            }
            for i, s in enumerate(g.seats)
        ],
        "ranking": g.result["ranking"] if g.result else None,
        # each seat's final score (its weakest colour), once the game is over
        "scores": [totals[0] for totals in g.result["scores"]] or None if g.result else None,
        "to_act": to_act,
        "my_turn": to_act == g.seat and to_act is not None,
    }
