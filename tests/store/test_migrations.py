"""Alembic migrations on SQLite and on the real PostgreSQL: a new database is created at the
newest revision, and a database of the version before Alembic (no version table) is upgraded
in place, its games kept."""

from __future__ import annotations

import pytest
from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)

from tigris_euphrates.store import Store, migrate, normalise_url


def previous_version(url: str, prefix: str, *, integer_seed: bool, creator: bool) -> None:
    """The tables as the hand-written upgrade of the version before Alembic left them (or an
    even older one: an integer seed, no creator column), with one game of two steps."""
    engine = create_engine(normalise_url(url))
    meta = MetaData()
    columns = [
        Column("id", String(32), primary_key=True),
        Column("created", Float, nullable=False),
        Column("updated", Float, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", Integer if integer_seed else Text, nullable=False),
        Column("seats", Text, nullable=False),
        Column("status", String(16), nullable=False, index=True),
        Column("result", Text, nullable=True),
    ]
    if creator:
        columns += [
            Column("creator", String(64), nullable=True),
            Column("seed_source", String(16), nullable=True),
            Column("client", String(64), nullable=True),
            Column("bots", Integer, nullable=True),
        ]
    games = Table(f"{prefix}games", meta, *columns)
    if creator:
        Index(f"ix_{prefix}games_client", games.c.client)
    actions = Table(
        f"{prefix}actions",
        meta,
        Column("game_id", String(32), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("seat", Integer, nullable=True),
        Column("action", String(200), nullable=False),
        Column("created", Float, nullable=False),
    )
    meta.create_all(engine)
    seats = '[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]'
    with engine.begin() as conn:
        conn.execute(
            games.insert().values(
                id="old", created=1.0, updated=2.0, options='{"players": 2}',
                seed=2**31 - 1 if integer_seed else str(2**31 - 1), seats=seats,
                status="active", result=None,
            )
        )  # fmt: skip
        for seq, action in ((1, "tile red e4"), (2, "pass")):
            conn.execute(
                actions.insert().values(game_id="old", seq=seq, seat=0, action=action, created=2.0)
            )
    engine.dispose()


def revision_of(store: Store) -> str | None:
    with store.db.engine.connect() as conn:
        return migrate.current(conn, store.prefix)


def test_a_new_database_is_created_at_the_newest_revision(db: tuple[str, str]) -> None:
    store = Store(*db)
    assert revision_of(store) == migrate.head()
    names = set(inspect(store.db.engine).get_table_names())
    assert {f"{db[1]}{t}" for t in ("games", "actions", "accounts", "ratings")} <= names
    store.close()
    again = Store(*db)  # a second start changes nothing
    assert revision_of(again) == migrate.head()
    again.close()


@pytest.mark.parametrize(("integer_seed", "creator"), [(False, True), (True, False)])
def test_a_database_of_the_version_before_alembic_is_upgraded_in_place(
    db: tuple[str, str], integer_seed: bool, creator: bool
) -> None:
    url, prefix = db
    previous_version(url, prefix, integer_seed=integer_seed, creator=creator)
    store = Store(url, prefix)
    assert revision_of(store) == migrate.head()
    old = store.games.load("old")
    assert old.seed == 2**31 - 1 and old.seats[0]["name"] == "Ann"
    assert [a for _, _, a in old.actions] == ["tile red e4", "pass"]
    assert old.creator is None and old.status == "active"
    # the columns and tables of the new version work on it
    store.games.create("new", {"players": 2}, 2**127 + 1, [], creator="c" * 64, client="x")
    new = store.games.load("new")
    assert new.seed == 2**127 + 1 and new.creator == "c" * 64
    assert store.games.recent_of("x", 0.0) == (1, 0)
    with store.db.engine.connect() as conn:
        assert conn.execute(text(f'SELECT count(*) FROM "{prefix}accounts"')).scalar() == 0
    store.close()


def test_the_baseline_alone_then_the_rest(db: tuple[str, str]) -> None:
    """A database at the baseline revision (the first Alembic version) goes up to the head
    keeping its games."""
    url, prefix = db
    engine = create_engine(normalise_url(url))
    migrate.upgrade(engine, prefix, "0001")
    with engine.connect() as conn:
        assert migrate.current(conn, prefix) == "0001"
    assert f"{prefix}accounts" not in inspect(engine).get_table_names()
    with engine.begin() as conn:
        conn.execute(
            text(
                f'INSERT INTO "{prefix}games" (id, created, updated, options, seed, seats, '
                "status) VALUES ('g', 1, 1, '{}', '5', '[]', 'over')"
            )
        )
    engine.dispose()
    store = Store(url, prefix)
    assert revision_of(store) == migrate.head() and store.games.load("g").seed == 5
    store.close()
