"""The operator's backup of the games (``tne export``, ``tne import``: server/backup.py and
server/restore.py): every fact of a ``games`` row and its whole log, read a page at a time and
written back in one transaction. Kept apart from ``games.py``, which serves the live server's
reads and writes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, insert, or_, select

from .backuprows import GameDump

if TYPE_CHECKING:
    from .games import Games


class GameBackup:
    """Reads and writes whole games for the backup, on the tables of ``games``."""

    def __init__(self, games: Games) -> None:
        self.games = games

    def dump(
        self,
        after: tuple[float, str] | None = None,
        limit: int = 100,
        since: float | None = None,
        until: float | None = None,
        ids: list[str] | None = None,
    ) -> list[GameDump]:
        """A page of games in creation order (``(created, id)``), after ``after``: created
        at or after ``since`` and before ``until``, among ``ids`` when given. Each is every
        fact of its row (the seats with their token hashes, the creator's hash) and its
        whole log with the steps' times (``log``: ``[seq, seat, action, created]``).

        The rows are read before the logs: a game that ends meanwhile is read unfinished
        with its final step (as after a crash between the two writes, which the server
        mends when it loads the game), never finished without it."""
        g, a = self.games.table.c, self.games.actions.c
        query = select(self.games.table).order_by(g.created, g.id).limit(limit)
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
        with self.games.engine.connect() as conn:
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
                        (int(e.seq), e.seat, str(e.action), float(e.created))
                    )
        return list(games.values())

    def restore(self, game: GameDump) -> None:
        """Write a game as ``dump`` read it (its row and its log), in one transaction."""
        with self.games.engine.begin() as conn:
            conn.execute(
                insert(self.games.table).values(
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
                    insert(self.games.actions),
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


def _dump_row(row: Any) -> GameDump:
    """Every fact of a ``games`` row, as ``GameBackup.dump`` gives it (the log still empty)."""
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
