"""Bot accounts (model: lichess's bot API): challenges and the games they make.

An account becomes a bot account for good (``store.bots.make_bot``); it then makes API
tokens (``apitokens.py``), with which its programs connect. A bot account plays over the
same game websocket as the page, with the same checks and limits; its games come from
challenges: an account (a person or another bot) challenges a bot account, which accepts or
declines. A bots' challenge may be rated (on the bots' leaderboards); a person's challenge
to a bot never is, and a bot account never takes a seat of a people's rated game, so bots
never move people's ratings.

The routes are in ``routes/bots.py``; the bot's event socket (``/ws/bot``) in
``routes/botsocket.py``.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Mapping
from typing import Protocol

from ..store.accounts import Account
from ..store.bots import Challenge, PublicChallenge, TooManyChallenges
from ..store.rows import GameOptions, checked_options
from .accounts import AccountService
from .errors import GameError
from .hub import Hub
from .tableoffers import TableOffers

#: A challenge's id: 12 hex digits.
CHALLENGE_PATTERN = r"^[0-9a-f]{12}$"
#: The id of anything offered to a bot: a challenge's, or an offer source's (``kind:id``).
OFFER_PATTERN = r"^[0-9A-Za-z:_-]{1,48}$"
#: An open challenge expires after this many seconds.
CHALLENGE_SECONDS = 600.0
#: A challenge is between two accounts: a two-player game.
CHALLENGE_PLAYERS = 2


def require_bot(account: Account) -> None:
    """Raises ``GameError`` (``not-a-bot``) unless the account is a bot account."""
    if not account.is_bot:
        raise GameError(
            "not-a-bot", "only a bot account has API tokens: turn this account into one first"
        )


def check_challenge_options(posted: Mapping[str, object]) -> GameOptions:
    """The options of a challenge's game, checked by the engine (two players)."""
    players = posted.get("players", CHALLENGE_PLAYERS)
    if players != CHALLENGE_PLAYERS:
        raise GameError("bad-options", "a challenge is a game of two players")
    # raises InvalidAction naming a bad option
    return checked_options({**posted, "players": CHALLENGE_PLAYERS})


async def challenge(
    hub: Hub,
    service: AccountService,
    by: Account,
    to_name: str,
    options: Mapping[str, object],
    rated: bool,
) -> Challenge:
    """A new challenge from ``by`` to the bot account named ``to_name``; raises
    ``GameError``: no such bot, oneself, a rated challenge that is not between bots, too
    many open challenges, a banned account."""
    to: Account | None = await service.db(service.accounts.by_name, to_name)
    if to is None or not to.is_bot:
        raise GameError("no-bot", "there is no bot account of that name")
    if to.id == by.id:
        raise GameError("self-challenge", "a bot cannot challenge itself")
    if rated and not by.is_bot:
        raise GameError(
            "bot-rated",
            "bot accounts play rated games only against bots (on the bots' leaderboard): "
            "challenge it to a casual game",
        )
    for who in (by, to):
        standing = await hub.db(hub.store.moderation.standing, who.id)
        if standing.banned is not None:
            raise GameError("banned", f"a moderator banned the account {who.name}")
    checked = check_challenge_options(options)
    await service.db(service.bots.expire, time.time() - CHALLENGE_SECONDS)
    try:
        challenge_id = await service.db(
            service.bots.challenge,
            by.id,
            to.id,
            checked,
            rated,
            hub.limits.challenges_per_account,
        )
    except TooManyChallenges:
        raise GameError(
            "too-many-challenges",
            f"at most {hub.limits.challenges_per_account} open challenges at once: wait for "
            "answers or cancel some",
            limit="challenges_per_account",
        ) from None
    return await _get(service, challenge_id)


async def _get(service: AccountService, challenge_id: str) -> Challenge:
    found: Challenge | None = await service.db(service.bots.get, challenge_id)
    if found is None:
        raise GameError("no-challenge", "there is no such challenge")
    return found


async def _open_one(service: AccountService, challenge_id: str, account: Account) -> Challenge:
    """The open challenge, if ``account`` takes part in it; raises ``GameError``."""
    found = await _get(service, challenge_id)
    if account.id not in (found.challenger, found.challenged):
        raise GameError("no-challenge", "there is no such challenge")
    if found.state == "open" and found.created < time.time() - CHALLENGE_SECONDS:
        await service.db(service.bots.close, found.id, "expired")
        found = await _get(service, challenge_id)
    if found.state != "open":
        raise GameError("challenge-closed", f"this challenge is {found.state} already")
    return found


async def accept(
    hub: Hub, service: AccountService, account: Account, challenge_id: str
) -> Challenge:
    """The challenged bot accepts: the game is made (the seats in a random order, each
    bound to its account) and named in the challenge. Taken once, by a compare-and-set
    in the store: of two accepts at once, the second is told the challenge is closed."""
    found = await _open_one(service, challenge_id, account)
    if found.challenged != account.id:
        raise GameError("not-challenged", "only the challenged account accepts a challenge")
    if not await service.db(service.bots.close, found.id, "accepted"):
        raise GameError("challenge-closed", "this challenge was answered already")
    try:
        game_id = await _start(hub, service, found)
    except BaseException:
        await service.db(service.bots.reopen, found.id)
        raise
    await service.db(service.bots.set_game, found.id, game_id)
    return await _get(service, found.id)


async def _start(hub: Hub, service: AccountService, found: Challenge) -> str:
    """The game of an accepted challenge; returns its id."""
    people = [(found.challenger, found.challenger_name), (found.challenged, found.challenged_name)]
    if secrets.randbelow(2):
        people.reverse()
    game, _, _ = await hub.create(
        found.options,
        [{"kind": "human", "name": name} for _, name in people],
        settings={"chat": "players", "challenge": found.id},
        rated=found.rated,
    )
    for seat, (account_id, _) in enumerate(people):
        await service.db(service.accounts.bind_seat, game.id, seat, account_id)
    # the table shows both accounts as any game's seats do: names linking to their profiles,
    # ratings, a bot account's BOT mark (here, and in the other processes holding the game)
    await hub.read_people(game)
    hub.names_changed(game)
    return game.id


async def decline(
    service: AccountService, account: Account, challenge_id: str, reason: str | None
) -> Challenge:
    """The challenged declines (with a reason, shown to the challenger) or the challenger
    cancels."""
    found = await _open_one(service, challenge_id, account)
    state = "declined" if found.challenged == account.id else "cancelled"
    if not await service.db(service.bots.close, found.id, state, reason):
        raise GameError("challenge-closed", "this challenge was answered already")
    return await _get(service, found.id)


class OfferSource(Protocol):
    """Games offered to bot accounts other than challenges (open tables that invite bot
    accounts): the hook through which another part of the server offers them. ``offers``
    gives those open to the account, each shaped as ``Challenge.public`` (its ``id`` is
    ``kind:...``, never a challenge's); ``accept`` seats the account in the game of one of
    its own offers (bound to the account, so the bot's event socket announces the game) and
    returns the game's id (``""`` while that game waits for more players), or ``None`` for
    an id it does not know. A refusal raises ``GameError``. An offer no longer offered is
    told to the bot once more, its state ``accepted`` (by this socket) or ``closed``."""

    async def offers(
        self, hub: Hub, service: AccountService, account: Account
    ) -> list[PublicChallenge]: ...

    async def accept(
        self, hub: Hub, service: AccountService, account: Account, offer_id: str
    ) -> str | None: ...


#: The offer sources besides challenges: the open tables that invite bot accounts.
OFFER_SOURCES: list[OfferSource] = [TableOffers()]


async def other_offers(
    hub: Hub, service: AccountService, account: Account
) -> list[PublicChallenge]:
    """What every offer source offers the account now."""
    out: list[PublicChallenge] = []
    for source in OFFER_SOURCES:
        out.extend(await source.offers(hub, service, account))
    return out


async def accept_offer(hub: Hub, service: AccountService, account: Account, offer_id: str) -> None:
    """Accept a challenge, or an offer of another source; raises ``GameError``."""
    if re.fullmatch(CHALLENGE_PATTERN, offer_id):
        await accept(hub, service, account, offer_id)
        return
    for source in OFFER_SOURCES:
        if await source.accept(hub, service, account, offer_id) is not None:
            return
    raise GameError("no-challenge", "there is no such challenge or offer")
