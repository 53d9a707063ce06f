"""A client generated from the server's OpenAPI document plays a bot account's session.

The document is read from a running server (``/openapi.json``), a Python client is generated
from it by openapi-python-client (pinned in the ``dev`` extra) and imported; through that
client alone two accounts sign up, become bot accounts, make their API tokens, challenge
each other to a rated game and accept it; the two programs play the game over its
websocket (the frames the AsyncAPI document ``/asyncapi.json`` describes); then the
generated client reads the finished game, its move list, a bot's profile and the bots'
leaderboard, revokes a token and reads the refusal of the revoked token as the typed error.
Every answer is parsed into the generated models (a field the document does not describe, or
one it describes and the server does not send, fails here)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from accounting import play_to_end
from botting import BotSeat, unique
from support.serving import LiveServer
from tigris_euphrates import __version__
from tigris_euphrates.server.limits import Limits

PASSWORD = "correct horse battery"
#: The generator's settings: the package's name, and no formatter run over its output.
CONFIG = "package_name_override: tne_client\npost_hooks: []\n"
#: How long one request may take (a busy machine builds the documents slowly).
WAIT = httpx.Timeout(120.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("client")
    limits = Limits(games_per_minute=1000, games_per_client=1000, sign_ups_per_client=1000)
    with LiveServer(
        data_dir=data, database_url=f"sqlite:///{data}/t.sqlite3", limits=limits
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def generated(server: LiveServer, tmp_path_factory: Any) -> Iterator[ModuleType]:
    """The package ``tne_client`` generated from the server's document, imported."""
    where: Path = tmp_path_factory.mktemp("generated")
    document = httpx.get(f"{server.url}/openapi.json", timeout=WAIT).json()
    assert document["info"]["version"] == __version__
    (where / "openapi.json").write_text(json.dumps(document))
    (where / "config.yaml").write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(where / "openapi.json"),
            "--config",
            str(where / "config.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(where / "tne_client"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Warning" not in said and "Unable" not in said, said  # every schema generated
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("tne_client")
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m == "tne_client" or m.startswith("tne_client.")]:
            del sys.modules[name]


def call(generated: ModuleType, operation: str) -> Any:
    """The generated module of one operation (its ``sync`` call answers the parsed model)."""
    return importlib.import_module(f"tne_client.api.default.{operation}")


def bot_account(generated: ModuleType, server: LiveServer, stem: str) -> tuple[str, str, int]:
    """A new bot account made through the generated client as its owner does on the page
    (signed up, made a bot, one API token): its name, the token's secret and id."""
    models = importlib.import_module("tne_client.models")
    page = generated.Client(base_url=server.url, raise_on_unexpected_status=True, timeout=WAIT)
    csrf = call(generated, "who").sync(client=page).csrf
    # the page sends its CSRF token with every post, on the connection that holds its cookies
    page.get_httpx_client().headers["X-CSRF-Token"] = csrf
    name = unique(stem)
    signed = call(generated, "sign_up").sync(
        client=page, body=models.SignUp(name=name, password=PASSWORD)
    )
    assert signed.account.name == name and signed.account.bot is False
    made = call(generated, "make_bot").sync(client=page, body=models.MakeBot(confirm=True))
    assert made.account.bot is True
    token = call(generated, "make_token").sync(client=page, body=models.NewToken(name="laptop"))
    assert token.name == "laptop" and token.token
    return name, token.token, token.id


def test_the_openapi_document_describes_every_route_and_the_asyncapi_one_every_socket(
    server: LiveServer,
) -> None:
    document = httpx.get(f"{server.url}/openapi.json", timeout=WAIT).json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answer = operation["responses"]["200"]["content"]
            schema = next(iter(answer.values()))["schema"]
            assert schema, (method, path)  # no route answers an undescribed body
            for status, refusal in operation["responses"].items():
                if status != "200":
                    ref = refusal["content"]["application/json"]["schema"]["$ref"]
                    assert ref == "#/components/schemas/ErrorAnswer", (method, path, status)
    sockets = httpx.get(f"{server.url}/asyncapi.json", timeout=WAIT).json()
    assert sockets["info"]["version"] == __version__
    assert {c["address"] for c in sockets["channels"].values()} == {
        "/ws/games/{game_id}",
        "/ws/lobby",
        "/ws/bot",
    }


def test_a_generated_client_plays_a_bot_accounts_session(
    server: LiveServer, generated: ModuleType
) -> None:
    models = importlib.import_module("tne_client.models")
    alpha, alpha_token, alpha_token_id = bot_account(generated, server, "Alpha")
    beta, beta_token, _ = bot_account(generated, server, "Beta")
    one = generated.AuthenticatedClient(base_url=server.url, token=alpha_token, timeout=WAIT)
    two = generated.AuthenticatedClient(base_url=server.url, token=beta_token, timeout=WAIT)
    assert call(generated, "who").sync(client=one).account.name == alpha
    made = call(generated, "make_challenge").sync(
        client=one, body=models.NewChallenge(to=beta, rated=True)
    )
    assert isinstance(made, models.PublicChallenge) and made.state == "open"
    assert made.from_.name == alpha and made.to.bot is True
    received = call(generated, "my_challenges").sync(client=two).challenges
    assert [c.id for c in received] == [made.id]
    accepted = call(generated, "accept_challenge").sync(client=two, challenge_id=made.id)
    assert accepted.state == "accepted" and isinstance(accepted.game, str)
    game_id = accepted.game
    seat_of = {
        token: call(generated, "my_seats").sync(client=client, game_id=game_id).seats[0]
        for token, client in ((alpha_token, one), (beta_token, two))
    }
    assert sorted(seat_of.values()) == [0, 1]
    seats = [
        BotSeat(server.ws_url, game_id, token, seat)
        for token, seat in sorted(seat_of.items(), key=lambda x: x[1])
    ]
    last = play_to_end(seats)
    assert last["view"]["over"]

    summary = call(generated, "game_summary").sync(client=one, game_id=game_id)
    assert summary.status == "over" and summary.rated is True
    assert [s.name for s in summary.seats] == [
        alpha if seat_of[alpha_token] == i else beta for i in range(2)
    ]
    moves = call(generated, "game_moves").sync(client=one, game_id=game_id)
    assert len(moves.log) == last["seq"] and moves.aborted is False
    replayed = call(generated, "game_replay").sync(client=one, game_id=game_id, step=1)
    assert replayed.step == 1 and replayed.action == moves.log[0].action
    deadline = time.monotonic() + 20  # the game is rated just after its last view
    board = call(generated, "leaderboard").sync(client=one, bots=True, limit=100)
    while {alpha, beta} - {line.name for line in board.top} and time.monotonic() < deadline:
        time.sleep(0.1)
        board = call(generated, "leaderboard").sync(client=one, bots=True, limit=100)
    assert {alpha, beta} <= {line.name for line in board.top}
    profile = call(generated, "profile").sync(client=one, name=alpha)
    assert profile.account.bot is True and profile.ratings[0].games == 1
    assert profile.games[0].id == game_id and profile.games[0].status == "over"

    revoked = call(generated, "revoke_token").sync(client=one, token_id=alpha_token_id)
    assert revoked.revoked == alpha_token_id
    refused = call(generated, "tokens").sync_detailed(client=one)
    assert refused.status_code == 403
    assert isinstance(refused.parsed, models.ErrorAnswer) and refused.parsed.error == "bad-token"
