"""Moderation over HTTP: players report a chat line or an account; admins read the reports,
see the pairs of accounts with repeated short rated results between them, and ban, mute,
hide chat lines and abort games (``server/moderation.py`` says what each does).

Every post carries the CSRF token, checked first; then the account: signed in (``sign-in``,
401), and an admin for ``/api/admin/…`` (``not-admin``, 403). Admins are made on the command
line (``tne admin grant NAME``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam

from ...store.moderation import REPEATED, SHORT_PLIES
from .. import moderation
from ..answers import moderation as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, HubDep, StoreDep
from ..errors import GameError
from ..inputs import GAME_ID_PATTERN, ReportBody, ReportState
from .players import PlayerName

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]
LineNumber = Annotated[int, PathParam(ge=1, lt=2**31)]
ReportId = Annotated[int, PathParam(ge=1, lt=2**31)]

router = APIRouter()


@router.post(
    "/api/reports",
    responses=refusals(
        "csrf", "sign-in", "rate-limited", "no-line", "no-player", "bad-report", "already-reported"
    ),
)
async def report(
    body: ReportBody, request: Request, service: AccountsDep, hub: HubDep
) -> answers.ReportMadeAnswer:
    """Report a chat line (``{"kind": "chat", "game", "n", "reason"}``) or an account
    (``{"kind": "account", "name", "reason"}``): signed in, one report a target, at most
    ``Limits.reports_per_hour`` an hour."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    made = await moderation.report(
        hub,
        service,
        account,
        body.kind,
        body.reason,
        game_id=body.game,
        n=body.n,
        name=body.name,
    )
    return {"report": made}


@router.get("/api/admin/reports", responses=refusals("sign-in", "not-admin"))
async def reports(
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    store: StoreDep,
    state: Annotated[Literal["open", "resolved", "dismissed", "all"], Query()] = "open",
) -> answers.Reports:
    """The reports in ``state`` (``all``: every one), newest first: who reported what, when,
    why, and its state."""
    await moderation.admin_of(service, hub, request)
    found = await hub.db(store.moderation.reports, None if state == "all" else state)
    return {"reports": [moderation.public_report(r) for r in found]}


@router.post(
    "/api/admin/reports/{report_id}",
    responses=refusals("csrf", "sign-in", "not-admin", "no-report"),
)
async def close_report(
    report_id: ReportId,
    body: ReportState,
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    store: StoreDep,
) -> answers.ReportClosed:
    """Close a report as ``resolved`` or ``dismissed`` (or open it again)."""
    service.check_csrf(request)
    admin = await moderation.admin_of(service, hub, request)
    if not await hub.db(store.moderation.close_report, report_id, body.state, admin.name):
        raise GameError("no-report", f"there is no report {report_id}")
    return {"report": {"id": report_id, "state": body.state}}


@router.get("/api/admin/accounts", responses=refusals("sign-in", "not-admin"))
async def flagged(
    request: Request, service: AccountsDep, hub: HubDep, store: StoreDep
) -> answers.Flagged:
    """Every account with a flag: admins, banned and muted accounts."""
    await moderation.admin_of(service, hub, request)
    found = await hub.db(store.moderation.flagged)
    return {"accounts": [moderation.public_standing(s) for s in found]}


@router.get("/api/admin/collusion", responses=refusals("sign-in", "not-admin"))
async def collusion(
    request: Request, service: AccountsDep, hub: HubDep, store: StoreDep
) -> answers.Collusion:
    """The pairs of accounts with repeated short rated results between them (at least
    ``REPEATED`` rated games counted for both that ended in fewer than ``SHORT_PLIES``
    plies), the most first: the accounts, how many such games, their plies together, when
    the last was counted, how many each finished ahead, and the games (newest first)."""
    await moderation.admin_of(service, hub, request)
    found = await hub.db(store.moderation.short_pairs)
    return {
        "short_plies": SHORT_PLIES,
        "repeated": REPEATED,
        "pairs": [
            {
                "accounts": list(p.names),
                "games": p.games,
                "plies": p.plies,
                "last": p.last,
                "wins": list(p.wins),
                "game_ids": p.game_ids,
            }
            for p in found
        ],
    }


@router.post(
    "/api/admin/accounts/{name}/{action}",
    responses=refusals("csrf", "sign-in", "not-admin", "no-player", "is-admin"),
)
async def sanction(
    name: PlayerName,
    action: Annotated[Literal["ban", "unban", "mute", "unmute"], PathParam()],
    request: Request,
    service: AccountsDep,
    hub: HubDep,
) -> answers.Sanction:
    """Ban, unban, mute or unmute an account; a ban hands its seats to bots."""
    service.check_csrf(request)
    await moderation.admin_of(service, hub, request)
    account = await moderation.account_named(hub, name)
    return await moderation.sanction(hub, account, action)


@router.post(
    "/api/admin/games/{game_id}/chat/{n}/{action}",
    responses=refusals("csrf", "sign-in", "not-admin", "no-line"),
)
async def hide_line(
    game_id: GameId,
    n: LineNumber,
    action: Annotated[Literal["hide", "show"], PathParam()],
    request: Request,
    service: AccountsDep,
    hub: HubDep,
) -> answers.LineHidden:
    """Hide chat line ``n`` of the game for everybody, live (``show``: bring it back)."""
    service.check_csrf(request)
    await moderation.admin_of(service, hub, request)
    await moderation.hide_line(hub, game_id, n, action == "hide")
    return {"game": game_id, "n": n, "hidden": action == "hide"}


@router.post(
    "/api/admin/games/{game_id}/abort",
    responses=refusals("csrf", "sign-in", "not-admin", "no-game", "game-over", "game-aborted"),
)
async def abort(
    game_id: GameId, request: Request, service: AccountsDep, hub: HubDep
) -> answers.GameStopped:
    """Stop the game: unrated, nobody moves again."""
    service.check_csrf(request)
    await moderation.admin_of(service, hub, request)
    return {"game": await moderation.abort(hub, game_id)}
