"""Bot accounts in the store: turning an account into a bot, its API tokens and the
challenges between accounts (``store.bots``). Synchronous, like every area of the store.

A token's secret is never stored, only its SHA-256 (``digest``): the server shows the secret
once, when it is made. A challenge changes state once, by a compare-and-set on ``state``
(``open`` to ``accepted``, ``declined``, ``cancelled`` or ``expired``), so two processes
that accept the same challenge at once cannot both make its game.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, NotRequired

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from typing_extensions import TypedDict

from .accounts import Account, _account
from .database import Database, repair_text
from .rows import GameOptions, PaceData, SentOptions

#: The states of a challenge: open until it is accepted, declined, cancelled or expired.
CHALLENGE_STATES = ("open", "accepted", "declined", "cancelled", "expired")


class TooManyTokens(Exception):
    """The account holds as many tokens as it may."""


class NotABot(Exception):
    """The account cannot become a bot account (it played rated games as a person)."""


class StillPlaying(Exception):
    """The account cannot become a bot account now: it holds a seat at an open table or of
    an unfinished rated game, or waits for a quick match, all of them people's places."""


@dataclass
class BotToken:
    """A token as its owner's list shows it: never its secret."""

    id: int
    name: str
    created: float
    last_used: float | None


class ChallengeSide(TypedDict):
    """One account of a challenge: its name and whether it is a bot account."""

    name: str
    bot: bool


#: A challenge as the API and the bots' event socket show it (``Challenge.public``):
#: ``from`` challenges ``to``; ``state``: ``open``, ``accepted`` (with its ``game``),
#: ``declined`` (with the challenged's ``reason``), ``cancelled`` or ``expired``. An open
#: table offered to a bot account has the same shape (its ``id`` is ``table:<id>``), with
#: the table's ``pace`` and its number of ``free`` seats.
PublicChallenge = TypedDict(
    "PublicChallenge",
    {
        "id": str,
        "from": ChallengeSide,
        "to": ChallengeSide,
        "options": SentOptions,
        "rated": bool,
        "state": str,
        "reason": str | None,
        "game": str | None,
        "created": float,
        "pace": NotRequired[PaceData | None],
        "free": NotRequired[int],
    },
)


@dataclass
class Challenge:
    """One account's challenge to another, with both names and whether each is a bot."""

    id: str
    challenger: int
    challenger_name: str
    challenger_bot: bool
    challenged: int
    challenged_name: str
    challenged_bot: bool
    options: GameOptions
    rated: bool
    state: str
    created: float
    updated: float
    reason: str | None = None
    game: str | None = None

    def public(self) -> PublicChallenge:
        """The challenge as the API and the bots' event socket show it."""
        return {
            "id": self.id,
            "from": {"name": self.challenger_name, "bot": self.challenger_bot},
            "to": {"name": self.challenged_name, "bot": self.challenged_bot},
            "options": self.options,
            "rated": self.rated,
            "state": self.state,
            "reason": self.reason,
            "game": self.game,
            "created": self.created,
        }


class Bots:
    """The bot accounts' tables of one database (``Store.bots``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    # --- bot accounts ---------------------------------------------------------------------

    def make_bot(self, account_id: int) -> float:
        """Turn the account into a bot account (for good); returns since when it is one.
        Raises ``NotABot`` if it has a rating as a person: a bot is never rated among
        people, and a person's rating does not move to the bots' board; ``StillPlaying``
        while it holds a people's place (``_people_place``), so that no bot account ever
        holds the seat of a people's rated game. The account's row is locked first: a seat
        taken at an open table at the same moment (``store.tables``, which reads the row
        under a shared lock) comes wholly before or after."""
        a, r = self.t.accounts, self.t.ratings
        now = time.time()
        with self.engine.begin() as conn:
            _lock_account(conn, a, account_id)
            row = conn.execute(select(a.c.bot).where(a.c.id == account_id)).first()
            if row is None:
                raise NotABot("no such account")
            if row.bot is not None:
                return float(row.bot)
            rated = conn.execute(
                select(func.count()).select_from(r).where(r.c.account_id == account_id)
            ).scalar_one()
            if rated:
                raise NotABot("this account has a rating among people")
            if _people_place(conn, self.t, account_id):
                raise StillPlaying("this account holds a people's seat")
            conn.execute(update(a).where(a.c.id == account_id, a.c.bot.is_(None)).values(bot=now))
            return float(conn.execute(select(a.c.bot).where(a.c.id == account_id)).scalar_one())

    def bot_ids(self, account_ids: list[int]) -> set[int]:
        """Those of the accounts that are bot accounts."""
        if not account_ids:
            return set()
        a = self.t.accounts
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.c.id).where(a.c.id.in_(account_ids), a.c.bot.isnot(None)))
            return {int(x) for x in rows.scalars()}

    # --- tokens ---------------------------------------------------------------------------

    def add_token(self, account_id: int, name: str, digest: str, most: int) -> BotToken:
        """Keep a new token of the account (``digest``: the SHA-256 of its secret); raises
        ``TooManyTokens`` when it holds ``most`` already (counted under a lock on the
        account's row, so tokens made at once cannot pass the limit)."""
        a, k = self.t.accounts, self.t.bot_tokens
        now = time.time()
        with self.engine.begin() as conn:
            _lock_account(conn, a, account_id)
            held = conn.execute(
                select(func.count()).select_from(k).where(k.c.account_id == account_id)
            ).scalar_one()
            if int(held) >= most:
                raise TooManyTokens(str(most))
            new_id = conn.execute(
                insert(k)
                .values(account_id=account_id, name=name, digest=digest, created=now)
                .returning(k.c.id)
            ).scalar_one()
        return BotToken(int(new_id), name, now, None)

    def tokens(self, account_id: int) -> list[BotToken]:
        """The account's tokens, the newest first."""
        k = self.t.bot_tokens
        query = select(k).where(k.c.account_id == account_id).order_by(k.c.id.desc())
        with self.engine.connect() as conn:
            return [
                BotToken(
                    int(x.id),
                    str(repair_text(x.name)),
                    float(x.created),
                    None if x.last_used is None else float(x.last_used),
                )
                for x in conn.execute(query)
            ]

    def revoke(self, account_id: int, token_id: int) -> bool:
        """Delete the account's token (``False``: it has none of that id)."""
        k = self.t.bot_tokens
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(k).where(k.c.id == token_id, k.c.account_id == account_id)
            ).rowcount
        return bool(gone)

    def token_account(self, digest: str) -> tuple[Account, int] | None:
        """The bot account a token opens, and the token's id (``None``: no such token, or
        its account is no bot); notes when the token was last used (once a minute)."""
        a, k, f = self.t.accounts, self.t.bot_tokens, self.t.account_flags
        query = (
            select(a, k.c.id.label("token_id"), k.c.last_used)
            .join(k, k.c.account_id == a.c.id)
            .outerjoin(f, f.c.account_id == a.c.id)
            .where(k.c.digest == digest, a.c.bot.isnot(None), f.c.banned.is_(None))
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        now = time.time()
        if row.last_used is None or now - float(row.last_used) > 60:
            with self.engine.begin() as conn:
                conn.execute(update(k).where(k.c.id == row.token_id).values(last_used=now))
        return _account(row), int(row.token_id)

    # --- challenges -----------------------------------------------------------------------

    def challenge(
        self, challenger: int, challenged: int, options: GameOptions, rated: bool, most: int
    ) -> str:
        """A new open challenge's id; raises ``TooManyChallenges`` when the challenger has
        ``most`` open ones already (counted under a lock on the challenger's row)."""
        a, c = self.t.accounts, self.t.challenges
        now = time.time()
        challenge_id = secrets.token_hex(6)
        with self.engine.begin() as conn:
            _lock_account(conn, a, challenger)
            held = conn.execute(
                select(func.count())
                .select_from(c)
                .where(c.c.challenger == challenger, c.c.state == "open")
            ).scalar_one()
            if int(held) >= most:
                raise TooManyChallenges(str(most))
            conn.execute(
                insert(c).values(
                    id=challenge_id,
                    challenger=challenger,
                    challenged=challenged,
                    options=json.dumps(options, sort_keys=True),
                    rated=int(rated),
                    state="open",
                    created=now,
                    updated=now,
                )
            )
        return challenge_id

    def get(self, challenge_id: str) -> Challenge | None:
        rows = self._challenges(self.t.challenges.c.id == challenge_id)
        return rows[0] if rows else None

    def challenges_of(self, account_id: int, since: float, limit: int = 100) -> list[Challenge]:
        """The account's challenges, sent or received: the open ones and those changed since
        ``since``, the newest first."""
        c = self.t.challenges
        mine = or_(c.c.challenger == account_id, c.c.challenged == account_id)
        return self._challenges(and_(mine, or_(c.c.state == "open", c.c.updated >= since)), limit)

    def _challenges(self, where: Any, limit: int = 100) -> list[Challenge]:
        c, a = self.t.challenges, self.t.accounts
        by, to = a.alias("by"), a.alias("to")
        query = (
            select(
                c,
                by.c.name.label("by_name"),
                by.c.bot.label("by_bot"),
                to.c.name.label("to_name"),
                to.c.bot.label("to_bot"),
            )
            .join(by, by.c.id == c.c.challenger)
            .join(to, to.c.id == c.c.challenged)
            .where(where)
            .order_by(c.c.created.desc(), c.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                Challenge(
                    str(x.id),
                    int(x.challenger),
                    str(repair_text(x.by_name)),
                    x.by_bot is not None,
                    int(x.challenged),
                    str(repair_text(x.to_name)),
                    x.to_bot is not None,
                    json.loads(x.options),
                    bool(x.rated),
                    str(x.state),
                    float(x.created),
                    float(x.updated),
                    None if x.reason is None else str(x.reason),
                    None if x.game_id is None else str(x.game_id),
                )
                for x in conn.execute(query)
            ]

    def close(
        self,
        challenge_id: str,
        state: str,
        reason: str | None = None,
        *,
        game_id: str | None = None,
    ) -> bool:
        """Move an open challenge to ``state`` (``False``: it was not open any more, another
        request or process closed it first)."""
        c = self.t.challenges
        with self.engine.begin() as conn:
            done = conn.execute(
                update(c)
                .where(c.c.id == challenge_id, c.c.state == "open")
                .values(state=state, reason=reason, game_id=game_id, updated=time.time())
            ).rowcount
        return bool(done)

    def set_game(self, challenge_id: str, game_id: str) -> None:
        """The game an accepted challenge made."""
        c = self.t.challenges
        with self.engine.begin() as conn:
            conn.execute(
                update(c)
                .where(c.c.id == challenge_id, c.c.state == "accepted")
                .values(game_id=game_id, updated=time.time())
            )

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose game could not be made is open again."""
        c = self.t.challenges
        with self.engine.begin() as conn:
            conn.execute(
                update(c)
                .where(c.c.id == challenge_id, c.c.state == "accepted", c.c.game_id.is_(None))
                .values(state="open", updated=time.time())
            )

    def expire(self, older_than: float) -> int:
        """Open challenges made before ``older_than`` expire; returns how many."""
        c = self.t.challenges
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    update(c)
                    .where(c.c.state == "open", c.c.created < older_than)
                    .values(state="expired", updated=time.time())
                ).rowcount
            )


class TooManyChallenges(Exception):
    """The account has as many open challenges as it may."""


def _people_place(conn: Connection, t: Any, account_id: int) -> bool:
    """Whether the account holds a seat at an open table or of an unfinished rated game, or
    waits for a quick match."""
    s, o, q = t.table_seats, t.open_tables, t.match_queue
    seated = select(func.count()).select_from(s.join(o, o.c.id == s.c.table_id))
    if conn.execute(seated.where(s.c.account_id == account_id, o.c.state == "open")).scalar():
        return True
    queued = select(func.count()).select_from(q)
    if conn.execute(queued.where(q.c.account_id == account_id, q.c.state == "waiting")).scalar():
        return True
    b, g = t.account_seats, t.games
    playing = (
        select(func.count())
        .select_from(b.join(g, g.c.id == b.c.game_id))
        .where(b.c.account_id == account_id, g.c.rated == 1, g.c.status == "active")
    )
    return bool(conn.execute(playing).scalar())


def _lock_account(conn: Connection, accounts: Any, account_id: int) -> None:
    """Hold the account's row until the transaction ends (PostgreSQL): what is counted for
    it is counted by one transaction at a time. SQLite serialises writers already."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(accounts.c.id).where(accounts.c.id == account_id).with_for_update())
