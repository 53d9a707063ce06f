"""The table chat of each game: numbered lines, each stored once (a second writer of the
same line number fails, even across processes). A moderator may hide a line: it keeps its
number but is no longer sent to anybody (``hide``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from .backuprows import ChatRow
from .database import Database, repair_text
from .games import StepTaken


@dataclass
class ChatLine:
    """One line of a game's table chat: its number in the game, the writer's seat
    (``None``: a spectator), the name shown, the text and when it was said."""

    n: int
    seat: int | None
    name: str
    text: str
    at: float
    #: a moderator hid it: nobody is sent it (it still holds its number)
    hidden: bool = False


class ChatLog:
    """The chat lines of the games of one database."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.table = db.tables.chat

    def add(self, game_id: str, n: int, seat: int | None, name: str, said: str) -> float:
        """Store line ``n`` (1-based) of the game's chat; raises ``StepTaken`` when another
        writer stored that line first. Returns when it was said."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(self.table).values(
                        game_id=game_id, n=n, seat=seat, name=name, text=said, created=now
                    )
                )
        except IntegrityError as exc:
            raise StepTaken(game_id, n) from exc
        return now

    def lines(self, game_id: str, after: int = 0, limit: int = 200) -> list[ChatLine]:
        """The game's chat lines after line ``after``, oldest first, hidden ones included
        (marked); at most the last ``limit`` of them."""
        c = self.table.c
        query = (
            select(c.n, c.seat, c.name, c.text, c.created, c.hidden)
            .where(c.game_id == game_id, c.n > after)
            .order_by(c.n.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [_line(r) for r in reversed(rows)]

    def line(self, game_id: str, n: int) -> ChatLine | None:
        """Line ``n`` of the game's chat (hidden or not), ``None`` if there is none."""
        c = self.table.c
        query = select(c.n, c.seat, c.name, c.text, c.created, c.hidden).where(
            c.game_id == game_id, c.n == n
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _line(row)

    def hide(self, game_id: str, n: int, hidden: bool = True) -> bool:
        """Hide line ``n`` of the game's chat (``hidden`` false: show it again); returns
        whether the line exists."""
        c = self.table.c
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(self.table)
                .where(c.game_id == game_id, c.n == n)
                .values(hidden=time.time() if hidden else None)
            ).rowcount
        return bool(changed)

    def dump(self, game_ids: list[str]) -> dict[str, list[ChatRow]]:
        """Every chat line of the games ``game_ids``, as the operator's backup holds them:
        by game, ``[n, seat, name, text, created, hidden]`` in order (``hidden``: when a
        moderator hid it, else ``None``; games without chat left out)."""
        if not game_ids:
            return {}
        c = self.table.c
        query = (
            select(c.game_id, c.n, c.seat, c.name, c.text, c.created, c.hidden)
            .where(c.game_id.in_(game_ids))
            .order_by(c.game_id, c.n)
        )
        out: dict[str, list[ChatRow]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                line = (int(r.n), r.seat, str(r.name), str(r.text), float(r.created), r.hidden)
                out.setdefault(str(r.game_id), []).append(line)
        return out

    def restore(self, game_id: str, lines: list[ChatRow]) -> None:
        """Write a game's chat lines as ``dump`` read them."""
        if not lines:
            return
        rows = [
            {
                "game_id": game_id,
                "n": line[0],
                "seat": line[1],
                "name": line[2],
                "text": line[3],
                "created": line[4],
                "hidden": line[5],
            }
            for line in lines
        ]
        with self.engine.begin() as conn:
            conn.execute(insert(self.table), rows)


def _line(r: Any) -> ChatLine:
    return ChatLine(
        int(r.n),
        r.seat,
        repair_text(r.name),
        repair_text(r.text),
        float(r.created),
        r.hidden is not None,
    )
