"""The bot account's event socket, ``/ws/bot``: what its program is offered, and its answers.

Opened with ``Authorization: Bearer <token>`` (else an error frame ``bad-token`` and close
4403). Then (JSON frames, ``docs/web.md`` "Bot accounts"):

- server → ``{"type": "hello", "account": {...}}`` first;
  ``{"type": "challenge", "challenge": {...}}`` for every challenge of the account, sent or
  received, open on connecting or made or changed since (each state once);
  ``{"type": "game", "game", "seat", "rated", "options"}`` for every unfinished game of the
  account, on connecting and when one starts, its ``options`` complete (every key, the
  defaults filled, as a tournament's ``new_game`` has them): the program then plays it over
  ``/ws/games/{game}`` (join ``{"type": "join", "seat": seat}``, same header);
  ``{"type": "pong", "t"}``; ``{"type": "error", "code", "message"}`` for a refused message.
- client → ``{"type": "accept", "id"}``, ``{"type": "decline", "id", "reason"?}``,
  ``{"type": "challenge", "to", "options", "rated"}``, ``{"type": "ping", "t"}``.

The socket reads the store every ``POLL_SECONDS`` (the challenges and games of the account
may be made by any process of the server), so an offer reaches the bot within that time
wherever it was made. Messages count against the same rate, size and connection limits as
the game websocket; when the process stops the socket closes with 1012 and the program
connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Annotated, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import Field, StringConstraints, TypeAdapter, ValidationError

from ... import EngineError, Options
from ...store.accounts import Account, AccountGame
from ...store.bots import Challenge, PublicChallenge
from ...store.rows import GameOptions, checked_options
from .. import botaccounts
from ..accounts import AccountService
from ..apitokens import bearer
from ..botaccounts import CHALLENGE_PATTERN, OFFER_PATTERN
from ..deps import AccountsDep, Client, ConnectionsDep, HubDep
from ..errors import GameError
from ..frames import (
    BotHello,
    ChallengeFrame,
    GameFrame,
    OutFrame,
    PongFrame,
    encode,
    error_frame,
)
from ..hub import RESTART, Hub
from ..inputs import BadMessage, NameQuery, OptionName, OptionValue, Strict, error_message
from ..limits import TokenBucket
from .bots import Decline
from .play import frame_limit, receive_text, refuse

log = logging.getLogger("tigris_euphrates.server")

#: How often the socket reads the account's challenges and games from the store.
POLL_SECONDS = 0.5

router = APIRouter()

ChallengeIdField = Annotated[str, StringConstraints(pattern=CHALLENGE_PATTERN)]


class Accept(Strict):
    """Accept a challenge, or another offer (``botaccounts.OfferSource``)."""

    type: Literal["accept"]
    id: Annotated[str, StringConstraints(pattern=OFFER_PATTERN)]


class DeclineMessage(Decline):
    type: Literal["decline"]
    id: ChallengeIdField


class ChallengeMessage(Strict):
    type: Literal["challenge"]
    to: NameQuery
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    rated: bool = False


class BotPing(Strict):
    type: Literal["ping"]
    t: int | float | Annotated[str, StringConstraints(max_length=64)] | None = None


BotMessage = Accept | DeclineMessage | ChallengeMessage | BotPing
_MESSAGE: TypeAdapter[BotMessage] = TypeAdapter(Annotated[BotMessage, Field(discriminator="type")])


def read_bot_message(text: str | None, frame_bytes: int) -> BotMessage:
    """One message of the event socket; raises ``BadMessage`` naming the problem."""
    if text is None:
        raise BadMessage("text-only", "messages are JSON text frames, not binary ones")
    if len(text.encode("utf-8", "replace")) > frame_bytes:
        raise BadMessage("too-large", f"messages are at most {frame_bytes} bytes")
    try:
        return _MESSAGE.validate_json(text)
    except ValidationError as exc:
        errors = list(exc.errors(include_input=False))
        code = "bad-json" if any(e["type"] == "json_invalid" for e in errors) else "bad-message"
        raise BadMessage(code, error_message(errors)) from None


class Revoked(Exception):
    """The event socket's token was revoked: the socket closes (4403)."""


class Events:
    """What one event socket has told its bot: each challenge's state, each game."""

    def __init__(
        self, hub: Hub, service: AccountService, account: Account, token: str | None = None
    ) -> None:
        self.hub, self.service, self.account = hub, service, account
        #: the API token it was opened with, checked at every reading of the news
        self.token = token
        self.states: dict[str, str] = {}
        #: the offers of other sources open when last told, and those accepted here
        self.offered: dict[str, PublicChallenge] = {}
        self.accepted: set[str] = set()
        self.games: set[str] = set()
        self.since = time.time()
        #: set by each message answered: the news are read again at once
        self.poke = asyncio.Event()

    async def news(self) -> list[ChallengeFrame | GameFrame]:
        """The frames the bot is due: challenges new or changed, games started."""
        out: list[ChallengeFrame | GameFrame] = []
        service = self.service
        if self.token is not None and await service.token_account(self.token) is None:
            raise Revoked
        found: list[Challenge] = await service.db(
            service.bots.challenges_of, self.account.id, self.since - 60
        )
        for c in reversed(found):
            if self.states.get(c.id) != c.state and (c.state == "open" or c.id in self.states):
                self.states[c.id] = c.state
                out.append({"type": "challenge", "challenge": c.public()})
        out.extend(await self._other_news())
        games: list[AccountGame] = await service.db(service.accounts.games_of, self.account.id, 50)
        for g in reversed(games):
            if g.status == "active" and g.id not in self.games:
                self.games.add(g.id)
                out.append(
                    {
                        "type": "game",
                        "game": g.id,
                        "seat": g.seat,
                        "rated": g.rated,
                        "options": complete_options(g.options),
                    }
                )
        return out

    async def _other_news(self) -> list[ChallengeFrame]:
        """The offers of other sources new or changed, and those no longer offered
        (``accepted`` by this socket, else ``closed``: taken, started, expired)."""
        out: list[ChallengeFrame] = []
        now: dict[str, PublicChallenge] = {}
        for offer in await botaccounts.other_offers(self.hub, self.service, self.account):
            key = offer["id"]
            now[key] = offer
            if self.states.get(key) != offer["state"]:
                self.states[key] = offer["state"]
                out.append({"type": "challenge", "challenge": offer})
        for key, offer in self.offered.items():
            if key not in now:
                state = "accepted" if key in self.accepted else "closed"
                self.states[key] = state
                out.append({"type": "challenge", "challenge": {**offer, "state": state}})
        self.offered = {k: v for k, v in now.items() if v["state"] == "open"}
        return out

    async def answer(self, msg: BotMessage) -> PongFrame | None:
        """Carry out one message; raises ``GameError``."""
        hub, service, account = self.hub, self.service, self.account
        if isinstance(msg, Accept):
            await botaccounts.accept_offer(hub, service, account, msg.id)
            self.accepted.add(msg.id)
        elif isinstance(msg, DeclineMessage):
            await botaccounts.decline(service, account, msg.id, msg.reason)
        elif isinstance(msg, ChallengeMessage):
            await botaccounts.challenge(hub, service, account, msg.to, msg.options, msg.rated)
        else:
            return {"type": "pong", "t": msg.t}
        return None


def complete_options(options: GameOptions) -> GameOptions:
    """A game's options with every key, the defaults filled, so that a bot reads the same
    ``options`` on the server as in a tournament (as stored if the engine does not know
    them: never a reason to keep a game from its bot)."""
    try:
        return checked_options(Options.from_dict(dict(options)).to_dict())
    except EngineError:
        return options.copy()


@router.websocket("/ws/bot")
async def bot_events(
    ws: WebSocket,
    hub: HubDep,
    service: AccountsDep,
    client: Client,
    connections: ConnectionsDep,
) -> None:
    """A bot account's event socket, counted against ``connections_per_client``."""
    await ws.accept()
    refused = connections.take(client)
    if refused is not None:
        await refuse(ws, hub, refused, 4429)
        return
    try:
        token = bearer(ws)
        account = await service.current(ws) if token is not None else None
        if account is None:
            err = GameError("bad-token", "connect with a bot account's API token (Bearer)")
            await refuse(ws, hub, err, 4403)
            return
        try:
            await serve(ws, Events(hub, service, account, token))
        except Revoked:
            err = GameError("bad-token", "this API token was revoked: it opens nothing any more")
            await refuse(ws, hub, err, 4403)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        connections.give_back(client)


async def serve(ws: WebSocket, events: Events) -> None:
    """Send the bot its news while reading its messages, until either side closes."""
    account = events.account
    hello: BotHello = {"name": account.name, "id": account.id, "bot": True}
    await ws.send_text(encode({"type": "hello", "account": hello}))
    lock = asyncio.Lock()
    reader = asyncio.create_task(read_loop(ws, events, lock))
    events.hub.event_sockets.add(events.poke)  # a stopping process wakes it to close it
    try:
        while not reader.done():
            if events.hub.draining:
                await ws.close(*RESTART)
                break
            for frame in await events.news():
                async with lock:
                    await ws.send_text(encode(frame))
            poked = asyncio.ensure_future(events.poke.wait())
            await asyncio.wait({reader, poked}, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            poked.cancel()
            events.poke.clear()
    finally:
        events.hub.event_sockets.discard(events.poke)
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader


async def read_loop(ws: WebSocket, events: Events, lock: asyncio.Lock) -> None:
    """Read and answer the bot's messages, each refused one with an error frame."""
    hub = events.hub
    rate = TokenBucket(hub.limits.messages_per_second, hub.limits.message_burst)
    while True:
        text = await receive_text(ws)
        reply: OutFrame | None
        try:
            if not rate.take():
                hub.metrics.limit("messages_per_second")
                raise GameError(
                    "rate-limited",
                    f"at most {hub.limits.messages_per_second:g} messages per second",
                    limit="messages_per_second",
                )
            reply = await events.answer(read_bot_message(text, hub.limits.frame_bytes))
        except BadMessage as err:
            hub.metrics.refused(err.code, frame_limit(err))
            reply = error_frame(err.code, err.message)
        except GameError as err:
            hub.metrics.refused(err.code, err.limit)
            reply = error_frame(err.code, err.message)
        except Exception:  # e.g. the database is down: nothing was changed
            log.exception("a bot's message failed")
            reply = error_frame("server-error", "the server failed; try again")
        events.poke.set()
        if reply is not None:
            async with lock:
                await ws.send_text(encode(reply))
