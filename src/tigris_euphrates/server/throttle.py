"""The limits of the account endpoints, taken before the work they limit.

Each limit is a key of ``store.attempts`` with its ``Rule``; ``take`` takes one attempt of
each key, in order, atomically in the database (every process shares the counts), before
the password check or the new account. When one key refuses, the attempts already taken
are given back and the request is refused (429 ``rate-limited``, with ``Retry-After``); a
spaced key may instead ask the request to wait for its turn (``Held.delay``).

Sign-ins (``sign_in_rules``) throttle the guesser, not the account's owner:

- ``c:<client>``: the failures of one client, whatever the names;
- ``p:<client>:<name>``: one client's failures for one name, with a growing wait;
- ``n:<name>``: every client's failures for one name: beyond a generous ceiling they are
  spaced out (slowed, never locked), except from a browser the account signed in from.

A sign-in holds an attempt of each while its password is checked; a wrong password keeps
them (they are its failures), the right one gives back ``c`` and ``n`` and forgets ``p``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..store.attempts import Attempts, Rule
from .errors import GameError
from .hub import Hub
from .limits import Limits

#: The window of ``Limits.sign_ups_per_client``, ``Limits.confirm_emails_per_account`` and
#: the password-reset limits.
HOUR = 3600.0
#: How long a sign-in of a name past its ceiling may wait for its turn before it is refused.
NAME_QUEUE = 30.0


@dataclass(frozen=True)
class Limit:
    """One key to take, its rule, what a refusal says, and the field of ``Limits`` it
    enforces (the label of a refusal in the server's figures)."""

    key: str
    rule: Rule
    message: str
    setting: str


@dataclass
class Held:
    """The attempts a request took: ``(key, since)``, and how long it must wait first."""

    taken: list[tuple[str, float]] = field(default_factory=list)
    delay: float = 0.0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def _minutes(seconds: float) -> str:
    return f"{max(1, round(seconds / 60))} min"


def sign_in_limits(limits: Limits, client: str, key: str, known: bool) -> list[Limit]:
    """The limits of a sign-in of the name whose key is ``key`` by ``client``; ``known``:
    the browser signed in to that name before (not slowed by the others' failures)."""
    window = limits.sign_in_window
    name = _digest(key)
    failed = "too many failed sign-ins"
    out = [
        Limit(
            f"c:{client}",
            Rule(limits.sign_in_failures_per_client, window),
            failed + " from this address: try again in {wait}",
            "sign_in_failures_per_client",
        ),
        Limit(
            f"p:{client}:{name}",
            Rule(limits.sign_in_failures_per_name, window, backoff=limits.sign_in_backoff),
            failed + ": try again in {wait}",
            "sign_in_failures_per_name",
        ),
    ]
    if not known:
        spaced = Rule(
            limits.sign_in_name_ceiling,
            window,
            spacing=limits.sign_in_name_spacing,
            queue=NAME_QUEUE,
        )
        message = failed + " for this name: try again in {wait}"
        out.append(Limit(f"n:{name}", spaced, message, "sign_in_name_ceiling"))
    return out


def sign_up_limit(limits: Limits, client: str) -> Limit:
    most = limits.sign_ups_per_client
    return Limit(
        f"s:{client}",
        Rule(most, HOUR),
        f"at most {most} new accounts an hour from one address",
        "sign_ups_per_client",
    )


def confirm_limit(limits: Limits, account_id: int) -> Limit:
    most = limits.confirm_emails_per_account
    return Limit(
        f"m:{account_id}",
        Rule(most, HOUR),
        f"at most {most} confirmation e-mails an hour: try again in {{wait}}",
        "confirm_emails_per_account",
    )


def reset_limits(limits: Limits, client: str, target: str) -> list[Limit]:
    """The limits of a password-reset request by ``client`` naming ``target`` (a name's
    key or an address): the same whether it names an account or not."""
    per_client, per_target = limits.reset_requests_per_client, limits.reset_requests_per_target
    return [
        Limit(
            f"r:{client}",
            Rule(per_client, HOUR),
            f"at most {per_client} password-reset requests an hour from one address: "
            "try again in {wait}",
            "reset_requests_per_client",
        ),
        Limit(
            f"R:{_digest(target)}",
            Rule(per_target, HOUR),
            f"at most {per_target} password-reset e-mails an hour for one name or address: "
            "try again in {wait}",
            "reset_requests_per_target",
        ),
    ]


async def take(hub: Hub, wanted: list[Limit]) -> Held:
    """Take an attempt of every limit, or none: raises ``GameError`` (``rate-limited``)."""
    attempts: Attempts = hub.store.attempts
    held = Held()
    for limit in wanted:
        verdict = await hub.db(attempts.take, limit.key, limit.rule)
        if not verdict.ok:
            await give_back(hub, held)
            raise GameError(
                "rate-limited",
                limit.message.format(wait=_minutes(verdict.wait)),
                retry_after=verdict.wait,
                limit=limit.setting,
            )
        held.taken.append((limit.key, verdict.since))
        held.delay = max(held.delay, verdict.wait)
    return held


async def give_back(hub: Hub, held: Held, forget: str = "") -> None:
    """Give back the attempts held (the work did not count against them); the key whose
    prefix is ``forget`` (non-empty) is dropped instead."""
    attempts = hub.store.attempts
    for key, since in held.taken:
        if forget and key.startswith(forget):
            await hub.db(attempts.forget, key)
        else:
            await hub.db(attempts.release, key, since)
    held.taken.clear()
