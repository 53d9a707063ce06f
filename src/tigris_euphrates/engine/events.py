"""What happened: one small dataclass per kind of event (treat them as read-only).

``apply`` returns them in order. ``event.type`` names the kind and ``event.to_dict()`` is the
wire form (the fields by name, then ``"type"``; docs/formats.md lists them), which is what
``view.redact_event`` gives a seat: the fields in ``private`` (the colours of tiles drawn or
swapped) reach only the seat named in the event. Cells and colours are their names, seats
numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .types import Seat


class Event:
    """Base class of all events."""

    __slots__ = ()
    type: ClassVar[str] = ""
    #: Fields that only the event's own ``seat`` may see.
    private: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """The wire form: every field by name (tuples as lists), then ``"type"``. The
        names of each kind's fields are read once (``dataclasses.fields`` per call was most
        of its time, and the server writes every event of every move out for its views)."""
        kind = type(self)
        names = _FIELD_NAMES.get(kind)
        if names is None:
            names = tuple(f.name for f in fields(self))  # type: ignore[arg-type]
            _FIELD_NAMES[kind] = names
        out: dict[str, Any] = {}
        for name in names:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        out["type"] = self.type
        return out


#: Each kind of event's field names, in order (``Event.to_dict``).
_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


@dataclass(slots=True)
class TilePlaced(Event):
    """A tile left the turn player's hand for the board."""

    seat: Seat
    colour: str
    cell: str
    type: ClassVar[str] = "tile_placed"


@dataclass(slots=True)
class KingdomsUnited(Event):
    """The tile joins two kingdoms: the union marker is on it."""

    seat: Seat
    cell: str
    type: ClassVar[str] = "kingdoms_united"


@dataclass(slots=True)
class PointsScored(Event):
    """Points won; ``reason`` is tile, revolt, war, monument, wonder or building."""

    seat: Seat
    colour: str
    points: int
    reason: str
    type: ClassVar[str] = "points_scored"


@dataclass(slots=True)
class LeaderPlaced(Event):
    """A leader placed, or moved from ``origin``."""

    seat: Seat
    colour: str
    cell: str
    origin: str | None
    type: ClassVar[str] = "leader_placed"


@dataclass(slots=True)
class CatastrophePlaced(Event):
    """A catastrophe (galaxy: a weapon ship) on ``cell``; ``removed`` is the colour of the
    tile it destroyed."""

    seat: Seat
    cell: str
    removed: str | None
    type: ClassVar[str] = "catastrophe_placed"


@dataclass(slots=True)
class TilesSwapped(Event):
    """Tiles discarded by a swap; their colours are private."""

    seat: Seat
    count: int
    tiles: dict[str, int]
    type: ClassVar[str] = "tiles_swapped"
    private: ClassVar[tuple[str, ...]] = ("tiles",)


@dataclass(slots=True)
class TilesDrawn(Event):
    """Tiles drawn from the bag; their colours are private."""

    seat: Seat
    count: int
    tiles: dict[str, int]
    type: ClassVar[str] = "tiles_drawn"
    private: ClassVar[tuple[str, ...]] = ("tiles",)


@dataclass(slots=True)
class ConflictStarted(Event):
    """A revolt or a war begins; support is asked of the attacker, then the defender."""

    kind: str
    colour: str
    support: str
    attacker: Seat
    defender: Seat
    attacker_leader: str
    defender_leader: str
    attacker_base: int
    defender_base: int
    type: ClassVar[str] = "conflict_started"


@dataclass(slots=True)
class SupportCommitted(Event):
    """Tiles committed to a conflict (they are discarded)."""

    seat: Seat
    role: str
    colour: str
    count: int
    type: ClassVar[str] = "support_committed"


@dataclass(slots=True)
class ConflictResolved(Event):
    """Who won a conflict, with both totals."""

    kind: str
    colour: str
    winner: Seat
    loser: Seat
    attacker_total: int
    defender_total: int
    type: ClassVar[str] = "conflict_resolved"


@dataclass(slots=True)
class TilesRemoved(Event):
    """Tiles removed from the board by a war."""

    colour: str
    cells: tuple[str, ...]
    reason: str
    type: ClassVar[str] = "tiles_removed"


@dataclass(slots=True)
class WarChoiceOffered(Event):
    """The placer must choose which war comes next."""

    seat: Seat
    colours: tuple[str, ...]
    type: ClassVar[str] = "war_choice"


@dataclass(slots=True)
class WarChosen(Event):
    """The war the placer chose."""

    seat: Seat
    colour: str
    type: ClassVar[str] = "war_chosen"


@dataclass(slots=True)
class UnionResolved(Event):
    """No war is left around the union tile."""

    cell: str
    type: ClassVar[str] = "union_resolved"


@dataclass(slots=True)
class LeaderWithdrawn(Event):
    """A leader back with its owner; ``reason`` is withdrawn, revolt, war, no temple or
    catastrophe."""

    seat: Seat
    colour: str
    cell: str
    reason: str
    type: ClassVar[str] = "leader_withdrawn"


@dataclass(slots=True)
class MonumentBuilt(Event):
    """A monument on the block whose top-left cell is ``cell``."""

    seat: Seat
    monument: str
    cell: str
    type: ClassVar[str] = "monument_built"


@dataclass(slots=True)
class MonumentDeclined(Event):
    """The monument (and wonder) offer declined."""

    seat: Seat
    type: ClassVar[str] = "monument_declined"


@dataclass(slots=True)
class WonderBuilt(Event):
    """The wonder on the plus centred on ``cell``."""

    seat: Seat
    cell: str
    type: ClassVar[str] = "wonder_built"


@dataclass(slots=True)
class BuildingPlaced(Event):
    """A civilization building put on ``cell`` (moved from ``origin``)."""

    seat: Seat
    colour: str
    cell: str
    origin: str | None
    type: ClassVar[str] = "building_placed"


@dataclass(slots=True)
class BuildingDeclined(Event):
    """A building offer declined."""

    seat: Seat
    colour: str
    type: ClassVar[str] = "building_declined"


@dataclass(slots=True)
class BuildingReturned(Event):
    """A building off the board again (a monument or the wonder was built over it)."""

    colour: str
    cell: str
    reason: str
    type: ClassVar[str] = "building_returned"


@dataclass(slots=True)
class TreasureTaken(Event):
    """A treasure (galaxy: an artifact) taken; ``forced`` when it was the only one that could be."""

    seat: Seat
    cell: str
    forced: bool
    type: ClassVar[str] = "treasure_taken"


@dataclass(slots=True)
class TreasureLost(Event):
    """A treasure (artifact) destroyed with its tile (galaxy ruleset)."""

    cell: str
    reason: str
    type: ClassVar[str] = "treasure_lost"


@dataclass(slots=True)
class TreasureChoice(Event):
    """A trader's owner must choose which treasure to take."""

    seat: Seat
    type: ClassVar[str] = "treasure_choice"


@dataclass(slots=True)
class Passed(Event):
    """The turn player passed an action."""

    seat: Seat
    type: ClassVar[str] = "passed"


@dataclass(slots=True)
class TurnStarted(Event):
    """The next player's turn."""

    seat: Seat
    type: ClassVar[str] = "turn_started"


@dataclass(slots=True)
class GameOver(Event):
    """The end: why, and the result (as in a record)."""

    reason: str
    result: dict[str, Any]
    type: ClassVar[str] = "game_over"


#: Every kind of event by its ``type``.
EVENTS: dict[str, type[Event]] = {cls.type: cls for cls in Event.__subclasses__()}
