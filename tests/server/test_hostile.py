"""The bounded hostile-input suite: thousands of seeded inputs, REST and websocket, against
a server in its own process, on SQLite and on PostgreSQL. No 5xx, no ``server-error``, no
close without a reason, and the game under attack unchanged (tests/hostile.py has the
rules; bench/hostile.py runs the long campaign)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import hostile
from support.serving import ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

#: hostile clients send as fast as they can read: the message rate limit is tested elsewhere
LIMITS = {
    "messages_per_second": 100_000,
    "message_burst": 100_000,
    "games_per_minute": 100_000,
    "games_per_client": 100_000,
    "bot_games_per_client": 3,
    "connections_per_client": 1000,
    # every sign-up or sign-in let through costs a password hash (argon2, ~0.1 s of CPU)
    "sign_ups_per_client": 3,
    "sign_in_failures_per_client": 2,
}

#: every kind of route the campaign attacks (``hostile.route_of``), each with enough inputs
ROUTES = [
    "games",
    "games/bot",
    "games/human",
    "games/rematch",
    "games/moves",
    "games/view",
    "games/replay",
    "account",
    "players",
    "leaderboard",
    "catalogues",
    "unsubscribe",
    "lessons",
    "challenges",
    "ws/bot",
    "tables",
    "match",
    "social",
    "invites",
    "lobby",
]


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        with ServerProcess(tmp_path, limits=LIMITS) as srv:
            yield srv
        return
    url = postgres_or_skip()
    prefix = f"h{uuid.uuid4().hex[:10]}_"
    try:
        with ServerProcess(tmp_path, url, prefix, limits=LIMITS) as srv:
            yield srv
    finally:
        Store(url, prefix).drop_all()


def test_hostile_inputs_get_4xx_or_error_frames_and_change_nothing(server: ServerProcess) -> None:
    tally = hostile.run(
        server.url,
        server.ws_url,
        seed=2026,
        rest=3500,
        frames=6000,
        first=500,
        bot_frames=600,
        lobby=500,
    )
    assert tally.inputs == 11_200 and tally.signed_in  # with 100 nicknames
    assert sum(n for code, n in tally.rest.items() if 400 <= code < 500) > 1500
    for route in ROUTES:
        assert tally.routes[route] >= 40, (route, tally.routes)
    assert tally.frames["bad-message"] > 1000 and tally.frames["bad-json"] > 300
    assert tally.frames["text-only"] > 50 and tally.frames["too-large"] > 50
    assert tally.frames["chat"] > 50 and tally.frames["chat-closed"] > 20
    # moves, hints, resign, abort and nickname frames from a spectator and from the seat not
    # to act: refused; hostile names refused
    assert tally.frames["spectator"] > 50 and tally.frames["not-your-turn"] > 20
    assert tally.frames["bad-name"] > 10
    assert tally.frames["lobby-bad-message"] > 50 and tally.frames["lobby-lobby-pings-only"] > 50
