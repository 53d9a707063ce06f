"""The operator's backup of the live events (``tne export``, ``tne import``:
server/backup.py and server/restore.py): the events, their entrants, games and byes, read
whole and written back in one transaction. Kept apart from ``events.py``, which serves the
live server and its pairing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from .backuprows import EventByeLine, EventEntrantLine, EventGameLine, EventLine

if TYPE_CHECKING:
    from .events import Events

#: What ``EventBackup.dump`` reads: the events, entrants, games and byes.
EventDump = tuple[list[EventLine], list[EventEntrantLine], list[EventGameLine], list[EventByeLine]]


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


class EventBackup:
    """Reads and writes the event tables whole for the backup."""

    def __init__(self, events: Events) -> None:
        self.events = events

    def dump(self) -> EventDump:
        """Every event (by creation, then id; its kind as ``type``, its settings as a JSON
        object), and every entrant, game and bye (by event, then account, creation or
        round)."""
        t = self.events.t
        e, n, g, b = t.events, t.event_entrants, t.event_games, t.event_byes
        with self.events.engine.connect() as conn:
            events: list[EventLine] = [
                {
                    "id": str(x.id),
                    "name": str(x.name),
                    "type": str(x.kind),
                    "maker": int(x.maker),
                    "state": str(x.state),
                    "settings": json.loads(x.settings),
                    "starts": float(x.starts),
                    "ends": _float(x.ends),
                    "round": int(x.round),
                    "seed": int(x.seed),
                    "invite": x.invite,
                    "next_id": x.next_id,
                    "created": float(x.created),
                }
                for x in conn.execute(select(e).order_by(e.c.created, e.c.id))
            ]
            entrants: list[EventEntrantLine] = [
                {
                    "event_id": str(x.event_id),
                    "account_id": int(x.account_id),
                    "state": str(x.state),
                    "rating": float(x.rating),
                    "bot": bool(x.bot),
                    "joined": float(x.joined),
                }
                for x in conn.execute(select(n).order_by(n.c.event_id, n.c.account_id))
            ]
            games: list[EventGameLine] = [
                {
                    "game_id": str(x.game_id),
                    "event_id": str(x.event_id),
                    "round": None if x.round is None else int(x.round),
                    "seats": json.loads(x.seats),
                    "state": str(x.state),
                    "ranks": None if x.ranks is None else json.loads(x.ranks),
                    "created": float(x.created),
                    "ended": _float(x.ended),
                }
                for x in conn.execute(select(g).order_by(g.c.event_id, g.c.created, g.c.game_id))
            ]
            byes: list[EventByeLine] = [
                {
                    "event_id": str(x.event_id),
                    "round": int(x.round),
                    "account_id": int(x.account_id),
                    "points": float(x.points),
                }
                for x in conn.execute(select(b).order_by(b.c.event_id, b.c.round, b.c.account_id))
            ]
        return events, entrants, games, byes

    def restore(self, dump: EventDump) -> None:
        """Write the rows ``dump`` read, in one transaction (JSON columns as the events'
        store writes them)."""
        events, entrants, games, byes = dump
        t = self.events.t
        with self.events.engine.begin() as conn:
            if events:
                rows = [
                    {
                        **{k: v for k, v in x.items() if k != "type"},
                        "kind": x["type"],
                        "settings": json.dumps(x["settings"]),
                    }
                    for x in events
                ]
                conn.execute(insert(t.events), rows)
            if entrants:
                conn.execute(
                    insert(t.event_entrants), [{**x, "bot": int(x["bot"])} for x in entrants]
                )
            if games:
                rows = [
                    {
                        **x,
                        "seats": json.dumps(x["seats"]),
                        "ranks": None if x["ranks"] is None else json.dumps(x["ranks"]),
                    }
                    for x in games
                ]
                conn.execute(insert(t.event_games), rows)
            if byes:
                conn.execute(insert(t.event_byes), [dict(x) for x in byes])
