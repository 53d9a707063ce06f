"""Live events (``Store.events``): arenas and Swiss tournaments, their entrants, their games
and byes. The rules of pairing and scoring are pure functions (``tigris_euphrates.pairings``);
this module keeps what they need and what they decided.

Every change of an event's pairing (``EventStep``: results read, games made, byes given, the
round moved on) is one transaction that first takes the event's lock (on PostgreSQL
``pg_advisory_xact_lock``; SQLite writes one transaction at a time), and so do a join and a
leave: whatever process does it, a join either comes wholly before a pairing or after it,
and two pairings of one event never overlap. Which process pairs is ``Leadership``'s
business; this lock is what makes a second one harmless.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection

from ..pairings import PAIRING_BYE_POINTS
from .database import Database
from .eventbackup import EventBackup
from .eventrows import (
    EntrantRow,
    EventBye,
    EventGameRow,
    EventRefused,
    EventRow,
    EventState,
    EventStep,
    NewGame,
    event_row,
    event_values,
)
from .games import Games, realtime_games
from .logentry import Abort, decode
from .ratings import places
from .tables import start_game

#: The first key of the per-event PostgreSQL advisory locks.
EVENT_LOCK = 0x7E48
#: The first key of the per-maker locks of ``Events.create``.
MAKER_LOCK = 0x7E4A
#: A Swiss event takes late entrants until this round has been paired.
LATE_JOIN_ROUNDS = 2


class Events:
    """The events of one database."""

    def __init__(self, db: Database, games: Games) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables
        self.games = games
        #: the events read and written whole for the operator's backup
        self.backup = EventBackup(self)

    # --- reading --------------------------------------------------------------------------

    def get(self, event_id: str) -> EventRow | None:
        with self.engine.connect() as conn:
            rows = self._events(conn, self.t.events.c.id == event_id)
        return rows[0] if rows else None

    def listing(self, finished: int = 20) -> list[EventRow]:
        """The public events: those to come or under way by start, then the newest
        ``finished`` finished ones."""
        e = self.t.events
        with self.engine.connect() as conn:
            live = self._events(conn, e.c.state != "finished")
            done = self._events(conn, e.c.state == "finished", newest=finished)
        return [r for r in live + done if not r.settings["private"]]

    def due(self) -> list[str]:
        """The events the pairing looks at: scheduled or running."""
        e = self.t.events
        with self.engine.connect() as conn:
            rows = conn.execute(select(e.c.id).where(e.c.state != "finished").order_by(e.c.starts))
            return [str(r.id) for r in rows]

    def state(self, event_id: str) -> EventState | None:
        """The event, its entrants, games and byes as they are (for its page)."""
        with self.engine.connect() as conn:
            found = self._events(conn, self.t.events.c.id == event_id)
            if not found:
                return None
            return EventState(
                found[0],
                self._entrants(conn, event_id),
                self._games(conn, event_id),
                self._byes(conn, event_id),
            )

    def entrants(self, event_id: str) -> list[EntrantRow]:
        with self.engine.connect() as conn:
            return self._entrants(conn, event_id)

    def games_of(self, event_id: str) -> list[EventGameRow]:
        with self.engine.connect() as conn:
            return self._games(conn, event_id)

    def byes(self, event_id: str) -> list[EventBye]:
        with self.engine.connect() as conn:
            return self._byes(conn, event_id)

    def entered(self, account_id: int) -> list[str]:
        """The events under way or to come that the account entered (and has not left)."""
        e, n = self.t.events, self.t.event_entrants
        query = (
            select(e.c.id)
            .select_from(n.join(e, e.c.id == n.c.event_id))
            .where(n.c.account_id == account_id, e.c.state != "finished", n.c.state == "active")
        )
        with self.engine.connect() as conn:
            return [str(r.id) for r in conn.execute(query)]

    def _events(self, conn: Connection, where: Any, newest: int | None = None) -> list[EventRow]:
        e, a, n = self.t.events, self.t.accounts, self.t.event_entrants
        count = (
            select(func.count())
            .where(n.c.event_id == e.c.id, n.c.state != "withdrawn")
            .scalar_subquery()
        )
        query = (
            select(e, a.c.name.label("maker_name"), count.label("entrants"))
            .select_from(e.outerjoin(a, a.c.id == e.c.maker))
            .where(where)
        )
        if newest is not None:
            query = query.order_by(e.c.starts.desc()).limit(newest)
        else:
            query = query.order_by(e.c.starts, e.c.id)
        return [event_row(r) for r in conn.execute(query)]

    def _entrants(self, conn: Connection, event_id: str) -> list[EntrantRow]:
        n, a = self.t.event_entrants, self.t.accounts
        query = (
            select(n, a.c.name)
            .select_from(n.join(a, a.c.id == n.c.account_id))
            .where(n.c.event_id == event_id)
            .order_by(n.c.joined, n.c.account_id)
        )
        return [
            EntrantRow(
                int(r.account_id),
                str(r.name),
                str(r.state),
                float(r.rating),
                bool(r.bot),
                float(r.joined),
            )
            for r in conn.execute(query)
        ]

    def _games(self, conn: Connection, event_id: str) -> list[EventGameRow]:
        g = self.t.event_games
        query = select(g).where(g.c.event_id == event_id).order_by(g.c.created, g.c.game_id)
        return [
            EventGameRow(
                str(r.game_id),
                None if r.round is None else int(r.round),
                [int(x) for x in json.loads(r.seats)],
                str(r.state),
                None if r.ranks is None else [int(x) for x in json.loads(r.ranks)],
                float(r.created),
                None if r.ended is None else float(r.ended),
            )
            for r in conn.execute(query)
        ]

    def _byes(self, conn: Connection, event_id: str) -> list[EventBye]:
        b = self.t.event_byes
        query = select(b).where(b.c.event_id == event_id).order_by(b.c.round, b.c.account_id)
        return [
            EventBye(int(r.round), int(r.account_id), float(r.points)) for r in conn.execute(query)
        ]

    # --- changing ---------------------------------------------------------------------------

    @contextmanager
    def _locked(self, event_id: str) -> Iterator[Connection]:
        """A transaction holding the event's lock to its end."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                key = zlib.crc32(event_id.encode()) & 0x7FFFFFFF
                conn.execute(
                    text("SELECT pg_advisory_xact_lock(:space, :key)"),
                    {"space": EVENT_LOCK, "key": key},
                )
            yield conn

    def create(self, row: EventRow, limit: int | None = None) -> None:
        """Store a new event; with a ``limit``, refused (``too-many-events``) when its maker
        already has that many to come or under way: counted and stored in one transaction
        holding a lock on the maker, so two requests at once cannot both pass."""
        e = self.t.events
        with self.engine.begin() as conn:
            if limit is not None:
                if conn.dialect.name == "postgresql":
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(:space, :key)"),
                        {"space": MAKER_LOCK, "key": row.maker},
                    )
                made = conn.execute(
                    select(func.count()).where(e.c.maker == row.maker, e.c.state != "finished")
                ).scalar()
                if int(made or 0) >= limit:
                    raise EventRefused(
                        "too-many-events",
                        f"at most {limit} of your events may be to come or under way at once",
                        429,
                    )
            conn.execute(insert(e).values(**event_values(row)))

    def join(
        self, event_id: str, account_id: int, rating: float, bot: bool, now: float
    ) -> EntrantRow:
        """Enter the account (or take a paused arena entrant back). Refused once the
        event finished, after a Swiss event's late-join rounds, and for a Swiss entrant
        who withdrew."""
        n = self.t.event_entrants
        with self._locked(event_id) as conn:
            event = self._events(conn, self.t.events.c.id == event_id)[0]
            if event.state == "finished" or (event.ends is not None and now >= event.ends):
                raise EventRefused("event-closed", "this event is over")
            was = conn.execute(
                select(n.c.state).where(n.c.event_id == event_id, n.c.account_id == account_id)
            ).scalar()
            if event.kind == "swiss" and was is None and event.round >= LATE_JOIN_ROUNDS:
                raise EventRefused(
                    "event-closed",
                    f"this Swiss event takes no more entrants after round {LATE_JOIN_ROUNDS}",
                )
            if event.kind == "swiss" and was == "withdrawn":
                raise EventRefused("event-closed", "you withdrew from this Swiss event")
            if was is None:
                conn.execute(
                    insert(n).values(
                        event_id=event_id,
                        account_id=account_id,
                        state="active",
                        rating=rating,
                        bot=int(bot),
                        joined=now,
                    )
                )
            else:
                where = and_(n.c.event_id == event_id, n.c.account_id == account_id)
                conn.execute(update(n).where(where).values(state="active"))
            return next(e for e in self._entrants(conn, event_id) if e.account_id == account_id)

    def leave(self, event_id: str, account_id: int) -> str | None:
        """An arena's entrant pauses, a Swiss entrant withdraws (before the start, it is
        simply no longer entered); the new state, or ``None`` when it was not entered."""
        n = self.t.event_entrants
        where = and_(n.c.event_id == event_id, n.c.account_id == account_id)
        with self._locked(event_id) as conn:
            event = self._events(conn, self.t.events.c.id == event_id)[0]
            was = conn.execute(select(n.c.state).where(where)).scalar()
            if was is None:
                return None
            if event.state == "scheduled":
                conn.execute(delete(n).where(where))
                return None
            state = "paused" if event.kind == "arena" else "withdrawn"
            conn.execute(update(n).where(where).values(state=state))
            return state

    def step(
        self, event_id: str, now: float, decide: Callable[[EventState], EventStep]
    ) -> EventStep:
        """One pairing of the event in one locked transaction: the results of its games
        that ended are read, ``decide`` sees the event as it is now, and what it decided is
        stored (games whose accounts turned out busy elsewhere are dropped)."""
        with self._locked(event_id) as conn:
            found = self._events(conn, self.t.events.c.id == event_id)
            if not found or found[0].state == "finished":
                return EventStep()
            self._settle(conn, found[0], now)
            entrants = self._entrants(conn, event_id)
            state = EventState(found[0], entrants, self._games(conn, event_id))
            state.byes = self._byes(conn, event_id)
            ids = [e.account_id for e in entrants]
            state.busy = set(realtime_games(conn, self.t, ids)) if ids else set()
            playing = {a for g in state.games if g.state == "playing" for a in g.seats}
            state.busy -= playing  # their own event game is not "elsewhere"
            step = decide(state)
            self._store_step(conn, state, step)
            return step

    def _settle(self, conn: Connection, event: EventRow, now: float) -> None:
        """The event's games that ended since: "over" with each seat's place, or
        "aborted". A rated opening abandoned by one seat (``logentry.Abort``) costs that
        entrant its place: an arena's is paused, a Swiss entrant withdrawn with nothing for
        the round, and in a Swiss event the others of that game score as for a bye."""
        eg, g = self.t.event_games, self.t.games
        query = (
            select(eg.c.game_id, g.c.status, g.c.result, eg.c.seats, eg.c.round)
            .select_from(eg.join(g, g.c.id == eg.c.game_id))
            .where(eg.c.event_id == event.id, eg.c.state == "playing", g.c.status != "active")
        )
        for r in conn.execute(query).all():
            seats = [int(x) for x in json.loads(r.seats)]
            result = json.loads(r.result) if r.result else None
            if r.status == "over" and result and result.get("ranking"):
                ranks = [p - 1 for p in places(result["ranking"], len(seats))]
                values: dict[str, Any] = {"state": "over", "ranks": json.dumps(ranks), "ended": now}
            else:
                values = {"state": "aborted", "ended": now}
                quitter = self._quitter(conn, str(r.game_id))
                if quitter is not None and quitter < len(seats):
                    self._forfeit(conn, event, seats, seats[quitter], r.round)
            conn.execute(update(eg).where(eg.c.game_id == r.game_id).values(**values))

    def _quitter(self, conn: Connection, game_id: str) -> int | None:
        """The seat that gave up a rated game's opening, if that is how it was aborted."""
        a = self.t.actions
        last = conn.execute(
            select(a.c.action).where(a.c.game_id == game_id).order_by(a.c.seq.desc()).limit(1)
        ).scalar()
        try:
            entry = decode(str(last)) if last is not None else None
        except ValueError:
            return None
        return entry.seat if isinstance(entry, Abort) else None

    def _forfeit(
        self, conn: Connection, event: EventRow, seats: list[int], quitter: int, round_: Any
    ) -> None:
        n, b = self.t.event_entrants, self.t.event_byes
        state = "paused" if event.kind == "arena" else "withdrawn"
        where = and_(n.c.event_id == event.id, n.c.account_id == quitter)
        conn.execute(update(n).where(where).values(state=state))
        if event.kind != "swiss" or round_ is None:
            return
        for account in seats:
            points = 0.0 if account == quitter else float(PAIRING_BYE_POINTS)
            conn.execute(
                insert(b).values(
                    event_id=event.id, round=int(round_), account_id=account, points=points
                )
            )

    def _store_step(self, conn: Connection, state: EventState, step: EventStep) -> None:
        event = state.event
        e, eg, n = self.t.events, self.t.event_games, self.t.event_entrants
        made: list[NewGame] = []
        for new in step.games:
            if realtime_games(conn, self.t, new.seats):
                continue  # one of them sat down elsewhere meanwhile: paired again later
            bound = dict(enumerate(new.seats))
            start_game(conn, self.t, self.games, new.row, new.pace, bound)
            conn.execute(
                insert(eg).values(
                    game_id=new.row.id,
                    event_id=event.id,
                    round=step.round if event.kind == "swiss" else None,
                    seats=json.dumps(new.seats),
                    state="playing",
                    created=new.row.created,
                )
            )
            made.append(new)
        step.games = made
        for bye in step.byes:
            conn.execute(
                insert(self.t.event_byes).values(
                    event_id=event.id, round=bye.round, account_id=bye.account_id, points=bye.points
                )
            )
        if step.pause:
            where = and_(n.c.event_id == event.id, n.c.account_id.in_(step.pause))
            conn.execute(update(n).where(where).values(state="paused"))
        values: dict[str, Any] = {}
        if step.round is not None:
            values["round"] = step.round
        if step.state is not None:
            values["state"] = step.state
        if values:
            conn.execute(update(e).where(e.c.id == event.id).values(**values))

    def repeat(self, event_id: str, make: Callable[[EventRow], EventRow]) -> EventRow | None:
        """The next occurrence of a recurring event, made once (``make`` gives it from
        this one), or ``None`` when it is not recurring or was made already."""
        e = self.t.events
        with self._locked(event_id) as conn:
            found = self._events(conn, e.c.id == event_id)
            if not found or found[0].next_id or not found[0].settings["repeat_minutes"]:
                return None
            nxt = make(found[0])
            conn.execute(insert(e).values(**event_values(nxt)))
            conn.execute(update(e).where(e.c.id == event_id).values(next_id=nxt.id))
            return nxt

    def game_event(self, game_id: str) -> str | None:
        """The event whose game this is, if any."""
        eg = self.t.event_games
        with self.engine.connect() as conn:
            found = conn.execute(select(eg.c.event_id).where(eg.c.game_id == game_id)).scalar()
        return None if found is None else str(found)

    def visible(self, event_id: str, account_id: int | None, invite: str | None) -> bool:
        """Whether a private event may be shown: to its maker, its entrants and whoever
        holds its invitation."""
        event = self.get(event_id)
        if event is None:
            return False
        if not event.settings["private"] or (invite is not None and invite == event.invite):
            return True
        if account_id is None:
            return False
        n = self.t.event_entrants
        with self.engine.connect() as conn:
            entered = conn.execute(
                select(n.c.account_id).where(n.c.event_id == event_id, n.c.account_id == account_id)
            ).first()
        return account_id == event.maker or entered is not None
