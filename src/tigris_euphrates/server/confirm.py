"""Confirming a notification address: the signed link sent to it, and its e-mail.

Turn e-mails go to an address only once its owner has followed the link sent to it
(``store.notifications.confirm``), so nobody can have the server write to someone else's
address more than that one e-mail (and those are limited per account:
``Limits.confirm_emails_per_account``). The link's token is signed with the server's key
(shared by every process), names the account and a digest of the address (a link sent to
an address changed since confirms nothing), and lasts ``CONFIRM_SECONDS``.
"""

from __future__ import annotations

import hashlib
from email.message import EmailMessage

from itsdangerous import BadSignature, URLSafeTimedSerializer

from .mail import Mailer

CONFIRM_SALT = "tne-confirm-email"
#: How long a confirmation link works.
CONFIRM_SECONDS = 3 * 24 * 3600


def address_digest(email: str) -> str:
    """What a signed link says of an address: a digest, not the address."""
    return hashlib.sha256(email.encode("utf-8", "replace")).hexdigest()[:24]


def address_token(key: str, salt: str, account_id: int, email: str) -> str:
    """A link's token naming the account and the address, signed with the server's key
    under ``salt`` (one salt per kind of link: a confirmation, an address change)."""
    return str(URLSafeTimedSerializer(key, salt=salt).dumps([account_id, address_digest(email)]))


def address_named(key: str, salt: str, token: str) -> tuple[int, str] | None:
    """``(account, address digest)`` of a token this server signed under ``salt`` and that
    has not expired (``None`` otherwise)."""
    try:
        data = URLSafeTimedSerializer(key, salt=salt).loads(token, max_age=CONFIRM_SECONDS)
    except BadSignature:
        return None
    if not (isinstance(data, list) and len(data) == 2):
        return None
    account, digest = data
    if not isinstance(account, int) or isinstance(account, bool) or not isinstance(digest, str):
        return None
    return account, digest


def confirm_token(key: str, account_id: int, email: str) -> str:
    return address_token(key, CONFIRM_SALT, account_id, email)


def confirmed_by(key: str, token: str) -> tuple[int, str] | None:
    """``(account, address digest)`` of a confirmation token (``address_named``)."""
    return address_named(key, CONFIRM_SALT, token)


def matches(email: str, digest: str) -> bool:
    return address_digest(email) == digest


def confirmation_message(mailer: Mailer, name: str, email: str, token: str) -> EmailMessage:
    """The e-mail that asks the owner of ``email`` to confirm it."""
    link = f"{mailer.settings.public_url}/confirm-email?t={token}"
    body = (
        f"Hello {name},\n\n"
        "you asked Tigris & Euphrates to e-mail this address when it is your move in a "
        "turn-based game.\n"
        f"Confirm that it is yours (the link works for {CONFIRM_SECONDS // 86400} days):\n\n"
        f"{link}\n\n"
        "Until you do, no e-mail about your games goes to this address. If you did not ask "
        "for this, ignore this e-mail: nothing more will be sent.\n"
    )
    return mailer.message(email, "Confirm your address for Tigris & Euphrates", body)
