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
from .types import Cell, Colour, Mask

if TYPE_CHECKING:
    from .state import State


def row_run(up: Mask, cell: Cell) -> Mask:
    """The run of ``up`` cells through ``cell`` along its row (0 if ``cell`` is not in
    ``up``)."""
    if not up >> cell & 1:
        return 0
    row_start = cell - cell % COLS
    lo = hi = cell
    while lo > row_start and up >> (lo - 1) & 1:
        lo -= 1
    while hi < row_start + COLS - 1 and up >> (hi + 1) & 1:
        hi += 1
    return ((1 << (hi - lo + 1)) - 1) << lo


def column_run(up: Mask, cell: Cell) -> Mask:
    """The run of ``up`` cells through ``cell`` along its column."""
    if not up >> cell & 1:
        return 0
    run = 1 << cell
    c = cell - COLS
    while c >= 0 and up >> c & 1:
        run |= 1 << c
        c -= COLS
    c = cell + COLS
    while c < NCELLS and up >> c & 1:
        run |= 1 << c
        c += COLS
    return run


def length(up: Mask, cell: Cell) -> int:
    """The tile's length: the longer of its row run and column run."""
    return max(row_run(up, cell).bit_count(), column_run(up, cell).bit_count())


def building_targets(state: State, cell: Cell, colour: Colour) -> Mask:
    """Where building ``colour`` may go after a tile of that colour was placed on ``cell``:
    the tiles of the placed tile's runs longer than the threshold (2, or the length of the
    building's tile when that is longer); nothing when the building already stands on one of
    those runs."""
    up = state.tiles[colour] & ~state.facedown
    runs = row_run(up, cell) | column_run(up, cell)
    at = state.buildings[colour]
    if at >= 0 and runs >> at & 1:
        return 0
    threshold = 2 if at < 0 else max(2, length(up, at))
    out = 0
    todo = runs
    while todo:
        low = todo & -todo
        todo ^= low
        if length(up, low.bit_length() - 1) > threshold:
            out |= low
    return out
