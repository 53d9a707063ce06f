"""The civilization buildings variant (RULES.md §11): four buildings, one per colour, owned by
nobody. A *run* is a maximal straight line (row or column) of contiguous face-up tiles of one
colour; a tile's *length* is the longer of its row run and column run. After a tile of colour
c is placed, building c may be put (or moved) onto a tile of the placed tile's runs that is
longer than the building's present tile (at least longer than 2). A tile of colour c scoring
in the kingdom of building c scores one more point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import COLS, NCELLS
from .types import Cell, Colour, Words
from .words import (
    EMPTY,
    bit,
    cells_of,
    count,
    has,
    in_word,
    minus,
    shift_left,
    union,
    with_cell,
    word,
)

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain ``int`` to the interpreter
    from .state import State


def row_run(up: Words, cell: Cell) -> Words:
    """The run of ``up`` cells through ``cell`` along its row (empty if ``cell`` is not in
    ``up``). A row lies within one word."""
    if not has(up, cell):
        return EMPTY
    q = cell // 48
    b = cell - q * 48
    x = word(up, q)
    row_start = b - b % COLS
    lo = hi = b
    while lo > row_start and (x >> (lo - 1)) & 1:
        lo -= 1
    while hi < row_start + COLS - 1 and (x >> (hi + 1)) & 1:
        hi += 1
    return in_word(q, shift_left(shift_left(1, hi - lo + 1) - 1, lo))


def column_run(up: Words, cell: Cell) -> Words:
    """The run of ``up`` cells through ``cell`` along its column."""
    if not has(up, cell):
        return EMPTY
    run = bit(cell)
    c = cell - COLS
    while c >= 0 and has(up, c):
        run = with_cell(run, c)
        c -= COLS
    c = cell + COLS
    while c < NCELLS and has(up, c):
        run = with_cell(run, c)
        c += COLS
    return run


def length(up: Words, cell: Cell) -> int:
    """The tile's length: the longer of its row run and column run."""
    return max(count(row_run(up, cell)), count(column_run(up, cell)))


def building_targets(state: State, cell: Cell, colour: Colour) -> Words:
    """Where building ``colour`` may go after a tile of that colour was placed on ``cell``:
    the tiles of the placed tile's runs longer than the threshold (2, or the length of the
    building's tile when that is longer); nothing when the building already stands on one of
    those runs."""
    up = minus(state.tiles_of(colour), state.facedown)
    runs = union(row_run(up, cell), column_run(up, cell))
    at = state.buildings[colour]
    if at >= 0 and has(runs, at):
        return EMPTY
    threshold = 2 if at < 0 else max(2, length(up, at))
    out = EMPTY
    for c in cells_of(runs):
        if length(up, c) > threshold:
            out = with_cell(out, c)
    return out
