"""Board geometry: cell names, neighbours and 2×2 blocks as sets of cells, the two maps.

A cell (``Cell``) is an index ``row * 16 + col`` (0..175); a set of cells is ``Words``
(``words``). Everything here is computed once at import and never changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import InvalidAction
from .types import Cell, Colour, Words
from .words import EMPTY, bit, halo, has, union

# Final: the compiled core (mypyc) reads these as C constants, not module attributes.
COLS: Final = 16
ROWS: Final = 11
NCELLS: Final = COLS * ROWS

COLOURS: Final = ("red", "blue", "green", "black")
RED: Final = 0
BLUE: Final = 1
GREEN: Final = 2
BLACK: Final = 3
COLOUR_INDEX: dict[str, Colour] = {name: i for i, name in enumerate(COLOURS)}

#: Tiles of each colour in the game (the starting temples come out of the red ones).
TILE_TOTALS: Final = (57, 36, 30, 30)

DYNASTIES = ("archer", "bull", "pot", "lion")

#: The six monuments, in notation order; each is a pair of colour indices.
MONUMENTS: Final = (
    (RED, BLUE),
    (RED, GREEN),
    (RED, BLACK),
    (BLUE, GREEN),
    (BLUE, BLACK),
    (GREEN, BLACK),
)
MONUMENT_NAMES = tuple(f"{COLOURS[a]}-{COLOURS[b]}" for a, b in MONUMENTS)
MONUMENT_INDEX = {name: i for i, name in enumerate(MONUMENT_NAMES)}


CELL_NAMES: Final = tuple(f"{chr(97 + i % COLS)}{i // COLS + 1}" for i in range(NCELLS))
_CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}


def cell_index(name: str) -> Cell:
    """The index of a cell name such as ``'e4'`` (case-insensitive)."""
    try:
        return _CELL_INDEX[name.strip().lower()]
    except (KeyError, AttributeError):
        raise InvalidAction("bad-cell", f"{name!r} is not a cell (a1 to p11)") from None


#: The cells orthogonally adjacent to each cell.
NEIGHBOURS: Final[tuple[Words, ...]] = tuple(halo(bit(i)) for i in range(NCELLS))

# 2x2 blocks: BLOCKS[i] is the block with top-left cell i (absent on the last row or
# column); BLOCKS_AT[i] lists the top-left cells of the blocks containing cell i.
BLOCKS: Final[dict[Cell, Words]] = {}
for _r in range(ROWS - 1):
    for _c in range(COLS - 1):
        _i = _r * COLS + _c
        BLOCKS[_i] = union(union(bit(_i), bit(_i + 1)), union(bit(_i + COLS), bit(_i + COLS + 1)))
BLOCKS_AT: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(t for t, m in BLOCKS.items() if has(m, i)) for i in range(NCELLS)
)


STANDARD_GRID = (
    "....~~~~~.T.~...",
    ".C..~.......~..C",
    "...~~T......~~..",
    "~~~~.........~~~",
    ".............T~~",
    "..............~.",
    "~~~~....T...~~~.",
    ".C.~~~~.....~...",
    "......~~~~~~~.C.",
    ".....T..........",
    "..........T.....",
)

ADVANCED_GRID = (
    "..~~T....T.....~",
    "..~~..........T~",
    ".C~~...........~",
    "..~...T....T~~~~",
    "..~.........~...",
    "..~T........~..C",
    "..~~........~~..",
    "C..~~~.T....T~..",
    ".....~~~.....~..",
    "....C.~~~~~~~~..",
    "......~..C....C.",
)


@dataclass(frozen=True)
class Board:
    """A map: its grid text plus the masks derived from it."""

    grid: tuple[str, ...]
    name: str | None
    rivers: Words
    temples: Words
    specials: Words

    def to_option(self) -> str | dict[str, list[str]]:
        """The ``board`` option of FORMATS.md for this map."""
        return self.name if self.name else {"grid": list(self.grid)}


def board_from_grid(grid: list[str] | tuple[str, ...], name: str | None = None) -> Board:
    """Build a board from 11 strings of 16 characters (``.`` land, ``~`` river, ``T``, ``C``)."""
    if not isinstance(grid, list | tuple) or len(grid) != ROWS:
        raise InvalidAction("bad-board", "a board grid is 11 strings of 16 characters")
    rivers = temples = specials = EMPTY
    for r, line in enumerate(grid):
        if not isinstance(line, str) or len(line) != COLS:
            raise InvalidAction("bad-board", f"board row {r + 1} must be 16 characters")
        for c, ch in enumerate(line):
            cell = bit(r * COLS + c)
            if ch == "~":
                rivers = union(rivers, cell)
            elif ch in "TC":
                temples = union(temples, cell)
                if ch == "C":
                    specials = union(specials, cell)
            elif ch != ".":
                raise InvalidAction("bad-board", f"unknown board character {ch!r} in row {r + 1}")
    return Board(tuple(grid), name, rivers, temples, specials)


STANDARD = board_from_grid(STANDARD_GRID, "standard")
ADVANCED = board_from_grid(ADVANCED_GRID, "advanced")


def board_from_option(option: object) -> Board:
    """The board named or drawn by a ``board`` option."""
    if option is None or option == "standard":
        return STANDARD
    if option == "advanced":
        return ADVANCED
    if isinstance(option, dict) and "grid" in option:
        grid = option["grid"]
        if isinstance(grid, list | tuple):
            return board_from_grid(list(grid))
    raise InvalidAction("bad-board", f"unknown board {option!r}: standard, advanced or a grid")
