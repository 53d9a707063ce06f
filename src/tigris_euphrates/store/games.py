"""The games and their logs: a ``games`` row (options, seed, seats) plus its ``actions`` rows
keyed by ``PRIMARY KEY (game_id, seq)``. The state is always the replay of the log, and a
second writer of the same step fails at the database (``StepTaken``), even across processes.

Rows hold only what a replay needs (options, seed, the actions in notation) plus the seats
(kind, bot level, name and the SHA-256 of each seat's secret token: the tokens themselves are
never stored).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, case, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .database import Database, libpq_url, repair_text
from .gamebackup import GameBackup
from .logentry import LogEntry, decode
from .rows import GameOptions, GameResult, StoredSeat, TableSettings, read_seats
from .schema import Tables as TableSet

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("tigris_euphrates.store")


class StepTaken(Exception):
    """Another writer already stored this step of the game (the (game, seq) key exists)."""

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"step {seq} of game {game_id} is already stored")
        self.game_id = game_id
        self.seq = seq


class UnknownGame(KeyError):
    pass


class PlayerBusy(Exception):
    """A real-time rematch's player plays another real-time game (``game_id``) now."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


#: The first key of the PostgreSQL advisory locks that ``realtime_games`` takes per account.
REALTIME_CLAIM = 0x7E47


def realtime_games(
    conn: Connection, t: TableSet, account_ids: list[int], besides: str = ""
) -> dict[int, str]:
    """Those of the accounts that hold a seat in a real-time game under way (other than
    ``besides``), whatever made it (a quick match, a challenge, a table, a rematch), and
    such a game of each.

    Every way of making or joining a real-time game asks this in the transaction that
    stores it, so on PostgreSQL it first takes, for each account in the order of their ids,
    a lock held until that transaction ends (``pg_advisory_xact_lock``): two transactions
    that would each put one account in a new real-time game at the same moment (a challenge
    accepted as a table fills, a rematch as a quick match pairs) ask one after the other,
    and the second sees the first's game. (SQLite runs one writing transaction at a time.)"""
    if conn.dialect.name == "postgresql":
        claim = text("SELECT pg_advisory_xact_lock(:space, :account)")
        for account in sorted(set(account_ids)):
            conn.execute(claim, {"space": REALTIME_CLAIM, "account": account})
    s, g, c = t.account_seats, t.games, t.clocks
    query = (
        select(s.c.account_id, g.c.id, c.c.pace)
        .select_from(s.join(g, g.c.id == s.c.game_id).join(c, c.c.game_id == g.c.id))
        .where(s.c.account_id.in_(account_ids), g.c.status == "active", g.c.id != besides)
    )
    busy: dict[int, str] = {}
    for r in conn.execute(query):
        if json.loads(r.pace).get("kind") == "realtime":
            busy[int(r.account_id)] = str(r.id)
    return busy


class RematchTaken(Exception):
    """The game has its rematch already (``rematch``: its id); nothing was created."""

    def __init__(self, game_id: str, rematch: str) -> None:
        super().__init__(f"game {game_id} has its rematch already: {rematch}")
        self.game_id = game_id
        self.rematch = rematch


@dataclass
class GameRow:
    id: str
    options: GameOptions
    seed: int
    seats: list[StoredSeat]
    status: str
    created: float
    result: GameResult | None = None
    actions: list[tuple[int, int | None, str]] = field(default_factory=list)
    #: SHA-256 of the creator's secret token (``None``: a game without one)
    creator: str | None = None
    #: who chose the seed: ``"server"`` (secret) or ``"client"``
    seed_source: str = "server"
    #: who created the game (a hash of its address; ``""``: unknown)
    client: str = ""
    #: the result changes the players' ratings (``store/ratings.py``)
    rated: bool = False
    #: whether the public lobby lists the game (its creator chose so)
    listed: bool = True
    #: the table's settings: ``chat`` (who may write), ``rematch`` (the rematch's id) and,
    #: for a quick match's game, ``quick`` (its pace: ``"realtime"`` or ``"turn"``)
    settings: TableSettings = field(default_factory=lambda: TableSettings())


class Games:
    """The games of one database and their action logs."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.table = db.tables.games
        self.actions = db.tables.actions
        #: whole games read and written for the operator's backup
        self.backup = GameBackup(self)
        #: called with a game's id after it is stored as finished (the ratings)
        self.finish_hooks: list[Callable[[str], object]] = []
        #: the log's write on PostgreSQL, one statement: the entry, the game's time of
        #: change (and bot seats), and the announcement with the entry itself (the other
        #: processes need not read it back); sent by psycopg as a prepared statement
        self._append_sql = (
            f'WITH entry AS (INSERT INTO "{self.actions.name}" (game_id, seq, seat, action, '
            "created) VALUES (%s, %s, %s, %s, %s) RETURNING game_id), "
            f'changed AS (UPDATE "{self.table.name}" SET updated = %s, '
            "bots = COALESCE(CAST(%s AS INTEGER), bots) "
            "WHERE id = (SELECT game_id FROM entry) RETURNING id) "
            "SELECT pg_notify(%s, %s) FROM changed"
        )
        #: each database thread's own connection and cursor for ``append`` (PostgreSQL)
        self._appender = threading.local()
        self._appender_conns: list[psycopg.Connection[Any]] = []

    def close(self) -> None:
        """Close the log writers' own connections."""
        for conn in self._appender_conns:
            conn.close()
        self._appender_conns.clear()

    # --- writes ---------------------------------------------------------------------------

    def create(
        self,
        game_id: str,
        options: GameOptions,
        seed: int,
        seats: list[StoredSeat],
        creator: str | None = None,
        seed_source: str | None = None,
        client: str | None = None,
        listed: bool = True,
        settings: TableSettings | None = None,
        rated: bool = False,
        now: float | None = None,
        rematch_of: str | None = None,
        bound: dict[int, int] | None = None,
    ) -> None:
        """A new game; ``seats`` are the seats it starts with (changes go to the log),
        ``creator`` the hash of the creator's token, ``seed_source`` ``"client"`` when a
        client chose the seed, ``client`` who created it (for the per-client limits),
        ``listed`` whether the public lobby shows it, ``settings`` the table's settings;
        ``rated`` whether its result changes the players' ratings; ``now`` when (default:
        the time now; the clocks of timed games start then). ``rematch_of``: the game is
        that game's rematch, recorded in its settings in the same transaction; raises
        ``RematchTaken`` (and creates nothing) when that game has its rematch already.
        ``bound``: seat -> account of the seats bound to accounts from the start."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            if rematch_of is not None:
                self._claim_rematch(conn, rematch_of, game_id)
                self._check_free(conn, game_id, sorted(set((bound or {}).values())))
            self.insert(
                conn,
                GameRow(
                    game_id,
                    options,
                    seed,
                    seats,
                    "active",
                    now,
                    creator=creator,
                    seed_source=seed_source or "server",
                    client=client or "",
                    rated=rated,
                    listed=listed,
                    settings=settings or {},
                ),
                seed_source=seed_source,
            )
            if bound:
                conn.execute(
                    insert(self.db.tables.account_seats),
                    [
                        {"game_id": game_id, "seat": s, "account_id": a, "created": now}
                        for s, a in bound.items()
                    ],
                )

    def _check_free(self, conn: Connection, game_id: str, accounts: list[int]) -> None:
        """Raise ``PlayerBusy`` when the real-time rematch ``game_id`` (its pace stored
        already) has a player who plays another real-time game now."""
        c = self.db.tables.clocks
        pace = conn.execute(select(c.c.pace).where(c.c.game_id == game_id)).scalar()
        if not accounts or pace is None or json.loads(pace).get("kind") != "realtime":
            return
        busy = realtime_games(conn, self.db.tables, accounts, besides=game_id)
        if busy:
            raise PlayerBusy(next(iter(busy.values())))

    def insert(self, conn: Connection, row: GameRow, seed_source: str | None = None) -> None:
        """Insert the new game ``row`` in the caller's transaction (an open table that
        fills, a quick match: the game is stored with the claim that makes it)."""
        conn.execute(
            insert(self.table).values(
                id=row.id,
                created=row.created,
                updated=row.created,
                options=json.dumps(row.options),
                seed=str(row.seed),
                seats=json.dumps(row.seats),
                status="active",
                result=None,
                creator=row.creator,
                seed_source=seed_source,
                client=row.client or None,
                bots=sum(1 for seat in row.seats if seat.get("kind") == "bot"),
                listed=1 if row.listed else 0,
                settings=json.dumps(row.settings),
                rated=1 if row.rated else None,
            )
        )

    def _claim_rematch(self, conn: Connection, game_id: str, rematch: str) -> None:
        """Record ``rematch`` as the rematch of ``game_id`` in the caller's transaction, or
        raise ``RematchTaken``. The game's row is locked first (``FOR UPDATE`` on
        PostgreSQL): a second process claiming at the same moment waits for the first
        one's transaction, then reads its rematch. SQLite serves one process, whose
        writes one database thread makes in turn."""
        t = self.table
        query = select(t.c.settings).where(t.c.id == game_id).with_for_update()
        row = conn.execute(query).first()
        if row is None:
            raise UnknownGame(game_id)
        settings = json.loads(row.settings) if row.settings else {}
        settings = settings if isinstance(settings, dict) else {}
        existing = settings.get("rematch")
        if isinstance(existing, str):
            raise RematchTaken(game_id, existing)
        settings["rematch"] = rematch
        conn.execute(update(t).where(t.c.id == game_id).values(settings=json.dumps(settings)))

    def append(
        self,
        game_id: str,
        seq: int,
        seat: int | None,
        action: str,
        now: float | None = None,
        bots: int | None = None,
        notice: str = "",
    ) -> None:
        """Store entry ``seq`` (1-based) of the game's log: an action, an ``undo`` or a seat
        change; raises ``StepTaken`` if it exists already. On PostgreSQL the same
        transaction announces the entry on ``channel`` (``NOTIFY``, delivered when it
        commits) with ``notice``, the message the other processes read (the server writes
        it). ``now``: when (default: the time now; the clocks of timed games are replayed
        from these times). ``bots``: the game's bot seats after a seat change, stored with
        it (the per-client limit on bot games counts the games that run a bot now)."""
        now = time.time() if now is None else now
        changed: dict[str, float | int] = {"updated": now}
        if bots is not None:
            changed["bots"] = bots
        try:
            if self.db.is_sqlite:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(self.actions).values(
                            game_id=game_id, seq=seq, seat=seat, action=action, created=now
                        )
                    )
                    conn.execute(
                        update(self.table).where(self.table.c.id == game_id).values(**changed)
                    )
                return
            self._append_pg((game_id, seq, seat, action, now, now, bots, self.db.channel, notice))
        except IntegrityError as exc:
            raise StepTaken(game_id, seq) from exc

    def _append_pg(self, params: tuple[Any, ...]) -> None:
        """Run the log's write on this thread's own psycopg connection, in one round trip
        and one transaction (autocommit), through the same cursor every time (a new cursor
        per write cost a third of psycopg's share). The pool's checkout, its ping (a second
        round trip) and SQLAlchemy's statement handling cost more server time than the
        write itself: a move is the hottest path of the server. A connection found broken
        is replaced and the write tried once more on the new one; if the first try had
        committed after all, the second finds the step taken (``StepTaken``) and the caller
        reads the log on, as it does when another process wrote the step."""
        import psycopg

        for attempt in (0, 1):
            cur = self._append_cursor()
            try:
                cur.execute(self._append_sql, params, prepare=True)
                return
            except psycopg.IntegrityError as exc:
                raise StepTaken(str(params[0]), int(params[1])) from exc
            except psycopg.OperationalError:
                conn = cur.connection
                if not conn.closed and not conn.broken:
                    raise
                self._appender.cur = None
                if attempt:
                    raise

    def _append_cursor(self) -> psycopg.Cursor[Any]:
        """This thread's cursor for ``append``, on its own connection (a new one once the
        connection broke)."""
        cur: psycopg.Cursor[Any] | None = getattr(self._appender, "cur", None)
        if cur is None or cur.connection.closed or cur.connection.broken:
            import psycopg

            conn = psycopg.connect(
                libpq_url(self.db.url),
                autocommit=True,
                application_name=f"tne-log-{self.db.prefix[:32]}",
            )
            self._appender_conns.append(conn)
            cur = self._appender.cur = conn.cursor()
        return cur

    def finish(self, game_id: str, result: GameResult | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(self.table)
                .where(self.table.c.id == game_id)
                .values(status="over", result=json.dumps(result), updated=time.time())
            )
        for hook in self.finish_hooks:
            try:
                hook(game_id)
            except Exception:  # the game is over whatever a hook does; the hook retries
                log.exception("after the end of game %s", game_id)

    def mark_aborted(self, game_id: str) -> None:
        """The game was stopped (its log ends with an abort entry: a moderator's, a
        player's before everybody moved, or a seat's giving up in a rated game's opening):
        it is no longer active, and unrated (its result never changes a rating)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(self.table)
                .where(self.table.c.id == game_id)
                .values(status="aborted", rated=None, updated=time.time())
            )

    def set_settings(self, game_id: str, settings: TableSettings) -> None:
        """Replace the game's table settings (e.g. when a rematch is created)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(self.table)
                .where(self.table.c.id == game_id)
                .values(settings=json.dumps(settings))
            )

    def set_seat_name(self, game_id: str, seat: int, name: str) -> None:
        """Name a seat of the game (a guest's nickname); the seats row is read and written
        in one transaction, the row locked (PostgreSQL), so two names set at once both
        stay. Raises ``UnknownGame``."""
        t = self.table
        with self.engine.begin() as conn:
            query = select(t.c.seats).where(t.c.id == game_id)
            if self.engine.dialect.name == "postgresql":
                query = query.with_for_update()
            row = conn.execute(query).first()
            if row is None:
                raise UnknownGame(game_id)
            seats = json.loads(row.seats)
            seats[seat]["name"] = name
            conn.execute(update(t).where(t.c.id == game_id).values(seats=json.dumps(seats)))

    def seat_names(self, game_id: str) -> list[str]:
        """Each seat's stored name (``""``: none chosen); raises ``UnknownGame``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(self.table.c.seats).where(self.table.c.id == game_id)).first()
        if row is None:
            raise UnknownGame(game_id)
        return [str(repair_text(seat.get("name") or "")) for seat in json.loads(row.seats)]

    def settings(self, game_id: str) -> TableSettings:
        """The game's table settings as stored (``set_settings``); raises ``UnknownGame``."""
        with self.engine.connect() as conn:
            query = select(self.table.c.settings).where(self.table.c.id == game_id)
            row = conn.execute(query).first()
        if row is None:
            raise UnknownGame(game_id)
        return _settings(row.settings)

    def load(self, game_id: str) -> GameRow:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.table).where(self.table.c.id == game_id)).first()
            if row is None:
                raise UnknownGame(game_id)
            acts = conn.execute(
                select(self.actions.c.seq, self.actions.c.seat, self.actions.c.action)
                .where(self.actions.c.game_id == game_id)
                .order_by(self.actions.c.seq)
            ).all()
        game = _row(row)
        game.actions = [(int(a.seq), a.seat, str(a.action)) for a in acts]
        return game

    def exists(self, game_id: str) -> bool:
        """Whether a game ``game_id`` exists (one indexed lookup, nothing loaded)."""
        with self.engine.connect() as conn:
            query = select(self.table.c.id).where(self.table.c.id == game_id)
            return conn.execute(query).first() is not None

    def rows_after(self, game_id: str, seq: int) -> list[tuple[int, int | None, LogEntry]]:
        """The game's log entries after ``seq``, in order, read (``logentry.decode``): what a
        process whose copy is at ``seq`` has not applied yet."""
        a = self.actions.c
        query = (
            select(a.seq, a.seat, a.action).where(a.game_id == game_id, a.seq > seq).order_by(a.seq)
        )
        with self.engine.connect() as conn:
            return [(int(r.seq), r.seat, decode(str(r.action))) for r in conn.execute(query)]

    def last_seqs(self, game_ids: list[str]) -> dict[str, int]:
        """The last log entry of each game (games without entries are left out)."""
        if not game_ids:
            return {}
        a = self.actions.c
        query = (
            select(a.game_id, func.max(a.seq)).where(a.game_id.in_(game_ids)).group_by(a.game_id)
        )
        with self.engine.connect() as conn:
            return {str(gid): int(seq) for gid, seq in conn.execute(query)}

    def ids(self, status: str | None = None) -> list[str]:
        query = select(self.table.c.id).order_by(self.table.c.created)
        if status is not None:
            query = query.where(self.table.c.status == status)
        with self.engine.connect() as conn:
            return [str(r.id) for r in conn.execute(query)]

    def page(self, limit: int = 50, before: tuple[float, str] | None = None) -> list[GameRow]:
        """A page of the games the lobby lists (``listed``), newest first: at most ``limit``
        created before ``before`` (the ``(created, id)`` of the last game of the previous
        page)."""
        g = self.table.c
        query = (
            select(self.table)
            .where(or_(g.listed.is_(None), g.listed != 0))
            .order_by(g.created.desc(), g.id.desc())
        )
        if before is not None:
            created, game_id = before
            query = query.where(
                or_(
                    self.table.c.created < created,
                    and_(self.table.c.created == created, self.table.c.id < game_id),
                )
            )
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query.limit(limit))]

    def recent_of(self, client: str, since: float) -> tuple[int, int]:
        """How many unfinished games ``client`` created that changed after ``since``, and
        how many of them have a bot seat now (``bots`` follows the seat changes)."""
        g = self.table.c
        query = select(
            func.count(), func.coalesce(func.sum(case((g.bots > 0, 1), else_=0)), 0)
        ).where(g.client == client, g.status == "active", g.updated > since)
        with self.engine.connect() as conn:
            games, bots = conn.execute(query).one()
        return int(games), int(bots)


def _settings(text: str | None) -> TableSettings:
    """A game's table settings as stored (``{}``: none, or not an object)."""
    settings: TableSettings = json.loads(text) if text else {}
    return settings if isinstance(settings, dict) else {}


def _row(row: Any) -> GameRow:
    return GameRow(
        id=str(row.id),
        options=json.loads(row.options),
        seed=int(row.seed),
        seats=read_seats(row.seats),
        status=str(row.status),
        created=float(row.created),
        result=json.loads(row.result) if row.result else None,
        creator=row.creator,
        seed_source=row.seed_source or "server",
        client=row.client or "",
        listed=row.listed is None or bool(row.listed),
        settings=_settings(row.settings),
        rated=bool(row.rated),
    )
