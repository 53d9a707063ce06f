"""Direct challenges between people (model: lichess's challenges, Board Game Arena's
invitations): a signed-in person challenges one named person (or two or three, to a game of
three or four) to a game of their choosing: the options and ruleset, the pace (the same as
a table's), rated or not. The routes are in ``routes/direct.py``; the store is
``store.direct``.

Each invited person sees the challenge in their lobby at once, whichever process they are
connected to (the lobby's ``MeFrame``, told through ``LobbyFeed.announce``), and by e-mail
if they asked for e-mails (at most ``Limits.invite_emails_per_account`` invitation e-mails
an hour, ``invitemail.py``). Each accepts or declines; when the last one accepts, the game
is made, in the transaction that closes the challenge, with every seat bound to its
account (in a random order), and every lobby of its people goes to it. A decline, a
cancellation by the challenger or the expiry (``DIRECT_SECONDS`` after it was made, a day
for a turn-based game) is told to the challenger's lobby the same way.

People only: a bot account neither challenges nor is challenged here (bots have their own
challenges, ``botaccounts.py``). Blocks hold: nobody challenges an account that blocked
them or that they blocked, and a block cancels the challenges both are part of. A
challenger has at most ``Limits.direct_challenges_per_account`` challenges waiting at once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import InvalidAction
from ..store import GameRow, Store
from ..store.accounts import Account
from ..store.direct import DirectChallenge, DirectRefused, Invitee
from ..store.rows import StoredSeat, checked_options
from .beats import every
from .clocks import Pace
from .dbthread import DatabaseThread
from .errors import GameError
from .frames import ChallengeInfo
from .invitemail import mail_invitation
from .limits import Limits
from .live import hash_token
from .mail import Mailer

if TYPE_CHECKING:
    from .lobbyfeed import LobbyFeed

#: A direct challenge's id: 12 hex digits.
DIRECT_ID_PATTERN = r"^[0-9a-f]{12}$"
#: How long a challenge waits for its answers (a turn-based game's: ``DIRECT_TURN_SECONDS``).
DIRECT_SECONDS = 30 * 60.0
DIRECT_TURN_SECONDS = 24 * 3600.0
#: How long the challenger's lobby lists a challenge that ended (how it ended), and both
#: lobbies an accepted one (its game).
CLOSED_SHOWN = 300.0
#: How often each process expires the challenges whose time passed.
EXPIRE_SECONDS = 5.0


def challenge_info(c: DirectChallenge, account: int) -> ChallengeInfo:
    """A challenge as the lobby of ``account`` (one of its people) shows it."""
    return {
        "id": c.id,
        "by": c.challenger_name,
        "mine": c.challenger == account,
        "invitees": [{"name": i.name, "answer": i.answer} for i in c.invitees],
        "players": c.players,
        "options": c.options,
        "pace": c.pace,
        "rated": c.rated,
        "state": c.state,
        "closed_by": c.closed_by,
        "game": c.game_id,
        "expires": c.expires,
    }


async def challenges_of(
    store: Store, db: DatabaseThread, account: int, now: float
) -> list[ChallengeInfo]:
    """The account's challenges as its lobby lists them."""
    found: list[DirectChallenge] = await db(
        store.direct.of_account, account, now, now - CLOSED_SHOWN
    )
    return [challenge_info(c, account) for c in found]


class DirectChallenges:
    """The direct challenges of one server process."""

    def __init__(
        self,
        store: Store,
        db: DatabaseThread,
        feed: LobbyFeed,
        clock: Callable[[], float],
        mailer: Mailer | None,
        limits: Limits,
        started: Callable[[str], Any],
    ) -> None:
        self.store = store
        self.db = db
        self.feed = feed
        self.clock = clock
        self.mailer = mailer
        self.limits = limits
        #: called with each new game's id (the hub loads it: its clock starts)
        self.started = started

    # --- a new challenge ------------------------------------------------------------------

    async def challenge(
        self,
        by: Account,
        names: list[str],
        posted: Mapping[str, object],
        pace: Pace | None,
        rated: bool,
    ) -> tuple[DirectChallenge, list[str]]:
        """``by`` challenges the people named to a game of ``len(names) + 1`` players;
        returns the challenge and the names told by e-mail too. Raises ``GameError``."""
        if by.is_bot:
            raise GameError(
                "bot-account", "a bot account plays challenges through the bot API, not these"
            )
        players = len(names) + 1
        if not 2 <= players <= 4:
            raise GameError("bad-players", "challenge one to three people")
        rest = {k: v for k, v in posted.items() if k != "players"}
        try:
            options = checked_options({**rest, "players": players})
        except InvalidAction as exc:
            raise GameError("bad-options", str(exc)) from None
        del options["players"]
        invited = await self._invitees(by, names)
        now = self.clock()
        wait = DIRECT_TURN_SECONDS if pace is not None and pace.kind == "turn" else DIRECT_SECONDS
        made = DirectChallenge(
            id=secrets.token_hex(6),
            challenger=by.id,
            challenger_name=by.name,
            options=options,
            players=players,
            pace=None if pace is None else pace.to_dict(),
            rated=rated,
            state="open",
            created=now,
            expires=now + wait,
            updated=now,
            invitees=[Invitee(a.id, a.name, "waiting") for a in invited],
        )
        try:
            await self.db(self.store.direct.create, made, self.limits.direct_challenges_per_account)
        except DirectRefused as exc:
            raise GameError(exc.code, exc.message, limit="direct_challenges_per_account") from None
        self._tell(made)
        mailed = [a.name for a in invited if await self._mail(a, made)]
        return made, mailed

    async def _invitees(self, by: Account, names: list[str]) -> list[Account]:
        """The accounts named: other people, each once, none banned, no block between any
        two of the game's players."""
        invited: list[Account] = []
        for name in names:
            other: Account | None = await self.db(self.store.accounts.by_name, name)
            if other is None:
                raise GameError("no-account", f"there is no account named {name!r}")
            if other.id == by.id:
                raise GameError("self", "you cannot challenge yourself")
            if any(other.id == a.id for a in invited):
                raise GameError("bad-players", f"{other.name} is named twice")
            if other.is_bot:
                raise GameError(
                    "bot-account",
                    f"{other.name} is a bot account: challenge it from its profile",
                )
            standing = await self.db(self.store.moderation.standing, other.id)
            if standing.banned is not None:
                raise GameError("banned", f"a moderator banned the account {other.name}")
            if await self.db(self.store.social.blocks_either, by.id, other.id):
                raise GameError("blocked", f"{other.name} cannot be challenged by you")
            for a in invited:
                if await self.db(self.store.social.blocks_either, a.id, other.id):
                    raise GameError(
                        "blocked", f"{a.name} and {other.name} cannot play at one table"
                    )
            invited.append(other)
        return invited

    async def _mail(self, to: Account, c: DirectChallenge) -> bool:
        if self.mailer is None:
            return False
        link = f"{self.mailer.settings.public_url}/?challenge={c.id}"
        others = [i.name for i in c.invitees if i.account_id != to.id]
        game = "a rated game" if c.rated else "a game"
        also = f" (with {', '.join(others)})" if others else ""
        hours = (c.expires - c.created) / 3600
        wait = f"{hours:g} hours" if hours >= 2 else f"{hours * 60:g} minutes"
        return await mail_invitation(
            self.store,
            self.db,
            self.mailer,
            to,
            self.limits.invite_emails_per_account,
            f"{c.challenger_name} challenges you to a game of Tigris & Euphrates",
            f"{c.challenger_name} challenges you to {game} of Tigris & Euphrates{also}.\n\n"
            f"Accept or decline it here (it waits {wait}):\n{link}\n",
        )

    # --- answers --------------------------------------------------------------------------

    async def accept(
        self, account: Account, challenge_id: str
    ) -> tuple[DirectChallenge, str | None]:
        """``account`` accepts; returns the challenge and its game once every invited
        account accepted (``None`` while others have yet to). Raises ``GameError``."""
        try:
            found, game = await self.db(
                self.store.direct.accept, challenge_id, account.id, self.clock(), self._game
            )
        except DirectRefused as exc:
            raise GameError(exc.code, exc.message) from None
        if game is not None:
            await self.started(game)
        self._tell(found)
        return found, game

    async def decline(self, account: Account, challenge_id: str) -> DirectChallenge:
        """An invited account declines, or the challenger cancels. Raises ``GameError``."""
        try:
            found: DirectChallenge = await self.db(
                self.store.direct.decline, challenge_id, account.id, self.clock()
            )
        except DirectRefused as exc:
            raise GameError(exc.code, exc.message) from None
        self._tell(found)
        return found

    async def blocked(self, account: Account, other: Account) -> None:
        """``account`` blocked ``other``: the challenges both are part of are cancelled."""
        closed: list[DirectChallenge] = await self.db(
            self.store.direct.close_between, account.id, other.id, self.clock()
        )
        for c in closed:
            self._tell(c)

    def _game(self, c: DirectChallenge) -> tuple[GameRow, dict[int, int]]:
        """The game of an accepted challenge: its people in a random order, each seat
        bound to its account (it opens from any browser signed in), a secret token per
        seat that nobody holds."""
        people = [(c.challenger, c.challenger_name), *((i.account_id, i.name) for i in c.invitees)]
        secrets.SystemRandom().shuffle(people)
        seats: list[StoredSeat] = [
            {"kind": "human", "name": name, "token": hash_token(secrets.token_urlsafe(18))}
            for _, name in people
        ]
        row = GameRow(
            secrets.token_hex(6),
            {**c.options, "players": c.players},
            secrets.randbits(128),
            seats,
            "active",
            self.clock(),
            seed_source="server",
            listed=True,
            settings={"chat": "players", "direct": c.id},
            rated=c.rated,
        )
        return row, {seat: account for seat, (account, _) in enumerate(people)}

    def _tell(self, c: DirectChallenge) -> None:
        """Every lobby of the challenge's people shows it again."""
        for account in c.people():
            self.feed.announce(account, "challenge")

    # --- expiry ---------------------------------------------------------------------------

    async def expire_once(self) -> list[DirectChallenge]:
        expired: list[DirectChallenge] = await self.db(self.store.direct.expire, self.clock())
        for c in expired:
            self._tell(c)
        return expired

    async def run(self) -> None:
        """Expire the challenges whose time passed, every ``EXPIRE_SECONDS``."""
        await every(EXPIRE_SECONDS, self.expire_once, "the direct challenges' expiry")
