"""Names for the engine's ints, so a signature says which kind of int it takes.

All four are plain ``int`` at run time (no wrapping, no cost): a ``Cell`` is a board index
``row * 16 + col`` (0..175, -1 for "none"), a ``Mask`` a set of cells as a bitboard (bit
``i`` is cell ``i``), a ``Colour`` an index into red, blue, green, black (0..3) and a
``Seat`` a player's index (0..players-1).
"""

from __future__ import annotations

from typing import TypeAlias

Cell: TypeAlias = int
Mask: TypeAlias = int
Colour: TypeAlias = int
Seat: TypeAlias = int
