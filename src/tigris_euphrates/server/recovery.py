"""The account e-mails of password resets and address changes: their tokens and texts.

- A **reset link** holds a random token (256 bits); the store keeps only its SHA-256
  (``store.credentials``), so a copy of the database resets nothing. It works once, for
  ``RESET_SECONDS``, and a password set any way ends every link of the account.
- An **address change** is confirmed by a link sent to the new address; its token is signed
  with the server's key (shared by every process), names the account and a digest of the
  address (a link to an address changed since confirms nothing) and lasts
  ``confirm.CONFIRM_SECONDS``. The old address, if it was confirmed, is told.

The links put their token after ``#``: the browser never sends it to any server in the
address (no access log, no ``Referer`` holds it); the page posts it.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import smtplib
from email.message import EmailMessage

from .confirm import CONFIRM_SECONDS, address_named, address_token
from .mail import Mailer

CHANGE_SALT = "tne-change-email"
#: How long a password-reset link works.
RESET_SECONDS = 3600
log = logging.getLogger("tigris_euphrates.server")


def new_reset_token() -> tuple[str, str]:
    """A reset link's token and the digest the store keeps of it."""
    token = secrets.token_urlsafe(32)
    return token, reset_digest(token)


def reset_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def change_token(key: str, account_id: int, email: str) -> str:
    return address_token(key, CHANGE_SALT, account_id, email)


def change_named(key: str, token: str) -> tuple[int, str] | None:
    """``(account, address digest)`` of an address-change token (``confirm.address_named``)."""
    return address_named(key, CHANGE_SALT, token)


def reset_message(mailer: Mailer, name: str, email: str, token: str) -> EmailMessage:
    """The e-mail with a link that sets a new password of the account ``name``."""
    link = f"{mailer.settings.public_url}/reset-password#{token}"
    body = (
        f"Hello {name},\n\n"
        "someone (we hope you) asked to set a new password for your Tigris & Euphrates "
        f"account {name!r}.\n"
        f"Choose it here (the link works once, for {RESET_SECONDS // 60} minutes):\n\n"
        f"{link}\n\n"
        "If you did not ask for this, ignore this e-mail: your password stays as it is.\n"
    )
    return mailer.message(email, "Set a new password for Tigris & Euphrates", body)


def change_message(mailer: Mailer, name: str, email: str, token: str) -> EmailMessage:
    """The e-mail that asks the owner of ``email`` to confirm it as the account's address."""
    link = f"{mailer.settings.public_url}/change-email#{token}"
    body = (
        f"Hello {name},\n\n"
        "you asked Tigris & Euphrates to make this the e-mail address of your account: "
        "password-reset links and the e-mails you turn on will go here.\n"
        f"Confirm that it is yours (the link works for {CONFIRM_SECONDS // 86400} days):\n\n"
        f"{link}\n\n"
        "Until you do, your account keeps its address. If you did not ask for this, ignore "
        "this e-mail.\n"
    )
    return mailer.message(email, "Confirm your new address for Tigris & Euphrates", body)


def notice_message(mailer: Mailer, name: str, email: str, what: str) -> EmailMessage:
    """A short notice to the account's confirmed address that ``what`` happened."""
    body = (
        f"Hello {name},\n\n{what}\n\n"
        "If this was not you, reset your password at "
        f"{mailer.settings.public_url}/account and tell the site's operator.\n"
    )
    return mailer.message(email, "Your Tigris & Euphrates account changed", body)


async def send(mailer: Mailer, msg: EmailMessage) -> bool:
    """Send ``msg`` on a worker thread; whether it went (a failure is logged)."""
    try:
        await mailer.deliver(msg)
    except (OSError, smtplib.SMTPException):
        log.exception("cannot send the e-mail %r", str(msg["Subject"]))
        return False
    return True
