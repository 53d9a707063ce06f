"""Friends and blocks: follow an account (the lobby shows who of them is online), block one
(no quick match with it, no invitations from it, its table chat hidden for you), and decline
an invitation. Every route needs an account and every post the page's CSRF token.

Following, unfollowing, blocking and unblocking are one route body (``relate``) over the
four ``Change``\\ s: what each stores, which part of the lobby it refreshes, and the key of
its answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from ...store import Store
from ...store.accounts import Account
from ...store.social import Social
from ..accounts import AccountService
from ..answers import meeting as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, HubDep, SignedIn, StoreDep
from ..errors import GameError
from ..frames import MeFrame
from ..hub import Hub
from ..inputs import NameQuery, Strict

router = APIRouter()

InviteId = Annotated[int, PathParam(ge=1, lt=2**31)]


class Someone(Strict):
    name: NameQuery


@dataclass(frozen=True)
class Change:
    """One of the four changes between two accounts: ``/api/social/<verb>`` stores it
    (``store``: the social table's call, given both accounts and the time), refreshes the
    ``topic`` of the account's lobby, and answers ``{<answer>: the other's name}``."""

    verb: str
    answer: str
    topic: str
    store: Callable[[Social, int, int, float], bool]
    #: the answer's type (a ``TypedDict`` of ``answers.meeting``)
    model: object
    doc: str


CHANGES = (
    Change(
        "follow",
        "following",
        "friends",
        lambda s, a, b, now: s.follow(a, b, now),
        answers.Following,
        "Follow an account (refused when either blocked the other): the lobby shows "
        "whether it is online.",
    ),
    Change(
        "unfollow",
        "unfollowed",
        "friends",
        lambda s, a, b, now: s.unfollow(a, b),
        answers.Unfollowed,
        "Stop following an account.",
    ),
    Change(
        "block",
        "blocked",
        "blocks",
        lambda s, a, b, now: s.block(a, b, now),
        answers.Blocked,
        "Block an account: no quick match with it, no invitations from it, its chat hidden; "
        "the direct challenges between the two end.",
    ),
    Change(
        "unblock",
        "unblocked",
        "blocks",
        lambda s, a, b, now: s.unblock(a, b),
        answers.Unblocked,
        "Unblock an account.",
    ),
)


async def _pair(
    body: Someone, request: Request, hub: Hub, store: Store, service: AccountService
) -> tuple[Account, Account]:
    """The signed-in account and the one named (never the same)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    other: Account | None = await hub.db(store.accounts.by_name, body.name)
    if other is None:
        raise GameError("no-account", "there is no account of this name")
    if other.id == account.id:
        raise GameError("self", "this is your own account")
    return account, other


async def relate(
    change: Change,
    body: Someone,
    request: Request,
    hub: Hub,
    store: Store,
    service: AccountService,
) -> dict[str, str]:
    """Carry out ``change`` between the signed-in account and the one named."""
    account, other = await _pair(body, request, hub, store, service)
    social = store.social
    if change.verb == "follow" and await hub.db(social.blocks_either, account.id, other.id):
        raise GameError("blocked", "you cannot follow this account")
    await hub.db(change.store, social, account.id, other.id, hub.clock())
    if change.verb == "block":
        await hub.direct.blocked(account, other)  # their direct challenges end
    hub.lobby.announce(account.id, change.topic)
    return {change.answer: other.name}


def _route(change: Change) -> None:
    """The route of ``change``: ``POST /api/social/<verb>``."""

    async def route(
        body: Someone, request: Request, hub: HubDep, store: StoreDep, service: AccountsDep
    ) -> dict[str, str]:
        return await relate(change, body, request, hub, store, service)

    router.add_api_route(
        f"/api/social/{change.verb}",
        route,
        methods=["POST"],
        name=change.verb,
        description=change.doc,
        response_model=change.model,
        responses=refusals("csrf", "sign-in", "no-account", "self", "blocked"),
    )


@router.get("/api/social", responses=refusals("sign-in"))
async def social(account: SignedIn, hub: HubDep) -> MeFrame:
    """The account's corner of the lobby: invitations, friends online, blocked accounts,
    its quick match (what the lobby's socket sends)."""
    return await hub.lobby.me_frame(account.id)


for _change in CHANGES:
    _route(_change)


@router.post("/api/invites/{invite_id}/decline", responses=refusals("csrf", "sign-in", "no-invite"))
async def decline_invite(
    invite_id: InviteId, request: Request, hub: HubDep, store: StoreDep, service: AccountsDep
) -> answers.InviteDeclined:
    """Decline an invitation to an open table."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    if not await hub.db(store.social.decline, invite_id, account.id):
        raise GameError("no-invite", "there is no such invitation of yours")
    hub.lobby.announce(account.id, "invite")
    return {"declined": invite_id}
