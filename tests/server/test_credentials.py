"""An account's password and address, through real HTTP and a real local SMTP server
(aiosmtpd, ``tests/mailing.py``): the tests read the e-mails the server sent and follow their
links. Changing the password signs the other sessions out; a forgotten one is reset by a
link that works once and expires, asked for with the same answer whether the name exists or
not; a new address becomes the account's only once its owner follows the link sent to it."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mailing import Mailbox
from support.serving import LiveServer, Player, ServerProcess, postgres_or_skip
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.recovery import reset_digest
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
NEW = "staple battery horse"


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:6]}"


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


@pytest.fixture
def server(tmp_path: Path, mailbox: Mailbox) -> Iterator[LiveServer]:
    limits = Limits(reset_requests_per_target=3, reset_requests_per_client=6)
    srv = LiveServer(
        data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/c.sqlite3", limits=limits
    )
    srv.app_kwargs["mail"] = mailbox.settings(public_url=srv.url)
    with srv:
        yield srv


def wait_mail(box: Mailbox, count: int) -> list[Any]:
    """The messages once ``count`` have arrived (the server sends some in the background)."""
    deadline = time.monotonic() + 20
    while len(box.messages) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(box.messages) >= count, [m["Subject"] for m in box.messages]
    return box.messages


def token_in(msg: Any, path: str) -> str:
    link = next(w for w in msg.get_content().split() if path + "#" in w)
    return link.split("#", 1)[1]


def with_address(srv: LiveServer, box: Mailbox, email: str) -> tuple[Player, str]:
    """A new signed-in account whose confirmed address is ``email``."""
    p, name = Player(srv), unique("Ann")
    p.sign_up(name, PASSWORD)
    seen = len(box.messages)
    r = p.post("/api/account/email", {"email": email, "password": PASSWORD})
    assert r.status_code == 200 and r.json()["pending"] == email, r.text
    token = token_in(wait_mail(box, seen + 1)[seen], "/change-email")
    assert p.post("/api/account/email/confirm", {"token": token}).json() == {"email": email}
    return p, name


def test_changing_the_password_signs_the_other_sessions_out(
    server: LiveServer, mailbox: Mailbox
) -> None:
    here, name = with_address(server, mailbox, "ann@example.org")
    there = Player(server)
    assert there.sign_in(name, PASSWORD).status_code == 200
    wrong = here.post("/api/account/password", {"current": "not it at all", "password": NEW})
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong-password"
    short = here.post("/api/account/password", {"current": PASSWORD, "password": "short"})
    assert short.status_code == 422
    assert there.me()["name"] == name  # refused changes changed nothing
    seen = len(mailbox.messages)
    r = here.post("/api/account/password", {"current": PASSWORD, "password": NEW})
    assert r.status_code == 200, r.text
    assert here.me()["name"] == name  # this browser stays signed in
    assert there.me() is None  # the other one is signed out
    assert Player(server).sign_in(name, PASSWORD).status_code == 401
    assert Player(server).sign_in(name, NEW).status_code == 200
    told = wait_mail(mailbox, seen + 1)[seen]
    assert str(told["To"]) == "ann@example.org" and "password" in told.get_content()


def test_a_forgotten_password_is_reset_by_a_link_that_works_once(
    server: LiveServer, mailbox: Mailbox, tmp_path: Path
) -> None:
    old, name = with_address(server, mailbox, "bea@example.org")
    stranger = Player(server)
    seen = len(mailbox.messages)
    known = stranger.post("/api/account/forgot", {"who": name})
    unknown = stranger.post("/api/account/forgot", {"who": unique("Nobody")})
    by_mail = stranger.post("/api/account/forgot", {"who": "BEA@example.org"})
    nowhere = stranger.post("/api/account/forgot", {"who": "nobody@example.org"})
    # the same answer whether the name or the address is known or not
    answers = {(r.status_code, r.text) for r in (known, unknown, by_mail, nowhere)}
    assert len(answers) == 1 and known.status_code == 200
    mails = wait_mail(mailbox, seen + 2)
    time.sleep(0.5)  # nothing more comes: the unknown name and address send nothing
    resets = mails[seen:]
    assert len(resets) == 2 and {str(m["To"]) for m in resets} == {"bea@example.org"}
    first, second = (token_in(m, "/reset-password") for m in resets)
    # the store keeps only the tokens' digests
    store = Store(f"sqlite:///{tmp_path}/c.sqlite3")
    try:
        assert store.credentials.reset_account(first) is None
        assert store.credentials.reset_account(reset_digest(first)) is not None
    finally:
        store.close()
    assert stranger.post("/api/account/reset/check", {"token": first}).json() == {"name": name}
    short = stranger.post("/api/account/reset", {"token": first, "password": "short"})
    assert short.status_code == 422
    done = stranger.post("/api/account/reset", {"token": first, "password": NEW})
    assert done.status_code == 200 and done.json()["name"] == name
    # used once; the other link of the account ends with it; the old sessions are over
    again = stranger.post("/api/account/reset", {"token": first, "password": "another one!"})
    assert again.status_code == 400 and again.json()["error"] == "bad-link"
    assert (
        stranger.post("/api/account/reset", {"token": second, "password": "x" * 12}).json()["error"]
        == "bad-link"
    )
    assert old.me() is None
    assert Player(server).sign_in(name, NEW).status_code == 200
    assert Player(server).sign_in(name, PASSWORD).status_code == 401


def test_reset_requests_are_limited_whether_the_name_exists_or_not(
    server: LiveServer, mailbox: Mailbox
) -> None:
    p = Player(server)
    for who in (unique("Known"), unique("Ghost")):
        if who.startswith("Known"):
            Player(server).sign_up(who, PASSWORD)
        codes = [p.post("/api/account/forgot", {"who": who}).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
    # the per-client limit: 6 an hour from one address, whatever the names
    assert p.post("/api/account/forgot", {"who": unique("Other")}).status_code == 429
    assert p.post("/api/account/forgot", {"who": "x"}, csrf=False).status_code == 403


def test_an_expired_reset_link_opens_nothing(
    server: LiveServer, mailbox: Mailbox, tmp_path: Path
) -> None:
    p, name = with_address(server, mailbox, "cat@example.org")
    store = Store(f"sqlite:///{tmp_path}/c.sqlite3")
    try:
        account = store.accounts.by_name(name)
        assert account is not None
        store.credentials.add_reset(account.id, reset_digest("an-old-token-long-enough"), -1.0)
    finally:
        store.close()
    r = p.post("/api/account/reset", {"token": "an-old-token-long-enough", "password": NEW})
    assert r.status_code == 400 and r.json()["error"] == "bad-link"
    assert Player(server).sign_in(name, PASSWORD).status_code == 200


def test_a_new_address_serves_only_once_confirmed(server: LiveServer, mailbox: Mailbox) -> None:
    p, name = with_address(server, mailbox, "dan@example.org")
    wrong = p.post("/api/account/email", {"email": "eve@example.org", "password": "nope nope"})
    assert wrong.status_code == 403
    seen = len(mailbox.messages)
    r = p.post("/api/account/email", {"email": "dan@example.net", "password": PASSWORD})
    assert r.json() == {
        "email": "dan@example.org",
        "confirmed": True,
        "pending": "dan@example.net",
        "configured": True,
    }
    link_mail = wait_mail(mailbox, seen + 1)[seen]
    assert str(link_mail["To"]) == "dan@example.net"
    token = token_in(link_mail, "/change-email")
    # until confirmed, the old address gets the reset links
    Player(server).post("/api/account/forgot", {"who": "dan@example.net"})
    Player(server).post("/api/account/forgot", {"who": name})
    assert str(wait_mail(mailbox, seen + 2)[seen + 1]["To"]) == "dan@example.org"
    # the notification card cannot replace a confirmed address without the password
    card = p.post("/api/account/notifications", {"email": "eve@example.org", "enabled": True})
    assert card.status_code == 409 and card.json()["error"] == "email-change"
    tampered = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    assert p.post("/api/account/email/confirm", {"token": tampered}).status_code == 400
    assert Player(server).post("/api/account/email/confirm", {"token": token}).status_code == 200
    now = p.http.get("/api/account/email").json()
    assert now["email"] == "dan@example.net" and now["confirmed"] and now["pending"] is None
    told = wait_mail(mailbox, seen + 3)[seen + 2]
    assert str(told["To"]) == "dan@example.org" and "dan@example.net" in told.get_content()
    assert p.post("/api/account/email/confirm", {"token": token}).status_code == 400  # once


# --- two processes on one PostgreSQL database ----------------------------------------------


@pytest.fixture
def two_processes(
    tmp_path: Path, mailbox: Mailbox, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[list[str], Store]]:
    url = postgres_or_skip()
    prefix = f"c{uuid.uuid4().hex[:10]}_"
    monkeypatch.setenv("TNE_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("TNE_SMTP_PORT", str(mailbox.port))
    limits = {"reset_requests_per_target": 3, "reset_requests_per_client": 100}
    a = ServerProcess(tmp_path / "a", url, prefix, limits=limits)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=limits)
    store = Store(url, prefix)
    try:
        with a, b:
            yield [a.url, b.url], store
    finally:
        store.drop_all()
        store.close()


async def at_once(urls: list[str], path: str, bodies: list[dict[str, Any]]) -> list[int]:
    """POST every body at once, the i-th to ``urls[i % 2]``; the statuses in order."""
    tokens = [str(httpx.get(f"{u}/api/account").json()["csrf"]) for u in urls]
    async with httpx.AsyncClient(timeout=120) as client:

        async def one(i: int, body: dict[str, Any]) -> int:
            k = i % len(urls)
            headers = {"X-CSRF-Token": tokens[k], "Cookie": f"tne_csrf={tokens[k]}"}
            r = await client.post(urls[k] + path, json=body, headers=headers)
            return r.status_code

        return list(await asyncio.gather(*(one(i, b) for i, b in enumerate(bodies))))


def test_two_processes_use_a_reset_link_once_and_share_the_limits(
    two_processes: tuple[list[str], Store], mailbox: Mailbox
) -> None:
    urls, store = two_processes
    name = unique("Twin")
    Player(_Url(urls[0])).sign_up(name, PASSWORD)  # type: ignore[arg-type]
    account = store.accounts.by_name(name)
    assert account is not None
    store.notifications.set(account.id, "twin@example.org", False)
    store.notifications.confirm(account.id, "twin@example.org")
    # the requests for one name, split between the processes: the limit holds across them
    statuses = asyncio.run(at_once(urls, "/api/account/forgot", [{"who": name}] * 8))
    assert statuses.count(200) == 3 and statuses.count(429) == 5
    tokens = [token_in(m, "/reset-password") for m in wait_mail(mailbox, 3)[:3]]
    # one link sent twelve times at once through both processes: used once
    bodies = [{"token": tokens[0], "password": f"{NEW} {i}"} for i in range(12)]
    statuses = asyncio.run(at_once(urls, "/api/account/reset", bodies))
    assert statuses.count(200) == 1 and statuses.count(400) == 11, statuses
    winner = f"{NEW} {statuses.index(200)}"
    assert Player(_Url(urls[1])).sign_in(name, winner).status_code == 200  # type: ignore[arg-type]
    # the account's other links ended with it
    late = asyncio.run(at_once(urls, "/api/account/reset", [{"token": tokens[1], "password": NEW}]))
    assert late == [400]


class _Url:
    """What ``Player`` reads of a server: its address."""

    def __init__(self, url: str) -> None:
        self.url = url
