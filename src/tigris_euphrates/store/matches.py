"""The quick-match queue in the store (``store.matches``): who waits for a game of which
family, player count and pace, and the games the matchmaker made of them.

The queue lives only in the database, never in a process's memory, so that any number of
server processes share it. ``pair`` claims the waiting rows it reads: on PostgreSQL with
``SELECT … FOR UPDATE SKIP LOCKED`` (two processes pairing at the same moment each get rows
the other did not lock, so nobody lands in two games), then with ``UPDATE … WHERE state =
'waiting'``, whose count must be the number of players claimed (on SQLite, where one
process writes in turn, that update is the atomic claim). The games are stored in the same
transaction as the claim (``tables.start_game``): a matched player always has a game.

Who fits whom is ``groups``, a pure function of the waiting rows, the blocks between them
and the time: each player accepts a rating difference (of openskill's mu) up to their
window, ``window + widen × seconds waited``; a group is formed only of players each of
whom accepts every other one, none of whom blocked another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .database import Database
from .games import GameRow, Games, realtime_games
from .rows import PaceData
from .tables import start_game

#: A newcomer's rating (openskill's default mu).
NEWCOMER_MU = 25.0


@dataclass(frozen=True)
class Policy:
    """How close players must be: ``window`` (mu) at once, widened by ``widen`` a second
    waited; a row unseen for ``stale`` seconds (its page closed) leaves the queue."""

    window: float = 3.0
    widen: float = 0.25
    stale: float = 90.0

    def reach(self, waited: float) -> float:
        return self.window + self.widen * max(0.0, waited)


@dataclass
class Waiting:
    """A waiting player (``token``: the SHA-256 of the seat token the game will give it)."""

    account_id: int
    family: str
    players: int
    pace: str
    mu: float
    joined: float
    bot_after: float | None
    token: str
    name: str = ""


class NotAPerson(Exception):
    """Quick match pairs people: the account is a bot account (or is gone)."""


class InGame(Exception):
    """The account's quick match is under way in ``game_id``: no second one now."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


@dataclass
class QueueState:
    """An account's place in the queue: ``"waiting"``; ``"matched"`` into ``game_id`` at
    ``seat`` (its lobby takes it there); ``"seated"`` once it opened that game;
    ``game_over``: that game is over (the lobby shows the account as free)."""

    state: str
    family: str
    players: int
    pace: str
    joined: float
    bot_after: float | None
    game_id: str | None
    seat: int | None
    game_over: bool = False


#: One game the matchmaker makes: its players in seat order, and whether bots fill it.
Group = tuple[list[Waiting], bool]
#: Builds a match's game: its players and the seats bots fill; returns it and its pace.
MatchMaker = Callable[[list[Waiting], int], tuple[GameRow, PaceData | None]]


def fits(a: Waiting, b: Waiting, now: float, policy: Policy, blocks: set[tuple[int, int]]) -> bool:
    """Whether ``a`` and ``b`` may play each other now."""
    if a.account_id == b.account_id:
        return False
    if (a.account_id, b.account_id) in blocks or (b.account_id, a.account_id) in blocks:
        return False
    gap = abs(a.mu - b.mu)
    return gap <= policy.reach(now - a.joined) and gap <= policy.reach(now - b.joined)


def groups(
    waiting: list[Waiting], blocks: set[tuple[int, int]], now: float, policy: Policy
) -> list[Group]:
    """The games to make now: the longest-waiting player first, with the closest players
    that fit everyone chosen so far; a player whose bot time has come and who found too few
    gets a game with those of them whose bot time came too, bots in the other seats."""
    used: set[int] = set()
    out: list[Group] = []
    for first in sorted(waiting, key=lambda w: (w.joined, w.account_id)):
        if first.account_id in used:
            continue
        kin = [
            w
            for w in waiting
            if w.account_id not in used
            and (w.family, w.players, w.pace) == (first.family, first.players, first.pace)
        ]
        kin.sort(key=lambda w: (abs(w.mu - first.mu), w.joined, w.account_id))
        chosen = [first]
        for w in kin:
            if len(chosen) == first.players:
                break
            if all(fits(w, c, now, policy, blocks) for c in chosen):
                chosen.append(w)
        if len(chosen) == first.players:
            out.append((chosen, False))
        elif _bot_time(first, now):
            ready = [c for c in chosen if _bot_time(c, now)]
            out.append((ready, True))
        else:
            continue
        used.update(c.account_id for c in out[-1][0])
    return out


def _bot_time(w: Waiting, now: float) -> bool:
    return w.bot_after is not None and now - w.joined >= w.bot_after


class Matches:
    """The quick-match queue of one database (``Store.matches``)."""

    def __init__(self, db: Database, games: Games) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables
        self.games = games

    def join(self, w: Waiting, now: float) -> None:
        """Put the account in the queue, or change what it waits for (a second join while
        it waits, from a double click, another tab or another process, is that change:
        one row an account, never two games). Raises ``InGame`` while the account's match
        is under way: matched into a game it has not opened yet, or seated in a real-time
        game not over yet (a turn-based game leaves room for another match once opened)."""
        for attempt in range(3):
            try:
                with self.engine.begin() as conn:
                    self._join(conn, w, now)
                return
            except IntegrityError:  # another process inserted the account's row first
                if attempt == 2:
                    raise

    def _join(self, conn: Connection, w: Waiting, now: float) -> None:
        q, g, a = self.t.match_queue, self.t.games, self.t.accounts
        # the account's row locked: an account turning into a bot at this moment
        # (``store.bots.make_bot``, which locks it and refuses a waiting account), or a game
        # made elsewhere that ends its waits (``tables.start_game``, which reads it under a
        # shared lock), comes wholly before this join or after it
        person = select(a.c.bot).where(a.c.id == w.account_id)
        if not self.db.is_sqlite:
            person = person.with_for_update(key_share=True)
        row = conn.execute(person).first()
        if row is None or row.bot is not None:
            raise NotAPerson(str(w.account_id))
        query = select(q.c.state, q.c.game_id, q.c.pace, q.c.family, q.c.players, q.c.joined)
        query = query.where(q.c.account_id == w.account_id)
        if not self.db.is_sqlite:  # a pairing round holding the row: wait for its outcome
            query = query.with_for_update()
        mine = conn.execute(query).first()
        # asked after the queue's row is held, as a pairing round asks after claiming its
        # rows: the round and this join never wait for each other the other way round
        busy = realtime_games(conn, self.t, [w.account_id]).get(w.account_id)
        if busy is not None:
            raise InGame(busy)
        values = {
            "family": w.family,
            "players": w.players,
            "pace": w.pace,
            "mu": w.mu,
            "seen": now,
            "bot_after": w.bot_after,
            "token": w.token,
            "state": "waiting",
            "game_id": None,
            "seat": None,
            "matched": None,
        }
        if mine is None:
            conn.execute(insert(q).values(account_id=w.account_id, joined=now, **values))
            return
        if mine.state == "waiting":
            same = (mine.family, mine.players, mine.pace) == (w.family, w.players, w.pace)
            joined = float(mine.joined) if same else now  # the same wish keeps its place
            changed = conn.execute(
                update(q)
                .where(q.c.account_id == w.account_id, q.c.state == "waiting")
                .values(joined=joined, **values)
            ).rowcount
            if changed != 1:
                raise IntegrityError("join", None, Exception("the row changed under the join"))
            return
        status = conn.execute(select(g.c.status).where(g.c.id == mine.game_id)).scalar()
        if status == "active" and (mine.state == "matched" or mine.pace == "realtime"):
            raise InGame(str(mine.game_id))
        conn.execute(update(q).where(q.c.account_id == w.account_id).values(joined=now, **values))

    def seated(self, account_id: int, game_id: str) -> bool:
        """The account opened its quick-match game ``game_id``: its lobby stops taking it
        there (``True`` when this call made the change)."""
        q = self.t.match_queue
        with self.engine.begin() as conn:
            done = conn.execute(
                update(q)
                .where(q.c.account_id == account_id, q.c.game_id == game_id, q.c.state == "matched")
                .values(state="seated")
            ).rowcount
        return bool(done)

    def leave(self, account_id: int) -> bool:
        """Leave the queue; ``False`` when the account was not waiting (matched already)."""
        q = self.t.match_queue
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(q).where(q.c.account_id == account_id, q.c.state == "waiting")
            ).rowcount
        return bool(gone)

    def state(self, account_id: int) -> QueueState | None:
        """The account's place in the queue (``None``: it never queued, or left)."""
        q, g = self.t.match_queue, self.t.games
        query = (
            select(q, g.c.status)
            .outerjoin(g, g.c.id == q.c.game_id)
            .where(q.c.account_id == account_id)
        )
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        if r is None:
            return None
        return QueueState(
            str(r.state),
            str(r.family),
            int(r.players),
            str(r.pace),
            float(r.joined),
            None if r.bot_after is None else float(r.bot_after),
            None if r.game_id is None else str(r.game_id),
            None if r.seat is None else int(r.seat),
            r.game_id is not None and r.status != "active",
        )

    def mu_of(self, account_id: int, family: str, size: str) -> float:
        """The account's rating (openskill's mu) in the family and player count: 25, a
        newcomer's, when it has none."""
        r = self.t.ratings
        query = select(r.c.mu).where(
            r.c.account_id == account_id, r.c.family == family, r.c.size == size
        )
        with self.engine.connect() as conn:
            value = conn.execute(query).scalar()
        return NEWCOMER_MU if value is None else float(value)

    def seen(self, account_ids: list[int], now: float) -> None:
        """The pages of these accounts are still open: they stay in the queue."""
        if not account_ids:
            return
        q = self.t.match_queue
        with self.engine.begin() as conn:
            conn.execute(update(q).where(q.c.account_id.in_(account_ids)).values(seen=now))

    def waiting(self) -> int:
        """How many accounts wait."""
        q = self.t.match_queue
        with self.engine.connect() as conn:
            rows = conn.execute(select(q.c.account_id).where(q.c.state == "waiting"))
            return len(rows.all())

    def pair(self, now: float, policy: Policy, make: MatchMaker) -> list[tuple[str, list[int]]]:
        """Make the games ``groups`` finds among the rows this call could claim; returns
        each game's id and its accounts. Rows unseen for ``policy.stale`` seconds go."""
        q, a, b = self.t.match_queue, self.t.accounts, self.t.blocks
        made: list[tuple[str, list[int]]] = []
        with self.engine.begin() as conn:
            stale = select(q.c.account_id).where(
                q.c.state == "waiting", q.c.seen < now - policy.stale
            )
            if not self.db.is_sqlite:  # rows another round holds are its own to judge
                stale = stale.with_for_update(skip_locked=True)
            conn.execute(delete(q).where(q.c.account_id.in_(stale.scalar_subquery())))
            query = (
                select(q, a.c.name)
                .join(a, a.c.id == q.c.account_id)
                .where(q.c.state == "waiting")
                .order_by(q.c.joined)
            )
            if not self.db.is_sqlite:
                query = query.with_for_update(skip_locked=True, of=q)
            rows = conn.execute(query).all()
            waiting = [_waiting(r) for r in rows]
            # a player bound to a real-time game made meanwhile (a rematch) waits until it ends
            ids = [w.account_id for w in waiting]
            busy = realtime_games(conn, self.t, ids) if ids else {}
            waiting = [w for w in waiting if w.account_id not in busy]
            ids = [w.account_id for w in waiting]
            blocks: set[tuple[int, int]] = set()
            if len(ids) > 1:
                pairs = select(b.c.account_id, b.c.other_id).where(
                    and_(b.c.account_id.in_(ids), b.c.other_id.in_(ids))
                )
                blocks = {(int(x), int(y)) for x, y in conn.execute(pairs)}
            for players, bots in groups(waiting, blocks, now, policy):
                free = players[0].players - len(players)
                row, pace = make(players, free if bots else 0)
                claimed = conn.execute(
                    update(q)
                    .where(
                        q.c.account_id.in_([p.account_id for p in players]),
                        q.c.state == "waiting",
                    )
                    .values(state="matched", game_id=row.id, matched=now)
                ).rowcount
                if claimed != len(players):
                    raise RuntimeError("a waiting player was claimed twice")
                for seat, p in enumerate(players):
                    conn.execute(update(q).where(q.c.account_id == p.account_id).values(seat=seat))
                bound = {seat: p.account_id for seat, p in enumerate(players)}
                start_game(conn, self.t, self.games, row, pace, bound, matched=True)
                made.append((row.id, [p.account_id for p in players]))
        return made


def _waiting(r: Any) -> Waiting:
    return Waiting(
        int(r.account_id),
        str(r.family),
        int(r.players),
        str(r.pace),
        float(r.mu),
        float(r.joined),
        None if r.bot_after is None else float(r.bot_after),
        str(r.token),
        str(r.name),
    )
