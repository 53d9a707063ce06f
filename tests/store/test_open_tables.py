"""Open tables in the store: the last seat taken by two people at the same moment (two
engines: two processes on PostgreSQL) goes to one of them, and the table becomes exactly
one game, stored with its seats' accounts in the same transaction."""

from __future__ import annotations

import secrets
import threading

from tigris_euphrates.store import GameRow, Store
from tigris_euphrates.store.tables import OpenTable, TableRefused, TableSeat


def make(table: OpenTable, bots: bool) -> GameRow:
    seats = [{"kind": "human", "name": s.name, "token": s.token} for s in table.seats]
    seats += [{"kind": "bot", "level": "random", "name": ""}] * (table.players - len(seats))
    options = {"players": table.players}
    return GameRow(secrets.token_hex(6), options, 7, seats, "active", 0.0, rated=not bots)


def test_the_last_seat_goes_to_one_person_and_the_table_starts_once(db: tuple[str, str]) -> None:
    url, prefix = db
    store, other = Store(url, prefix), Store(url, prefix)
    try:
        ann, bob, cy = (store.accounts.create(n, "hash").id for n in ("ann", "bob", "cy"))
        table = OpenTable(
            "t1", 0.0, 1e12, ann, {}, None, 2, True, None, None, True, "players", "open", None,
            [TableSeat(0, ann, "ann", 0.0)],
        )  # fmt: skip
        store.tables.create(table, "h0")
        results: list[object] = []

        def sit(s: Store, account: int, name: str) -> None:
            try:
                results.append(s.tables.sit("t1", account, name, "h" + name, 1.0, 60.0, make))
            except TableRefused as exc:
                results.append(exc.code)

        threads = [
            threading.Thread(target=sit, args=(store, bob, "bob")),
            threading.Thread(target=sit, args=(other, cy, "cy")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # one refused: on PostgreSQL the row lock makes the second wait, then see the table
        # started (or full, when it read the seats before the start); SQLite (one process in
        # the server) refuses the second seat at its key
        refused = [r for r in results if isinstance(r, str)]
        assert refused in (["table-closed"], ["table-full"], ["seat-taken"])
        won = next(r for r in results if isinstance(r, tuple))
        game = won[2]
        assert isinstance(game, str)
        row = store.games.load(game)
        assert row.rated and row.seats[0]["name"] == "ann"
        bound = store.accounts.seats_of_game(game)
        assert bound[0] == ann and bound[1] in (bob, cy)
        after = store.tables.get("t1")
        assert after is not None and after.state == "started" and after.game_id == game
    finally:
        other.close()
        store.close()
