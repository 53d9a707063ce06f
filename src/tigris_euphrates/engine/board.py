"""Board geometry: cell names, bitboard masks, neighbour shifts and the two published maps.

A cell (``Cell``) is an index ``row * 16 + col`` (0..175); a set of cells (``Mask``) is a Python
int whose bit ``i`` stands for cell ``i``. Everything here is computed once at import and never
changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .errors import InvalidAction
from .types import Cell, Colour, Mask

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain ``int`` to the interpreter
    from mypy_extensions import i64

# Final: the compiled core (mypyc) reads these as C constants, not module attributes.
COLS: Final = 16
ROWS: Final = 11
NCELLS: Final = COLS * ROWS
FULL: Final[Mask] = (1 << NCELLS) - 1

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


def _column_mask(col: int) -> Mask:
    mask = 0
    for row in range(ROWS):
        mask |= 1 << (row * COLS + col)
    return mask


NOT_COL_A: Final[Mask] = FULL & ~_column_mask(0)
NOT_COL_P: Final[Mask] = FULL & ~_column_mask(COLS - 1)

CELL_NAMES: Final = tuple(f"{chr(97 + i % COLS)}{i // COLS + 1}" for i in range(NCELLS))
_CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}


def cell_index(name: str) -> Cell:
    """The index of a cell name such as ``'e4'`` (case-insensitive)."""
    try:
        return _CELL_INDEX[name.strip().lower()]
    except (KeyError, AttributeError):
        raise InvalidAction("bad-cell", f"{name!r} is not a cell (a1 to p11)") from None


def dilate(b: Mask) -> Mask:
    """Cells adjacent to a cell of ``b``, plus ``b`` itself."""
    return b | ((b << 1) & NOT_COL_A) | ((b >> 1) & NOT_COL_P) | ((b << COLS) & FULL) | (b >> COLS)


def neighbours(b: Mask) -> Mask:
    """Cells orthogonally adjacent to ``b`` and not in it."""
    return dilate(b) & ~b


_HALOS: dict[Mask, Mask] = {}


def halo(b: Mask) -> Mask:
    """``neighbours(b)``, remembered: a kingdom's or region's outline is asked for again and
    again while it stands unchanged through many positions. Cleared when full."""
    h = _HALOS.get(b)
    if h is None:
        if len(_HALOS) >= 100_000:
            _HALOS.clear()
        h = _HALOS[b] = (
            b | ((b << 1) & NOT_COL_A) | ((b >> 1) & NOT_COL_P) | ((b << COLS) & FULL) | (b >> COLS)
        ) & ~b
    return h


def remember_halo(b: Mask, h: Mask) -> None:
    """Tell ``halo`` the outline ``h`` of ``b``, found by the caller more cheaply (the union
    of the outlines of the parts it was joined from)."""
    if len(_HALOS) >= 100_000:
        _HALOS.clear()
    _HALOS[b] = h


NEIGHBOURS: Final[tuple[Mask, ...]] = tuple(neighbours(1 << i) for i in range(NCELLS))

# 2x2 blocks: BLOCKS[i] is the mask of the block with top-left cell i (absent on the last
# row or column); BLOCKS_AT[i] lists the top-left cells of the blocks containing cell i.
BLOCKS: Final[dict[Cell, Mask]] = {}
for _r in range(ROWS - 1):
    for _c in range(COLS - 1):
        _i = _r * COLS + _c
        BLOCKS[_i] = (1 << _i) | (1 << (_i + 1)) | (1 << (_i + COLS)) | (1 << (_i + COLS + 1))
BLOCKS_AT: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(t for t, m in BLOCKS.items() if m >> i & 1) for i in range(NCELLS)
)


_REGIONS: dict[tuple[Mask, Mask], Mask] = {}


def region(occupied: Mask, seed: Mask) -> Mask:
    """The connected part of ``occupied`` containing the cells of ``seed``."""
    key = (occupied, seed)
    r = _REGIONS.get(key)
    if r is None:
        if len(_REGIONS) > 100_000:
            _REGIONS.clear()
        r = _REGIONS[key] = _flood(occupied, seed)
    return r


def _probe() -> None:
    """Nothing: whether it has a ``__code__`` says whether this module runs compiled."""


#: Whether this module runs compiled (mypyc makes functions without ``__code__``): the flood
#: fill then works on machine words (``_flood_words``), which mypyc keeps unboxed, and
#: interpreted on the 176-bit int (``_flood_int``), which the interpreter does faster.
NATIVE: Final = not hasattr(_probe, "__code__")


def _flood(occupied: Mask, seed: Mask) -> Mask:
    return _flood_words(occupied, seed) if NATIVE else _flood_int(occupied, seed)


def _flood_int(occupied: Mask, seed: Mask) -> Mask:
    r = seed & occupied
    while True:
        step = r | ((r << 1) & NOT_COL_A) | ((r >> 1) & NOT_COL_P) | (r << COLS) | (r >> COLS)
        n = step & occupied  # which also keeps the step down off the board
        if n == r:
            return r
        r = n


#: Three rows of cells (48 bits), and those rows without column a / without column p.
_ROWS3: Final = 0xFFFF_FFFF_FFFF
_NOT_A3: Final[i64] = 0xFFFE_FFFE_FFFE
_NOT_P3: Final[i64] = 0x7FFF_7FFF_7FFF


def _flood_words(occupied: Mask, seed: Mask) -> Mask:
    """``_flood_int`` on four words of three rows each (rows 1–3, 4–6, 7–9, 10–11), converted
    at the boundary: a step up or down crosses into the next word by its edge row."""
    o0: i64 = occupied & _ROWS3
    o1: i64 = (occupied >> 48) & _ROWS3
    o2: i64 = (occupied >> 96) & _ROWS3
    o3: i64 = occupied >> 144
    s = seed & occupied
    r0: i64 = s & _ROWS3
    r1: i64 = (s >> 48) & _ROWS3
    r2: i64 = (s >> 96) & _ROWS3
    r3: i64 = s >> 144
    while True:
        n0 = r0 | ((r0 << 1) & _NOT_A3) | ((r0 >> 1) & _NOT_P3) | ((r0 & 0xFFFF_FFFF) << 16)
        n0 = (n0 | (r0 >> 16) | ((r1 & 0xFFFF) << 32)) & o0
        n1 = r1 | ((r1 << 1) & _NOT_A3) | ((r1 >> 1) & _NOT_P3) | ((r1 & 0xFFFF_FFFF) << 16)
        n1 = (n1 | (r1 >> 16) | ((r2 & 0xFFFF) << 32) | (r0 >> 32)) & o1
        n2 = r2 | ((r2 << 1) & _NOT_A3) | ((r2 >> 1) & _NOT_P3) | ((r2 & 0xFFFF_FFFF) << 16)
        n2 = (n2 | (r2 >> 16) | ((r3 & 0xFFFF) << 32) | (r1 >> 32)) & o2
        n3 = r3 | ((r3 << 1) & _NOT_A3) | ((r3 >> 1) & _NOT_P3) | ((r3 & 0xFFFF_FFFF) << 16)
        n3 = (n3 | (r3 >> 16) | (r2 >> 32)) & o3
        if n0 == r0 and n1 == r1 and n2 == r2 and n3 == r3:
            w0: int = r0
            w1: int = r1
            w2: int = r2
            w3: int = r3
            return w0 | (w1 << 48) | (w2 << 96) | (w3 << 144)
        r0 = n0
        r1 = n1
        r2 = n2
        r3 = n3


def cells_of(mask: Mask) -> list[Cell]:
    """The cell indices of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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
    rivers: Mask
    temples: Mask
    specials: Mask

    def to_option(self) -> str | dict[str, list[str]]:
        """The ``board`` option of FORMATS.md for this map."""
        return self.name if self.name else {"grid": list(self.grid)}


def board_from_grid(grid: list[str] | tuple[str, ...], name: str | None = None) -> Board:
    """Build a board from 11 strings of 16 characters (``.`` land, ``~`` river, ``T``, ``C``)."""
    if not isinstance(grid, list | tuple) or len(grid) != ROWS:
        raise InvalidAction("bad-board", "a board grid is 11 strings of 16 characters")
    rivers = temples = specials = 0
    for r, line in enumerate(grid):
        if not isinstance(line, str) or len(line) != COLS:
            raise InvalidAction("bad-board", f"board row {r + 1} must be 16 characters")
        for c, ch in enumerate(line):
            bit = 1 << (r * COLS + c)
            if ch == "~":
                rivers |= bit
            elif ch in "TC":
                temples |= bit
                if ch == "C":
                    specials |= bit
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
