"""``tne-bot/1``: bots in any language, as programs speaking JSON lines over standard input
and output (docs/formats.md).

``messages`` builds and reads the protocol's messages; ``client`` runs a program as a seat
(``ProtocolBot``, ``BotFault``); ``players`` turns a ``cmd:COMMAND`` spec into such a seat
wherever a level name goes; ``host`` serves a built-in level over the protocol.
"""

from __future__ import annotations

from .client import (
    DEFAULT_SECONDS,
    FAULTS,
    HELLO_SECONDS,
    BotFault,
    BotProcess,
    ProtocolBot,
    default_logs,
)
from .messages import (
    PROTOCOL,
    Hello,
    ProtocolError,
    encode,
    read_action,
    read_answer,
    read_hello,
)
from .players import (
    COMMAND,
    check_fallback,
    check_spec,
    command_of,
    is_command,
    make_player,
    stand_in,
)

__all__ = [
    "COMMAND",
    "DEFAULT_SECONDS",
    "FAULTS",
    "HELLO_SECONDS",
    "PROTOCOL",
    "BotFault",
    "BotProcess",
    "Hello",
    "ProtocolBot",
    "ProtocolError",
    "check_fallback",
    "check_spec",
    "command_of",
    "default_logs",
    "encode",
    "is_command",
    "make_player",
    "read_action",
    "read_answer",
    "read_hello",
    "stand_in",
]
