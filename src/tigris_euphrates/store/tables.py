"""Open tables in the store (``store.tables``): a table waiting for players, its taken
seats, and the game it becomes.

A seat is taken, and a full table becomes its game, in one transaction that first locks the
table's row (``FOR UPDATE`` on PostgreSQL: a second process taking a seat at the same
moment waits, then sees the seat taken; SQLite serves one process, whose database thread
makes the writes in turn). The game, its clock and the seats' accounts are stored in that
same transaction (``start_game``): a table never starts twice, and a started table always
has its game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .database import Database, repair_text
from .games import GameRow, Games, realtime_games
from .ratings import displayed, family_of, size_of
from .rows import GameOptions, PaceData
from .schema import Tables as TableSet

#: The states of an open table.
TABLE_STATES = ("open", "started", "expired", "closed")


class TableRefused(Exception):
    """The table refuses the request: ``code`` says why (``no-table``, ``table-full``,
    ``seat-taken``, ``table-closed``, ``sign-in``, ``already-seated``, ``rating-range``,
    ``blocked``, ``not-creator``, ``no-bots``, ``no-bot-accounts``, ``bot-rated``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class TableSeat:
    seat: int
    account_id: int | None
    name: str
    joined: float
    #: SHA-256 of the seat's token (never sent anywhere)
    token: str = ""
    #: the seat is held by a bot account (the lobby marks its name BOT)
    bot: bool = False


@dataclass
class OpenTable:
    id: str
    created: float
    expires: float
    creator: int
    options: GameOptions
    pace: PaceData | None
    players: int
    rated: bool
    #: the displayed ratings (``ratings.displayed``) an account needs to sit, if any
    min_rating: float | None
    max_rating: float | None
    #: the creator may start early, AI players (the server's bots) taking the free seats
    allow_bots: bool
    chat: str
    state: str
    game_id: str | None
    seats: list[TableSeat] = field(default_factory=list)
    #: bot accounts may take its seats (and are offered them): the creator invited them;
    #: never at a rated table
    bot_accounts: bool = False

    def free(self) -> list[int]:
        """The seats nobody took yet, in order."""
        taken = {s.seat for s in self.seats}
        return [i for i in range(self.players) if i not in taken]


#: Builds the game of a table that starts: the table, and whether bots fill its free seats.
GameMaker = Callable[[OpenTable, bool], GameRow]


def start_game(
    conn: Connection,
    t: TableSet,
    games: Games,
    row: GameRow,
    pace: PaceData | None,
    bound: dict[int, int],
    *,
    matched: bool = False,
) -> None:
    """Store a new game in the caller's transaction: its clock first (no process ever loads
    it without its pace), the game, and its seats bound to their accounts (``bound``); a
    real-time game not made by the matchmaker (``matched``) takes its accounts out of the
    quick-match queue."""
    if pace is not None:
        conn.execute(insert(t.clocks).values(game_id=row.id, pace=json.dumps(pace)))
    games.insert(conn, row)
    if bound:
        conn.execute(
            insert(t.account_seats),
            [
                {"game_id": row.id, "seat": s, "account_id": a, "created": row.created}
                for s, a in bound.items()
            ],
        )
    if bound and pace is not None and pace["kind"] == "realtime" and not matched:
        # a real-time game ends its people's quick-match waits (a challenge accepted, a
        # table started): the matchmaker never pairs them into a second game beside it.
        # Their accounts' rows are read under a shared lock first, which a join's lock of
        # its row (``Matches.join``) waits for or makes this wait for: a join at this
        # moment comes wholly before (its wait ends here) or after (refused)
        people = sorted(set(bound.values()))
        a, q = t.accounts, t.match_queue
        lock = select(a.c.id).where(a.c.id.in_(people)).order_by(a.c.id)
        conn.execute(lock.with_for_update(read=True))
        waits = and_(q.c.account_id.in_(people), q.c.state == "waiting")
        conn.execute(delete(q).where(waits))


class Tables:
    """The open tables of one database (``Store.tables``)."""

    def __init__(self, db: Database, games: Games) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables
        self.games = games

    # --- reads ----------------------------------------------------------------------------

    def get(self, table_id: str) -> OpenTable | None:
        with self.engine.connect() as conn:
            return self._get(conn, table_id)

    def _get(self, conn: Connection, table_id: str, lock: bool = False) -> OpenTable | None:
        o = self.t.open_tables
        query = select(o).where(o.c.id == table_id)
        if lock:
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None:
            return None
        table = _table(row)
        table.seats = self._seats(conn, [table_id]).get(table_id, [])
        return table

    def _seats(self, conn: Connection, ids: list[str]) -> dict[str, list[TableSeat]]:
        s, a = self.t.table_seats, self.t.accounts
        out: dict[str, list[TableSeat]] = {i: [] for i in ids}
        if not ids:
            return out
        query = (
            select(s, a.c.bot.label("account_bot"))
            .select_from(s.outerjoin(a, a.c.id == s.c.account_id))
            .where(s.c.table_id.in_(ids))
            .order_by(s.c.table_id, s.c.seat)
        )
        for r in conn.execute(query):
            out[str(r.table_id)].append(
                TableSeat(
                    int(r.seat),
                    None if r.account_id is None else int(r.account_id),
                    str(repair_text(r.name)),
                    float(r.joined),
                    str(r.token),
                    r.account_bot is not None,
                )
            )
        return out

    def bot_offers(self, now: float, account_id: int, limit: int = 100) -> list[OpenTable]:
        """The open tables the bot account may take a seat at now, oldest first: by the
        same checks as its taking one (``sit``): inviting bot accounts, not rated (a rated
        table is for people only), a free seat, none of its seats the account's already, its
        rating in the table's range, nobody seated blocking it or blocked by it."""
        out: list[OpenTable] = []
        tables = self.listing(now, limit)
        with self.engine.connect() as conn:
            for x in tables:
                if not x.free():
                    continue
                try:
                    check_bot_seat(x)
                    self._check_entry(conn, x, account_id)
                except TableRefused:
                    continue
                out.append(x)
        return out

    def listing(self, now: float, limit: int = 100) -> list[OpenTable]:
        """The open tables not expired, oldest first."""
        o = self.t.open_tables
        query = (
            select(o)
            .where(o.c.state == "open", o.c.expires > now)
            .order_by(o.c.created, o.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            tables = [_table(r) for r in conn.execute(query)]
            seats = self._seats(conn, [x.id for x in tables])
        for x in tables:
            x.seats = seats[x.id]
        return tables

    def started_since(self, since: float) -> list[tuple[str, str]]:
        """(table, game) of the tables that started since ``since`` (public: the games of
        open tables are listed in the lobby)."""
        o = self.t.open_tables
        query = select(o.c.id, o.c.game_id).where(o.c.state == "started", o.c.updated >= since)
        with self.engine.connect() as conn:
            return [(str(r.id), str(r.game_id)) for r in conn.execute(query)]

    def ratings_at(self, tables: list[OpenTable]) -> dict[tuple[str, int], tuple[float, int]]:
        """(table, account) -> (ordinal, games) of each seated account rated in its table's
        family and player count."""
        r = self.t.ratings
        out: dict[tuple[str, int], tuple[float, int]] = {}
        with self.engine.connect() as conn:
            for table in tables:
                ids = [s.account_id for s in table.seats if s.account_id is not None]
                if not ids:
                    continue
                query = select(r.c.account_id, r.c.ordinal, r.c.games).where(
                    r.c.account_id.in_(ids),
                    r.c.family == family_of(table.options),
                    r.c.size == size_of(table.players),
                )
                for x in conn.execute(query):
                    out[(table.id, int(x.account_id))] = (float(x.ordinal), int(x.games))
        return out

    def seat_of(self, table_id: str, token: str) -> TableSeat | None:
        """The seat of the table whose token hashes to ``token``."""
        s = self.t.table_seats
        query = select(s).where(s.c.table_id == table_id, s.c.token == token)
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        if r is None:
            return None
        account = None if r.account_id is None else int(r.account_id)
        return TableSeat(int(r.seat), account, str(r.name), float(r.joined), str(r.token))

    # --- writes ---------------------------------------------------------------------------

    def create(self, table: OpenTable, token: str) -> None:
        """A new open table whose creator (an account) takes seat 0 with ``token``. A rated
        table is for people only: refused (``bot-rated``) to a bot account's creator and
        when it would invite bot accounts. Raises ``TableRefused``."""
        first = table.seats[0]
        with self.engine.begin() as conn:
            if table.rated and (table.bot_accounts or self._is_bot(conn, table.creator)):
                raise TableRefused(
                    "bot-rated", "a rated table is for people only: no bot account sits there"
                )
            conn.execute(
                insert(self.t.open_tables).values(
                    id=table.id,
                    created=table.created,
                    expires=table.expires,
                    creator=table.creator,
                    options=json.dumps(table.options),
                    pace=None if table.pace is None else json.dumps(table.pace),
                    players=table.players,
                    rated=1 if table.rated else 0,
                    min_rating=table.min_rating,
                    max_rating=table.max_rating,
                    allow_bots=1 if table.allow_bots else 0,
                    bot_accounts=1 if table.bot_accounts else 0,
                    chat=table.chat,
                    state="open",
                    game_id=None,
                    updated=table.created,
                )
            )
            conn.execute(
                insert(self.t.table_seats).values(
                    table_id=table.id,
                    seat=0,
                    account_id=first.account_id,
                    name=first.name,
                    token=token,
                    joined=table.created,
                )
            )

    def sit(
        self,
        table_id: str,
        account_id: int | None,
        name: str,
        token: str,
        now: float,
        ttl: float,
        make: GameMaker,
        bot: bool = False,
    ) -> tuple[OpenTable, int, str | None]:
        """Take the first free seat of the table; a bot account (``bot``, or so marked in
        the store, whatever the caller says) only at a table that invited bot accounts,
        never at a rated one. Returns the table (as it was before), the seat and the game's
        id when this seat filled the table (the game is stored in the same transaction).
        Raises ``TableRefused``."""
        try:
            return self._sit(table_id, account_id, name, token, now, ttl, make, bot)
        except IntegrityError:  # SQLite without the row lock: the key refused the second
            raise TableRefused(
                "seat-taken", "another player took this seat at the same moment: try again"
            ) from None

    def _sit(
        self,
        table_id: str,
        account_id: int | None,
        name: str,
        token: str,
        now: float,
        ttl: float,
        make: GameMaker,
        bot: bool,
    ) -> tuple[OpenTable, int, str | None]:
        with self.engine.begin() as conn:
            table = self._open(conn, table_id, now)
            free = table.free()
            if not free:
                raise TableRefused("table-full", "every seat of this table is taken")
            bot = bot or self._is_bot(conn, account_id)
            if bot:
                check_bot_seat(table)
            self._check_entry(conn, table, account_id)
            seat = free[0]
            conn.execute(
                insert(self.t.table_seats).values(
                    table_id=table_id,
                    seat=seat,
                    account_id=account_id,
                    name=name,
                    token=token,
                    joined=now,
                )
            )
            o = self.t.open_tables
            conn.execute(update(o).where(o.c.id == table_id).values(expires=now + ttl, updated=now))
            game_id = None
            if len(free) == 1:
                table.seats.append(TableSeat(seat, account_id, name, now, token, bot))
                game_id = self._start(conn, table, make, bots=False, now=now)
            return table, seat, game_id

    def _open(self, conn: Connection, table_id: str, now: float) -> OpenTable:
        table = self._get(conn, table_id, lock=True)
        if table is None:
            raise TableRefused("no-table", "there is no such table")
        if table.state != "open" or table.expires <= now:
            raise TableRefused("table-closed", "this table is no longer open")
        return table

    def _is_bot(self, conn: Connection, account_id: int | None) -> bool:
        """Whether the account is a bot account, read under a shared lock of its row (on
        PostgreSQL): an account turning into a bot (``store.bots.make_bot``, which locks
        the row to update it) waits for this seat, then sees it."""
        if account_id is None:
            return False
        a = self.t.accounts
        query = select(a.c.bot).where(a.c.id == account_id)
        if not self.db.is_sqlite:
            query = query.with_for_update(read=True)
        return conn.execute(query).scalar() is not None

    def _check_entry(self, conn: Connection, table: OpenTable, account_id: int | None) -> None:
        """Refuse a guest at a rated table, an account seated already, one outside the
        table's rating range, and one that blocked (or is blocked by) a seated account."""
        if account_id is None:
            if table.rated:
                raise TableRefused("sign-in", "a rated table needs an account: sign in first")
            return
        seated = [s.account_id for s in table.seats if s.account_id is not None]
        if account_id in seated:
            raise TableRefused("already-seated", "you have a seat at this table already")
        if table.min_rating is not None or table.max_rating is not None:
            rating = displayed(self._ordinal(conn, account_id, table))
            low = table.min_rating if table.min_rating is not None else float("-inf")
            high = table.max_rating if table.max_rating is not None else float("inf")
            if not low <= rating <= high:
                raise TableRefused(
                    "rating-range", "your rating is outside the range this table's creator set"
                )
        b = self.t.blocks
        either = or_(
            and_(b.c.account_id == account_id, b.c.other_id.in_(seated)),
            and_(b.c.account_id.in_(seated), b.c.other_id == account_id),
        )
        if seated and conn.execute(select(func.count()).where(either)).scalar_one():
            raise TableRefused("blocked", "you cannot sit at this table")

    def _ordinal(self, conn: Connection, account_id: int, table: OpenTable) -> float:
        """The account's rating at the table's game (0 for one never rated there)."""
        r = self.t.ratings
        query = select(r.c.ordinal).where(
            r.c.account_id == account_id,
            r.c.family == family_of(table.options),
            r.c.size == size_of(table.players),
        )
        value = conn.execute(query).scalar()
        return 0.0 if value is None else float(value)

    def _start(
        self, conn: Connection, table: OpenTable, make: GameMaker, *, bots: bool, now: float
    ) -> str:
        row = make(table, bots)
        bound = {s.seat: s.account_id for s in table.seats if s.account_id is not None}
        start_game(conn, self.t, self.games, row, table.pace, bound)
        if table.pace is not None and table.pace["kind"] == "realtime":
            # read after start_game's shared lock of the accounts and the end of their
            # waits: a quick match made at that moment is seen here, or never made
            busy = realtime_games(conn, self.t, sorted(set(bound.values())), besides=row.id)
            if busy:
                raise TableRefused(
                    "in-game",
                    "a player at this table is playing another real-time game: sit down "
                    "again once it is over",
                )
        o = self.t.open_tables
        conn.execute(
            update(o).where(o.c.id == table.id).values(state="started", game_id=row.id, updated=now)
        )
        conn.execute(delete(self.t.invites).where(self.t.invites.c.table_id == table.id))
        return row.id

    def start(self, table_id: str, token: str, now: float, make: GameMaker) -> str:
        """The creator (seat 0's token) starts the table now, bots taking the free seats
        (the game is then not rated); returns the game's id. Raises ``TableRefused``."""
        with self.engine.begin() as conn:
            table = self._open(conn, table_id, now)
            if not any(s.seat == 0 and s.token == token for s in table.seats):
                raise TableRefused("not-creator", "only the table's creator may start it")
            if not table.allow_bots and table.free():
                raise TableRefused("no-bots", "this table was opened for people only")
            return self._start(conn, table, make, bots=True, now=now)

    def leave(self, table_id: str, token: str, now: float) -> str | None:
        """Give up the seat whose token hashes to ``token``: the creator's leaving closes
        the table. Returns the table's state after it (``None``: no such seat)."""
        s, o = self.t.table_seats, self.t.open_tables
        with self.engine.begin() as conn:
            table = self._open(conn, table_id, now)
            mine = [x for x in table.seats if x.token == token]
            if not mine:
                return None
            if mine[0].seat == 0:
                conn.execute(
                    update(o).where(o.c.id == table_id).values(state="closed", updated=now)
                )
                conn.execute(delete(self.t.invites).where(self.t.invites.c.table_id == table_id))
                return "closed"
            conn.execute(delete(s).where(s.c.table_id == table_id, s.c.seat == mine[0].seat))
            conn.execute(update(o).where(o.c.id == table_id).values(updated=now))
            return "open"

    def expire(self, now: float) -> list[str]:
        """Mark the open tables past their time as expired; returns their ids."""
        o = self.t.open_tables
        with self.engine.begin() as conn:
            ids = [
                str(x)
                for x in conn.execute(
                    select(o.c.id).where(o.c.state == "open", o.c.expires <= now)
                ).scalars()
            ]
            if ids:
                conn.execute(
                    update(o)
                    .where(o.c.id.in_(ids), o.c.state == "open")
                    .values(state="expired", updated=now)
                )
                conn.execute(delete(self.t.invites).where(self.t.invites.c.table_id.in_(ids)))
        return ids


def check_bot_seat(table: OpenTable) -> None:
    """Refuse a bot account at a rated table (people's ratings are never moved by bots)
    and at one whose creator did not invite bot accounts."""
    if table.rated:
        raise TableRefused(
            "bot-rated", "a rated table is for people only: bot accounts sit at casual tables"
        )
    if not table.bot_accounts:
        raise TableRefused(
            "no-bot-accounts", "this table's creator did not invite bot accounts to its seats"
        )


def _table(r: Any) -> OpenTable:
    return OpenTable(
        id=str(r.id),
        created=float(r.created),
        expires=float(r.expires),
        creator=int(r.creator),
        options=json.loads(r.options),
        pace=None if r.pace is None else json.loads(r.pace),
        players=int(r.players),
        rated=bool(r.rated),
        min_rating=None if r.min_rating is None else float(r.min_rating),
        max_rating=None if r.max_rating is None else float(r.max_rating),
        allow_bots=bool(r.allow_bots),
        bot_accounts=bool(r.bot_accounts),
        chat=str(r.chat),
        state=str(r.state),
        game_id=None if r.game_id is None else str(r.game_id),
    )
