"""An account's password and address: change the password, reset a forgotten one by
e-mail, change the address with a confirmation link (``recovery.py`` makes the links and
e-mails, ``store.credentials`` keeps them).

- ``POST /api/account/password`` (CSRF, signed in): ``{"current", "password"}``. The
  current password is checked under the sign-in limits of this browser's address and the
  account's name (``throttle.sign_in_limits``); the new one ends every other session of
  the account (this browser gets a new one) and every reset link, and the confirmed
  address is told.
- ``GET``/``POST /api/account/email`` (CSRF, signed in; ``{"email", "password"}``): the
  account's address, and a change of it: the new address is sent a link, and becomes the
  account's once its owner follows it (``POST /api/account/email/confirm``,
  ``{"token"}``, from the page ``/change-email``); the old one serves until then and is
  told when it is replaced.
- ``POST /api/account/forgot`` (CSRF): ``{"who": name or address}``. The answer is the same,
  and comes as soon, whether an account has that name or confirmed address or not: the
  limits (per client, per name or address) are taken first, the same for every request;
  the account is looked up and its e-mail sent afterwards, in the background.
- ``POST /api/account/reset/check`` and ``POST /api/account/reset``: ``{"token"}`` (and
  ``"password"``) from the page ``/reset-password``: whether the link still works (and
  whose account it opens), and the new password, which uses the link up and signs the
  account out everywhere.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import AfterValidator, StringConstraints

from ...store import Store
from ...store.accounts import Account, name_key
from .. import throttle
from ..accounts import AccountService, public_account
from ..answers import accounts as answers
from ..answers.errors import refusals
from ..confirm import CONFIRM_SECONDS, address_digest
from ..deps import AccountsDep, Client, HubDep, LimitsDep, LinkKeyDep, MailerDep, StoreDep
from ..errors import GameError
from ..hub import Hub
from ..inputs import EmailAddress, Strict, check_text
from ..limits import Limits
from ..mail import Mailer
from ..passwords import MAX_PASSWORD, MIN_PASSWORD
from ..recovery import (
    RESET_SECONDS,
    change_message,
    change_named,
    change_token,
    new_reset_token,
    notice_message,
    reset_digest,
    reset_message,
    send,
)

router = APIRouter()
log = logging.getLogger("tigris_euphrates.server")

Password = Annotated[str, StringConstraints(min_length=1, max_length=MAX_PASSWORD)]
#: a reset link's token, or an address change's signed one
LinkToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{20,200}$")]
Who = Annotated[
    str,
    StringConstraints(min_length=1, max_length=254, strip_whitespace=True),
    AfterValidator(partial(check_text, limit=254)),
]
FORGOT_SENT = (
    "if an account has this name or confirmed address, an e-mail with a link to set a new "
    "password is on its way to the account's address"
)
BAD_LINK = "this link does not work (any more): ask for a new one"


def _long_enough(value: str) -> str:
    if len(value) < MIN_PASSWORD:
        raise ValueError(f"a password is at least {MIN_PASSWORD} characters")
    return value


NewPassword = Annotated[Password, AfterValidator(_long_enough)]


class PasswordChange(Strict):
    current: Password
    password: NewPassword


class EmailChange(Strict):
    email: EmailAddress
    password: Password


class Forgot(Strict):
    who: Who


class Link(Strict):
    token: LinkToken


class Reset(Link):
    password: NewPassword


async def _logged(work: Coroutine[Any, Any, None], what: str) -> None:
    """Background work whose failure is logged (nobody waits for it to answer)."""
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("cannot %s", what)


def _mailer(mailer: Mailer | None) -> Mailer:
    if mailer is None:
        raise GameError("mail-off", "this server sends no e-mail: ask its operator")
    return mailer


async def _check_current(
    service: AccountService, hub: Hub, limits: Limits, client: str, account: Account, given: str
) -> None:
    """Raises ``GameError`` unless ``given`` is the account's password; the check is
    limited as a sign-in of the account from this browser is."""
    wanted = throttle.sign_in_limits(limits, client, name_key(account.name), True)
    held = await throttle.take(hub, wanted)
    if held.delay > 0:
        await asyncio.sleep(held.delay)
    ok = await asyncio.to_thread(service.passwords.verify, account.password_hash, given)
    if not ok:
        raise GameError("wrong-password", "the current password is not right")
    await throttle.give_back(hub, held, forget="p:")


async def _set_password(
    service: AccountService,
    hub: Hub,
    store: Store,
    mailer: Mailer | None,
    account_id: int,
    password: str,
) -> None:
    """The account's new password: every session and reset link of it ends, and its
    confirmed address is told (in the background)."""
    password_hash = await asyncio.to_thread(service.passwords.hash, password)
    await service.db(service.accounts.set_password_hash, account_id, password_hash)
    await service.db(service.accounts.close_sessions, account_id)
    await service.db(service.accounts.next_generation, account_id)
    await hub.db(store.credentials.drop_resets, account_id)
    told = _tell(hub, store, mailer, account_id, "The password of your account was changed.")
    hub.spawn(_logged(told, "tell"))


async def _tell(
    hub: Hub,
    store: Store,
    mailer: Mailer | None,
    account_id: int,
    what: str,
    to: str | None = None,
) -> None:
    """Tell the account's confirmed address (or ``to``) that ``what`` happened."""
    account = await hub.db(store.accounts.by_id, account_id)
    if mailer is None or account is None:
        return
    if to is None:
        have = await hub.db(store.notifications.get, account_id)
        to = have.email if have is not None and have.confirmed else None
    if to is not None:
        await send(mailer, notice_message(mailer, account.name, to, what))


@router.post(
    "/api/account/password",
    responses=refusals("csrf", "sign-in", "rate-limited", "wrong-password"),
)
async def change_password(
    body: PasswordChange,
    request: Request,
    response: Response,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    client: Client,
    store: StoreDep,
    mailer: MailerDep,
) -> answers.AccountOnly:
    """A new password (the current one given): every other session of the account ends."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    await _check_current(service, hub, limits, client, account, body.current)
    await _set_password(service, hub, store, mailer, account.id, body.password)
    fresh = await service.db(service.accounts.by_id, account.id)
    await service.sign_in(request, response, fresh)
    return {"account": public_account(fresh)}


async def _address(
    hub: Hub, store: Store, mailer: Mailer | None, account: Account
) -> answers.Address:
    have = await hub.db(store.notifications.get, account.id)
    pending = await hub.db(store.credentials.pending, account.id, CONFIRM_SECONDS)
    return {
        "email": have.email if have else None,
        "confirmed": bool(have and have.confirmed),
        "pending": pending,
        "configured": mailer is not None,
    }


@router.get("/api/account/email", responses=refusals("sign-in"))
async def get_email(
    request: Request, service: AccountsDep, hub: HubDep, store: StoreDep, mailer: MailerDep
) -> answers.Address:
    """The account's address, whether it is confirmed, and the new one waiting."""
    account = await service.signed_in(request)
    return await _address(hub, store, mailer, account)


@router.post(
    "/api/account/email",
    responses=refusals(
        "csrf", "sign-in", "mail-off", "rate-limited", "wrong-password", "mail-failed"
    ),
)
async def change_email(
    body: EmailChange,
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    client: Client,
    store: StoreDep,
    mailer: MailerDep,
    link_key: LinkKeyDep,
) -> answers.Address:
    """Ask for a new address: its owner confirms it by the link e-mailed to it."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    sender = _mailer(mailer)
    await _check_current(service, hub, limits, client, account, body.password)
    await throttle.take(hub, [throttle.confirm_limit(limits, account.id)])
    await hub.db(store.credentials.ask_change, account.id, body.email)
    token = change_token(await link_key(), account.id, body.email)
    if not await send(sender, change_message(sender, account.name, body.email, token)):
        raise GameError("mail-failed", "the confirmation e-mail could not be sent: try again later")
    return await _address(hub, store, mailer, account)


@router.post("/api/account/email/confirm", responses=refusals("bad-link"))
async def confirm_email(
    body: Link, hub: HubDep, store: StoreDep, mailer: MailerDep, link_key: LinkKeyDep
) -> answers.EmailChanged:
    """The link sent to a new address was followed: it becomes the account's address."""
    named = change_named(await link_key(), body.token)
    pending = None
    if named is not None:
        pending = await hub.db(store.credentials.pending, named[0], CONFIRM_SECONDS)
    if named is None or pending is None or address_digest(pending) != named[1]:
        raise GameError("bad-link", BAD_LINK)
    changed = await hub.db(store.credentials.confirm_change, named[0], pending, CONFIRM_SECONDS)
    if changed is None:
        raise GameError("bad-link", BAD_LINK)
    if changed.old is not None:
        what = f"The e-mail address of your account is now {changed.new}, no longer this one."
        told = _tell(hub, store, mailer, named[0], what, to=changed.old)
        hub.spawn(_logged(told, "tell the old address"))
    return {"email": changed.new}


@router.post("/api/account/forgot", responses=refusals("csrf", "mail-off", "rate-limited"))
async def forgot(
    body: Forgot,
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    limits: LimitsDep,
    client: Client,
    store: StoreDep,
    mailer: MailerDep,
) -> answers.Told:
    """Ask for a reset link: the same answer whether the name or address is known."""
    service.check_csrf(request)
    sender = _mailer(mailer)
    target = body.who.lower() if "@" in body.who else name_key(body.who)
    await throttle.take(hub, throttle.reset_limits(limits, client, target))
    hub.spawn(_logged(_send_resets(hub, store, sender, body.who), "send the reset e-mails"))
    return {"message": FORGOT_SENT}


async def _send_resets(hub: Hub, store: Store, mailer: Mailer, who: str) -> None:
    """E-mail a reset link to the account named ``who``, or to every account whose
    confirmed address ``who`` is (nothing when none is)."""
    if "@" in who:
        ids = await hub.db(store.credentials.accounts_by_email, who)
    else:
        account = await hub.db(store.accounts.by_name, who)
        ids = [account.id] if account is not None else []
    for account_id in ids:
        account = await hub.db(store.accounts.by_id, account_id)
        have = await hub.db(store.notifications.get, account_id)
        if account is None or have is None or not have.confirmed:
            continue
        token, digest = new_reset_token()
        await hub.db(store.credentials.add_reset, account_id, digest, RESET_SECONDS)
        await send(mailer, reset_message(mailer, account.name, have.email, token))


@router.post("/api/account/reset/check", responses=refusals("bad-link"))
async def check_reset(body: Link, hub: HubDep, store: StoreDep) -> answers.LinkAccount:
    """Whether a reset link still works, and the name of the account it opens."""
    account_id = await hub.db(store.credentials.reset_account, reset_digest(body.token))
    account = None if account_id is None else await hub.db(store.accounts.by_id, account_id)
    if account is None:
        raise GameError("bad-link", BAD_LINK)
    return {"name": account.name}


@router.post("/api/account/reset", responses=refusals("bad-link"))
async def reset(
    body: Reset, service: AccountsDep, hub: HubDep, store: StoreDep, mailer: MailerDep
) -> answers.NamedAccount:
    """Set a new password through a reset link (which then works no more)."""
    digest = reset_digest(body.token)
    if await hub.db(store.credentials.reset_account, digest) is None:
        raise GameError("bad-link", BAD_LINK)
    password_hash = await asyncio.to_thread(service.passwords.hash, body.password)
    account_id = await hub.db(store.credentials.use_reset, digest)
    if account_id is None:  # used meanwhile by another request
        raise GameError("bad-link", BAD_LINK)
    await service.db(service.accounts.set_password_hash, account_id, password_hash)
    await service.db(service.accounts.close_sessions, account_id)
    await service.db(service.accounts.next_generation, account_id)
    told = _tell(
        hub, store, mailer, account_id, "The password of your account was reset by e-mail."
    )
    hub.spawn(_logged(told, "tell"))
    account = await hub.db(store.accounts.by_id, account_id)
    return {"name": account.name if account else None}
