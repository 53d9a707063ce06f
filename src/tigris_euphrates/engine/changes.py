"""The changes an action is made of, one at a time: a piece put or taken (with the regions
and the legality cache kept in step), points, a draw, a decision pushed or popped, the end of
the game. Each makes its change and tells its event (when ``ev`` collects them); which change
follows which is the flow of ``play``, written there once.
"""

from __future__ import annotations

from typing import Any

from .board import CELL_NAMES, COLOURS, NEIGHBOURS
from .events import (
    BuildingPlaced,
    BuildingReturned,
    Event,
    GameOver,
    LeaderWithdrawn,
    PointsScored,
    TilesDrawn,
    TreasureLost,
    TreasureTaken,
)
from .kingdoms import regions_of, regrouped, with_piece, without
from .legal import grown_cache
from .rules import orphaned
from .scoring import result
from .state import State
from .types import Cell, Colour, Seat, Words
from .words import bit, cells_of, empty, has, inter, meets, minus, without_cell

#: Where the events of the changes go: a list, or None on the fast path (no events).
Events = list[Event] | None


def add_piece(s: State, cell: Cell, tile: bool) -> None:
    """Keep the known regions, their touch counts and the legality cache in step with a
    piece (a ``tile`` or a leader) just written on ``cell``: the cache is carried over when
    a tile grows at most one kingdom (``legal.grown_cache``), else dropped."""
    cache = s.cache
    s.cache = None
    before = s.regions
    if before is not None:
        s.regions = with_piece(before, cell, s.occupied())
        if tile and cache is not None:
            s.cache = grown_cache(cache, cell, s.regions[-1])  # with_piece puts it last
        counts = s.region_counts
        if counts is not None:
            s.region_counts = regrouped(counts, before, NEIGHBOURS[cell], s.regions)


def remove_pieces(s: State, cells: Words) -> None:
    """Keep the known regions and their touch counts in step with the pieces taken off
    ``cells`` (and drop the legality cache)."""
    s.cache = None
    before = s.regions
    if before is not None:
        s.regions = without(before, cells)
        counts = s.region_counts
        if counts is not None:
            s.region_counts = regrouped(counts, before, cells, s.regions)


def push(s: State, decision: Any) -> None:
    s.pending = (*s.pending, decision)


def pop(s: State) -> None:
    s.pending = s.pending[:-1]


def score(s: State, ev: Events, seat: Seat, colour: Colour, points: int, reason: str) -> None:
    s.scores[seat * 5 + colour] += points
    if ev is not None:
        ev.append(PointsScored(seat, COLOURS[colour], points, reason))


def draw(s: State, ev: Events, seat: Seat, k: int) -> bool:
    """Draw ``k`` tiles for ``seat``; a bag holding fewer ends the game at once (False)."""
    left = len(s.bag) - s.bag_pos
    take = k if k <= left else left
    if take:
        drawn = s.bag[s.bag_pos : s.bag_pos + take]
        s.bag_pos += take
        base = seat * 4
        for colour in drawn:
            s.hands[base + colour] += 1
        if ev is not None:
            tiles = {COLOURS[c]: drawn.count(c) for c in range(4) if c in drawn}
            ev.append(TilesDrawn(seat, take, tiles))
    if take < k:
        game_over(s, ev, "bag")
        return False
    return True


def game_over(s: State, ev: Events, reason: str) -> None:
    s.over = True
    s.end = reason
    s.pending = ()
    if ev is not None:
        final = result(s)
        assert final is not None
        ev.append(GameOver(reason, final))


def touched_kingdoms(s: State, cell: Cell) -> list[Words]:
    """The kingdoms beside the empty ``cell``, from the known regions: looked for from the
    newest region back until every piece beside the cell is found."""
    touching = inter(NEIGHBOURS[cell], s.occupied())
    lmask = s.lmask
    found: list[Words] = []
    if not empty(touching):
        regions = regions_of(s)
        for i in range(len(regions) - 1, -1, -1):
            r = regions[i]
            if meets(r, touching):
                touching = minus(touching, r)
                if meets(r, lmask):
                    found.append(r)
                if empty(touching):
                    break
    return found


def remove_leader(s: State, ev: Events, seat: Seat, colour: Colour, reason: str) -> None:
    idx = seat * 4 + colour
    cell = s.leaders[idx]
    s.leaders[idx] = -1
    s.lmask = without_cell(s.lmask, cell)
    remove_pieces(s, bit(cell))
    if ev is not None:
        ev.append(LeaderWithdrawn(seat, COLOURS[colour], CELL_NAMES[cell], reason))


def return_leaders(s: State, ev: Events, cells: Words) -> None:
    """Return the leaders on ``cells`` for want of a temple, in seat and colour order."""
    for idx, cell in enumerate(s.leaders):
        if cell >= 0 and has(cells, cell):
            remove_leader(s, ev, idx >> 2, idx & 3, "no temple")


def return_orphans(s: State, ev: Events) -> None:
    """Return every leader left without an adjacent face-up temple."""
    orphans = orphaned(s)
    if not empty(orphans):
        return_leaders(s, ev, orphans)


def lose_treasures(s: State, ev: Events, cells: Words, reason: str) -> None:
    s.treasures = minus(s.treasures, cells)
    if ev is not None:
        for name in cell_names(cells):
            ev.append(TreasureLost(name, reason))


def cell_names(cells: Words) -> list[str]:
    return [CELL_NAMES[i] for i in cells_of(cells)]


def take_treasure(s: State, ev: Events, seat: Seat, cell: Cell, forced: bool) -> None:
    s.treasures = without_cell(s.treasures, cell)
    s.scores[seat * 5 + 4] += 1
    if ev is not None:
        ev.append(TreasureTaken(seat, CELL_NAMES[cell], forced))


def place_building(s: State, ev: Events, colour: Colour, cell: Cell) -> None:
    origin = s.buildings[colour]
    s.move_building(colour, cell)
    if ev is not None:
        before = CELL_NAMES[origin] if origin >= 0 else None
        ev.append(BuildingPlaced(s.turn, COLOURS[colour], CELL_NAMES[cell], before))


def return_buildings(s: State, ev: Events, cells: Words, reason: str) -> None:
    """Buildings standing on ``cells`` (now face down) go back off the board."""
    for colour, at in enumerate(s.buildings):
        if at >= 0 and has(cells, at):
            s.move_building(colour, -1)
            if ev is not None:
                ev.append(BuildingReturned(COLOURS[colour], CELL_NAMES[at], reason))
