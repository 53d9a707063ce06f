"""What the store keeps of a live event, as plain rows (``store/events.py`` reads and writes
them): its settings, the event, its entrants, games and byes, everything its pairing reads
(``EventState``) and decides (``EventStep``), and the event's columns as stored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, cast

from typing_extensions import TypedDict

from .. import DEFAULT_RULESET
from .games import GameRow
from .rows import GameOptions, PaceData


class EventSettings(TypedDict):
    """An event's rules as stored: its games' players, ruleset and options (the ruleset
    among them when not the default; the players aside), its pace (seconds), who
    may enter, and how long it lasts (an arena's ``minutes`` or a Swiss event's ``rounds``);
    ``repeat_minutes``: it comes back that long after it started."""

    players: int
    ruleset: str
    options: NotRequired[GameOptions]
    base: float
    increment: float
    rating_min: float | None
    rating_max: float | None
    bots: bool
    private: bool
    minutes: int | None
    rounds: int | None
    repeat_minutes: int | None


@dataclass
class EventRow:
    """One event as stored (``maker_name`` and ``entrants`` read beside it)."""

    id: str
    name: str
    kind: str
    maker: int
    state: str
    settings: EventSettings
    starts: float
    ends: float | None
    round: int
    seed: int
    invite: str | None = None
    next_id: str | None = None
    created: float = 0.0
    maker_name: str = ""
    entrants: int = 0


@dataclass
class EntrantRow:
    """An entrant: its account, name, state (``active``, ``paused``, ``withdrawn``),
    displayed rating when it joined, whether it is a bot account, and when it joined."""

    account_id: int
    name: str
    state: str
    rating: float
    bot: bool
    joined: float


@dataclass
class EventGameRow:
    """One game of an event: its accounts in seat order, Swiss round, state (``playing``,
    ``over``, ``aborted``) and, once over, each seat's place (0 = first)."""

    game_id: str
    round: int | None
    seats: list[int]
    state: str
    ranks: list[int] | None
    created: float
    ended: float | None = None


@dataclass
class EventBye:
    """A Swiss round an entrant did not play, and what it was worth."""

    round: int
    account_id: int
    points: float


@dataclass
class EventState:
    """Everything the pairing of one event reads, as of one transaction."""

    event: EventRow
    entrants: list[EntrantRow]
    games: list[EventGameRow]
    byes: list[EventBye] = field(default_factory=list)
    #: the entrants in a real-time game outside the event under way
    busy: set[int] = field(default_factory=set)


@dataclass
class NewGame:
    """A game the pairing wants: its stored row and pace, its accounts in seat order."""

    row: GameRow
    pace: PaceData
    seats: list[int]


@dataclass
class EventStep:
    """What one pairing decided: games to make, byes, the round reached, a state."""

    games: list[NewGame] = field(default_factory=list)
    byes: list[EventBye] = field(default_factory=list)
    round: int | None = None
    state: str | None = None
    #: entrants paused (an arena's entrant who let a game be aborted)
    pause: list[int] = field(default_factory=list)


class EventRefused(Exception):
    """A join, a leave or a new event refused: a code, a sentence and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def game_options(ruleset: str, variants: Mapping[str, object]) -> GameOptions:
    """The options of an event's games but their players: the variants, and the ruleset
    when it is not the default one."""
    options = cast(GameOptions, dict(variants))
    if ruleset != DEFAULT_RULESET:
        options["ruleset"] = ruleset
    return options


def event_options(event: EventRow) -> GameOptions:
    """The options of the event's games but their players."""
    stored = event.settings.get("options")
    if stored is None:  # an event stored before it had options
        return game_options(event.settings["ruleset"], {})
    return stored


def event_row(r: Any) -> EventRow:
    return EventRow(
        str(r.id),
        str(r.name),
        str(r.kind),
        int(r.maker),
        str(r.state),
        json.loads(r.settings),
        float(r.starts),
        None if r.ends is None else float(r.ends),
        int(r.round),
        int(r.seed),
        None if r.invite is None else str(r.invite),
        None if r.next_id is None else str(r.next_id),
        float(r.created),
        str(r.maker_name or ""),
        int(r.entrants or 0),
    )


def event_values(row: EventRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "kind": row.kind,
        "maker": row.maker,
        "state": row.state,
        "settings": json.dumps(row.settings),
        "starts": row.starts,
        "ends": row.ends,
        "round": row.round,
        "seed": row.seed,
        "invite": row.invite,
        "next_id": row.next_id,
        "created": row.created,
    }
