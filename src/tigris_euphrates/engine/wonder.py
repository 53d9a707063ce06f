"""The wonder variant (RULES.md §11): one wonder, built on a plus of five face-up tiles of one
colour — a centre and its four neighbours — that a placed tile is part of; at the end of a
turn the turn player whose king is in the wonder's kingdom takes a point of a colour of their
choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import BLACK, NEIGHBOURS
from .kingdoms import region_at
from .types import Cell, Colour, Words
from .words import EMPTY, bit, cells_of, count, empty, has, minus, with_cell, within

if TYPE_CHECKING:
    from .state import State


def plus_of(centre: Cell) -> Words:
    """The five cells of the plus centred on ``centre`` (only where it has four
    neighbours; else empty)."""
    nb = NEIGHBOURS[centre]
    return with_cell(nb, centre) if count(nb) == 4 else EMPTY


def wonder_centres(state: State, cell: Cell, colour: Colour) -> tuple[Cell, ...]:
    """The centres of the pluses of face-up ``colour`` tiles that the tile on ``cell`` is
    part of (as the centre or an arm), lowest cell first; none once the wonder is built or
    in a game without it."""
    if not state.options.wonder or state.wonder >= 0:
        return ()
    up = minus(state.tiles_of(colour), state.facedown)
    out: list[Cell] = []
    for centre in sorted((cell, *cells_of(NEIGHBOURS[cell]))):
        plus = plus_of(centre)
        if not empty(plus) and within(plus, up):
            out.append(centre)
    return tuple(out)


def king_at_wonder(state: State) -> bool:
    """Whether the turn player's king stands in the wonder's kingdom."""
    if state.wonder < 0:
        return False
    king = state.leaders[state.turn * 4 + BLACK]
    if king < 0:
        return False
    return has(region_at(state, bit(state.wonder)), king)
