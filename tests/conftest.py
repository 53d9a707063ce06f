"""Shared pytest set-up: the ``--slow`` flag turns on the long suites (marked ``slow``), the
``db`` fixture runs a test on SQLite and on the real PostgreSQL, and every HTTP request a test
makes waits for its answer up to ``PATIENCE``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.serving import PATIENCE, postgres_or_skip
from tigris_euphrates.store import Store


def _patient_httpx() -> None:
    """httpx's clients and its one-call functions wait 5 s for an answer unless told
    otherwise. On a loaded machine a server may take longer than that to answer, and a test
    waits for the answer, not for a time: where a test names no timeout, it is ``PATIENCE``.
    (The one-call functions build their client with the default, which this catches too.)"""
    default = httpx.Client.__init__.__kwdefaults__["timeout"]
    for client in (httpx.Client, httpx.AsyncClient):
        init = client.__init__

        def patient(self: object, *args: object, _init: object = init, **kwargs: object) -> None:
            if kwargs.get("timeout", default) is default:
                kwargs["timeout"] = PATIENCE
            _init(self, *args, **kwargs)  # type: ignore[operator]

        client.__init__ = patient  # type: ignore[method-assign]


_patient_httpx()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run the slow suites too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow suite: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(url, table prefix) of an empty database on each engine (PostgreSQL: fresh tables
    under a prefix of their own, dropped afterwards; skipped when it is not reachable, a
    failure with ``TNE_REQUIRE_POSTGRES=1``: ``support.serving.postgres_or_skip``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}", ""
        return
    yield from _postgres_tables()


@pytest.fixture
def postgres_db() -> Iterator[tuple[str, str]]:
    """(url, table prefix) of fresh PostgreSQL tables, for what only PostgreSQL has (the
    same skip or failure as ``db`` when it is not reachable)."""
    yield from _postgres_tables()


def _postgres_tables() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"t{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()
