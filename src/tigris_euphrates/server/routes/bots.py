"""Bot accounts over HTTP: turn an account into a bot account, its API tokens, and the
challenges between accounts (``server/botaccounts.py`` says what each does).

Every post is checked first: the page's CSRF token, or an API token in the ``Authorization``
header (then no cookie counts); then the account. A token is made from the account page
only (signed in with the password, not with another token), and shown once; it is revoked
from the page or with the token itself (``DELETE``).
"""

from __future__ import annotations

import time
from functools import partial
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import AfterValidator, Field, StringConstraints

from ...store.bots import (
    BotToken,
    Challenge,
    NotABot,
    PublicChallenge,
    StillPlaying,
    TooManyTokens,
)
from .. import botaccounts
from ..answers import bots as answers
from ..answers.errors import refusals
from ..apitokens import bearer, new_token, token_digest
from ..botaccounts import CHALLENGE_PATTERN, CHALLENGE_SECONDS
from ..deps import AccountsDep, HubDep, LimitsDep
from ..errors import GameError
from ..inputs import MAX_NAME, NameQuery, OptionName, OptionValue, Strict, check_text

ChallengeId = Annotated[str, PathParam(pattern=CHALLENGE_PATTERN)]
TokenId = Annotated[int, PathParam(ge=1, lt=2**31)]
#: A token's name: what its owner calls it (the program or machine that holds it).
TokenName = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_NAME, pattern=r"^[\w .:@()+-]{1,40}$")
]

router = APIRouter()


class MakeBot(Strict):
    """``POST /api/account/bot``: ``{"confirm": true}`` (it cannot be undone)."""

    confirm: Literal[True]


class NewToken(Strict):
    name: TokenName


class NewChallenge(Strict):
    """``POST /api/challenges``: the bot account challenged, the game's options (two
    players), rated (between bots only)."""

    to: NameQuery
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    rated: bool = False


class Decline(Strict):
    """``POST /api/challenges/{id}/decline``: a reason the challenger is shown."""

    reason: Annotated[str, AfterValidator(partial(check_text, limit=200))] | None = None


def token_line(t: BotToken) -> answers.TokenLine:
    return {"id": t.id, "name": t.name, "created": t.created, "last_used": t.last_used}


@router.post(
    "/api/account/bot", responses=refusals("csrf", "sign-in", "rated-person", "playing-person")
)
async def make_bot(body: MakeBot, request: Request, service: AccountsDep) -> answers.BotMade:
    """Turn the signed-in account into a bot account, for good: it then plays through its
    API tokens' programs, rated only against bots. Refused for an account that has a
    rating among people (``rated-person``): a rating never moves between the boards; and
    while it holds a seat at an open table or of an unfinished rated game, or waits for a
    quick match (``playing-person``): a bot account never holds a people's seat."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    try:
        since = await service.db(service.bots.make_bot, account.id)
    except NotABot:
        raise GameError(
            "rated-person",
            "this account has a rating among people: a bot account needs a new account",
        ) from None
    except StillPlaying:
        raise GameError(
            "playing-person",
            "this account holds a seat at an open table or of a rated game, or waits for a "
            "quick match: leave or finish first",
        ) from None
    return {"account": {"id": account.id, "name": account.name, "bot": True, "since": since}}


@router.get("/api/account/tokens", responses=refusals("sign-in", "not-a-bot"))
async def tokens(request: Request, service: AccountsDep) -> answers.Tokens:
    """The bot account's API tokens (name, made, last used; never the secret)."""
    account = await service.signed_in(request)
    botaccounts.require_bot(account)
    held: list[BotToken] = await service.db(service.bots.tokens, account.id)
    return {"tokens": [token_line(t) for t in held]}


@router.post(
    "/api/account/tokens", responses=refusals("csrf", "sign-in", "not-a-bot", "too-many-tokens")
)
async def make_token(
    body: NewToken, request: Request, service: AccountsDep, limits: LimitsDep
) -> answers.MadeToken:
    """A new API token of the signed-in bot account: its secret is in this answer only."""
    service.check_csrf(request)
    if bearer(request) is not None:
        raise GameError("sign-in", "tokens are made on the account page, signed in")
    account = await service.signed_in(request)
    botaccounts.require_bot(account)
    secret = new_token()
    most = limits.tokens_per_account
    try:
        made = await service.db(
            service.bots.add_token, account.id, body.name, token_digest(secret), most
        )
    except TooManyTokens:
        raise GameError(
            "too-many-tokens",
            f"a bot account holds at most {most} tokens: revoke one first",
            limit="tokens_per_account",
        ) from None
    return {**token_line(made), "token": secret}


@router.delete("/api/account/tokens/{token_id}", responses=refusals("csrf", "sign-in", "no-token"))
async def revoke_token(
    token_id: TokenId, request: Request, service: AccountsDep
) -> answers.TokenRevoked:
    """Revoke one of the account's tokens (a token may revoke itself): it opens nothing
    from now on, in every server process."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    if not await service.db(service.bots.revoke, account.id, token_id):
        raise GameError("no-token", "this account has no such token")
    return {"revoked": token_id}


@router.get("/api/challenges", responses=refusals("sign-in"))
async def my_challenges(request: Request, service: AccountsDep) -> answers.Challenges:
    """The account's challenges, sent and received: the open ones and those of the last
    hour."""
    account = await service.signed_in(request)
    await service.db(service.bots.expire, time.time() - CHALLENGE_SECONDS)
    found: list[Challenge] = await service.db(
        service.bots.challenges_of, account.id, time.time() - 3600
    )
    return {"challenges": [c.public() for c in found]}


@router.post(
    "/api/challenges",
    responses=refusals(
        "csrf", "sign-in", "no-bot", "bot-rated", "too-many-challenges", "rate-limited", "blocked"
    ),
)
async def make_challenge(
    body: NewChallenge, request: Request, service: AccountsDep, hub: HubDep
) -> PublicChallenge:
    """Challenge a bot account (a person: casual games only; a bot: rated or not)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    made = await botaccounts.challenge(hub, service, account, body.to, body.options, body.rated)
    return made.public()


@router.post(
    "/api/challenges/{challenge_id}/accept",
    responses=refusals(
        "csrf", "sign-in", "no-challenge", "not-challenged", "challenge-closed", "too-many-games"
    ),
)
async def accept_challenge(
    challenge_id: ChallengeId, request: Request, service: AccountsDep, hub: HubDep
) -> PublicChallenge:
    """The challenged bot accepts: the answer names the game and the bot's seat."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    done = await botaccounts.accept(hub, service, account, challenge_id)
    return done.public()


@router.post(
    "/api/challenges/{challenge_id}/decline",
    responses=refusals("csrf", "sign-in", "no-challenge", "not-challenged", "challenge-closed"),
)
async def decline_challenge(
    challenge_id: ChallengeId, body: Decline, request: Request, service: AccountsDep
) -> PublicChallenge:
    """The challenged declines, or the challenger cancels."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    done = await botaccounts.decline(service, account, challenge_id, body.reason)
    return done.public()
