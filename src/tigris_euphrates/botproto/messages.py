"""The messages of ``tne-bot/1``, the protocol a bot program speaks over its standard input
and output: one JSON object a line, each with a ``type`` (docs/formats.md has the full
exchange).

The referee writes ``hello`` (the protocol version), ``new_game``, ``events``, ``decide``,
``end`` and ``quit``; the bot writes ``hello`` (its name, author and options) once, and one
``action`` for every ``decide``, naming the decision's ``id``. Everything the referee sends
is built here and written by ``encode``; everything a bot sends is read by ``read_hello`` and
``read_answer``, which raise ``ProtocolError`` naming what was wrong. Encoding is compact
and keeps the order of the fields, so that what a protocol bot receives is byte for byte
what ``encode`` makes of the view and the events a built-in bot is handed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: The protocol's name and version, sent in both ``hello`` messages.
PROTOCOL = "tne-bot/1"

#: The longest line a bot may write (bytes, newline included): anything longer is garbage.
MAX_LINE = 1 << 20

Message = dict[str, Any]


class ProtocolError(ValueError):
    """A line from a bot that is not the message the protocol expects there."""


@dataclass(frozen=True)
class Hello:
    """The bot's answer to the referee's ``hello``: who it is and the options it takes
    (name to default value, for the organiser's information)."""

    name: str
    author: str = ""
    options: dict[str, Any] = field(default_factory=dict)


def encode(message: Message) -> bytes:
    """One message as the line the protocol sends: compact JSON, fields in order, ``\\n``."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def hello() -> Message:
    """The referee's first line: the protocol it speaks."""
    return {"type": "hello", "protocol": PROTOCOL}


def new_game(
    options: dict[str, Any], seat: int, seed: int, seconds: float, game: str = ""
) -> Message:
    """A game starts: its options (``players`` included), the bot's seat, a seed for the
    bot's own randomness (never the game's: that would tell the bag's order), the time it
    has for each decision, and (when the organiser names it) the game's name."""
    message: Message = {"type": "new_game"}
    if game:
        message["game"] = game
    message.update(
        options=options,
        seat=seat,
        players=options["players"],
        seed=seed,
        time={"per_decision": seconds},
    )
    return message


def events(items: list[dict[str, Any]]) -> Message:
    """The events of one action, redacted for the bot's seat (``redact_event``)."""
    return {"type": "events", "events": items}


def decide(view: dict[str, Any], time_left: float, decision: int | None = None) -> Message:
    """The bot's seat is to act: the decision's ``id`` (counted from 1 in each run of the
    program; its answer names it), its view (``legal_actions`` included) and the seconds it
    has to answer."""
    message: Message = {"type": "decide"}
    if decision is not None:
        message["id"] = decision
    message.update(view=view, time_left=time_left)
    return message


def end(result: dict[str, Any]) -> Message:
    """The game is over: its result (``end`` says why; ``forfeit`` names a seat that lost by
    a fault)."""
    return {"type": "end", "result": result}


def quit_() -> Message:
    """No more games: the bot exits."""
    return {"type": "quit"}


def _object(line: bytes | str, expected: str) -> Message:
    """The JSON object of ``line`` whose ``type`` is ``expected``, else ``ProtocolError``."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError(f"not JSON: {text[:80]!r}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"not a JSON object: {text[:80]!r}")
    if data.get("type") != expected:
        raise ProtocolError(f"expected a {expected!r} message, got type {data.get('type')!r}")
    return data


def read_hello(line: bytes | str) -> Hello:
    """The bot's ``hello``: it must name this protocol and itself."""
    data = _object(line, "hello")
    if data.get("protocol") != PROTOCOL:
        raise ProtocolError(f"speaks {data.get('protocol')!r}, not {PROTOCOL!r}")
    name, author, options = data.get("name"), data.get("author", ""), data.get("options", {})
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("hello names no bot ('name')")
    if not isinstance(author, str) or not isinstance(options, dict):
        raise ProtocolError("hello's 'author' is a string and its 'options' an object")
    return Hello(name.strip(), author, options)


def read_action(line: bytes | str) -> str:
    """The action (notation) of the bot's answer to ``decide``."""
    return read_answer(line)[0]


def read_answer(line: bytes | str) -> tuple[str, int | None]:
    """The bot's answer to ``decide``: its action (notation) and the decision ``id`` it
    names (``None``: a bot that names none, as before ids, is matched by order)."""
    data = _object(line, "action")
    action = data.get("action")
    if not isinstance(action, str):
        raise ProtocolError("the answer's 'action' is not a string")
    decision = data.get("id")
    if decision is not None and (not isinstance(decision, int) or isinstance(decision, bool)):
        raise ProtocolError(f"the answer's 'id' is not a whole number: {decision!r}")
    return action, decision
