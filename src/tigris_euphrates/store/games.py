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

from sqlalchemy import and_, case, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .database import Database, libpq_url, repair_text

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


class RematchTaken(Exception):
    """The game has its rematch already (``rematch``: its id); nothing was created."""

    def __init__(self, game_id: str, rematch: str) -> None:
        super().__init__(f"game {game_id} has its rematch already: {rematch}")
        self.game_id = game_id
        self.rematch = rematch


@dataclass
class GameRow:
    id: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str
    created: float
    result: dict[str, Any] | None = None
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
    #: the table's settings: ``chat`` (who may write) and ``rematch`` (the rematch's id)
    settings: dict[str, Any] = field(default_factory=dict)


class Games:
    """The games of one database and their action logs."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.table = db.tables.games
        self.actions = db.tables.actions
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
        options: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        creator: str | None = None,
        seed_source: str | None = None,
        client: str | None = None,
        listed: bool = True,
        settings: dict[str, Any] | None = None,
        rated: bool = False,
        now: float | None = None,
        rematch_of: str | None = None,
    ) -> None:
        """A new game; ``seats`` are the seats it starts with (changes go to the log),
        ``creator`` the hash of the creator's token, ``seed_source`` ``"client"`` when a
        client chose the seed, ``client`` who created it (for the per-client limits),
        ``listed`` whether the public lobby shows it, ``settings`` the table's settings;
        ``rated`` whether its result changes the players' ratings; ``now`` when (default:
        the time now; the clocks of timed games start then). ``rematch_of``: the game is
        that game's rematch, recorded in its settings in the same transaction; raises
        ``RematchTaken`` (and creates nothing) when that game has its rematch already."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            if rematch_of is not None:
                self._claim_rematch(conn, rematch_of, game_id)
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
        changed: dict[str, Any] = {"updated": now}
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

    def finish(self, game_id: str, result: dict[str, Any] | None) -> None:
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
        """A moderator stopped the game (its log ends with ``abort``): it is no longer
        active, and unrated (its result never changes a rating)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(self.table)
                .where(self.table.c.id == game_id)
                .values(status="aborted", rated=None, updated=time.time())
            )

    def set_settings(self, game_id: str, settings: dict[str, Any]) -> None:
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

    def settings(self, game_id: str) -> dict[str, Any]:
        """The game's table settings as stored (``set_settings``); raises ``UnknownGame``."""
        with self.engine.connect() as conn:
            query = select(self.table.c.settings).where(self.table.c.id == game_id)
            row = conn.execute(query).first()
        if row is None:
            raise UnknownGame(game_id)
        data = json.loads(row.settings) if row.settings else {}
        return data if isinstance(data, dict) else {}

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

    def rows_after(self, game_id: str, seq: int) -> list[tuple[int, int | None, str]]:
        """The game's log entries after ``seq``, in order: what a process whose copy is at
        ``seq`` has not applied yet."""
        a = self.actions.c
        query = (
            select(a.seq, a.seat, a.action).where(a.game_id == game_id, a.seq > seq).order_by(a.seq)
        )
        with self.engine.connect() as conn:
            return [(int(r.seq), r.seat, str(r.action)) for r in conn.execute(query)]

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

    # --- the operator's backup (``tne export``, ``tne import``: server/backup.py) ----------

    def dump(
        self,
        after: tuple[float, str] | None = None,
        limit: int = 100,
        since: float | None = None,
        until: float | None = None,
        ids: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """A page of games in creation order (``(created, id)``), after ``after``: created
        at or after ``since`` and before ``until``, among ``ids`` when given. Each is every
        fact of its row (the seats with their token hashes, the creator's hash) and its
        whole log with the steps' times (``log``: ``[seq, seat, action, created]``).

        The rows are read before the logs: a game that ends meanwhile is read unfinished
        with its final step (as after a crash between the two writes, which the server
        mends when it loads the game), never finished without it."""
        g, a = self.table.c, self.actions.c
        query = select(self.table).order_by(g.created, g.id).limit(limit)
        if after is not None:
            query = query.where(
                or_(g.created > after[0], and_(g.created == after[0], g.id > after[1]))
            )
        if since is not None:
            query = query.where(g.created >= since)
        if until is not None:
            query = query.where(g.created < until)
        if ids is not None:
            query = query.where(g.id.in_(ids))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            games = {str(r.id): _dump_row(r) for r in rows}
            if games:
                entries = conn.execute(
                    select(a.game_id, a.seq, a.seat, a.action, a.created)
                    .where(a.game_id.in_(list(games)))
                    .order_by(a.game_id, a.seq)
                )
                for e in entries:
                    games[str(e.game_id)]["log"].append(
                        [int(e.seq), e.seat, str(e.action), float(e.created)]
                    )
        return list(games.values())

    def restore(self, game: dict[str, Any]) -> None:
        """Write a game as ``dump`` read it (its row and its log), in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(self.table).values(
                    id=game["id"],
                    created=game["created"],
                    updated=game["updated"],
                    options=json.dumps(game["options"]),
                    seed=str(game["seed"]),
                    seats=json.dumps(game["seats"]),
                    status=game["status"],
                    result=None if game["result"] is None else json.dumps(game["result"]),
                    creator=game["creator"],
                    seed_source=game["seed_source"],
                    client=game["client"] or None,
                    bots=game["bots"],
                    rated=1 if game["rated"] else None,
                    stats=None if game["stats"] is None else json.dumps(game["stats"]),
                    listed=1 if game["listed"] else 0,
                    settings=json.dumps(game["settings"]),
                )
            )
            if game["log"]:
                conn.execute(
                    insert(self.actions),
                    [
                        {
                            "game_id": game["id"],
                            "seq": seq,
                            "seat": seat,
                            "action": action,
                            "created": created,
                        }
                        for seq, seat, action, created in game["log"]
                    ],
                )


def _seats(text: str) -> list[dict[str, Any]]:
    seats = json.loads(text)
    return [{k: repair_text(v) for k, v in seat.items()} for seat in seats]


def _row(row: Any) -> GameRow:
    return GameRow(
        id=str(row.id),
        options=json.loads(row.options),
        seed=int(row.seed),
        seats=_seats(row.seats),
        status=str(row.status),
        created=float(row.created),
        result=json.loads(row.result) if row.result else None,
        creator=row.creator,
        seed_source=row.seed_source or "server",
        client=row.client or "",
        listed=row.listed is None or bool(row.listed),
        settings=json.loads(row.settings) if row.settings else {},
        rated=bool(row.rated),
    )


def _dump_row(row: Any) -> dict[str, Any]:
    """Every fact of a ``games`` row, as ``Games.dump`` gives it (the log still empty)."""
    return {
        "id": str(row.id),
        "created": float(row.created),
        "updated": float(row.updated),
        "status": str(row.status),
        "options": json.loads(row.options),
        "seed": int(row.seed),
        "seed_source": row.seed_source or "server",
        "seats": json.loads(row.seats),
        "creator": row.creator,
        "client": row.client or "",
        "bots": None if row.bots is None else int(row.bots),
        "rated": bool(row.rated),
        "listed": row.listed is None or bool(row.listed),
        "settings": json.loads(row.settings) if row.settings else {},
        "result": json.loads(row.result) if row.result else None,
        "stats": json.loads(row.stats) if row.stats else None,
        "log": [],
    }
