"""The store tests' database: each test runs on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import POSTGRES_TEST_URL, postgres_url
from tigris_euphrates.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(url, table prefix) of an empty database on each engine."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}", ""
        return
    url = postgres_url()
    if url is None:
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_TEST_URL}: PostgreSQL tests skipped")
    prefix = f"t{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()
