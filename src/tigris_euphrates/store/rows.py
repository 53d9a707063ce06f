"""The JSON a game's row keeps, typed: its options, its seats, its table settings, its
result and its pace (the ``games`` and ``clocks`` tables' JSON columns, docs/formats.md).

They are the shapes the server writes and reads back; the engine checks the options
(``Options.from_dict``) and the clocks the pace (``server.clocks.pace_from_dict``) before
anything is stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, NotRequired, cast

from pydantic import SkipValidation
from typing_extensions import TypedDict

from .. import Options
from .database import repair_text


class GameOptions(TypedDict, total=False):
    """A game's options (FORMATS.md ``options``), as posted and stored: a missing key takes
    the engine's default (``Options``). ``board``: a board's name, or ``{"grid": [...]}``."""

    players: int
    board: str | dict[str, list[str]]
    english_variant: bool
    open_scoring: bool
    wonder: bool
    buildings: bool
    ruleset: str


def checked_options(posted: Mapping[str, object]) -> GameOptions:
    """Options posted by a client once the engine accepts them (``Options.from_dict``
    raises ``InvalidAction`` on an unknown key or a wrong value), kept as posted: the keys
    in the order given, the defaults left out."""
    options = dict(posted)
    Options.from_dict(options)
    return cast(GameOptions, options)  # the engine checked every key and value


#: The options as an answer or a frame carries them: as stored, keys in their stored order
#: (the engine checked them before they were stored; the answers' check would reorder them).
SentOptions = Annotated[GameOptions, SkipValidation]


class StoredSeat(TypedDict):
    """A seat a game started with: ``kind`` ``human`` (``token``: the SHA-256 of its secret
    token) or ``bot`` (``level``: its bot's level), and the name it shows."""

    kind: str
    name: str
    level: NotRequired[str]
    token: NotRequired[str]


class TableSettings(TypedDict, total=False):
    """A game's table settings: who may ``chat`` (``players``, ``everyone``, ``off``),
    its ``rematch`` (the rematch's id), and for a game the lobby made, what made it: a
    quick match (``quick``: its pace), a bot account's ``challenge``, a ``direct``
    challenge or a live ``event`` (their ids)."""

    chat: str
    rematch: str
    quick: str
    challenge: str
    direct: str
    event: str


class GameResult(TypedDict):
    """A finished game's result, as its record carries it: each seat's four colour totals
    (ascending), the seats best first (a shared place: a list), and why it ended."""

    scores: list[list[int]]
    ranking: list[int | list[int]]
    end: str | None


class PaceData(TypedDict):
    """A timed game's pace as stored (``server.clocks.Pace``): ``realtime`` or ``turn``,
    its times in seconds and the bot level that takes a seat whose time ran out."""

    kind: str
    base: float
    increment: float
    level: str


def read_seats(text: str, tokens: bool = True) -> list[StoredSeat]:
    """A game's stored seats, each text repaired (``repair_text``); without their token
    hashes unless ``tokens``."""
    seats: list[StoredSeat] = json.loads(text, object_hook=_repaired)
    if not tokens:
        for seat in seats:
            seat.pop("token", None)
    return seats


def _repaired(seat: dict[str, object]) -> dict[str, object]:
    return {k: repair_text(v) for k, v in seat.items()}
