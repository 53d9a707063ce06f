"""Names for the engine's ints, so a signature says which kind of int it takes.

The first four are plain ``int`` at run time (no wrapping, no cost): a ``Cell`` is a board
index ``row * 16 + col`` (0..175, -1 for "none"), a ``Mask`` a set of cells as one int (bit
``i`` is cell ``i``: the form of the public boundary), a ``Colour`` an index into red, blue,
green, black (0..3) and a ``Seat`` a player's index (0..players-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

Cell: TypeAlias = int
Mask: TypeAlias = int
Colour: TypeAlias = int
Seat: TypeAlias = int

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain ``int`` to the interpreter
    from mypy_extensions import i64

#: A set of cells inside the engine: four 48-bit machine words of three board rows each
#: (``words``). A ``Mask`` is the same set as one 176-bit int, the form of the public
#: boundary (positions, views, the research level).
Words: TypeAlias = "tuple[i64, i64, i64, i64]"
