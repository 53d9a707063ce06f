"""The hints each seat of a game asked for ("Suggest a move", ``server/hints.py``): a count
per seat, taken atomically across processes before the hint is computed."""

from __future__ import annotations

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database


class Hints:
    """The hint counts of the games of one database."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine
        self.table = db.tables.hints

    def take(self, game_id: str, seat: int, limit: int) -> int | None:
        """Count one more hint for ``seat`` of the game if it has had fewer than ``limit``:
        the hints it has had, this one included, or ``None`` (none left). Two processes
        taking the last one at once: one gets it (the row's update is conditional, and its
        first insert unique)."""
        t = self.table
        if limit <= 0:
            return None
        for _ in range(2):
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(t)
                    .where(t.c.game_id == game_id, t.c.seat == seat, t.c.used < limit)
                    .values(used=t.c.used + 1)
                )
                if done.rowcount == 1:
                    return self._used(conn, game_id, seat)
                if self._used(conn, game_id, seat):
                    return None  # the row is there, at the limit
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(t).values(game_id=game_id, seat=seat, used=1))
                    return 1
            except IntegrityError:
                continue  # another process made the row first: take from it
        return None

    def give_back(self, game_id: str, seat: int) -> None:
        """Count one hint fewer for ``seat`` (one taken whose work could not be done)."""
        t = self.table
        with self.engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.seat == seat, t.c.used > 0)
                .values(used=t.c.used - 1)
            )

    def used(self, game_id: str, seat: int) -> int:
        """How many hints ``seat`` of the game has had."""
        with self.engine.connect() as conn:
            return self._used(conn, game_id, seat)

    def _used(self, conn: Connection, game_id: str, seat: int) -> int:
        t = self.table
        query = select(t.c.used).where(t.c.game_id == game_id, t.c.seat == seat)
        return int(conn.execute(query).scalar() or 0)

    # --- backups --------------------------------------------------------------------------

    def dump(self, game_ids: list[str]) -> dict[str, list[list[int]]]:
        """The hints each seat of these games has had, ``[[seat, used], …]`` by game."""
        t = self.table
        query = select(t).where(t.c.game_id.in_(game_ids)).order_by(t.c.game_id, t.c.seat)
        out: dict[str, list[list[int]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                out.setdefault(str(r.game_id), []).append([int(r.seat), int(r.used)])
        return out

    def restore(self, game_id: str, used: list[list[int]]) -> None:
        """Write the counts ``dump`` read for one game."""
        if used:
            rows = [{"game_id": game_id, "seat": seat, "used": n} for seat, n in used]
            with self.engine.begin() as conn:
                conn.execute(insert(self.table), rows)
