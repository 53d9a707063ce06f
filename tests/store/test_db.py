"""The store on SQLite and on the real PostgreSQL: the action log and its (game, seq) key."""

from __future__ import annotations

import threading

import pytest

from tigris_euphrates.store import StepTaken, Store, UnknownGame, database_url_for


def test_create_load_append(db: tuple[str, str]) -> None:
    store = Store(*db)
    seats = [{"kind": "human", "name": "Ann", "token": "h"}, {"kind": "bot", "level": "random"}]
    store.games.create("g1", {"players": 2}, 42, seats, creator="c" * 64)
    for seq, action in enumerate(["tile red e4", "pass", "commit 0"], start=1):
        store.games.append("g1", seq, seq % 2, action)
    row = store.games.load("g1")
    assert row.options == {"players": 2} and row.seed == 42 and row.seats == seats
    assert [a[2] for a in row.actions] == ["tile red e4", "pass", "commit 0"]
    assert [a[0] for a in row.actions] == [1, 2, 3]
    assert row.status == "active" and store.games.ids("active") == ["g1"]
    assert row.creator == "c" * 64
    store.games.finish("g1", {"ranking": [0, 1]})
    row = store.games.load("g1")
    assert row.status == "over" and row.result == {"ranking": [0, 1]} and row.seats == seats
    assert store.games.ids("active") == [] and [g.id for g in store.games.page()] == ["g1"]
    with pytest.raises(UnknownGame):
        store.games.load("nope")
    store.close()


def test_same_step_twice_fails(db: tuple[str, str]) -> None:
    store = Store(*db)
    store.games.create("g2", {"players": 2}, 1, [])
    store.games.append("g2", 1, 0, "pass")
    with pytest.raises(StepTaken):
        store.games.append("g2", 1, 1, "pass")
    assert [a[2] for a in store.games.load("g2").actions] == ["pass"]
    store.close()


def test_two_concurrent_writers_exactly_one_wins(db: tuple[str, str]) -> None:
    """Two stores (as two server processes would have) race to write the same step."""
    first, second = Store(*db), Store(*db)
    first.games.create("g3", {"players": 2}, 1, [])
    for round_ in range(1, 11):
        barrier = threading.Barrier(2)
        outcome: dict[str, str] = {}

        def write(
            name: str,
            store: Store,
            action: str,
            seq: int = round_,
            barrier: threading.Barrier = barrier,
            outcome: dict[str, str] = outcome,
        ) -> None:
            barrier.wait()
            try:
                store.games.append("g3", seq, 0, action)
                outcome[name] = "won"
            except StepTaken:
                outcome[name] = "lost"

        threads = [
            threading.Thread(target=write, args=("a", first, f"tile red a{round_}")),
            threading.Thread(target=write, args=("b", second, f"tile blue b{round_}")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["lost", "won"], outcome
        stored = first.games.load("g3").actions
        assert len(stored) == round_
        winner = "a" if outcome["a"] == "won" else "b"
        assert stored[-1][2] == (f"tile red a{round_}" if winner == "a" else f"tile blue b{round_}")
    first.close()
    second.close()


def test_a_log_write_survives_its_connection_cut_by_the_database(
    postgres_db: tuple[str, str],
) -> None:
    """On PostgreSQL the log is written on the thread's own connection: when the database
    ends that session (a restart, an idle timeout), the next write connects again and is
    stored once; a step already stored still raises ``StepTaken``."""
    url, prefix = postgres_db
    import psycopg

    store = Store(url, prefix)
    store.games.create("g5", {"players": 2}, 1, [])
    store.games.append("g5", 1, 0, "pass")
    with psycopg.connect(url, autocommit=True) as admin:
        backend = store.games._appender.cur.connection.info.backend_pid
        admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
    store.games.append("g5", 2, 1, "pass")
    with pytest.raises(StepTaken):
        store.games.append("g5", 2, 0, "pass")
    assert [a[:3] for a in store.games.load("g5").actions] == [(1, 0, "pass"), (2, 1, "pass")]
    assert store.games._appender.cur.connection.info.backend_pid != backend
    store.close()


def test_database_url_choice(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TNE_DATABASE_URL", raising=False)
    url = database_url_for(tmp_path / "data")
    assert url.startswith("sqlite:///") and url.endswith("tne.sqlite3")
    assert (tmp_path / "data").is_dir()
    assert database_url_for(None, "postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    monkeypatch.setenv("TNE_DATABASE_URL", "postgresql://x@y/z")
    assert database_url_for(tmp_path) == "postgresql+psycopg://x@y/z"


def test_128_bit_seeds_are_stored_exactly(db: tuple[str, str]) -> None:
    store = Store(*db)
    seed = 2**128 - 12345
    store.games.create("big", {"players": 2}, seed, [], seed_source="client")
    row = store.games.load("big")
    assert row.seed == seed and row.seed_source == "client"
    store.games.create("small", {"players": 2}, 7, [])
    assert store.games.load("small").seed_source == "server"
    store.close()


def test_an_integer_seed_column_of_an_older_version_becomes_text(db: tuple[str, str]) -> None:
    """The tables of the version with 31-bit seeds (an integer column) are upgraded in
    place when opened: the old games keep their seeds, new ones hold 128 bits."""
    from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, create_engine

    from tigris_euphrates.store import normalise_url

    url, prefix = db
    engine = create_engine(normalise_url(url))
    meta = MetaData()
    old = Table(
        f"{prefix}games",
        meta,
        Column("id", String(32), primary_key=True),
        Column("created", Float, nullable=False),
        Column("updated", Float, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", Integer, nullable=False),
        Column("seats", Text, nullable=False),
        Column("status", String(16), nullable=False, index=True),
        Column("result", Text, nullable=True),
    )
    meta.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            old.insert().values(
                id="old", created=1.0, updated=1.0, options="{}", seed=2**31 - 1,
                seats="[]", status="active", result=None,
            )
        )  # fmt: skip
    engine.dispose()
    store = Store(url, prefix)
    assert store.games.load("old").seed == 2**31 - 1 and store.games.load("old").creator is None
    store.games.create("new", {"players": 2}, 2**127 + 1, [])
    assert store.games.load("new").seed == 2**127 + 1
    store.close()
