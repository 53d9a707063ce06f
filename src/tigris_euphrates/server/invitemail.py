"""The e-mails that invite a person to play: an invitation to an open table
(``Meeting.invite``) and a direct challenge (``direct.py``).

They go only to an account that asked for e-mails and confirmed its address, and an account
receives at most ``Limits.invite_emails_per_account`` of them an hour, from everybody
together: each one takes an attempt of the key ``i:<account>`` in the database
(``store.attempts``, a compare-and-set shared by every process) before it is sent. Past the
limit the invitation is still shown in the lobby; only the e-mail is left out.
"""

from __future__ import annotations

import logging

from ..store import Store
from ..store.accounts import Account
from ..store.attempts import Rule
from .dbthread import DatabaseThread
from .mail import Mailer

log = logging.getLogger("tigris_euphrates.server")

#: The window of the e-mail limit.
HOUR = 3600.0


def mail_key(account_id: int) -> str:
    """The attempts' key counting the invitation e-mails an account received."""
    return f"i:{account_id}"


async def mail_invitation(
    store: Store,
    db: DatabaseThread,
    mailer: Mailer | None,
    to: Account,
    most: int,
    subject: str,
    body: str,
) -> bool:
    """Send ``to`` an invitation e-mail if it asked for e-mails and has not received
    ``most`` of them this hour; returns whether it was sent."""
    if mailer is None:
        return False
    wants = await db(store.notifications.get, to.id)
    if wants is None or not wants.enabled or not wants.confirmed:
        return False
    verdict = await db(store.attempts.take, mail_key(to.id), Rule(most, HOUR))
    if not verdict.ok:
        return False
    try:
        await mailer.deliver(mailer.message(wants.email, subject, body))
    except Exception as exc:
        log.warning("cannot send an invitation e-mail (%s)", exc)
        return False
    return True
