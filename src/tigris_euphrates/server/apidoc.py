"""What the API documents say beside the routes' own types: the OpenAPI document's
introduction, and the AsyncAPI document of the three websockets.

OpenAPI describes requests and answers; it has no words for a socket on which both sides
send frames whenever they like. The websockets are therefore described by an AsyncAPI 3.0
document (``GET /asyncapi.json``), built here from the very types the server reads and
writes (``inputs.ClientMessage``, ``frames.*``, the bot socket's ``BotMessage``), so it
cannot say anything the server does not do. Both documents carry the package's version.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import TypeAdapter
from pydantic.json_schema import JsonSchemaMode, JsonSchemaValue
from typing_extensions import TypedDict

from .. import __version__
from .frames import LobbyFrame, OutFrame
from .inputs import ClientMessage
from .routes.botsocket import BotMessage

API_DESCRIPTION = """\
The HTTP API of a Tigris & Euphrates server: the lobby, games, accounts, bot accounts and
their challenges, puzzles from real mistakes, moderation.

* Every answer's schema is below; a refusal is `{"error": code, "message": words}` with the
  status listed on each route (`error` is stable, programs read it).
* Posts from a browser carry the CSRF token of `GET /api/account`; a bot account's program
  sends `Authorization: Bearer <API token>` instead (made on the account page).
* Play goes over websockets (`/ws/games/{id}`, the lobby's `/ws/lobby`, a bot account's
  event socket `/ws/bot`), described by the AsyncAPI document at `/asyncapi.json`.
* `info.version` is the server package's version: a change of any schema comes with a new
  version. Generate a client with e.g. `openapi-python-client generate --url
  <server>/openapi.json`.
"""


def sockets() -> dict[str, tuple[str, str, Any, Any]]:
    """Each socket: its address, what it is, and the types of the frames the client sends
    (``Any``: only pings) and those the server sends."""
    return {
        "game": (
            "/ws/games/{game_id}",
            "A game's socket, for a seat or a spectator. The first message is a join (a seat's "
            "token, or `seat` for a seat bound to the signed-in account or the bot account of "
            "the `Authorization` header; neither: a spectator). The server answers every "
            "change with a view frame; a refused message gets an error frame, to its sender "
            "only. Close codes: 4429 too many connections or spectators, 4403 a seat that is "
            "not the joiner's or a revoked API token, 4404 no such game, 4408 no join within "
            "30 s, 1008 replies left unread, 1011 the server failed, 1012 the server restarts.",
            ClientMessage,
            OutFrame,
        ),
        "lobby": (
            "/ws/lobby",
            "The live lobby: the open tables, the signed-in account's corner and what the "
            "others do, pushed on every change; the client sends only pings.",
            Any,
            LobbyFrame,
        ),
        "bot": (
            "/ws/bot",
            "A bot account's event socket (`Authorization: Bearer <API token>`): a hello, then "
            "a challenge frame for each challenge or offer in each new state and a game frame "
            "for each unfinished game, which the program plays over `/ws/games/{game_id}`. "
            "Close codes: 4403 no or a revoked API token, 4429 too many connections, 1012 the "
            "server restarts (connect again).",
            BotMessage,
            OutFrame,
        ),
    }


#: A reference to a part of the document: ``{"$ref": "#/..."}``.
Ref = TypedDict("Ref", {"$ref": str})


class Message(TypedDict):
    name: str
    title: str
    contentType: str
    payload: Ref


class Operation(TypedDict):
    action: Literal["send", "receive"]
    channel: Ref
    messages: list[Ref]


class Channel(TypedDict):
    address: str
    description: str
    messages: dict[str, Ref]


class Info(TypedDict):
    title: str
    version: str
    description: str


class Components(TypedDict):
    #: the frames' JSON schemas, as pydantic writes them
    schemas: dict[str, JsonSchemaValue]
    messages: dict[str, Message]


class AsyncApi(TypedDict):
    """An AsyncAPI 3.0 document: the sockets (channels), what each side sends on them
    (operations, messages) and the frames' schemas."""

    asyncapi: str
    info: Info
    channels: dict[str, Channel]
    operations: dict[str, Operation]
    components: Components


def add_asyncapi(app: FastAPI) -> None:
    """Serve the AsyncAPI document at ``/asyncapi.json`` (beside ``/openapi.json``)."""

    @app.get("/asyncapi.json", include_in_schema=False)
    async def asyncapi_document() -> AsyncApi:
        return asyncapi()


def operation_id(route: APIRoute) -> str:
    """A route's ``operationId`` in the OpenAPI document: its function's name (unique among
    the routes), which a generated client names its call after."""
    return route.name


@cache
def asyncapi() -> AsyncApi:
    """The AsyncAPI 3.0 document of the websockets (built once)."""
    inputs: list[tuple[str, JsonSchemaMode, TypeAdapter[Any]]] = []
    described = sockets()
    for name, (_, _, client, server) in described.items():
        if client is not Any:
            inputs.append((f"{name}-client", "validation", TypeAdapter(client)))
        inputs.append((f"{name}-server", "serialization", TypeAdapter(server)))
    keys, defs = TypeAdapter.json_schemas(inputs, ref_template="#/components/schemas/{model}")
    schemas: dict[str, JsonSchemaValue] = dict(defs.get("$defs", {}))
    messages: dict[str, Message] = {}
    channels: dict[str, Channel] = {}
    operations: dict[str, Operation] = {}
    for name, (address, words, client, _) in described.items():
        sides: list[tuple[str, Literal["send", "receive"]]] = [("server", "receive")]
        if client is not Any:
            sides.insert(0, ("client", "send"))
        refs: dict[str, Ref] = {}
        for side, action in sides:
            key = f"{name}-{side}"
            schemas[key] = keys[(key, "validation" if side == "client" else "serialization")]
            messages[key] = {
                "name": key,
                "title": f"{'From the client' if side == 'client' else 'From the server'}",
                "contentType": "application/json",
                "payload": {"$ref": f"#/components/schemas/{key}"},
            }
            refs[key] = {"$ref": f"#/components/messages/{key}"}
            operations[f"{name}-{action}"] = {
                "action": action,
                "channel": {"$ref": f"#/channels/{name}"},
                "messages": [{"$ref": f"#/channels/{name}/messages/{key}"}],
            }
        channels[name] = {"address": address, "description": words, "messages": refs}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Tigris & Euphrates websockets",
            "version": __version__,
            "description": "The frames of the game, lobby and bot sockets (JSON text "
            "frames). The HTTP API is described by /openapi.json.",
        },
        "channels": channels,
        "operations": operations,
        "components": {"schemas": schemas, "messages": messages},
    }
