"""Direct challenges between people over HTTP (``server/direct.py`` says what each does):
challenge one to three people by name, list one's challenges, accept, decline (the
challenger's decline cancels). Every route needs a signed-in account, every post the page's
CSRF token; the lobby's socket tells every change to the challenge's people.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import Field

from ..answers import meeting as answers
from ..answers.errors import refusals
from ..clocks import PaceError, pace_from_dict
from ..deps import AccountsDep, Client, HubDep, SignedIn, StoreDep
from ..direct import DIRECT_ID_PATTERN, challenge_info, challenges_of
from ..errors import GameError
from ..inputs import NameQuery, OptionName, OptionValue, PaceSpec, Strict

ChallengeId = Annotated[str, PathParam(pattern=DIRECT_ID_PATTERN)]

router = APIRouter()


class NewDirectChallenge(Strict):
    """``POST /api/direct``: the people challenged (one for a game of two, up to three),
    the game's options (its ruleset and variants), its pace (``None``: no clock) and
    whether it is rated."""

    to: Annotated[list[NameQuery], Field(min_length=1, max_length=3)]
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    pace: PaceSpec | None = None
    rated: bool = False


@router.get("/api/direct", responses=refusals("sign-in"))
async def my_direct_challenges(
    account: SignedIn, hub: HubDep, store: StoreDep
) -> answers.DirectChallenges:
    """The account's challenges, sent and received (what its lobby's socket sends)."""
    return {"challenges": await challenges_of(store, hub.db, account.id, hub.clock())}


@router.post(
    "/api/direct",
    responses=refusals(
        "csrf",
        "sign-in",
        "rate-limited",
        "bad-pace",
        "no-account",
        "blocked",
        "bot-account",
        "too-many-challenges",
        "in-game",
    ),
)
async def challenge(
    body: NewDirectChallenge, request: Request, hub: HubDep, service: AccountsDep, client: Client
) -> answers.DirectMade:
    """Challenge people: each sees it in their lobby (and by e-mail if they asked for
    e-mails); ``mailed`` names those told by e-mail."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    if not hub.newgames.game_rates.take(client):
        raise GameError(
            "rate-limited",
            f"at most {hub.limits.games_per_minute:g} new games a minute from one address",
            retry_after=60 / max(hub.limits.games_per_minute, 1e-9),
            limit="games_per_minute",
        )
    try:
        pace = None if body.pace is None else pace_from_dict(body.pace.model_dump())
    except PaceError as exc:
        raise GameError("bad-pace", str(exc)) from None
    made, mailed = await hub.direct.challenge(account, body.to, body.options, pace, body.rated)
    return {"challenge": challenge_info(made, account.id), "mailed": mailed}


@router.post(
    "/api/direct/{challenge_id}/accept",
    responses=refusals(
        "csrf", "sign-in", "no-challenge", "not-invited", "challenge-closed", "in-game"
    ),
)
async def accept_direct(
    challenge_id: ChallengeId, request: Request, hub: HubDep, service: AccountsDep
) -> answers.DirectAccepted:
    """Accept: the answer names the game once every invited person accepted (``null``
    while others have yet to answer); accepting again names the same game."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    found, game = await hub.direct.accept(account, challenge_id)
    return {
        "challenge": challenge_info(found, account.id),
        "game": game,
        "link": None if game is None else f"/game/{game}",
    }


@router.post(
    "/api/direct/{challenge_id}/decline",
    responses=refusals("csrf", "sign-in", "no-challenge", "not-invited", "challenge-closed"),
)
async def decline_direct(
    challenge_id: ChallengeId, request: Request, hub: HubDep, service: AccountsDep
) -> answers.DirectClosed:
    """Decline (an invited person) or cancel (the challenger): the challenge ends for
    everybody, and the challenger's lobby says how."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    found = await hub.direct.decline(account, challenge_id)
    return {"challenge": challenge_info(found, account.id)}
