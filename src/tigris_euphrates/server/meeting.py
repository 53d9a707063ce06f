"""Meeting people: open tables, quick match, invitations (the routes are in
``routes/meet.py`` and ``routes/social.py``; the live lobby is ``lobbyfeed.py``).

An open table waits in the database (``store.tables``) until its last seat is taken, then
becomes its game in the same transaction; its creator may start it early, AI players taking
the free seats (the game is then not rated), if they chose so. Bot accounts take a seat only
where the creator invited them (``bot_accounts``; never at a rated table). A table nobody
joins expires ``TABLE_SECONDS`` after it was opened or last joined.

Quick match keeps its queue in the database (``store.matches``), never in this process's
memory: every process runs the matchmaker every ``MATCH_SECONDS``, and each claims the rows
it pairs (``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL), so several processes on one
database never put a player in two games. A player may ask for a bot to fill the table
after some seconds; such a game is not rated. Quick match is for people: a bot account is
refused (``bot-quick-match``), so no bot account is ever paired into a people's rated game.

Every seat of a table or a match has a secret token, given to the player when they sit or
queue and stored hashed; the game keeps the same hash as its seat's token, so the link the
page already holds opens the seat (an account's seat opens from anywhere anyway).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import DEFAULT_RULESET, RULESETS, InvalidAction
from ..store import GameRow, Store
from ..store.accounts import Account
from ..store.matches import InGame, NotAPerson, Policy, Waiting
from ..store.ratings import size_of
from ..store.rows import GameOptions, PaceData, StoredSeat, checked_options
from ..store.social import TooManyInvites
from ..store.tables import OpenTable, TableRefused, TableSeat, check_bot_seat
from .aiseats import default_level
from .beats import every
from .clocks import Pace
from .dbthread import DatabaseThread
from .errors import GameError
from .invitemail import mail_invitation
from .limits import Limits
from .live import hash_token
from .lobbyfeed import LobbyFeed
from .mail import Mailer

#: An open table nobody joins is closed this long after it was opened or last joined (the
#: setting ``table_minutes`` replaces it).
TABLE_SECONDS = 30 * 60.0
#: How often each process runs the matchmaker (and expires the tables).
MATCH_SECONDS = 1.0
#: The paces of quick match: real time (10 minutes a player, 10 seconds more a turn) and
#: turn-based (a day a move).
MATCH_PACES: dict[str, Pace] = {
    "realtime": Pace("realtime", 600.0, 10.0),
    "turn": Pace("turn", 86400.0),
}
#: How close the ratings of matched players must be (openskill's mu, 25 for a newcomer):
#: within 3 at once, 0.25 more for every second waited (so anybody after about 90 s); the
#: settings ``match_window`` and ``match_widen`` replace these.
MATCH_POLICY = Policy(window=3.0, widen=0.25, stale=90.0)
#: The invitations one table may send (each may be an e-mail).
INVITES_PER_TABLE = 12
#: The longest "a bot may fill my table after N seconds".
MAX_BOT_AFTER = 600.0


@dataclass
class SeatTicket:
    """A seat taken at an open table: its number and its secret token (and the game when
    the table started)."""

    table: str
    seat: int
    token: str
    game: str | None = None


def ruleset_of_family(family: str) -> str:
    """The ruleset quick match plays for a rating family (the default one if it is of it)."""
    if RULESETS[DEFAULT_RULESET].family == family:
        return DEFAULT_RULESET
    for name, rules in RULESETS.items():
        if rules.family == family:
            return name
    raise GameError("bad-family", f"there is no ruleset family {family!r}")


class Meeting:
    """Open tables, quick match and invitations of one server process."""

    def __init__(
        self,
        store: Store,
        db: DatabaseThread,
        feed: LobbyFeed,
        clock: Callable[[], float],
        mailer: Mailer | None,
        started: Callable[[str], Any],
    ) -> None:
        self.store = store
        self.db = db
        self.feed = feed
        self.clock = clock
        self.mailer = mailer
        #: called with each new game's id (the hub loads it: its clock and bots start)
        self.started = started
        self.policy = MATCH_POLICY
        self.table_seconds = TABLE_SECONDS
        self.kick = asyncio.Event()
        #: the invitation e-mails an account may receive an hour (``Limits``)
        self.invite_emails = Limits().invite_emails_per_account

    def configure(self, table_seconds: float, window: float, widen: float) -> None:
        """The settings ``table_minutes`` (in seconds), ``match_window`` and
        ``match_widen``."""
        if table_seconds <= 0 or window < 0 or widen < 0:
            raise ValueError(
                "table_minutes must be above 0, match_window and match_widen 0 or more"
            )
        self.table_seconds = table_seconds
        self.policy = Policy(window=window, widen=widen, stale=MATCH_POLICY.stale)

    # --- the games made -------------------------------------------------------------------

    def _row(
        self, options: GameOptions, seats: list[StoredSeat], rated: bool, chat: str
    ) -> GameRow:
        return GameRow(
            secrets.token_hex(6),
            options,
            secrets.randbits(128),
            seats,
            "active",
            self.clock(),
            seed_source="server",
            listed=True,
            settings={"chat": chat},
            rated=rated,
        )

    def table_game(self, table: OpenTable, bots: bool) -> GameRow:
        """The game of a table that starts (``bots``: bots take its free seats)."""
        by_seat = {s.seat: s for s in table.seats}
        seats: list[StoredSeat] = []
        for i in range(table.players):
            s = by_seat.get(i)
            if s is not None:
                seats.append({"kind": "human", "name": s.name, "token": s.token})
            else:
                seats.append({"kind": "bot", "level": default_level(), "name": ""})
        rated = table.rated and len(by_seat) == table.players
        options: GameOptions = {**table.options, "players": table.players}
        return self._row(options, seats, rated, table.chat)

    def match_game(self, players: list[Waiting], bots: int) -> tuple[GameRow, PaceData | None]:
        """The game of a quick match: its players in seat order, then ``bots`` bots; rated
        when nobody is a bot."""
        first = players[0]
        seats: list[StoredSeat] = [
            {"kind": "human", "name": p.name, "token": p.token} for p in players
        ]
        seats += [{"kind": "bot", "level": default_level(), "name": ""}] * bots
        ruleset = ruleset_of_family(first.family)
        options: GameOptions = {"players": first.players}
        if ruleset != DEFAULT_RULESET:
            options["ruleset"] = ruleset
        row = self._row(options, seats, bots == 0, "players")
        row.settings["quick"] = first.pace  # its players' lobbies take them there once
        return row, MATCH_PACES[first.pace].to_dict()

    # --- open tables ----------------------------------------------------------------------

    async def open_table(
        self,
        account: Account,
        posted: Mapping[str, object],
        pace: Pace | None,
        rated: bool,
        rating_range: tuple[float | None, float | None],
        allow_bots: bool,
        chat: str,
        bot_accounts: bool = False,
    ) -> SeatTicket:
        """A new open table; its creator takes seat 0. ``allow_bots``: the creator may start
        it early with AI players in the free seats; ``bot_accounts``: bot accounts may take
        its seats (refused at a rated table, as a rated table opened by a bot account is)."""
        if rated and (bot_accounts or account.is_bot):
            raise GameError(
                "bot-rated",
                "a rated table is for people only: bot accounts may sit only at casual tables",
            )
        try:
            options = checked_options(posted)
        except InvalidAction as exc:
            raise GameError("bad-options", str(exc)) from None
        players = options.get("players", 2)
        options.pop("players", None)
        now, token = self.clock(), secrets.token_urlsafe(18)
        table = OpenTable(
            id=secrets.token_hex(6),
            created=now,
            expires=now + self.table_seconds,
            creator=account.id,
            options=options,
            pace=None if pace is None else pace.to_dict(),
            players=players,
            rated=rated,
            min_rating=rating_range[0],
            max_rating=rating_range[1],
            allow_bots=allow_bots,
            bot_accounts=bot_accounts,
            chat=chat,
            state="open",
            game_id=None,
            seats=[TableSeat(0, account.id, account.name, now)],
        )
        try:
            await self.db(self.store.tables.create, table, hash_token(token))
        except TableRefused as exc:
            raise GameError(exc.code, exc.message) from None
        self.feed.announce(0, "tables")
        return SeatTicket(table.id, 0, token)

    async def sit(self, table_id: str, account: Account | None, name: str) -> SeatTicket:
        """Take the first free seat of the table (a guest: at an unrated table, under
        ``name``; a bot account: at a table that invited bot accounts, never a rated one);
        the table starts when this seat filled it."""
        token = secrets.token_urlsafe(18)
        shown = account.name if account is not None else (name or "Guest")
        try:
            _, seat, game = await self.db(
                self.store.tables.sit,
                table_id,
                None if account is None else account.id,
                shown,
                hash_token(token),
                self.clock(),
                self.table_seconds,
                self.table_game,
                account is not None and account.is_bot,
            )
        except TableRefused as exc:
            raise GameError(exc.code, exc.message) from None
        self.feed.announce(0, "tables")
        if game is not None:
            await self._table_started(game)
        return SeatTicket(table_id, seat, token, game)

    async def start(self, table_id: str, token: str) -> str:
        """The creator starts the table now; bots take the free seats."""
        try:
            game: str = await self.db(
                self.store.tables.start, table_id, hash_token(token), self.clock(), self.table_game
            )
        except TableRefused as exc:
            raise GameError(exc.code, exc.message) from None
        self.feed.announce(0, "tables")
        await self._table_started(game)
        return game

    async def _table_started(self, game: str) -> None:
        """A table became ``game``: its accounts' lobbies show their quick match again (a
        real-time game ended their waits: ``store.tables.start_game``), and it starts."""
        bound: dict[int, int] = await self.db(self.store.accounts.seats_of_game, game)
        for account in sorted(set(bound.values())):
            self.feed.announce(account, "match")
        await self.started(game)

    async def leave(self, table_id: str, token: str) -> str:
        try:
            state = await self.db(
                self.store.tables.leave, table_id, hash_token(token), self.clock()
            )
        except TableRefused as exc:
            raise GameError(exc.code, exc.message) from None
        if state is None:
            raise GameError("bad-token", "this token holds no seat of the table")
        self.feed.announce(0, "tables")
        return str(state)

    async def invite(self, table_id: str, token: str, by: Account, name: str) -> bool:
        """Invite the account ``name`` to the table (the inviter holds a seat there): it is
        told in the lobby, and by e-mail if it asked for e-mails. A bot account only to a
        table that invited bot accounts and is not rated (``no-bot-accounts``,
        ``bot-rated``: it could not sit). Returns whether an e-mail was sent."""
        seat = await self.db(self.store.tables.seat_of, table_id, hash_token(token))
        if seat is None or seat.account_id != by.id:
            raise GameError("bad-token", "invite from a seat of this table that is yours")
        other: Account | None = await self.db(self.store.accounts.by_name, name)
        if other is None or other.id == by.id:
            raise GameError("no-account", "there is no other account of this name")
        if await self.db(self.store.social.blocks_either, by.id, other.id):
            raise GameError("blocked", "this account cannot be invited by you")
        table = await self.db(self.store.tables.get, table_id) if other.is_bot else None
        if table is not None:
            try:  # a bot account is invited only where it may sit
                check_bot_seat(table)
            except TableRefused as exc:
                raise GameError(exc.code, exc.message) from None
        try:
            invited = await self.db(
                self.store.social.invite, table_id, by.id, other.id, self.clock(), INVITES_PER_TABLE
            )
        except TooManyInvites:
            raise GameError(
                "too-many-invites", f"at most {INVITES_PER_TABLE} invitations to one table"
            ) from None
        if not invited:
            return False
        self.feed.announce(other.id, "invite")
        return await self._mail_invite(other, by, table_id)

    async def _mail_invite(self, to: Account, by: Account, table_id: str) -> bool:
        """The invitation's e-mail, within the invited account's e-mails an hour
        (``invitemail.py``, shared with the direct challenges)."""
        if self.mailer is None:
            return False
        link = f"{self.mailer.settings.public_url}/?table={table_id}"
        return await mail_invitation(
            self.store,
            self.db,
            self.mailer,
            to,
            self.invite_emails,
            f"{by.name} invites you to a table of Tigris & Euphrates",
            f"{by.name} invites you to a table of Tigris & Euphrates.\n\n"
            f"Take your seat here (the table waits about {self.table_seconds / 60:g} "
            f"minutes):\n{link}\n",
        )

    # --- quick match ----------------------------------------------------------------------

    async def join_queue(
        self, account: Account, family: str, players: int, pace: str, bot_after: float | None
    ) -> str:
        """Queue the account for a quick match; returns the seat token its game will take.
        Refused to a bot account (``bot-quick-match``): quick match pairs people (its games
        are rated unless an AI player fills a seat)."""
        if account.is_bot:
            raise GameError(
                "bot-quick-match",
                "quick match is for people: a bot account plays through challenges and the "
                "open tables that invite bot accounts",
            )
        if pace not in MATCH_PACES:
            raise GameError("bad-pace", f"quick match plays {' or '.join(MATCH_PACES)}")
        ruleset_of_family(family)
        if bot_after is not None and not 0 <= bot_after <= MAX_BOT_AFTER:
            raise GameError("bad-bot-after", f"a bot may fill after 0 to {MAX_BOT_AFTER:g} s")
        mu = await self.db(self.store.matches.mu_of, account.id, family, size_of(players))
        token = secrets.token_urlsafe(18)
        waiting = Waiting(
            account.id, family, players, pace, mu, 0.0, bot_after, hash_token(token), account.name
        )
        try:
            await self.db(self.store.matches.join, waiting, self.clock())
        except NotAPerson:
            raise GameError(
                "bot-quick-match", "quick match is for people: this account is a bot account"
            ) from None
        except InGame as busy:
            raise GameError(
                "in-game",
                f"you have a game in progress (/game/{busy.game_id}): play it first",
            ) from None
        self.feed.announce(account.id, "match")
        self.kick.set()
        return token

    async def leave_queue(self, account: Account) -> bool:
        left: bool = await self.db(self.store.matches.leave, account.id)
        self.feed.announce(account.id, "match")
        return left

    async def pair_once(self) -> list[tuple[str, list[int]]]:
        """One round of the matchmaker (and of the tables' expiry)."""
        now = self.clock()
        made: list[tuple[str, list[int]]] = await self.db(
            self.store.matches.pair, now, self.policy, self.match_game
        )
        for game, accounts in made:
            for account in accounts:
                self.feed.announce(account, "match")
            await self.started(game)
        if await self.db(self.store.tables.expire, now):
            self.feed.announce(0, "tables")
        return made

    async def run(self) -> None:
        """The matchmaker: a round every ``MATCH_SECONDS``, and at once after a join."""
        await every(MATCH_SECONDS, self.pair_once, "the matchmaker's round", self.kick)
