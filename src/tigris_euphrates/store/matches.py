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

from .database import Database
from .games import GameRow, Games
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


@dataclass
class QueueState:
    """An account's place in the queue: waiting, or matched into ``game_id`` at ``seat``."""

    state: str
    family: str
    players: int
    pace: str
    joined: float
    bot_after: float | None
    game_id: str | None
    seat: int | None


#: One game the matchmaker makes: its players in seat order, and whether bots fill it.
Group = tuple[list[Waiting], bool]
#: Builds a match's game: its players and the seats bots fill; returns it and its pace.
MatchMaker = Callable[[list[Waiting], int], tuple[GameRow, dict[str, Any] | None]]


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
        """Put the account in the queue (replacing whatever it waited for before, and a
        match it was told of already)."""
        q = self.t.match_queue
        with self.engine.begin() as conn:
            conn.execute(delete(q).where(q.c.account_id == w.account_id))
            conn.execute(
                insert(q).values(
                    account_id=w.account_id,
                    family=w.family,
                    players=w.players,
                    pace=w.pace,
                    mu=w.mu,
                    joined=now,
                    seen=now,
                    bot_after=w.bot_after,
                    token=w.token,
                    state="waiting",
                )
            )

    def leave(self, account_id: int) -> bool:
        """Leave the queue; ``False`` when the account was not waiting (matched already)."""
        q = self.t.match_queue
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(q).where(q.c.account_id == account_id, q.c.state == "waiting")
            ).rowcount
        return bool(gone)

    def state(self, account_id: int) -> QueueState | None:
        q = self.t.match_queue
        with self.engine.connect() as conn:
            r = conn.execute(select(q).where(q.c.account_id == account_id)).first()
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
                start_game(conn, self.t, self.games, row, pace, bound)
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
