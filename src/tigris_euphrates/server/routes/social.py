"""Friends and blocks: follow an account (the lobby shows who of them is online), block one
(no quick match with it, no invitations from it, its table chat hidden for you), and decline
an invitation. Every route needs an account and every post the page's CSRF token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from ...store.accounts import Account
from ..accounts import AccountService
from ..deps import AccountsDep, HubDep, SignedIn
from ..errors import GameError
from ..hub import Hub
from ..inputs import NameQuery, Strict

router = APIRouter()

InviteId = Annotated[int, PathParam(ge=1, lt=2**31)]


class Someone(Strict):
    name: NameQuery


async def _pair(
    body: Someone, request: Request, hub: Hub, service: AccountService
) -> tuple[Account, Account]:
    """The signed-in account and the one named (never the same)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    other: Account | None = await hub.db(hub.store.accounts.by_name, body.name)
    if other is None:
        raise GameError("no-account", "there is no account of this name")
    if other.id == account.id:
        raise GameError("self", "this is your own account")
    return account, other


@router.get("/api/social")
async def social(account: SignedIn, hub: HubDep) -> dict[str, Any]:
    """The account's corner of the lobby: invitations, friends online, blocked accounts,
    its quick match (what the lobby's socket sends)."""
    return dict(await hub.lobby.me_frame(account.id))


@router.post("/api/social/follow")
async def follow(
    body: Someone, request: Request, hub: HubDep, service: AccountsDep
) -> dict[str, Any]:
    account, other = await _pair(body, request, hub, service)
    if await hub.db(hub.store.social.blocks_either, account.id, other.id):
        raise GameError("blocked", "you cannot follow this account")
    await hub.db(hub.store.social.follow, account.id, other.id, hub.clock())
    hub.lobby.announce(account.id, "friends")
    return {"following": other.name}


@router.post("/api/social/unfollow")
async def unfollow(
    body: Someone, request: Request, hub: HubDep, service: AccountsDep
) -> dict[str, Any]:
    account, other = await _pair(body, request, hub, service)
    await hub.db(hub.store.social.unfollow, account.id, other.id)
    hub.lobby.announce(account.id, "friends")
    return {"unfollowed": other.name}


@router.post("/api/social/block")
async def block(
    body: Someone, request: Request, hub: HubDep, service: AccountsDep
) -> dict[str, Any]:
    account, other = await _pair(body, request, hub, service)
    await hub.db(hub.store.social.block, account.id, other.id, hub.clock())
    hub.lobby.announce(account.id, "blocks")
    return {"blocked": other.name}


@router.post("/api/social/unblock")
async def unblock(
    body: Someone, request: Request, hub: HubDep, service: AccountsDep
) -> dict[str, Any]:
    account, other = await _pair(body, request, hub, service)
    await hub.db(hub.store.social.unblock, account.id, other.id)
    hub.lobby.announce(account.id, "blocks")
    return {"unblocked": other.name}


@router.post("/api/invites/{invite_id}/decline")
async def decline(
    invite_id: InviteId, request: Request, hub: HubDep, service: AccountsDep
) -> dict[str, Any]:
    service.check_csrf(request)
    account = await service.signed_in(request)
    if not await hub.db(hub.store.social.decline, invite_id, account.id):
        raise GameError("no-invite", "there is no such invitation of yours")
    hub.lobby.announce(account.id, "invite")
    return {"declined": invite_id}
