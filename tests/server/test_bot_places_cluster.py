"""A bot account never takes a people's place, on two server processes sharing one
PostgreSQL database: its token is refused by quick match through one process while a person
waits through the other (who is then matched with a person, never with the bot), and by a
rated table opened through the other process (to sit, even invited; to open one of its
own). It sits only at a casual table whose creator invited bot accounts, and the lobby of
the other process shows it there, marked a bot, at a table marked as inviting them."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from botting import Bot
from support.serving import PATIENCE, Player, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
LIMITS = {"sign_ups_per_client": 1000, "games_per_minute": 1000, "games_per_client": 1000}


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    url = postgres_or_skip()
    prefix = f"p{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    Store(url, prefix).drop_all()


def person(server: ServerProcess, stem: str) -> tuple[Player, str]:
    p = Player(server)
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    p.sign_up(name, PASSWORD)
    return p, name


def match_of(p: Player, timeout: float = PATIENCE) -> dict[str, Any]:
    """The person's quick match once it is made."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = p.http.get("/api/match").json()["match"]
        if match is not None and match.get("game"):
            return dict(match)
        time.sleep(0.2)
    raise AssertionError("no match was made")


def listed(server: ServerProcess, table: str) -> dict[str, Any]:
    tables = httpx.get(f"{server.url}/api/tables").json()["tables"]
    return dict(next(t for t in tables if t["id"] == table))


def test_a_bot_token_takes_no_peoples_place_through_either_process(
    tmp_path: Path, pg: tuple[str, str]
) -> None:
    url, prefix = pg
    a = ServerProcess(tmp_path / "a", url, prefix, limits=LIMITS)
    b = ServerProcess(tmp_path / "b", url, prefix, limits=LIMITS)
    with a, b:
        bot = Bot(a)
        cy, _ = person(b, "Cy")
        dee, dee_name = person(a, "Dee")
        ann, _ = person(b, "Ann")
        # quick match: a person waits through B; the bot's token is refused through A
        assert cy.post("/api/match", {"family": "classic", "players": 2}).status_code == 200
        r = bot.api.post("/api/match", json={"family": "classic", "players": 2})
        assert r.status_code == 403 and r.json()["error"] == "bot-quick-match"
        assert bot.api.get("/api/match").json()["match"] is None
        assert dee.post("/api/match", {"family": "classic", "players": 2}).status_code == 200
        game = match_of(cy)["game"]
        seats = httpx.get(f"{b.url}/api/games/{game}").json()["seats"]
        assert bot.name not in {s["name"] for s in seats} and dee_name in {s["name"] for s in seats}
        # a rated table opened through B: refused to the bot through A, even invited
        rated = ann.post("/api/tables", {"players": 2, "rated": True}).json()
        r = bot.api.post(f"/api/tables/{rated['table']}/sit", json={})
        assert r.status_code == 403 and r.json()["error"] == "bot-rated"
        r = ann.post(
            f"/api/tables/{rated['table']}/invite", {"token": rated["token"], "name": bot.name}
        )
        assert r.status_code == 403 and r.json()["error"] == "bot-rated"
        r = bot.api.post(f"/api/tables/{rated['table']}/sit", json={})
        assert r.status_code == 403 and r.json()["error"] == "bot-rated"
        assert listed(a, rated["table"])["free"] == 1
        r = bot.api.post("/api/tables", json={"players": 2, "rated": True})
        assert r.status_code == 403 and r.json()["error"] == "bot-rated"
        # casual tables: only the one whose creator invited bot accounts
        casual = ann.post("/api/tables", {"players": 3}).json()
        r = bot.api.post(f"/api/tables/{casual['table']}/sit", json={})
        assert r.status_code == 409 and r.json()["error"] == "no-bot-accounts"
        welcome = ann.post("/api/tables", {"players": 3, "bot_accounts": True}).json()
        r = bot.api.post(f"/api/tables/{welcome['table']}/sit", json={})
        assert r.status_code == 200, r.text
        shown = listed(b, welcome["table"])
        assert shown["bot_accounts"] is True and shown["free"] == 1
        assert [s["bot"] for s in shown["seats"]] == [False, True]
        assert listed(b, casual["table"])["bot_accounts"] is False
