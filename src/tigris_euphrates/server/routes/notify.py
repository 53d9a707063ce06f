"""E-mail notification settings and the one-click unsubscribe link.

- ``GET /api/account/notifications``: the signed-in account's settings, and whether this
  server sends e-mail at all (``configured``);
- ``POST /api/account/notifications`` (CSRF): ``{"email": ..., "enabled": true}`` turns the
  "your move" e-mails of turn-based games on or off;
- ``GET /unsubscribe?t=TOKEN``: turns them off without signing in (the token is signed by
  the server and names the account); ``POST`` does the same for mail programs that offer
  one-click unsubscribing (RFC 8058).
"""

from __future__ import annotations

import html
import re
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import AfterValidator, Field

from ...store.accounts import Account
from ..deps import AccountsDep, HubDep, SignedIn
from ..errors import GameError
from ..hub import Hub
from ..inputs import UNSUBSCRIBE_PATTERN, Strict, check_text
from ..timekeeper import unsubscribe_account

router = APIRouter()

#: a plain address check: something@domain.tld, no spaces, no angle brackets
EMAIL_PATTERN = r"^[^\s@<>,;\"]+@[^\s@<>,;\"]+\.[^\s@<>,;\"]+$"


class NotifyChange(Strict):
    """``POST /api/account/notifications``."""

    email: (
        Annotated[
            str,
            Field(max_length=254, pattern=EMAIL_PATTERN),
            AfterValidator(partial(check_text, limit=254)),
        ]
        | None
    ) = None
    enabled: bool


async def _settings(hub: Hub, account: Account) -> dict[str, Any]:
    have = await hub.db(hub.store.notifications.get, account.id)
    return {
        "email": have.email if have else None,
        "enabled": bool(have and have.enabled),
        "configured": hub.timekeeper.mailer is not None,
    }


@router.get("/api/account/notifications")
async def get_notifications(account: SignedIn, hub: HubDep) -> dict[str, Any]:
    return await _settings(hub, account)


@router.post("/api/account/notifications")
async def set_notifications(
    body: NotifyChange, request: Request, service: AccountsDep, hub: HubDep
) -> dict[str, Any]:
    service.check_csrf(request)
    account = await service.signed_in(request)
    have = await hub.db(hub.store.notifications.get, account.id)
    if body.enabled and body.email is None and have is None:
        raise GameError("no-email", "give the e-mail address the notifications go to")
    await hub.db(hub.store.notifications.set, account.id, body.email, body.enabled)
    return await _settings(hub, account)


def _page(title: str, text: str, status: int = 200) -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css"></head>'
        '<body><main class="lobby"><div class="card" id="unsubscribe">'
        f"<h2>{html.escape(title)}</h2>"
        f'<p>{html.escape(text)}</p><p><a href="/">Tigris &amp; Euphrates</a></p></div></main>'
        "</body></html>"
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def _unsubscribe(hub: Hub, token: str) -> HTMLResponse:
    account_id = None
    if re.fullmatch(UNSUBSCRIBE_PATTERN, token) is not None:
        account_id = unsubscribe_account(await hub.timekeeper.key(), token)
    if account_id is None:
        return _page(
            "Link not recognised",
            "This unsubscribe link is not valid (it may have been cut short). Sign in and "
            "turn the e-mails off in your notification settings.",
            400,
        )
    await hub.db(hub.store.notifications.set, account_id, None, False)
    return _page(
        "E-mails turned off",
        "You will get no more e-mails when it is your move. You can turn them on again "
        "in your notification settings.",
    )


Token = Annotated[str, Query(alias="t", max_length=200)]


@router.get("/unsubscribe", include_in_schema=False)
async def unsubscribe(token: Token, hub: HubDep) -> HTMLResponse:
    return await _unsubscribe(hub, token)


@router.post("/unsubscribe", include_in_schema=False)
async def unsubscribe_one_click(token: Token, hub: HubDep) -> HTMLResponse:
    return await _unsubscribe(hub, token)
