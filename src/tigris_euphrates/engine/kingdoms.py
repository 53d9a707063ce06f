"""Regions and kingdoms as sets of cells (``words``): the regions of a board kept up to date
piece by piece, which kingdoms a cell touches, and the cells touching one to four kingdoms
(for legal placements), also with one piece lifted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .board import NEIGHBOURS
from .types import Cell, Words
from .words import (
    EMPTY,
    bit,
    empty,
    halo,
    inter,
    low_cell,
    lowest,
    meets,
    minus,
    single,
    union,
    window,
)
from .words import flood as region

if TYPE_CHECKING:
    from .state import State


class LegalCache:
    """What legality needs of a board, found once per board (``legal._cached``): the
    kingdoms, in no particular order, and the cells touching one or more, two or more, three
    or more and four of them (``touch_counts``)."""

    __slots__ = ("fours", "kingdoms", "ones", "threes", "twos")

    def __init__(
        self, kingdoms: tuple[Words, ...], ones: Words, twos: Words, threes: Words, fours: Words
    ) -> None:
        self.kingdoms = kingdoms
        self.ones = ones
        self.twos = twos
        self.threes = threes
        self.fours = fours


def touching_kingdoms(occupied: Words, leaders: Words, cell: Cell) -> list[Words]:
    """The distinct kingdoms (regions holding a leader) with a piece adjacent to ``cell``."""
    nb = inter(NEIGHBOURS[cell], occupied)
    found: list[Words] = []
    covered = EMPTY
    while not empty(nb):
        low = lowest(nb)
        nb = minus(nb, low)
        if meets(low, covered):
            continue
        r = region(occupied, low)
        covered = union(covered, r)
        if meets(r, leaders):
            found.append(r)
    return found


def kingdoms(occupied: Words, leaders: Words) -> list[Words]:
    """Every kingdom on the board, by their lowest leader cell."""
    found: list[Words] = []
    covered = EMPTY
    todo = leaders
    while not empty(todo):
        low = lowest(todo)
        todo = minus(todo, low)
        if meets(low, covered):
            continue
        r = region(occupied, low)
        covered = union(covered, r)
        found.append(r)
    return found


def regions_of(state: State) -> tuple[Words, ...]:
    """The regions of the board (connected groups of tiles and leaders), found once per
    state: ``play`` keeps them up to date piece by piece from then on (``with_piece``,
    ``without``), so a board seen through a game is flooded only where pieces left it."""
    regions = state.regions
    if regions is None:
        found: list[Words] = []
        todo = state.occupied()
        while not empty(todo):
            r = region(todo, lowest(todo))
            todo = minus(todo, r)
            found.append(r)
        regions = state.regions = tuple(found)
    return regions


def region_at(state: State, seed: Words) -> Words:
    """The pieces connected to the cells of ``seed``, from the known regions. A one-cell
    seed is looked for from the newest region back (the one a piece just joined is last) and
    the search stops at the first hit."""
    regions = regions_of(state)
    if single(seed):
        for i in range(len(regions) - 1, -1, -1):
            r = regions[i]
            if meets(r, seed):
                return r
        return EMPTY
    out = EMPTY
    for r in regions:
        if meets(r, seed):
            out = union(out, r)
    return out


def with_piece(regions: tuple[Words, ...], cell: Cell, occupied: Words) -> tuple[Words, ...]:
    """The regions once a piece is put on the empty ``cell`` (``occupied``: the pieces with
    or without it): it joins those it touches, which are looked for from the newest back
    until every piece beside it is found."""
    touching = inter(NEIGHBOURS[cell], occupied)
    joined = bit(cell)
    if empty(touching):
        return (*regions, joined)
    out = list(regions)
    i = len(out) - 1
    while not empty(touching):
        r = out[i]
        if meets(r, touching):
            joined = union(joined, r)
            touching = minus(touching, r)
            del out[i]
        i -= 1
    out.append(joined)
    return tuple(out)


def without(regions: tuple[Words, ...], cells: Words) -> tuple[Words, ...]:
    """The regions once the pieces on ``cells`` are taken off: a region that lost one may
    fall apart, and only that one is flooded again (new parts go last)."""
    out = list(regions)
    parts: list[Words] = []
    todo = cells
    one = single(cells)
    i = len(out) - 1
    while not empty(todo) and i >= 0:
        r = out[i]
        if meets(r, todo):
            todo = minus(todo, r)
            del out[i]
            rest = minus(r, cells)
            if one and not empty(rest) and _stays_connected(rest, low_cell(cells)):
                parts.append(rest)  # one piece taken off, the rest still joined around it
                rest = EMPTY
            while not empty(rest):
                part = region(rest, lowest(rest))
                rest = minus(rest, part)
                parts.append(part)
        i -= 1
    out.extend(parts)
    return tuple(out)


def kingdoms_in(regions: tuple[Words, ...], leaders: Words) -> tuple[Words, ...]:
    """The kingdoms among the known regions: those holding a leader (in the regions' order,
    not ``kingdoms``'s), as a tuple: the caches keep it."""
    return tuple([r for r in regions if meets(r, leaders)])


def _ring_ok(window: int) -> bool:
    """Whether the orthogonal neighbours present in a 3×3 ``window`` (bit ``3 * row + col``,
    the centre left out) are joined through the ring of the eight cells around the centre."""
    ring = (0, 1, 2, 5, 8, 7, 6, 3)  # the ring in order: consecutive cells are adjacent
    present = [window >> b & 1 for b in ring]
    if all(present):
        return True
    # Cut the ring at an empty cell and collect the arcs of present cells between cuts.
    start = present.index(0)
    arcs: list[set[int]] = []
    arc: set[int] = set()
    for i in range(1, 9):
        pos = ring[(start + i) % 8]
        if window >> pos & 1:
            arc.add(pos)
        elif arc:
            arcs.append(arc)
            arc = set()
    if arc:
        arcs.append(arc)
    sides = {b for b in (1, 3, 5, 7) if window >> b & 1}
    return any(sides <= a for a in arcs)


#: ``_ring_ok`` of every window.
RING_OK: Final = bytes(_ring_ok(w) for w in range(512))
#: The window positions on the board around each cell (the columns beyond an edge are not).
WINDOW_ON_BOARD: Final = tuple(
    0b111111111 & ~(0b001001001 if c % 16 == 0 else 0) & ~(0b100100100 if c % 16 == 15 else 0)
    for c in range(176)
)


def _stays_connected(rest: Words, cell: Cell) -> bool:
    """A sufficient test that ``rest``, a connected group less the piece on ``cell``, is still
    in one piece: the pieces beside ``cell`` are joined through the eight cells around it (a
    leaf always is). False means: maybe not, flood to know."""
    return bool(RING_OK[window(rest, cell) & WINDOW_ON_BOARD[cell]])


def touch_counts(groups: list[Words] | tuple[Words, ...]) -> tuple[Words, Words, Words, Words]:
    """The cells adjacent to one or more of ``groups``, two or more, three or more, four (a
    count per cell held in four bit planes: a cell has four neighbours at most, so the count
    is exact and can be taken down as well as up, ``recount``)."""
    ones = twos = threes = fours = EMPTY
    for k in groups:
        d = halo(k)
        fours = union(fours, inter(threes, d))
        threes = union(threes, inter(twos, d))
        twos = union(twos, inter(ones, d))
        ones = union(ones, d)
    return ones, twos, threes, fours


#: ``touch_counts``' four planes: the cells adjacent to one or more groups, two or more,
#: three or more, four.
Counts = tuple[Words, Words, Words, Words]


def uncount(counts: Counts, gone: Words) -> Counts:
    """``touch_counts`` without the group ``gone`` (one of those counted)."""
    ones, twos, threes, fours = counts
    d = halo(gone)
    return (
        union(twos, minus(ones, d)),
        union(threes, minus(twos, d)),
        union(fours, minus(threes, d)),
        minus(fours, d),
    )


def count_in(counts: Counts, new: Words) -> Counts:
    """``touch_counts`` with the group ``new`` (disjoint from those counted) as well."""
    ones, twos, threes, fours = counts
    d = halo(new)
    return (
        union(ones, d),
        union(twos, inter(ones, d)),
        union(threes, inter(twos, d)),
        union(fours, inter(threes, d)),
    )


def recount(counts: Counts, gone: Words, new: Words) -> Counts:
    """``touch_counts`` once the group ``gone`` is replaced by the group ``new``."""
    return count_in(uncount(counts, gone), new)


def regrouped(
    counts: Counts, before: tuple[Words, ...], changed: Words, after: tuple[Words, ...]
) -> Counts:
    """``touch_counts`` of the regions ``after`` from those of the regions ``before``, when
    ``with_piece`` or ``without`` made the one from the other: the regions of ``before``
    meeting ``changed`` (the cells beside the piece put, or the cells of the pieces taken off)
    are gone, and the new ones are the last of ``after``."""
    gone = 0
    for r in before:
        if meets(r, changed):
            counts = uncount(counts, r)
            gone += 1
    for i in range(len(before) - gone, len(after)):
        counts = count_in(counts, after[i])
    return counts


def lifted_twos(counts: tuple[Words, Words, Words], home: Words, cell: Cell, seeds: Words) -> Words:
    """The cells adjacent to two or more groups once the piece on ``cell`` is lifted.

    ``counts`` are ``touch_counts`` of some disjoint groups of pieces, ``home`` the one
    holding ``cell``. Lifting the piece takes ``home`` out of the count and puts back the
    parts of ``home`` without ``cell`` that hold a cell of ``seeds`` (for kingdoms: a
    leader). Only those parts are flooded, and none when the pieces beside ``cell`` are
    joined around it (``_stays_connected``: the rest is then one piece). Same answer as
    ``touch_counts`` over the groups found again from scratch.
    """
    ones, twos, threes = counts
    d = halo(home)
    ones = union(twos, minus(ones, d))  # each cell of d touches one group fewer
    twos = union(threes, minus(twos, d))
    rest = minus(home, bit(cell))
    seeds = inter(seeds, rest)
    if empty(seeds):
        return twos
    if _stays_connected(rest, cell):
        return union(twos, inter(ones, halo(rest)))
    while not empty(seeds):
        k = region(rest, lowest(seeds))
        seeds = minus(seeds, k)
        d = halo(k)
        twos = union(twos, inter(ones, d))
        ones = union(ones, d)
    return twos
