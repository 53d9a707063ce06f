"""The decisions a game may be waiting for, other than the turn player's turn action.

A state holds them as a stack (``State.pending``, a tuple, top last): the player to act is
the owner of the top decision, else the turn player (``legal.to_act``). Each decision is a
frozen dataclass that knows its owner and carries what its answers need; what happens once
it is answered is decided by its kind (``play``): a support commitment resolves its conflict,
a war choice starts that war, a building offer goes on to the wonder and monument offer of
the same tile, a monument offer or a treasure pick ends the action, the wonder point and the
harvest go on with the end of the turn.

``name`` is the decision's ``stage`` in a position's ``pending`` field (docs/formats.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .board import RED
from .types import Cell, Colour, Seat, Words

#: The two kinds of conflict.
REVOLT, WAR = 0, 1


@dataclass(frozen=True, slots=True)
class Support:
    """A support commitment in a conflict: the attacker's first (``attacker_commit`` is -1
    until it is made), then the defender's."""

    owner: Seat
    kind: int  # REVOLT or WAR
    colour: Colour
    attacker: Seat
    defender: Seat
    attacker_base: int
    defender_base: int
    attacker_commit: int = -1
    name: ClassVar[str] = "conflict"

    @property
    def support_colour(self) -> Colour:
        """Revolts are backed by red tiles, wars by the war's colour."""
        return RED if self.kind == REVOLT else self.colour


@dataclass(frozen=True, slots=True)
class WarChoice:
    """Which war around the union tile is resolved next (the placer's choice)."""

    owner: Seat
    colours: tuple[Colour, ...]
    name: ClassVar[str] = "war"


@dataclass(frozen=True, slots=True)
class MonumentOffer:
    """Build a monument on one of ``blocks`` (top-left cells of completed 2×2 blocks of
    ``colour``), the wonder on one of ``centres`` (wonder variant), or decline."""

    owner: Seat
    colour: Colour
    blocks: tuple[Cell, ...]
    centres: tuple[Cell, ...] = ()
    name: ClassVar[str] = "monument"


@dataclass(frozen=True, slots=True)
class TreasurePick:
    """Which of the treasures in ``cells`` the trader's owner takes."""

    owner: Seat
    cells: Words
    name: ClassVar[str] = "treasure"


@dataclass(frozen=True, slots=True)
class BuildingOffer:
    """Buildings variant: put or move building ``colour`` onto one of ``cells``, or
    decline; ``tile`` is the placed tile, whose wonder and monument offer comes next."""

    owner: Seat
    colour: Colour
    tile: Cell
    cells: Words
    name: ClassVar[str] = "building"


@dataclass(frozen=True, slots=True)
class WonderPoint:
    """Wonder variant: the colour of the point the turn player takes at the end of the
    turn, the king being in the wonder's kingdom."""

    owner: Seat
    name: ClassVar[str] = "wonder_point"


@dataclass(frozen=True, slots=True)
class Harvest:
    """Galaxy ruleset: which artifact of its merchant leader's region the turn player
    harvests at the end of the turn."""

    owner: Seat
    cells: Words
    name: ClassVar[str] = "harvest"


Decision = (
    Support | WarChoice | MonumentOffer | TreasurePick | BuildingOffer | WonderPoint | Harvest
)

#: Every kind of decision by its name (positions).
DECISIONS: dict[str, type[Decision]] = {
    cls.name: cls
    for cls in (
        Support,
        WarChoice,
        MonumentOffer,
        TreasurePick,
        BuildingOffer,
        WonderPoint,
        Harvest,
    )
}
