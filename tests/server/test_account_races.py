"""The sign-in and sign-up limits hold under concurrency: many requests sent at once, to one
process on SQLite and split between two processes on one PostgreSQL database.

Every limit is taken in the database before the work it limits (the password check, the new
account), so however many requests arrive together, at most the limit's number of them do
that work, and the right password sent once the limit is taken is refused like the wrong ones.
(Which requests of a burst come first is the network's choice, so the right password is sent
after the burst: inside it, it may fairly be one of the few that are checked.)
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from accounting import CountingHasher
from support.serving import LiveServer, ServerProcess, postgres_or_skip
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
#: How many requests go at once.
AT_ONCE = 60


def csrf(url: str) -> str:
    return str(httpx.get(f"{url}/api/account").json()["csrf"])


async def burst(urls: list[str], path: str, bodies: list[dict[str, Any]]) -> list[int]:
    """POST every body at once, the i-th to ``urls[i % len(urls)]``, each with a CSRF token
    of its server; the statuses in the bodies' order."""
    tokens = [csrf(url) for url in urls]
    limits = httpx.Limits(max_connections=AT_ONCE * 2, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:

        async def one(i: int, body: dict[str, Any]) -> int:
            k = i % len(urls)
            r = await client.post(
                urls[k] + path,
                json=body,
                headers={"X-CSRF-Token": tokens[k], "Cookie": f"tne_csrf={tokens[k]}"},
            )
            return r.status_code

        return list(await asyncio.gather(*(one(i, b) for i, b in enumerate(bodies))))


def wrong_sign_ins(name: str) -> list[dict[str, Any]]:
    return [{"name": name, "password": f"wrong password {i}"} for i in range(AT_ONCE)]


def right_sign_in(url: str, name: str) -> int:
    """The status of one sign-in with the right password, sent on its own."""
    return asyncio.run(burst([url], "/api/account/signin", [{"name": name, "password": PASSWORD}]))[
        0
    ]


def sign_up(url: str, name: str) -> None:
    token = csrf(url)
    r = httpx.post(
        f"{url}/api/account/signup",
        json={"name": name, "password": PASSWORD},
        headers={"X-CSRF-Token": token},
        cookies={"tne_csrf": token},
    )
    assert r.status_code == 200, r.text


def checked(statuses: list[int]) -> int:
    """The answers that checked a password (a refusal by a limit is 429 and checks none)."""
    assert set(statuses) <= {200, 401, 429}, statuses
    return sum(1 for s in statuses if s != 429)


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/r.sqlite3") as srv:
        yield srv


def test_sign_ins_at_once_check_at_most_the_limit_of_passwords(
    sqlite_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, limits = sqlite_server, Limits()
    name = f"Racer{uuid.uuid4().hex[:6]}"
    sign_up(server.url, name)
    passwords = server.app.state.accounts.passwords
    counting = CountingHasher(passwords.hasher)
    monkeypatch.setattr(passwords, "hasher", counting)
    statuses = asyncio.run(burst([server.url], "/api/account/signin", wrong_sign_ins(name)))
    assert counting.verified == limits.sign_in_failures_per_name
    assert checked(statuses) == counting.verified
    assert right_sign_in(server.url, name) == 429
    assert counting.verified == limits.sign_in_failures_per_name
    # from one client, many names at once: at most the per-client limit of checks
    counting.verified = 0
    many = [{"name": f"Someone{i}", "password": "wrong password"} for i in range(AT_ONCE)]
    statuses = asyncio.run(burst([server.url], "/api/account/signin", many))
    assert counting.verified <= limits.sign_in_failures_per_client
    assert checked(statuses) == counting.verified


def test_sign_ups_at_once_create_at_most_the_limit(sqlite_server: LiveServer) -> None:
    server, most = sqlite_server, Limits().sign_ups_per_client
    stem = uuid.uuid4().hex[:6]
    bodies = [{"name": f"New{stem}{i}", "password": PASSWORD} for i in range(30)]
    statuses = asyncio.run(burst([server.url], "/api/account/signup", bodies))
    assert statuses.count(200) <= most and set(statuses) <= {200, 429}
    assert server.app.state.accounts.accounts.count() == statuses.count(200)


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[list[str], Store]]:
    url = postgres_or_skip()
    prefix = f"r{uuid.uuid4().hex[:10]}_"
    a = ServerProcess(tmp_path / "a", url, prefix)
    b = ServerProcess(tmp_path / "b", url, prefix)
    store = Store(url, prefix)
    try:
        with a, b:
            yield [a.url, b.url], store
    finally:
        store.drop_all()
        store.close()


def test_two_processes_share_the_limits_under_concurrency(
    two_processes: tuple[list[str], Store],
) -> None:
    urls, store = two_processes
    limits = Limits()
    name = f"Racer{uuid.uuid4().hex[:6]}"
    sign_up(urls[0], name)
    statuses = asyncio.run(burst(urls, "/api/account/signin", wrong_sign_ins(name)))
    assert checked(statuses) == limits.sign_in_failures_per_name
    assert 200 not in statuses
    assert [right_sign_in(url, name) for url in urls] == [429, 429]
    # sign-ups split between the processes: at most the limit created (one was made above)
    stem = uuid.uuid4().hex[:6]
    bodies = [{"name": f"New{stem}{i}", "password": PASSWORD} for i in range(30)]
    statuses = asyncio.run(burst(urls, "/api/account/signup", bodies))
    assert statuses.count(200) <= limits.sign_ups_per_client - 1
    assert store.accounts.count() == 1 + statuses.count(200)
