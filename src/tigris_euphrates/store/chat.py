"""The table chat of each game: numbered lines, each stored once (a second writer of the
same line number fails, even across processes)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

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
        """The game's chat lines after line ``after``, oldest first; at most the last
        ``limit`` of them."""
        c = self.table.c
        query = (
            select(c.n, c.seat, c.name, c.text, c.created)
            .where(c.game_id == game_id, c.n > after)
            .order_by(c.n.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            ChatLine(int(r.n), r.seat, repair_text(r.name), repair_text(r.text), float(r.created))
            for r in reversed(rows)
        ]

    def dump(self, game_ids: list[str]) -> dict[str, list[list[Any]]]:
        """Every chat line of the games ``game_ids``, as the operator's backup holds them:
        by game, ``[n, seat, name, text, created]`` in order (games without chat left out)."""
        if not game_ids:
            return {}
        c = self.table.c
        query = (
            select(c.game_id, c.n, c.seat, c.name, c.text, c.created)
            .where(c.game_id.in_(game_ids))
            .order_by(c.game_id, c.n)
        )
        out: dict[str, list[list[Any]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                line = [int(r.n), r.seat, str(r.name), str(r.text), float(r.created)]
                out.setdefault(str(r.game_id), []).append(line)
        return out

    def restore(self, game_id: str, lines: list[list[Any]]) -> None:
        """Write a game's chat lines as ``dump`` read them."""
        if not lines:
            return
        rows = [
            {"game_id": game_id, "n": n, "seat": seat, "name": name, "text": said, "created": at}
            for n, seat, name, said, at in lines
        ]
        with self.engine.begin() as conn:
            conn.execute(insert(self.table), rows)
