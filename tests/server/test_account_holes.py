"""The account holes closed, through real HTTP on SQLite (clients told apart by their
loopback address, 127.0.0.x): a guesser's failures do not lock the owner out, look-alike and
invisible names are refused, a notification address is confirmed before any turn e-mail
goes to it, signing out ends the session on the server, and the client address is the
socket's peer unless the operator trusts a proxy."""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mailing import Mailbox
from support.serving import LiveServer, Player, ServerProcess
from tigris_euphrates import player_view
from tigris_euphrates.server.clocks import Pace
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.mail import Mailer
from tigris_euphrates.store import Store
from tigris_euphrates.store.attempts import Rule, State, decide
from tigris_euphrates.store.names import skeleton

PASSWORD = "correct horse battery"


class From(Player):
    """A browser at another loopback address: another client for the limits."""

    def __init__(self, server: LiveServer, address: str) -> None:
        self.server = server
        transport = httpx.HTTPTransport(local_address=address)
        self.http = httpx.Client(base_url=server.url, timeout=30, transport=transport)
        self.csrf = self.http.get("/api/account").json()["csrf"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/h.sqlite3") as srv:
        yield srv


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:6]}"


# --- a guesser does not lock the owner out ----------------------------------------------


def test_a_guesser_is_throttled_not_the_owner(server: LiveServer) -> None:
    name = unique("Owner")
    Player(server).sign_up(name, PASSWORD)
    guesser = From(server, "127.0.0.2")
    for _ in range(4):
        assert guesser.sign_in(name, "wrong password").status_code == 401
    before_last_failure = time.monotonic()
    assert guesser.sign_in(name, "wrong password").status_code == 401
    r = guesser.sign_in(name, PASSWORD)  # the guesser waits, even with the right password
    # the full minute's back-off from the fifth failure, less only what passed since it (a
    # busy machine may take seconds between the two requests)
    passed = math.ceil(time.monotonic() - before_last_failure)
    assert r.status_code == 429 and 60 - passed <= int(r.headers["Retry-After"]) <= 60
    # the owner, from another address and a browser that never signed in, is not locked out
    owner = From(server, "127.0.0.3")
    assert owner.sign_in(name, PASSWORD).status_code == 200 and owner.me()["name"] == name


def test_the_guessers_wait_doubles_and_its_count_ends() -> None:
    """Past the free failures each try waits twice as long as the one before (at most the
    window); a window without a try starts the count again."""
    rule = Rule(most=2, window=900.0, backoff=60.0)
    state, t = None, 1000.0
    waits = []
    for _ in range(7):
        new, wait = decide(rule, state, t)
        if new is None:  # refused: come back when told
            waits.append(round(wait))
            t += wait
            new, wait = decide(rule, state, t)
        assert new is not None and wait == 0.0
        state = new
    assert waits == [60, 120, 240, 480, 900]
    assert decide(rule, state, t + 900.0)[0] == State(count=1, since=t + 900.0, last=t + 900.0)


def test_many_guessers_slow_a_name_and_its_own_browser_passes(tmp_path: Path) -> None:
    limits = Limits(sign_in_name_ceiling=3, sign_in_name_spacing=600.0)
    url = f"sqlite:///{tmp_path}/n.sqlite3"
    with LiveServer(data_dir=tmp_path, database_url=url, limits=limits) as srv:
        name = unique("Famous")
        home = Player(srv)
        home.sign_up(name, PASSWORD)
        assert home.post("/api/account/signout").status_code == 200
        # four addresses fail once each: past the ceiling the name's checks are spaced out
        for i in range(2, 6):
            assert From(srv, f"127.0.0.{i}").sign_in(name, "guess").status_code == 401
        r = From(srv, "127.0.0.6").sign_in(name, "guess")
        assert r.status_code == 429 and "for this name" in r.json()["message"]
        assert int(r.headers["Retry-After"]) > 500
        # a new browser waits its turn like everyone; the owner's own browser does not
        assert From(srv, "127.0.0.7").sign_in(name, PASSWORD).status_code == 429
        assert home.sign_in(name, PASSWORD).status_code == 200 and home.me()["name"] == name


# --- names ------------------------------------------------------------------------------


def test_look_alike_and_invisible_names_are_refused(server: LiveServer) -> None:
    stem = uuid.uuid4().hex[:4]
    p = Player(server)
    p.sign_up(f"Anna{stem}", PASSWORD)
    for twin in (
        f"\u0410nna{stem}",  # Cyrillic А
        f"\u0391\u039d\u039d\u0391{stem}",  # Greek capitals
        f"\uff21nna{stem}",  # fullwidth Ａ
        f"Annа{stem}",  # Cyrillic а at the end
    ):
        r = Player(server).post("/api/account/signup", {"name": twin, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"] == "name-taken", twin
    for hidden in (f"A\u3164nna{stem}", f"An\u200bna{stem}", f"Ann\u00ada{stem}"):
        r = Player(server).post("/api/account/signup", {"name": hidden, "password": PASSWORD})
        assert r.status_code == 422 and "invisible" in r.json()["message"], hidden
    # a different name is not a look-alike; a fullwidth name is stored in NFKC
    assert Player(server).sign_up(f"Anne{stem}", PASSWORD)["account"]["name"] == f"Anne{stem}"
    made = Player(server).sign_up(f"\uff3aoe{stem}", PASSWORD)
    assert made["account"]["name"] == f"Zoe{stem}"
    assert server.app.state.accounts.accounts.count() == 3


def test_the_skeleton_folds_the_documented_look_alikes() -> None:
    assert skeleton("B0b") == skeleton("Bob") == skeleton("BOB") == skeleton("\u0412\u041e\u0412")
    assert skeleton("Iris") == skeleton("lris") == skeleton("1ris")
    assert skeleton("barn") == skeleton("bam")
    assert skeleton("Ann") != skeleton("Anne") and skeleton("Mia") != skeleton("Mla")


# --- signing out ----------------------------------------------------------------------


def test_a_cookie_saved_before_signing_out_opens_nothing(server: LiveServer) -> None:
    name = unique("Leaver")
    p = Player(server)
    p.sign_up(name, PASSWORD)
    saved = p.http.cookies["tne_session"]
    assert p.post("/api/account/signout").status_code == 200 and p.me() is None
    r = httpx.get(f"{server.url}/api/account", cookies={"tne_session": saved})
    assert r.json()["account"] is None
    assert httpx.get(f"{server.url}/api/account/games", cookies={"tne_session": saved}).is_error
    # signing in again opens a new session; the old copy stays closed
    assert p.sign_in(name, PASSWORD).status_code == 200 and p.me()["name"] == name
    r = httpx.get(f"{server.url}/api/account", cookies={"tne_session": saved})
    assert r.json()["account"] is None


# --- the notification address is confirmed first -----------------------------------------


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


def link_in(msg: Any, path: str) -> str:
    return next(w for w in msg.get_content().split() if path in w)


def test_the_address_is_confirmed_by_a_link_sent_to_it(tmp_path: Path, mailbox: Mailbox) -> None:
    srv = LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.sqlite3")
    srv.app_kwargs["mail"] = mailbox.settings(public_url=srv.url)
    with srv:
        p = Player(srv)
        p.sign_up(unique("Mail"), PASSWORD)
        r = p.post("/api/account/notifications", {"email": "ann@example.org", "enabled": True})
        assert r.status_code == 200 and r.json()["confirmed"] is False
        assert [str(m["To"]) for m in mailbox.messages] == ["ann@example.org"]
        link = link_in(mailbox.messages[0], "/confirm-email?t=")
        # another address before the first is confirmed: the first one's link confirms nothing
        p.post("/api/account/notifications", {"email": "bob@example.org", "enabled": True})
        assert "Link not recognised" in httpx.post(link).text
        link = link_in(mailbox.messages[-1], "/confirm-email?t=")
        # the link shows a button (a mail scanner that fetches it confirms nothing)
        page = httpx.get(link)
        assert page.status_code == 200 and 'method="post"' in page.text
        assert p.http.get("/api/account/notifications").json()["confirmed"] is False
        assert "Link not recognised" in httpx.post(link[:-3] + "xyz").text
        assert "Address confirmed" in httpx.post(link).text
        assert p.http.get("/api/account/notifications").json()["confirmed"] is True
        # turning them off and on keeps the confirmation
        p.post("/api/account/notifications", {"enabled": False})
        assert p.post("/api/account/notifications", {"enabled": True}).json()["confirmed"]
        # a confirmed address is the account's: it is changed on the account page, with the
        # password (tests/server/test_credentials.py), not here
        r = p.post("/api/account/notifications", {"email": "eve@example.org", "enabled": True})
        assert r.status_code == 409 and r.json()["error"] == "email-change"
        assert p.http.get("/api/account/notifications").json()["email"] == "bob@example.org"


def test_confirmation_emails_are_limited_per_account(tmp_path: Path, mailbox: Mailbox) -> None:
    limits = Limits(confirm_emails_per_account=2)
    srv = LiveServer(
        data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/l.sqlite3", limits=limits
    )
    srv.app_kwargs["mail"] = mailbox.settings(public_url=srv.url)
    with srv:
        p = Player(srv)
        p.sign_up(unique("Spam"), PASSWORD)
        answers = [
            p.post("/api/account/notifications", {"email": f"v{i}@example.org", "enabled": True})
            for i in range(3)
        ]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert len(mailbox.messages) == 2
        now = p.http.get("/api/account/notifications").json()
        assert now["email"] == "v1@example.org"  # the refused change changed nothing


async def play(hub: Hub, game: Any, seat: int) -> None:
    """``seat`` plays its two actions (its first legal ones)."""
    for _ in range(2):
        action = player_view(game.state, seat)["legal_actions"][0]
        await hub.submit(game, seat, game.seq, action)


def test_no_turn_email_to_an_unconfirmed_address(tmp_path: Path, mailbox: Mailbox) -> None:
    people = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path}/t.sqlite3")
        hub = Hub(store, bot_processes=0, mailer=Mailer(mailbox.settings()))
        await hub.start()
        bob = store.accounts.create("bob", "not-a-real-hash")
        store.notifications.set(bob.id, "bob@example.org", True)
        pace = Pace("turn", 24 * 3600.0, 0.0, "random")
        game, _, _ = await hub.create({"players": 2}, people, pace=pace)
        store.accounts.bind_seat(game.id, 1, bob.id)
        await play(hub, game, 0)
        assert game.log.actor() == 1
        while hub.timekeeper._background:  # the turn's own notice has been decided
            await asyncio.sleep(0.02)
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is False
        assert mailbox.messages == []  # Bob's move, his address not confirmed: no e-mail
        assert store.notifications.confirm(bob.id, "bob@example.org")
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is True
        await hub.stop()
        store.close()

    asyncio.run(run())
    assert [str(m["To"]) for m in mailbox.messages] == ["bob@example.org"]


# --- the client address behind a proxy ---------------------------------------------------


def sign_up_from(url: str, forwarded_for: str) -> int:
    with httpx.Client(base_url=url, headers={"X-Forwarded-For": forwarded_for}) as c:
        token = c.get("/api/account").json()["csrf"]
        body = {"name": unique("Fwd"), "password": PASSWORD}
        return c.post("/api/account/signup", json=body, headers={"X-CSRF-Token": token}).status_code


def test_forwarded_addresses_are_trusted_only_from_the_proxies_named(tmp_path: Path) -> None:
    """By default the client is the socket's peer: an X-Forwarded-For header (here from
    loopback) changes nothing, so a client cannot pick a fresh address for every request.
    With ``--forwarded-allow-ips`` naming the proxy, the header names the client."""
    one = {"sign_ups_per_client": 1}
    with ServerProcess(tmp_path / "a", limits=one) as plain:
        assert sign_up_from(plain.url, "203.0.113.1") == 200
        assert sign_up_from(plain.url, "203.0.113.2") == 429
    proxied = ServerProcess(
        tmp_path / "b", limits=one, extra=["--forwarded-allow-ips", "127.0.0.1"]
    )
    with proxied:
        assert sign_up_from(proxied.url, "203.0.113.1") == 200
        assert sign_up_from(proxied.url, "203.0.113.2") == 200
        assert sign_up_from(proxied.url, "203.0.113.2") == 429
