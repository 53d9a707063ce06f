"""A built-in level as a ``tne-bot/1`` program: ``python -m tigris_euphrates.botproto LEVEL``.

It answers the referee's ``hello``, makes a fresh bot of the level (seeded by ``new_game``)
for every game, forwards ``events`` to its ``observe`` and answers every ``decide`` with its
choice at the level's own budget (naming the decision's ``id``), so that it plays exactly
as the level plays in-process. It serves to measure the protocol's cost, to test referees
and bridges, and as a stand-in.
"""

from __future__ import annotations

import json
import sys
from typing import IO

from ..ai import Bot, level_config, make_bot
from . import messages


def serve(level: str, stdin: IO[str], stdout: IO[str]) -> int:
    """Play games on ``stdin``/``stdout`` until ``quit`` or the end of input; the exit code."""
    level_config(level)
    bot: Bot | None = None
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer = {"type": "hello", "protocol": messages.PROTOCOL, "name": level}
            answer["author"] = "tigris-euphrates"
            stdout.write(json.dumps(answer) + "\n")
        elif kind == "new_game":
            bot = make_bot(level, int(message["seed"]))
        elif kind == "events" and bot is not None:
            bot.observe(message["events"])
        elif kind == "decide" and bot is not None:
            action = bot.choose(message["view"])
            answer = {"type": "action", "id": message.get("id"), "action": action}
            stdout.write(json.dumps(answer) + "\n")
        elif kind == "quit":
            break
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line: one argument, the level."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tigris_euphrates.botproto LEVEL", file=sys.stderr)
        return 2
    try:
        return serve(args[0], sys.stdin, sys.stdout)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
