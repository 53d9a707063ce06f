"""Direct challenges between people in the store (``store.direct``): a challenger invites
one to three named accounts to a game (its options, pace and whether it is rated), each of
them answers, and the game is made once every one of them accepted.

Every change is a conditional write on the challenge's state, in one transaction that first
locks the challenge's row (``FOR UPDATE`` on PostgreSQL: a second process answering the same
challenge at the same moment waits, then sees the first answer). The last acceptance stores
the game in that same transaction (``tables.start_game``) after claiming the challenge with
``UPDATE … WHERE state = 'open'`` (whose count must be one): however often and wherever a
challenge is accepted, it makes one game, and an accepted challenge always has its game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from .database import Database, repair_text
from .games import GameRow, Games, realtime_games
from .rows import GameOptions, PaceData
from .tables import start_game

#: The states of a direct challenge: open until every invited account accepted, one of
#: them declined, the challenger cancelled or its time passed.
DIRECT_STATES = ("open", "accepted", "declined", "cancelled", "expired")


class DirectRefused(Exception):
    """The challenge refuses the request: ``code`` says why (``no-challenge``,
    ``not-invited``, ``challenge-closed``, ``blocked``, ``too-many-challenges``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Invitee:
    """An invited account and its answer (``waiting``, ``accepted``, ``declined``)."""

    account_id: int
    name: str
    answer: str


@dataclass
class DirectChallenge:
    """A direct challenge, with its people's names (``closed_by``: who declined or
    cancelled it)."""

    id: str
    challenger: int
    challenger_name: str
    options: GameOptions
    players: int
    pace: PaceData | None
    rated: bool
    state: str
    created: float
    expires: float
    updated: float
    closed_by: str | None = None
    game_id: str | None = None
    invitees: list[Invitee] = field(default_factory=list)

    def people(self) -> list[int]:
        """Every account of the challenge: the challenger, then the invited ones."""
        return [self.challenger, *(i.account_id for i in self.invitees)]


#: Builds the game of an accepted challenge: the game and each seat's account.
DirectGameMaker = Callable[[DirectChallenge], tuple[GameRow, dict[int, int]]]


class Direct:
    """The direct challenges of one database (``Store.direct``)."""

    def __init__(self, db: Database, games: Games) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables
        self.games = games

    # --- writes ---------------------------------------------------------------------------

    def create(self, challenge: DirectChallenge, most: int) -> None:
        """Store a new open challenge; raises ``DirectRefused`` (``too-many-challenges``)
        when its challenger has ``most`` open ones already (counted under a lock on the
        challenger's account row: challenges made at once cannot pass the limit)."""
        c, i, a = self.t.direct_challenges, self.t.direct_invitees, self.t.accounts
        with self.engine.begin() as conn:
            if not self.db.is_sqlite:
                conn.execute(select(a.c.id).where(a.c.id == challenge.challenger).with_for_update())
            held = conn.execute(
                select(func.count())
                .select_from(c)
                .where(
                    c.c.challenger == challenge.challenger,
                    c.c.state == "open",
                    c.c.expires > challenge.created,
                )
            ).scalar_one()
            if int(held) >= most:
                raise DirectRefused(
                    "too-many-challenges",
                    f"at most {most} challenges waiting for an answer at once: "
                    "cancel one or wait for the answers",
                )
            conn.execute(
                insert(c).values(
                    id=challenge.id,
                    challenger=challenge.challenger,
                    options=json.dumps(challenge.options, sort_keys=True),
                    players=challenge.players,
                    pace=None if challenge.pace is None else json.dumps(challenge.pace),
                    rated=int(challenge.rated),
                    state="open",
                    created=challenge.created,
                    expires=challenge.expires,
                    updated=challenge.created,
                )
            )
            conn.execute(
                insert(i),
                [
                    {
                        "challenge_id": challenge.id,
                        "account_id": x.account_id,
                        "position": n,
                        "answer": "waiting",
                    }
                    for n, x in enumerate(challenge.invitees)
                ],
            )

    def accept(
        self, challenge_id: str, account_id: int, now: float, make: DirectGameMaker
    ) -> tuple[DirectChallenge, str | None]:
        """The invited account accepts; returns the challenge as it was read and the game
        when every invited account has accepted now (``None``: others have yet to answer).
        An accepted challenge answers with its game again (a second tab, a second
        process): one game, however often it is accepted. Raises ``DirectRefused``."""
        c, i = self.t.direct_challenges, self.t.direct_invitees
        with self.engine.begin() as conn:
            found = self._locked(conn, challenge_id)
            if account_id not in [x.account_id for x in found.invitees]:
                raise DirectRefused("not-invited", "only an invited account accepts a challenge")
            if found.state == "accepted":
                return found, found.game_id
            _check_open(found, now)
            self._check_blocks(conn, found.people())
            conn.execute(
                update(i)
                .where(
                    i.c.challenge_id == challenge_id,
                    i.c.account_id == account_id,
                    i.c.answer == "waiting",
                )
                .values(answer="accepted", answered=now)
            )
            for x in found.invitees:
                if x.account_id == account_id:
                    x.answer = "accepted"
            if any(x.answer != "accepted" for x in found.invitees):
                conn.execute(update(c).where(c.c.id == challenge_id).values(updated=now))
                return found, None
            row, bound = make(found)
            claimed = conn.execute(
                update(c)
                .where(c.c.id == challenge_id, c.c.state == "open")
                .values(state="accepted", game_id=row.id, updated=now)
            ).rowcount
            if claimed != 1:  # SQLite has no row lock: the state is the claim
                raise DirectRefused("challenge-closed", "this challenge was answered already")
            start_game(conn, self.t, self.games, row, found.pace, bound)
            self._check_free(conn, found, row.id)
            found.state, found.game_id = "accepted", row.id
            return found, row.id

    def _check_free(self, conn: Connection, found: DirectChallenge, game_id: str) -> None:
        """Refuse (``in-game``) a real-time challenge's game while one of its people plays
        another real-time game (read after ``start_game`` locked their accounts and ended
        their waits: a quick match made at that moment is seen here, or never made)."""
        if found.pace is None or found.pace["kind"] != "realtime":
            return
        busy = realtime_games(conn, self.t, found.people(), besides=game_id)
        names = {found.challenger: found.challenger_name}
        names.update((x.account_id, x.name) for x in found.invitees)
        playing = [names[a] for a in busy]
        if playing:
            raise DirectRefused(
                "in-game",
                f"{', '.join(sorted(playing))} is playing a real-time game: accept when it is over",
            )

    def decline(self, challenge_id: str, account_id: int, now: float) -> DirectChallenge:
        """An invited account declines (the challenge is ``declined`` for everybody) or the
        challenger cancels (``cancelled``); returns the challenge closed. Raises
        ``DirectRefused``."""
        c, i = self.t.direct_challenges, self.t.direct_invitees
        with self.engine.begin() as conn:
            found = self._locked(conn, challenge_id)
            invited = account_id in [x.account_id for x in found.invitees]
            if not invited and account_id != found.challenger:
                raise DirectRefused("no-challenge", "there is no such challenge of yours")
            if found.state != "open":
                raise DirectRefused("challenge-closed", f"this challenge is {found.state} already")
            state = "declined" if invited else "cancelled"
            done = conn.execute(
                update(c)
                .where(c.c.id == challenge_id, c.c.state == "open")
                .values(state=state, closed_by=account_id, updated=now)
            ).rowcount
            if done != 1:
                raise DirectRefused("challenge-closed", "this challenge was answered already")
            if invited:
                conn.execute(
                    update(i)
                    .where(i.c.challenge_id == challenge_id, i.c.account_id == account_id)
                    .values(answer="declined", answered=now)
                )
            found.state = state
            return found

    def expire(self, now: float) -> list[DirectChallenge]:
        """The open challenges whose time passed expire; returns those this call expired
        (of two processes expiring at once, each challenge is returned by one)."""
        c = self.t.direct_challenges
        with self.engine.connect() as conn:
            ids = [
                str(x)
                for x in conn.execute(
                    select(c.c.id).where(c.c.state == "open", c.c.expires <= now)
                ).scalars()
            ]
        out: list[DirectChallenge] = []
        for challenge_id in ids:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(c)
                    .where(c.c.id == challenge_id, c.c.state == "open")
                    .values(state="expired", updated=now)
                ).rowcount
            if done == 1:
                found = self.get(challenge_id)
                if found is not None:
                    out.append(found)
        return out

    def close_between(self, account_id: int, other_id: int, now: float) -> list[DirectChallenge]:
        """``account_id`` blocked ``other_id``: the open challenges both are part of are
        cancelled (by ``account_id``); returns them."""
        c, i = self.t.direct_challenges, self.t.direct_invitees
        both = [account_id, other_id]
        with self.engine.connect() as conn:
            invited = select(i.c.challenge_id).where(i.c.account_id.in_(both))
            candidates = self._load(
                conn,
                and_(
                    c.c.state == "open",
                    or_(c.c.challenger.in_(both), c.c.id.in_(invited)),
                ),
            )
        out: list[DirectChallenge] = []
        for found in candidates:
            if not set(both) <= set(found.people()):
                continue
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(c)
                    .where(c.c.id == found.id, c.c.state == "open")
                    .values(state="cancelled", closed_by=account_id, updated=now)
                ).rowcount
            if done == 1:
                found.state = "cancelled"
                out.append(found)
        return out

    # --- reads ----------------------------------------------------------------------------

    def get(self, challenge_id: str) -> DirectChallenge | None:
        with self.engine.connect() as conn:
            found = self._load(conn, self.t.direct_challenges.c.id == challenge_id)
        return found[0] if found else None

    def of_account(self, account_id: int, now: float, since: float) -> list[DirectChallenge]:
        """The account's challenges, newest first: the open ones it sent or is invited to,
        those it sent that closed since ``since`` (the challenger is told how they ended)
        and those accepted since then (their game)."""
        c, i = self.t.direct_challenges, self.t.direct_invitees
        mine = or_(
            c.c.challenger == account_id,
            c.c.id.in_(select(i.c.challenge_id).where(i.c.account_id == account_id)),
        )
        where = and_(
            mine,
            or_(
                and_(c.c.state == "open", c.c.expires > now),
                and_(
                    c.c.state != "open",
                    c.c.updated >= since,
                    or_(c.c.challenger == account_id, c.c.state == "accepted"),
                ),
            ),
        )
        with self.engine.connect() as conn:
            return self._load(conn, where, limit=50)

    def _locked(self, conn: Connection, challenge_id: str) -> DirectChallenge:
        """The challenge, its row locked until the transaction ends (PostgreSQL)."""
        c = self.t.direct_challenges
        query = select(c.c.id).where(c.c.id == challenge_id)
        if not self.db.is_sqlite:
            query = query.with_for_update()
        if conn.execute(query).first() is None:
            raise DirectRefused("no-challenge", "there is no such challenge")
        return self._load(conn, c.c.id == challenge_id)[0]

    def _load(self, conn: Connection, where: Any, limit: int = 100) -> list[DirectChallenge]:
        c, i, a = self.t.direct_challenges, self.t.direct_invitees, self.t.accounts
        closer = a.alias("closer")
        query = (
            select(c, a.c.name.label("by_name"), closer.c.name.label("closer_name"))
            .join(a, a.c.id == c.c.challenger)
            .outerjoin(closer, closer.c.id == c.c.closed_by)
            .where(where)
            .order_by(c.c.created.desc(), c.c.id)
            .limit(limit)
        )
        out = [
            DirectChallenge(
                id=str(r.id),
                challenger=int(r.challenger),
                challenger_name=str(repair_text(r.by_name)),
                options=json.loads(r.options),
                players=int(r.players),
                pace=None if r.pace is None else json.loads(r.pace),
                rated=bool(r.rated),
                state=str(r.state),
                created=float(r.created),
                expires=float(r.expires),
                updated=float(r.updated),
                closed_by=None if r.closer_name is None else str(repair_text(r.closer_name)),
                game_id=None if r.game_id is None else str(r.game_id),
            )
            for r in conn.execute(query)
        ]
        if not out:
            return out
        rows = conn.execute(
            select(i.c.challenge_id, i.c.account_id, i.c.answer, a.c.name)
            .join(a, a.c.id == i.c.account_id)
            .where(i.c.challenge_id.in_([x.id for x in out]))
            .order_by(i.c.challenge_id, i.c.position)
        )
        by_id = {x.id: x for x in out}
        for r in rows:
            by_id[str(r.challenge_id)].invitees.append(
                Invitee(int(r.account_id), str(repair_text(r.name)), str(r.answer))
            )
        return out

    def _check_blocks(self, conn: Connection, people: list[int]) -> None:
        """Refuse a game between accounts one of which blocked another."""
        b = self.t.blocks
        query = select(func.count()).where(b.c.account_id.in_(people), b.c.other_id.in_(people))
        if conn.execute(query).scalar_one():
            raise DirectRefused("blocked", "a player of this challenge blocked another one")


def _check_open(found: DirectChallenge, now: float) -> None:
    if found.state != "open":
        raise DirectRefused("challenge-closed", f"this challenge is {found.state} already")
    if found.expires <= now:
        raise DirectRefused("challenge-closed", "this challenge is expired already")
