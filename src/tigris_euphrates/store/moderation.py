"""Moderation in the store: each account's standing (admin, banned, muted), the players'
reports and the pairs of accounts with repeated short rated results between them
(``store.moderation``). Synchronous, like every area of the store.

An account without a row has no flag. A ban raises the account's session generation in the
same transaction, so every session cookie issued before it stops working at once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from typing_extensions import TypedDict

from .backuprows import ReportRow, StandingRow
from .database import Database, continue_ids, repair_text
from .logentry import NOT_MOVES, UNDO_TEXT

#: The states of a report: open until an admin closes it as resolved or dismissed.
REPORT_STATES = ("open", "resolved", "dismissed")
#: A *short* rated result: a rated game counted for its players (its rating changes stored)
#: that ended after fewer plies than this (the game's actions kept in its record: a move
#: taken back is none; seat changes and resignations are none). A game played out lasts
#: well over a hundred; thirty is about seven turns each in a game of two.
SHORT_PLIES = 30
#: Short results between the same two accounts from this many on are listed for the admins.
REPEATED = 2


class AlreadyReported(Exception):
    """This reporter reported this target already (one report per reporter and target)."""


@dataclass
class Standing:
    """An account's flags: an admin, banned since, muted since (``None``: not)."""

    account_id: int
    name: str
    admin: bool = False
    banned: float | None = None
    muted: float | None = None


@dataclass
class ShortPair:
    """Two accounts (``names``, in account order) with ``games`` short rated results between
    them: the plies of those games together, when the last was counted, how many of them
    each account finished ahead of the other (``wins``), and the games, newest first."""

    names: tuple[str, str]
    games: int
    plies: int
    last: float
    wins: tuple[int, int]
    game_ids: list[str]


class ReportedLine(TypedDict):
    """A reported chat line: its seat (``None``: a spectator), name, text, when it was
    written and whether a moderator hid it."""

    seat: int | None
    name: str
    text: str
    at: float
    hidden: bool


@dataclass
class Report:
    """A player's report of a chat line (``kind`` ``chat``: ``game``, ``n``) or of an
    account (``account``), as an admin reads it: with the line and the names."""

    id: int
    kind: str
    reporter: str
    reason: str
    created: float
    state: str
    game: str | None = None
    n: int | None = None
    #: the reported account's name (an account report; a chat line bound to an account)
    account: str | None = None
    #: the reported line: ``{seat, name, text, at, hidden}``
    line: ReportedLine | None = None
    closed_by: str | None = None
    closed: float | None = None


class Moderation:
    """The moderation tables of one database (``Store.moderation``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self.t = db.tables

    # --- standing -------------------------------------------------------------------------

    def standing(self, account_id: int) -> Standing:
        """The account's flags (none for an account without a row)."""
        f, a = self.t.account_flags, self.t.accounts
        query = (
            select(a.c.name, f.c.admin, f.c.banned, f.c.muted)
            .select_from(a.outerjoin(f, f.c.account_id == a.c.id))
            .where(a.c.id == account_id)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return Standing(account_id, "")
        return _standing(account_id, row)

    def flagged(self) -> list[Standing]:
        """Every account with a flag (admins, banned, muted), by name."""
        f, a = self.t.account_flags, self.t.accounts
        query = (
            select(a.c.id, a.c.name, f.c.admin, f.c.banned, f.c.muted)
            .join(a, a.c.id == f.c.account_id)
            .where(or_(f.c.admin != 0, f.c.banned.is_not(None), f.c.muted.is_not(None)))
            .order_by(a.c.name_key)
        )
        with self.engine.connect() as conn:
            return [_standing(int(r.id), r) for r in conn.execute(query)]

    def set_admin(self, account_id: int, admin: bool) -> None:
        self._set(account_id, admin=1 if admin else 0)

    def set_muted(self, account_id: int, muted: bool) -> None:
        self._set(account_id, muted=time.time() if muted else None)

    def set_banned(self, account_id: int, banned: bool) -> None:
        """Ban (every session of the account ends: its generation is raised in the same
        transaction) or unban the account."""
        a = self.t.accounts
        extra = None
        if banned:
            extra = update(a).where(a.c.id == account_id).values(generation=a.c.generation + 1)
        self._set(account_id, extra, banned=time.time() if banned else None)

    def _set(self, account_id: int, extra: Any = None, **values: Any) -> None:
        """Change the account's flags (a row made on first use), and run ``extra`` in the
        same transaction."""
        f = self.t.account_flags
        values["updated"] = time.time()
        for attempt in range(3):
            try:
                with self.engine.begin() as conn:
                    changed = conn.execute(
                        update(f).where(f.c.account_id == account_id).values(**values)
                    ).rowcount
                    if not changed:
                        conn.execute(insert(f).values(account_id=account_id, **values))
                    if extra is not None:
                        conn.execute(extra)
                return
            except IntegrityError:
                if attempt == 2:
                    raise  # another writer made the row at the same moment: update it now

    def silenced(self, game_id: str, seat: int | None, account_id: int | None) -> bool:
        """Whether a chat line by ``account_id`` (the writer's session; ``None``: a guest)
        from ``seat`` of the game (``None``: a spectator) is refused: the account, or the
        account the seat is bound to, is muted or banned."""
        f, s = self.t.account_flags, self.t.account_seats
        accounts = select(s.c.account_id).where(s.c.game_id == game_id, s.c.seat == seat)
        who: ColumnElement[bool] | None = None
        if seat is not None:
            who = f.c.account_id.in_(accounts)
        if account_id is not None:
            mine = f.c.account_id == account_id
            who = mine if who is None else or_(who, mine)
        if who is None:
            return False
        query = select(func.count()).where(
            who, or_(f.c.muted.is_not(None), f.c.banned.is_not(None))
        )
        with self.engine.connect() as conn:
            return bool(conn.execute(query).scalar_one())

    def banned_seat(self, game_id: str, seat: int) -> bool:
        """Whether the seat of the game is bound to a banned account."""
        f, s = self.t.account_flags, self.t.account_seats
        query = select(func.count()).where(
            s.c.game_id == game_id,
            s.c.seat == seat,
            f.c.account_id == s.c.account_id,
            f.c.banned.is_not(None),
        )
        with self.engine.connect() as conn:
            return bool(conn.execute(query).scalar_one())

    def active_seats(self, account_id: int) -> list[tuple[str, int]]:
        """The ``(game, seat)`` pairs bound to the account in unfinished games."""
        s, g = self.t.account_seats, self.t.games
        query = (
            select(s.c.game_id, s.c.seat)
            .join(g, g.c.id == s.c.game_id)
            .where(s.c.account_id == account_id, g.c.status == "active")
            .order_by(s.c.game_id, s.c.seat)
        )
        with self.engine.connect() as conn:
            return [(str(r.game_id), int(r.seat)) for r in conn.execute(query)]

    # --- reports --------------------------------------------------------------------------

    def report(
        self,
        reporter: int,
        kind: str,
        reason: str,
        *,
        game_id: str | None = None,
        n: int | None = None,
        account_id: int | None = None,
    ) -> int:
        """Store a report of a chat line (``game_id``, ``n``) or of an account; returns its
        id. Raises ``AlreadyReported`` when the reporter reported the same target before."""
        target = f"chat:{game_id}:{n}" if kind == "chat" else f"account:{account_id}"
        r = self.t.reports
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(r)
                    .values(
                        reporter=reporter,
                        kind=kind,
                        target=target,
                        game_id=game_id,
                        n=n,
                        account_id=account_id,
                        reason=reason,
                        created=time.time(),
                        state="open",
                    )
                    .returning(r.c.id)
                )
                return int(result.scalar_one())
        except IntegrityError:
            raise AlreadyReported(target) from None

    def close_report(self, report_id: int, state: str, by: str) -> bool:
        """Set the report's state (``open`` again, or closed as ``resolved`` or
        ``dismissed`` by ``by``); returns whether the report exists."""
        r = self.t.reports
        closed = None if state == "open" else time.time()
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(r)
                .where(r.c.id == report_id)
                .values(state=state, closed=closed, closed_by=None if closed is None else by)
            ).rowcount
        return bool(changed)

    def reports(self, state: str | None = "open", limit: int = 200) -> list[Report]:
        """The reports in ``state`` (``None``: all), newest first, with the names and the
        reported chat line (hidden ones too: admins read them)."""
        r, a, c, s = self.t.reports, self.t.accounts, self.t.chat, self.t.account_seats
        by, target, writer = a.alias("by"), a.alias("target"), a.alias("writer")
        query = (
            select(
                r,
                by.c.name.label("reporter_name"),
                target.c.name.label("target_name"),
                writer.c.name.label("writer_name"),
                c.c.seat.label("line_seat"),
                c.c.name.label("line_name"),
                c.c.text.label("line_text"),
                c.c.created.label("line_at"),
                c.c.hidden.label("line_hidden"),
            )
            .join(by, by.c.id == r.c.reporter)
            .outerjoin(target, target.c.id == r.c.account_id)
            .outerjoin(c, and_(c.c.game_id == r.c.game_id, c.c.n == r.c.n))
            .outerjoin(s, and_(s.c.game_id == c.c.game_id, s.c.seat == c.c.seat))
            .outerjoin(writer, writer.c.id == s.c.account_id)
            .order_by(r.c.created.desc(), r.c.id.desc())
            .limit(limit)
        )
        if state is not None:
            query = query.where(r.c.state == state)
        with self.engine.connect() as conn:
            return [_report(row) for row in conn.execute(query)]

    # --- collusion ------------------------------------------------------------------------

    def short_pairs(
        self, max_plies: int = SHORT_PLIES, at_least: int = REPEATED, limit: int = 100
    ) -> list[ShortPair]:
        """The pairs of accounts with at least ``at_least`` short rated results between
        them (rated games counted for both, fewer than ``max_plies`` plies), the most such
        games first, then the latest: what two accounts of one person farming a rating
        leave behind. Each game of three or four counts for every pair of its accounts."""
        ac, c, a = self.t.actions, self.t.rating_changes, self.t.accounts
        action = ac.c.action
        step = case(
            (action == UNDO_TEXT, -1),
            (or_(*(action.like(pattern) for pattern in NOT_MOVES)), 0),
            else_=1,
        )
        plies = func.sum(step)
        short = (
            select(ac.c.game_id, plies.label("plies"))
            .where(ac.c.game_id.in_(select(c.c.game_id)))
            .group_by(ac.c.game_id)
            .having(plies < max_plies)
            .subquery()
        )
        one, two = c.alias("one"), c.alias("two")
        first, second = a.alias("first"), a.alias("second")
        query = (
            select(
                one.c.account_id.label("a"),
                two.c.account_id.label("b"),
                first.c.name.label("a_name"),
                second.c.name.label("b_name"),
                one.c.game_id,
                one.c.place.label("a_place"),
                two.c.place.label("b_place"),
                one.c.created,
                short.c.plies,
            )
            .join(two, and_(two.c.game_id == one.c.game_id, two.c.account_id > one.c.account_id))
            .join(short, short.c.game_id == one.c.game_id)
            .join(first, first.c.id == one.c.account_id)
            .join(second, second.c.id == two.c.account_id)
            .order_by(one.c.created.desc(), one.c.game_id)
        )
        pairs: dict[tuple[int, int], ShortPair] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                key = (int(row.a), int(row.b))
                pair = pairs.get(key)
                if pair is None:
                    names = (str(repair_text(row.a_name)), str(repair_text(row.b_name)))
                    pair = pairs[key] = ShortPair(names, 0, 0, float(row.created), (0, 0), [])
                pair.games += 1
                pair.plies += int(row.plies)
                ahead = (int(row.a_place < row.b_place), int(row.b_place < row.a_place))
                pair.wins = (pair.wins[0] + ahead[0], pair.wins[1] + ahead[1])
                pair.game_ids.append(str(row.game_id))
        found = [p for p in pairs.values() if p.games >= at_least]
        found.sort(key=lambda p: (-p.games, -p.last))
        return found[:limit]

    # --- announcements --------------------------------------------------------------------

    def announce(self, notices: list[str]) -> None:
        """Send ``notices`` on the store's channel, as a server process does (PostgreSQL;
        nothing on SQLite, where one process serves and hears nobody): the command line's
        changes reach the running servers at once."""
        if self.db.is_sqlite or not notices:
            return
        with self.engine.begin() as conn:
            for notice in notices:
                conn.execute(
                    text("SELECT pg_notify(:channel, :notice)"),
                    {"channel": self.db.channel, "notice": notice},
                )

    # --- backups --------------------------------------------------------------------------

    def dump(self) -> tuple[list[StandingRow], list[ReportRow]]:
        """Every account's flags (``account_id``, ``admin``, ``banned``, ``muted``,
        ``updated``) and every report, as their rows (``tne export``; a report's ``kind``,
        chat line or account, as ``about``)."""
        f, r = self.t.account_flags, self.t.reports
        with self.engine.connect() as conn:
            flags: list[StandingRow] = [
                {
                    "account_id": x.account_id,
                    "admin": bool(x.admin),
                    "banned": x.banned,
                    "muted": x.muted,
                    "updated": x.updated,
                }
                for x in conn.execute(select(f).order_by(f.c.account_id))
            ]
            # what is reported, last: ``kind`` names a line of the export
            reports: list[ReportRow] = [
                {
                    "id": x.id,
                    "reporter": x.reporter,
                    "target": x.target,
                    "game_id": x.game_id,
                    "n": x.n,
                    "account_id": x.account_id,
                    "reason": x.reason,
                    "created": x.created,
                    "state": x.state,
                    "closed_by": x.closed_by,
                    "closed": x.closed,
                    "about": x.kind,
                }
                for x in conn.execute(select(r).order_by(r.c.id))
            ]
        return flags, reports

    def restore(self, flags: list[StandingRow], reports: list[ReportRow]) -> None:
        """Write the rows ``dump`` read: a ban, a mute, an admin's role and the reports
        survive a backup. On PostgreSQL the reports' ids then continue after the highest."""
        f, r = self.t.account_flags, self.t.reports
        with self.engine.begin() as conn:
            if flags:
                conn.execute(insert(f), [{**x, "admin": int(x["admin"])} for x in flags])
            if reports:
                rows = [
                    {**{k: v for k, v in x.items() if k != "about"}, "kind": x["about"]}
                    for x in reports
                ]
                conn.execute(insert(r), rows)
                continue_ids(conn, r)


def _standing(account_id: int, row: Any) -> Standing:
    return Standing(
        account_id,
        str(repair_text(row.name)),
        bool(row.admin),
        None if row.banned is None else float(row.banned),
        None if row.muted is None else float(row.muted),
    )


def _report(row: Any) -> Report:
    line: ReportedLine | None = None
    if row.kind == "chat" and row.line_text is not None:
        line = {
            "seat": row.line_seat,
            "name": repair_text(row.line_name),
            "text": repair_text(row.line_text),
            "at": float(row.line_at),
            "hidden": row.line_hidden is not None,
        }
    account = row.target_name if row.kind == "account" else row.writer_name
    return Report(
        id=int(row.id),
        kind=str(row.kind),
        reporter=str(repair_text(row.reporter_name)),
        reason=str(repair_text(row.reason)),
        created=float(row.created),
        state=str(row.state),
        game=row.game_id,
        n=row.n,
        account=None if account is None else str(repair_text(account)),
        line=line,
        closed_by=row.closed_by,
        closed=None if row.closed is None else float(row.closed),
    )
