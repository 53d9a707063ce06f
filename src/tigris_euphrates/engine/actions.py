"""Actions as plain data, with their text notation and JSON form (FORMATS.md).

Every decision of the game is one of these frozen dataclasses. ``str(action)`` is its
notation (``tile blue e4``), ``parse_action`` reads it back, ``action.to_dict()`` and
``action_from_dict`` give the wire form, and ``repr`` round-trips through
``Action.parse('...')``. Colours and cells are stored as indices for speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .board import (
    CELL_NAMES,
    COLOUR_INDEX,
    COLOURS,
    MONUMENT_INDEX,
    MONUMENT_NAMES,
    NCELLS,
    cell_index,
)
from .errors import InvalidAction
from .types import Cell, Colour


class Action:
    """Base class of all actions."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its notation."""
        return parse_action(text)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"type": ..., fields by name}``."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True, repr=False)
class PlaceTile(Action):
    """Place a civilization tile from the hand."""

    colour: Colour
    cell: Cell
    kind: ClassVar[str] = "tile"

    def __str__(self) -> str:
        return f"tile {COLOURS[self.colour]} {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tile", "colour": COLOURS[self.colour], "cell": CELL_NAMES[self.cell]}


@dataclass(frozen=True, slots=True, repr=False)
class PlaceLeader(Action):
    """Place a leader, or move it if it is on the board."""

    colour: Colour
    cell: Cell
    kind: ClassVar[str] = "leader"

    def __str__(self) -> str:
        return f"leader {COLOURS[self.colour]} {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "leader", "colour": COLOURS[self.colour], "cell": CELL_NAMES[self.cell]}


@dataclass(frozen=True, slots=True, repr=False)
class Withdraw(Action):
    """Take an own leader off the board."""

    colour: Colour
    kind: ClassVar[str] = "withdraw"

    def __str__(self) -> str:
        return f"withdraw {COLOURS[self.colour]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "withdraw", "colour": COLOURS[self.colour]}


@dataclass(frozen=True, slots=True, repr=False)
class PlaceCatastrophe(Action):
    """Place a catastrophe tile."""

    cell: Cell
    kind: ClassVar[str] = "catastrophe"

    def __str__(self) -> str:
        return f"catastrophe {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "catastrophe", "cell": CELL_NAMES[self.cell]}


@dataclass(frozen=True, slots=True, repr=False)
class Swap(Action):
    """Discard 1–6 tiles from the hand and draw as many; ``counts`` per colour."""

    counts: tuple[int, int, int, int]
    kind: ClassVar[str] = "swap"

    def __str__(self) -> str:
        parts = [f"{COLOURS[c]}={n}" for c, n in enumerate(self.counts) if n]
        return "swap " + ",".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "swap", "tiles": {COLOURS[c]: n for c, n in enumerate(self.counts) if n}}


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    """Use the action doing nothing."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True, repr=False)
class Commit(Action):
    """Commit ``n`` support tiles in a revolt or war (0 allowed)."""

    n: int
    kind: ClassVar[str] = "commit"

    def __str__(self) -> str:
        return f"commit {self.n}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "commit", "n": self.n}


@dataclass(frozen=True, slots=True, repr=False)
class ChooseWar(Action):
    """Choose which war to resolve next."""

    colour: Colour
    kind: ClassVar[str] = "war"

    def __str__(self) -> str:
        return f"war {COLOURS[self.colour]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "war", "colour": COLOURS[self.colour]}


@dataclass(frozen=True, slots=True, repr=False)
class BuildMonument(Action):
    """Build ``monument`` (index into MONUMENT_NAMES) on the 2×2 block with top-left ``cell``."""

    monument: int
    cell: Cell
    kind: ClassVar[str] = "monument"

    def __str__(self) -> str:
        return f"monument {MONUMENT_NAMES[self.monument]} {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "monument",
            "monument": MONUMENT_NAMES[self.monument],
            "cell": CELL_NAMES[self.cell],
        }


@dataclass(frozen=True, slots=True, repr=False)
class Decline(Action):
    """Decline a monument (building, wonder) offer."""

    kind: ClassVar[str] = "decline"

    def __str__(self) -> str:
        return "decline"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "decline"}


@dataclass(frozen=True, slots=True, repr=False)
class TakeTreasure(Action):
    """Take the treasure on ``cell``."""

    cell: Cell
    kind: ClassVar[str] = "treasure"

    def __str__(self) -> str:
        return f"treasure {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "treasure", "cell": CELL_NAMES[self.cell]}


@dataclass(frozen=True, slots=True, repr=False)
class BuildWonder(Action):
    """Wonder variant: build the wonder centred on ``cell``."""

    cell: Cell
    kind: ClassVar[str] = "wonder"

    def __str__(self) -> str:
        return f"wonder {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "wonder", "cell": CELL_NAMES[self.cell]}


@dataclass(frozen=True, slots=True, repr=False)
class TakePoint(Action):
    """Wonder variant: the colour of the wonder point."""

    colour: Colour
    kind: ClassVar[str] = "point"

    def __str__(self) -> str:
        return f"point {COLOURS[self.colour]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "point", "colour": COLOURS[self.colour]}


@dataclass(frozen=True, slots=True, repr=False)
class PlaceBuilding(Action):
    """Buildings variant: put or move building ``colour`` onto ``cell``."""

    colour: Colour
    cell: Cell
    kind: ClassVar[str] = "building"

    def __str__(self) -> str:
        return f"building {COLOURS[self.colour]} {CELL_NAMES[self.cell]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "building", "colour": COLOURS[self.colour], "cell": CELL_NAMES[self.cell]}


# Interned instances: legal_actions hands these out instead of allocating new objects.
TILE_ACTIONS = tuple(tuple(PlaceTile(c, i) for i in range(NCELLS)) for c in range(4))
LEADER_ACTIONS = tuple(tuple(PlaceLeader(c, i) for i in range(NCELLS)) for c in range(4))
WITHDRAW_ACTIONS = tuple(Withdraw(c) for c in range(4))
CATASTROPHE_ACTIONS = tuple(PlaceCatastrophe(i) for i in range(NCELLS))
COMMIT_ACTIONS = tuple(Commit(n) for n in range(7))
WAR_ACTIONS = tuple(ChooseWar(c) for c in range(4))
TREASURE_ACTIONS = tuple(TakeTreasure(i) for i in range(NCELLS))
PASS = Pass()
DECLINE = Decline()

_SWAPS: dict[tuple[int, int, int, int], Swap] = {}


def swap_action(counts: tuple[int, int, int, int]) -> Swap:
    """The (interned) swap of ``counts`` tiles per colour."""
    a = _SWAPS.get(counts)
    if a is None:
        a = _SWAPS[counts] = Swap(counts)
    return a


def _colour(word: str) -> Colour:
    try:
        return COLOUR_INDEX[word]
    except KeyError:
        raise InvalidAction(
            "bad-colour", f"{word!r} is not a colour (red, blue, green, black)"
        ) from None


def _count(word: str, what: str) -> int:
    if not word.isdigit():
        raise InvalidAction("bad-number", f"{what} must be a whole number, not {word!r}")
    return int(word)


def _args(words: list[str], n: int, usage: str) -> None:
    if len(words) != n + 1:
        raise InvalidAction("bad-syntax", f"expected {usage!r}")


def parse_action(text: str) -> Action:
    """Read one action in the notation of FORMATS.md (case-insensitive, spaces tolerated)."""
    if not isinstance(text, str):
        raise InvalidAction("bad-syntax", f"an action is a string, not {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise InvalidAction("bad-syntax", "empty action")
    verb = words[0]
    if verb == "tile":
        _args(words, 2, "tile COLOUR CELL")
        return TILE_ACTIONS[_colour(words[1])][cell_index(words[2])]
    if verb == "leader":
        _args(words, 2, "leader COLOUR CELL")
        return LEADER_ACTIONS[_colour(words[1])][cell_index(words[2])]
    if verb == "withdraw":
        _args(words, 1, "withdraw COLOUR")
        return WITHDRAW_ACTIONS[_colour(words[1])]
    if verb == "catastrophe":
        _args(words, 1, "catastrophe CELL")
        return CATASTROPHE_ACTIONS[cell_index(words[1])]
    if verb == "swap":
        _args(words, 1, "swap COLOUR=N,...")
        counts = [0, 0, 0, 0]
        seen = set()
        for part in words[1].split(","):
            name, eq, num = part.partition("=")
            if not eq:
                raise InvalidAction("bad-syntax", f"swap parts look like red=2, not {part!r}")
            c = _colour(name)
            if c in seen:
                raise InvalidAction("bad-syntax", f"swap names {name} twice")
            seen.add(c)
            counts[c] = _count(num, "a swap count")
        if sum(counts) == 0:
            raise InvalidAction("bad-syntax", "a swap names at least one tile")
        return swap_action((counts[0], counts[1], counts[2], counts[3]))
    if verb == "pass":
        _args(words, 0, "pass")
        return PASS
    if verb == "commit":
        _args(words, 1, "commit N")
        n = _count(words[1], "a commitment")
        return COMMIT_ACTIONS[n] if n < len(COMMIT_ACTIONS) else Commit(n)
    if verb == "war":
        _args(words, 1, "war COLOUR")
        return WAR_ACTIONS[_colour(words[1])]
    if verb == "monument":
        _args(words, 2, "monument C1-C2 CELL")
        try:
            m = MONUMENT_INDEX[words[1]]
        except KeyError:
            raise InvalidAction(
                "bad-monument",
                f"{words[1]!r} is not a monument ({', '.join(MONUMENT_NAMES)})",
            ) from None
        return BuildMonument(m, cell_index(words[2]))
    if verb == "decline":
        _args(words, 0, "decline")
        return DECLINE
    if verb == "treasure":
        _args(words, 1, "treasure CELL")
        return TREASURE_ACTIONS[cell_index(words[1])]
    if verb == "wonder":
        _args(words, 1, "wonder CELL")
        return BuildWonder(cell_index(words[1]))
    if verb == "point":
        _args(words, 1, "point COLOUR")
        return TakePoint(_colour(words[1]))
    if verb == "building":
        _args(words, 2, "building COLOUR CELL")
        return PlaceBuilding(_colour(words[1]), cell_index(words[2]))
    raise InvalidAction("bad-syntax", f"unknown action {verb!r}")


def action_from_dict(data: dict[str, Any]) -> Action:
    """Read the JSON form of an action (the inverse of ``Action.to_dict``)."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidAction("bad-syntax", 'an action object needs a "type"')
    kind = data["type"]
    try:
        if kind == "swap":
            tiles = data["tiles"]
            if not isinstance(tiles, dict):
                raise InvalidAction("bad-syntax", "swap tiles must be an object colour -> count")
            text = "swap " + ",".join(f"{k}={v}" for k, v in tiles.items())
        elif kind == "commit":
            text = f"commit {data['n']}"
        elif kind == "monument":
            text = f"monument {data['monument']} {data['cell']}"
        elif kind in ("tile", "leader", "building"):
            text = f"{kind} {data['colour']} {data['cell']}"
        elif kind in ("withdraw", "war", "point"):
            text = f"{kind} {data['colour']}"
        elif kind in ("catastrophe", "treasure", "wonder"):
            text = f"{kind} {data['cell']}"
        else:
            text = str(kind)
    except KeyError as e:
        raise InvalidAction("bad-syntax", f"{kind} action needs the field {e.args[0]!r}") from None
    return parse_action(text)


def to_action(action: Action | str | dict[str, Any]) -> Action:
    """Accept an action object, its notation, or its JSON form."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action(action)
    if isinstance(action, dict):
        return action_from_dict(action)
    raise InvalidAction("bad-syntax", f"not an action: {action!r}")
