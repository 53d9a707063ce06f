"""Bot specs that name a program: ``cmd:COMMAND`` (``cmd:./mybot --fast``) stands wherever
a level name goes (``tne tournament``, ``tne selfplay``, the environment's opponents).

``check_spec`` refuses a bad spec before any game is played; ``make_player`` makes the bot of
a spec: a ``ProtocolBot`` running the command for ``cmd:``, else ``ai.make_bot``'s level;
``stand_in`` the bot of a fallback level that takes over the seat of a program that failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..ai import Bot, level_config, make_bot
from .client import ProtocolBot, shell_words

#: The prefix of a spec that names a program speaking ``tne-bot/1``.
COMMAND = "cmd:"


def is_command(spec: str) -> bool:
    """Whether ``spec`` names a program rather than a level."""
    return spec.startswith(COMMAND)


def command_of(spec: str) -> list[str]:
    """The program and its arguments of a ``cmd:`` spec (shell quoting understood)."""
    try:
        words = shell_words(spec[len(COMMAND) :])
    except ValueError as e:
        raise ValueError(f"bad command in {spec!r}: {e}") from None
    if not words:
        raise ValueError(f"{spec!r} names no program: use cmd:PROGRAM [ARGUMENTS]")
    return words


def check_spec(spec: str) -> None:
    """Refuse a spec that names neither a level (with settings) nor a program."""
    if is_command(spec):
        command_of(spec)
    else:
        level_config(spec)


def check_fallback(level: str | None) -> None:
    """A fallback is a level (a program cannot stand in for a program that failed)."""
    if level is not None:
        if is_command(level):
            raise ValueError("a fallback is a level, not a program")
        level_config(level)


def make_player(spec: str, seed: int = 0, logs: Path | None = None) -> Bot:
    """The bot of ``spec`` with its own seed; a program's standard error goes to a file in
    ``logs`` (see ``ProtocolBot.stderr_path``)."""
    if is_command(spec):
        return ProtocolBot(command_of(spec), seed, name=spec, logs=logs)
    return make_bot(spec, seed)


def stand_in(failed: Any, level: str, seat: int) -> Bot:
    """A bot of ``level`` for the seat ``failed`` played (with its seed, else the seat's
    number), which has heard every event the failed bot heard (``ProtocolBot.heard``), so it
    knows the scores a player at the table would."""
    bot = make_bot(level, getattr(failed, "seed", seat))
    bot.observe(list(getattr(failed, "heard", [])))
    return bot
