"""Sets of cells as four machine words: the one form of a set of cells inside the engine.

A set of cells (``Words``) is four 48-bit words of three board rows each: word ``q`` holds
rows ``3q+1`` to ``3q+3`` (the last one rows 10 and 11), cell ``c`` is bit ``c % 48`` of word
``c // 48``, so the board's cell numbering (``row * 16 + col``) is unchanged. Compiled (mypyc)
the words are unboxed ``i64`` values and a tuple of them a C struct: no operation here
allocates. Interpreted they are small ints in a tuple. Every value stays below 2**48 and no
shift carries a bit past bit 63, so both cores compute the same words.

The 176-bit Python int (``Mask``) is the form of the public boundary only (positions,
views, the research level): ``to_words`` and ``to_mask`` convert there.

A word is never indexed by a computed position (a compiled tuple indexed so is boxed):
``word`` picks one by comparisons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .types import Cell, Mask, Words

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain ``int`` to the interpreter
    from mypy_extensions import i64

#: The bits of one word (three rows of 16 cells), and of the last word (two rows).
WORD: Final = 0xFFFF_FFFF_FFFF
LAST: Final = 0xFFFF_FFFF
#: A word's cells without column a / without column p.
_NOT_A: Final = 0xFFFE_FFFE_FFFE
_NOT_P: Final = 0x7FFF_7FFF_7FFF

#: No cell, and every cell of the board. (Typed by inference: mypyc does not set a constant
#: declared ``Final[Words]``.)
EMPTY: Final = (0, 0, 0, 0)
FULL: Final = (WORD, WORD, WORD, LAST)

#: The lowest set bit of a 16-bit value, and the number of its set bits.
_LOW16: Final = bytes([0] + [(i & -i).bit_length() - 1 for i in range(1, 1 << 16)])
_POP16: Final = bytes([i.bit_count() for i in range(1 << 16)])


def to_words(mask: Mask) -> Words:
    """The words of a 176-bit mask (cells beyond the board dropped)."""
    return (mask & WORD, (mask >> 48) & WORD, (mask >> 96) & WORD, (mask >> 144) & LAST)


def to_mask(w: Words) -> Mask:
    """The 176-bit mask of ``w``: the form of the public boundary."""
    a: int = w[0]
    b: int = w[1]
    c: int = w[2]
    d: int = w[3]
    return a | (b << 48) | (c << 96) | (d << 144)


def in_word(q: int, x: i64) -> Words:
    """The set whose word ``q`` is ``x`` and the other words empty."""
    if q == 0:
        return (x, 0, 0, 0)
    if q == 1:
        return (0, x, 0, 0)
    if q == 2:
        return (0, 0, x, 0)
    return (0, 0, 0, x)


def bit(cell: Cell) -> Words:
    """The set holding ``cell`` alone."""
    q = cell // 48
    return in_word(q, shift_left(1, cell - q * 48))


def shift_left(x: i64, n: i64) -> i64:
    """``x << n``, for a shift of a constant: mypyc compiles ``1 << n`` as a C ``int`` shift,
    which loses the bits past 31."""
    return x << n


def has(w: Words, cell: Cell) -> bool:
    """Whether ``cell`` is in ``w``."""
    q = cell // 48
    return (word(w, q) >> (cell - q * 48)) & 1 != 0


def word(w: Words, q: int) -> i64:
    """Word ``q`` of ``w``."""
    if q == 0:
        return w[0]
    if q == 1:
        return w[1]
    if q == 2:
        return w[2]
    return w[3]


def union(a: Words, b: Words) -> Words:
    """``a | b``."""
    return (a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3])


def inter(a: Words, b: Words) -> Words:
    """``a & b``."""
    return (a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3])


def minus(a: Words, b: Words) -> Words:
    """``a & ~b``: the cells of ``a`` not in ``b``."""
    return (a[0] & ~b[0], a[1] & ~b[1], a[2] & ~b[2], a[3] & ~b[3])


def xor(a: Words, b: Words) -> Words:
    """``a ^ b``."""
    return (a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3])


def invert(a: Words) -> Words:
    """The cells of the board not in ``a``."""
    return (~a[0] & WORD, ~a[1] & WORD, ~a[2] & WORD, ~a[3] & LAST)


def with_cell(w: Words, cell: Cell) -> Words:
    """``w`` and ``cell``."""
    return union(w, bit(cell))


def without_cell(w: Words, cell: Cell) -> Words:
    """``w`` less ``cell``."""
    return minus(w, bit(cell))


def empty(w: Words) -> bool:
    """Whether ``w`` holds no cell."""
    return (w[0] | w[1] | w[2] | w[3]) == 0


def meets(a: Words, b: Words) -> bool:
    """Whether ``a`` and ``b`` share a cell."""
    return ((a[0] & b[0]) | (a[1] & b[1]) | (a[2] & b[2]) | (a[3] & b[3])) != 0


def within(a: Words, b: Words) -> bool:
    """Whether every cell of ``a`` is in ``b``."""
    return ((a[0] & ~b[0]) | (a[1] & ~b[1]) | (a[2] & ~b[2]) | (a[3] & ~b[3])) == 0


def count_word(x: i64) -> int:
    """How many cells word ``x`` holds."""
    return _POP16[x & 0xFFFF] + _POP16[(x >> 16) & 0xFFFF] + _POP16[x >> 32]


def count(w: Words) -> int:
    """How many cells ``w`` holds."""
    return count_word(w[0]) + count_word(w[1]) + count_word(w[2]) + count_word(w[3])


def _low_word(x: i64) -> int:
    """The lowest set bit of a non-zero word."""
    a = x & 0xFFFF
    if a:
        return _LOW16[a]
    a = (x >> 16) & 0xFFFF
    if a:
        return 16 + _LOW16[a]
    return 32 + _LOW16[x >> 32]


def low_cell(w: Words) -> Cell:
    """The lowest cell of ``w``, -1 when it is empty."""
    if w[0]:
        return _low_word(w[0])
    if w[1]:
        return 48 + _low_word(w[1])
    if w[2]:
        return 96 + _low_word(w[2])
    if w[3]:
        return 144 + _low_word(w[3])
    return -1


def lowest(w: Words) -> Words:
    """The set holding the lowest cell of ``w`` alone (empty when ``w`` is)."""
    if w[0]:
        return (w[0] & -w[0], 0, 0, 0)
    if w[1]:
        return (0, w[1] & -w[1], 0, 0)
    if w[2]:
        return (0, 0, w[2] & -w[2], 0)
    return (0, 0, 0, w[3] & -w[3])


def single(w: Words) -> bool:
    """Whether ``w`` holds exactly one cell."""
    w0, w1, w2, w3 = w
    if (w0 != 0) + (w1 != 0) + (w2 != 0) + (w3 != 0) != 1:
        return False
    x = w0 | w1 | w2 | w3
    return x & (x - 1) == 0


def _cells_of_word(x: i64, base: int, out: list[Cell]) -> None:
    while x:
        out.append(base + _low_word(x))
        x &= x - 1


def cells_of(w: Words) -> list[Cell]:
    """The cells of ``w``, ascending."""
    out: list[Cell] = []
    _cells_of_word(w[0], 0, out)
    _cells_of_word(w[1], 48, out)
    _cells_of_word(w[2], 96, out)
    _cells_of_word(w[3], 144, out)
    return out


def dilate(w: Words) -> Words:
    """``w`` and the cells orthogonally adjacent to it: a step left or right within a row, a
    step up or down to the next row, which crosses into the next word by its edge row."""
    w0, w1, w2, w3 = w
    d0 = w0 | ((w0 << 1) & _NOT_A) | ((w0 >> 1) & _NOT_P) | ((w0 & 0xFFFF_FFFF) << 16)
    d0 |= (w0 >> 16) | ((w1 & 0xFFFF) << 32)
    d1 = w1 | ((w1 << 1) & _NOT_A) | ((w1 >> 1) & _NOT_P) | ((w1 & 0xFFFF_FFFF) << 16)
    d1 |= (w1 >> 16) | ((w2 & 0xFFFF) << 32) | (w0 >> 32)
    d2 = w2 | ((w2 << 1) & _NOT_A) | ((w2 >> 1) & _NOT_P) | ((w2 & 0xFFFF_FFFF) << 16)
    d2 |= (w2 >> 16) | ((w3 & 0xFFFF) << 32) | (w1 >> 32)
    d3 = w3 | ((w3 << 1) & _NOT_A) | ((w3 >> 1) & _NOT_P) | ((w3 & 0xFFFF) << 16)
    d3 |= (w3 >> 16) | (w2 >> 32)
    return (d0 & WORD, d1 & WORD, d2 & WORD, d3 & LAST)


def halo(w: Words) -> Words:
    """The cells orthogonally adjacent to ``w`` and not in it (its outline)."""
    return minus(dilate(w), w)


def flood(occupied: Words, seed: Words) -> Words:
    """The connected part of ``occupied`` holding the cells of ``seed`` (a region)."""
    o0, o1, o2, o3 = occupied
    r0 = seed[0] & o0
    r1 = seed[1] & o1
    r2 = seed[2] & o2
    r3 = seed[3] & o3
    while True:
        n0 = r0 | ((r0 << 1) & _NOT_A) | ((r0 >> 1) & _NOT_P) | ((r0 & 0xFFFF_FFFF) << 16)
        n0 = (n0 | (r0 >> 16) | ((r1 & 0xFFFF) << 32)) & o0
        n1 = r1 | ((r1 << 1) & _NOT_A) | ((r1 >> 1) & _NOT_P) | ((r1 & 0xFFFF_FFFF) << 16)
        n1 = (n1 | (r1 >> 16) | ((r2 & 0xFFFF) << 32) | (r0 >> 32)) & o1
        n2 = r2 | ((r2 << 1) & _NOT_A) | ((r2 >> 1) & _NOT_P) | ((r2 & 0xFFFF_FFFF) << 16)
        n2 = (n2 | (r2 >> 16) | ((r3 & 0xFFFF) << 32) | (r1 >> 32)) & o2
        n3 = r3 | ((r3 << 1) & _NOT_A) | ((r3 >> 1) & _NOT_P) | ((r3 & 0xFFFF) << 16)
        n3 = (n3 | (r3 >> 16) | (r2 >> 32)) & o3
        if n0 == r0 and n1 == r1 and n2 == r2 and n3 == r3:
            return (r0, r1, r2, r3)
        r0 = n0
        r1 = n1
        r2 = n2
        r3 = n3


def _three(w: Words, c: Cell) -> int:
    """Bits ``c - 1`` to ``c + 1`` of ``w`` (none beyond the board's first and last cell; a
    bit of another row at either side is the caller's to mask)."""
    if c < 0 or c >= 176:
        return 0
    q = c // 48
    b = c - q * 48
    x = word(w, q)
    if b == 0:
        return int((x & 3) << 1)
    return int((x >> (b - 1)) & 7)


def window(w: Words, cell: Cell) -> int:
    """The 3×3 window of ``w`` around ``cell``: bit ``3 * dr + dc`` is the cell at row offset
    ``dr - 1`` and column offset ``dc - 1`` (rows beyond the board read as empty; the caller
    masks the columns beyond its sides)."""
    return _three(w, cell - 16) | (_three(w, cell) << 3) | (_three(w, cell + 16) << 6)
