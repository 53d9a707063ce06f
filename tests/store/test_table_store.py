"""The store's table data on SQLite and on the real PostgreSQL: which games the lobby
lists, the table settings, the chat lines with their (game, n) key, and one rematch a
game."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from tigris_euphrates.store import RematchTaken, StepTaken, Store, migrate, normalise_url


def test_the_lobby_lists_only_listed_games_and_older_ones(db: tuple[str, str]) -> None:
    url, prefix = db
    # a database of the version before the listing (revision 0003) holding one game
    engine = create_engine(normalise_url(url))
    migrate.upgrade(engine, prefix, "0003")
    with engine.begin() as conn:
        conn.execute(
            text(
                f'INSERT INTO "{prefix}games" (id, created, updated, options, seed, seats, '
                """status) VALUES ('old', 1, 1, '{"players": 2}', '1', '[]', 'active')"""
            )
        )
    engine.dispose()
    store = Store(url, prefix)  # upgraded in place
    store.games.create("private", {"players": 2}, 1, [], listed=False)
    store.games.create("public", {"players": 2}, 1, [], listed=True, settings={"chat": "off"})
    assert [g.id for g in store.games.page()] == ["public", "old"]
    assert store.games.load("old").listed and store.games.load("old").settings == {}
    assert not store.games.load("private").listed
    store.games.set_settings("public", {"chat": "off", "rematch": "abc"})
    assert store.games.load("public").settings == {"chat": "off", "rematch": "abc"}
    assert store.games.exists("private") and not store.games.exists("nothing")
    store.close()


def test_chat_lines_are_numbered_once_and_read_in_order(db: tuple[str, str]) -> None:
    store = Store(*db)
    store.games.create("g", {"players": 2}, 1, [])
    store.chat.add("g", 1, 0, "Ann", "hello")
    store.chat.add("g", 2, None, "Spectator", "hi")
    with pytest.raises(StepTaken):  # another writer's line 2
        store.chat.add("g", 2, 1, "Bob", "me too")
    lines = store.chat.lines("g")
    assert [(ln.n, ln.seat, ln.name, ln.text) for ln in lines] == [
        (1, 0, "Ann", "hello"),
        (2, None, "Spectator", "hi"),
    ]
    assert [ln.n for ln in store.chat.lines("g", after=1)] == [2]
    for n in range(3, 13):
        store.chat.add("g", n, 0, "Ann", f"line {n}")
    assert [ln.n for ln in store.chat.lines("g", limit=3)] == [10, 11, 12]
    assert store.chat.lines("other") == []
    store.close()


def test_a_game_gets_one_rematch_and_a_second_one_is_not_created(db: tuple[str, str]) -> None:
    store = Store(*db)
    store.games.create("old", {"players": 2}, 1, [], settings={"chat": "off"})
    store.games.create("first", {"players": 2}, 2, [], rematch_of="old")
    assert store.games.settings("old") == {"chat": "off", "rematch": "first"}
    with pytest.raises(RematchTaken) as taken:
        store.games.create("second", {"players": 2}, 3, [], rematch_of="old")
    assert taken.value.rematch == "first"
    assert not store.games.exists("second")  # nothing was created
    assert store.games.settings("old")["rematch"] == "first"
    store.close()
