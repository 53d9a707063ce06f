"""Regions and kingdoms on bitboards: which kingdoms a cell touches, and the masks of cells
touching two or three kingdoms (for legal placements)."""

from __future__ import annotations

from .board import FULL, NEIGHBOURS, NOT_COL_A, NOT_COL_P, region
from .types import Cell, Mask


def touching_kingdoms(occupied: Mask, leaders: Mask, cell: Cell) -> list[Mask]:
    """The distinct kingdoms (regions holding a leader) with a piece adjacent to ``cell``."""
    nb = NEIGHBOURS[cell] & occupied
    found: list[Mask] = []
    covered = 0
    while nb:
        low = nb & -nb
        nb ^= low
        if low & covered:
            continue
        r = region(occupied, low)
        covered |= r
        if r & leaders:
            found.append(r)
    return found


def kingdoms(occupied: Mask, leaders: Mask) -> list[Mask]:
    """Every kingdom on the board, as masks."""
    found: list[Mask] = []
    covered = 0
    todo = leaders
    while todo:
        low = todo & -todo
        todo ^= low
        if low & covered:
            continue
        r = region(occupied, low)
        covered |= r
        found.append(r)
    return found


def touch_counts_of(kingdom_masks: list[Mask]) -> tuple[Mask, Mask]:
    """Masks of the cells adjacent to two or more of ``kingdom_masks``, and to three or more."""
    ones = twos = threes = 0
    for k in kingdom_masks:
        d = (((k << 1) & NOT_COL_A) | ((k >> 1) & NOT_COL_P) | ((k << 16) & FULL) | (k >> 16)) & ~k
        threes |= twos & d
        twos |= ones & d
        ones |= d
    return twos, threes
