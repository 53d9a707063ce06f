"""Regions and kingdoms on bitboards: the regions of a board kept up to date piece by piece,
which kingdoms a cell touches, and the masks of cells touching one to four kingdoms (for legal
placements), also with one piece lifted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .board import NEIGHBOURS, halo, region, remember_halo
from .types import Cell, Mask

if TYPE_CHECKING:
    from .state import State


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


def regions_of(state: State) -> tuple[Mask, ...]:
    """The regions of the board (connected groups of tiles and leaders), found once per
    state: ``play`` keeps them up to date piece by piece from then on (``with_piece``,
    ``without``), so a board seen through a game is flooded only where pieces left it."""
    regions = state.regions
    if regions is None:
        found: list[Mask] = []
        todo = state.occupied()
        while todo:
            r = region(todo, todo & -todo)
            todo &= ~r
            found.append(r)
        regions = state.regions = tuple(found)
    return regions


def region_at(state: State, seed: Mask) -> Mask:
    """The pieces connected to the cells of ``seed``: ``board.region`` from the known
    regions. A one-cell seed is looked for from the newest region back (the one a piece
    just joined is last) and the search stops at the first hit."""
    regions = regions_of(state)
    if not seed & (seed - 1):
        for i in range(len(regions) - 1, -1, -1):
            r = regions[i]
            if r & seed:
                return r
        return 0
    out = 0
    for r in regions:
        if r & seed:
            out |= r
    return out


def with_piece(regions: tuple[Mask, ...], cell: Cell, occupied: Mask) -> tuple[Mask, ...]:
    """The regions once a piece is put on the empty ``cell`` (``occupied``: the pieces with
    or without it): it joins those it touches, which are looked for from the newest back
    until every piece beside it is found."""
    nb = NEIGHBOURS[cell]
    touching = nb & occupied
    if not touching:
        return (*regions, 1 << cell)
    joined = 1 << cell
    outline = nb
    out = list(regions)
    i = len(out) - 1
    while touching:
        r = out[i]
        if r & touching:
            joined |= r
            outline |= halo(r)
            touching &= ~r
            del out[i]
        i -= 1
    out.append(joined)
    remember_halo(joined, outline & ~joined)  # the new kingdom's outline, for touch_counts
    return tuple(out)


def without(regions: tuple[Mask, ...], cells: Mask) -> tuple[Mask, ...]:
    """The regions once the pieces on ``cells`` are taken off: a region that lost one may
    fall apart, and only that one is flooded again (new parts go last)."""
    out = list(regions)
    parts: list[Mask] = []
    todo = cells
    i = len(out) - 1
    while todo and i >= 0:
        r = out[i]
        if r & todo:
            todo &= ~r
            del out[i]
            rest = r & ~cells
            if rest and not cells & (cells - 1) and _stays_connected(rest, cells.bit_length() - 1):
                parts.append(rest)  # one piece taken off, the rest still joined around it
                rest = 0
            while rest:
                part = region(rest, rest & -rest)
                rest &= ~part
                parts.append(part)
        i -= 1
    out.extend(parts)
    return tuple(out)


def kingdoms_in(regions: tuple[Mask, ...], leaders: Mask) -> tuple[Mask, ...]:
    """The kingdoms among the known regions: those holding a leader (in the regions' order,
    not ``kingdoms``'s), as a tuple: the caches keep it."""
    return tuple([r for r in regions if r & leaders])


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


def _stays_connected(rest: Mask, cell: Cell) -> bool:
    """A sufficient test that ``rest``, a connected group less the piece on ``cell``, is still
    in one piece: the pieces beside ``cell`` are joined through the eight cells around it (a
    leaf always is). False means: maybe not, flood to know."""
    window = (rest << 17) >> cell  # bit j: cell - 17 + j
    w = (window & 7) | ((window >> 13) & 56) | ((window >> 26) & 448)
    return bool(RING_OK[w & WINDOW_ON_BOARD[cell]])


def touch_counts(groups: list[Mask] | tuple[Mask, ...]) -> tuple[Mask, Mask, Mask, Mask]:
    """Masks of the cells adjacent to one or more of ``groups``, two or more, three or more,
    four (a count per cell held in four bit planes: a cell has four neighbours at most, so
    the count is exact and can be taken down as well as up, ``recount``)."""
    ones = twos = threes = fours = 0
    for k in groups:
        d = halo(k)
        fours |= threes & d
        threes |= twos & d
        twos |= ones & d
        ones |= d
    return ones, twos, threes, fours


def recount(
    counts: tuple[Mask, Mask, Mask, Mask], gone: Mask, new: Mask
) -> tuple[Mask, Mask, Mask, Mask]:
    """``touch_counts`` once the group ``gone`` is replaced by the group ``new``."""
    ones, twos, threes, fours = counts
    d = halo(gone)
    ones = twos | (ones & ~d)
    twos = threes | (twos & ~d)
    threes = fours | (threes & ~d)
    fours &= ~d
    d = halo(new)
    fours |= threes & d
    threes |= twos & d
    twos |= ones & d
    ones |= d
    return ones, twos, threes, fours


def lifted_twos(counts: tuple[Mask, Mask, Mask], home: Mask, cell: Cell, seeds: Mask) -> Mask:
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
    ones = twos | (ones & ~d)  # each cell of d touches one group fewer
    twos = threes | (twos & ~d)
    rest = home & ~(1 << cell)
    seeds &= rest
    if not seeds:
        return twos
    if _stays_connected(rest, cell):
        return twos | (ones & halo(rest))
    while seeds:
        k = region(rest, seeds & -seeds)  # keyed by the kingdom alone: met again and again
        seeds &= ~k
        d = halo(k)
        twos |= ones & d
        ones |= d
    return twos
