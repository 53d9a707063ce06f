"""E-mail notification settings and the one-click unsubscribe link.

- ``GET /api/account/notifications``: the signed-in account's settings, and whether this
  server sends e-mail at all (``configured``);
- ``POST /api/account/notifications`` (CSRF): ``{"email": ..., "enabled": true}`` turns the
  "your move" e-mails of turn-based games on or off; a new address (or one not confirmed
  yet, given again) is sent a confirmation link, and no turn e-mail goes to it before its
  owner follows the link (``confirm.py``);
- ``GET /confirm-email?t=TOKEN``: a page with a button that ``POST``s the same address,
  which confirms it (a mail scanner that fetches the link confirms nothing);
- ``GET /unsubscribe?t=TOKEN``: turns them off without signing in (the token is signed by
  the server and names the account); ``POST`` does the same for mail programs that offer
  one-click unsubscribing (RFC 8058).
"""

from __future__ import annotations

import html
import logging
import re
import smtplib
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ...store import Store
from ...store.accounts import Account
from .. import throttle
from ..answers.accounts import NotifySettings
from ..answers.errors import refusals
from ..confirm import confirm_token, confirmation_message, confirmed_by, matches
from ..deps import (
    AccountsDep,
    HubDep,
    LimitsDep,
    LinkKey,
    LinkKeyDep,
    MailerDep,
    SignedIn,
    StoreDep,
)
from ..errors import GameError
from ..hub import Hub
from ..inputs import UNSUBSCRIBE_PATTERN, EmailAddress, Strict
from ..mail import Mailer
from ..timekeeper import unsubscribe_account

router = APIRouter()
log = logging.getLogger("tigris_euphrates.server")


class NotifyChange(Strict):
    """``POST /api/account/notifications``."""

    email: EmailAddress | None = None
    enabled: bool


async def _settings(
    hub: Hub, store: Store, mailer: Mailer | None, account: Account
) -> NotifySettings:
    have = await hub.db(store.notifications.get, account.id)
    return {
        "email": have.email if have else None,
        "enabled": bool(have and have.enabled),
        "confirmed": bool(have and have.confirmed),
        "configured": mailer is not None,
    }


@router.get("/api/account/notifications", responses=refusals("sign-in"))
async def get_notifications(
    account: SignedIn, hub: HubDep, store: StoreDep, mailer: MailerDep
) -> NotifySettings:
    """The "your move" e-mails: the address, on or off, whether it is confirmed, and whether
    this server sends e-mail at all."""
    return await _settings(hub, store, mailer, account)


@router.post(
    "/api/account/notifications",
    responses=refusals(
        "csrf", "sign-in", "no-email", "email-change", "rate-limited", "mail-failed"
    ),
)
async def set_notifications(
    body: NotifyChange,
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    store: StoreDep,
    mailer: MailerDep,
    link_key: LinkKeyDep,
) -> NotifySettings:
    """Turn the e-mails on or off; a new address is sent a confirmation link first."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    have = await hub.db(store.notifications.get, account.id)
    if body.enabled and body.email is None and have is None:
        raise GameError("no-email", "give the e-mail address the notifications go to")
    email = body.email
    if have is not None and have.confirmed and email is not None and email != have.email:
        raise GameError(
            "email-change",
            "your account's address is confirmed: change it on your account page (it asks "
            "for your password, and the new address confirms it)",
        )
    ask = email is not None and (have is None or have.email != email or not have.confirmed)
    if ask and mailer is not None:
        await throttle.take(hub, [throttle.confirm_limit(limits, account.id)])
    await hub.db(store.notifications.set, account.id, email, body.enabled)
    if ask and mailer is not None and email is not None:
        await _send_confirmation(mailer, link_key, account, email)
    return await _settings(hub, store, mailer, account)


async def _send_confirmation(
    mailer: Mailer, link_key: LinkKey, account: Account, email: str
) -> None:
    """E-mail the confirmation link to ``email``; raises ``GameError`` when it cannot go."""
    token = confirm_token(await link_key(), account.id, email)
    msg = confirmation_message(mailer, account.name, email, token)
    try:
        await mailer.deliver(msg)
    except (OSError, smtplib.SMTPException):
        log.exception("cannot send the confirmation e-mail of account %s", account.id)
        raise GameError(
            "mail-failed",
            "the confirmation e-mail could not be sent: save the address again later",
        ) from None


def _page(title: str, text: str, status: int = 200, extra: str = "") -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css"></head>'
        '<body><main class="lobby"><div class="card" id="unsubscribe">'
        f"<h2>{html.escape(title)}</h2>"
        f"<p>{html.escape(text)}</p>{extra}"
        '<p><a href="/">Tigris &amp; Euphrates</a></p></div></main>'
        "</body></html>"
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def _unsubscribe(hub: Hub, store: Store, link_key: LinkKey, token: str) -> HTMLResponse:
    account_id = None
    if re.fullmatch(UNSUBSCRIBE_PATTERN, token) is not None:
        account_id = unsubscribe_account(await link_key(), token)
    if account_id is None:
        return _page(
            "Link not recognised",
            "This unsubscribe link is not valid (it may have been cut short). Sign in and "
            "turn the e-mails off in your notification settings.",
            400,
        )
    await hub.db(store.notifications.set, account_id, None, False)
    return _page(
        "E-mails turned off",
        "You will get no more e-mails when it is your move. You can turn them on again "
        "in your notification settings.",
    )


Token = Annotated[str, Query(alias="t", max_length=200)]


async def _confirm(hub: Hub, store: Store, link_key: LinkKey, token: str) -> bool:
    """Confirm the address a confirmation token names, if it is still the account's."""
    if re.fullmatch(UNSUBSCRIBE_PATTERN, token) is None:
        return False
    named = confirmed_by(await link_key(), token)
    if named is None:
        return False
    account_id, digest = named
    have = await hub.db(store.notifications.get, account_id)
    if have is None or not matches(have.email, digest):
        return False
    return bool(await hub.db(store.notifications.confirm, account_id, have.email))


NOT_RECOGNISED = (
    "This confirmation link is not valid: it may have been cut short, have expired, or "
    "name an address changed since. Save your address again to get a new one."
)


@router.get("/confirm-email", include_in_schema=False)
async def confirm_page(token: Token) -> HTMLResponse:
    """The link in the e-mail: a button that confirms (a page fetched changes nothing)."""
    if re.fullmatch(UNSUBSCRIBE_PATTERN, token) is None:
        return _page("Link not recognised", NOT_RECOGNISED, 400)
    form = (
        f'<form method="post" action="/confirm-email?t={html.escape(token)}">'
        '<button type="submit" id="confirm">Confirm this address</button></form>'
    )
    return _page(
        "Confirm your address",
        "Confirm that the turn e-mails of Tigris & Euphrates may go to this address.",
        extra=form,
    )


@router.post("/confirm-email", include_in_schema=False)
async def confirm_address(
    token: Token, hub: HubDep, store: StoreDep, link_key: LinkKeyDep
) -> HTMLResponse:
    if not await _confirm(hub, store, link_key, token):
        return _page("Link not recognised", NOT_RECOGNISED, 400)
    return _page(
        "Address confirmed",
        "The e-mails you asked for (your move in a turn-based game) will go to this address.",
    )


@router.get("/unsubscribe", include_in_schema=False)
@router.post("/unsubscribe", include_in_schema=False)  # one-click unsubscribing (RFC 8058)
async def unsubscribe(
    token: Token, hub: HubDep, store: StoreDep, link_key: LinkKeyDep
) -> HTMLResponse:
    return await _unsubscribe(hub, store, link_key, token)
