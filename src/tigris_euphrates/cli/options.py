"""The game options of the command line: the flags of ``tne selfplay`` and ``tne new``, then
``--options`` as ``tne tournament --options`` takes it, checked by the engine."""

from __future__ import annotations

from typing import Any

import typer

from .. import DEFAULT_RULESET, EngineError, Options
from ..tournament import parse_options


def game_options(
    players: int,
    board: str,
    english: bool,
    open_scoring: bool,
    wonder: bool = False,
    buildings: bool = False,
    ruleset: str = DEFAULT_RULESET,
    extra: str | None = None,
) -> dict[str, Any]:
    """The game options of the flags, then those of ``--options`` (``key=value,...`` or the
    shorthand ``advanced``, ``english``, ``open``, ``wonder``, ``buildings``, ``galaxy``, as
    ``tne tournament --options`` takes them, or a JSON object as in a record's ``options``),
    validated by the engine."""
    options: dict[str, Any] = {
        "players": players,
        "board": board,
        "english_variant": english,
        "open_scoring": open_scoring,
        "wonder": wonder,
        "buildings": buildings,
        "ruleset": ruleset,
    }
    try:
        if extra:
            options.update(parse_options(extra, players))
        Options.from_dict(options)
    except (ValueError, EngineError) as e:
        raise typer.BadParameter(f"--options: {e}") from e
    return options
