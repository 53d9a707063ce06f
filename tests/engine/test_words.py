"""The engine's sets of cells as four machine words say the same as the 176-bit int of the
public boundary: every primitive agrees with its one-line definition on the int, on random
sets and on the board's edges (the rows where one word meets the next, columns a and p)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tigris_euphrates.engine import words
from tigris_euphrates.engine.kingdoms import WINDOW_ON_BOARD

ALL = (1 << 176) - 1
COLUMN_A = sum(1 << (r * 16) for r in range(11))
COLUMN_P = sum(1 << (r * 16 + 15) for r in range(11))


def dilate_int(b: int) -> int:
    return b | ((b << 1) & ~COLUMN_A & ALL) | ((b >> 1) & ~COLUMN_P) | ((b << 16) & ALL) | (b >> 16)


def flood_int(occupied: int, seed: int) -> int:
    r = seed & occupied
    while True:
        n = dilate_int(r) & occupied
        if n == r:
            return r
        r = n


#: Sets of cells, with the rows where the words meet (3–4, 6–7, 9–10) and the side columns
#: drawn more often than chance would.
EDGES = sum(1 << c for c in range(176) if c // 16 in (2, 3, 5, 6, 8, 9) or c % 16 in (0, 15))
masks = st.one_of(
    st.integers(0, ALL),
    st.integers(0, ALL).map(lambda m: m & EDGES),
    st.sets(st.integers(0, 175), max_size=6).map(lambda cs: sum(1 << c for c in cs)),
)
cells = st.integers(0, 175)


@given(masks)
def test_a_set_converts_both_ways(m: int) -> None:
    w = words.to_words(m)
    assert words.to_mask(w) == m
    assert all(0 <= x < 1 << 48 for x in w)


@given(masks, masks)
def test_set_operations_agree_with_the_int(a: int, b: int) -> None:
    wa, wb = words.to_words(a), words.to_words(b)
    assert words.to_mask(words.union(wa, wb)) == a | b
    assert words.to_mask(words.inter(wa, wb)) == a & b
    assert words.to_mask(words.minus(wa, wb)) == a & ~b
    assert words.to_mask(words.xor(wa, wb)) == a ^ b
    assert words.to_mask(words.invert(wa)) == ALL & ~a
    assert words.meets(wa, wb) == bool(a & b)
    assert words.within(wa, wb) == (a & ~b == 0)
    assert words.empty(wa) == (a == 0)


@given(masks)
def test_counting_and_walking_the_cells(m: int) -> None:
    w = words.to_words(m)
    assert words.count(w) == m.bit_count()
    assert words.low_cell(w) == (m & -m).bit_length() - 1
    assert words.to_mask(words.lowest(w)) == m & -m
    assert words.single(w) == (m.bit_count() == 1)
    assert words.cells_of(w) == [c for c in range(176) if m >> c & 1]


@given(masks, cells)
def test_one_cell(m: int, cell: int) -> None:
    w = words.to_words(m)
    assert words.to_mask(words.bit(cell)) == 1 << cell
    assert words.has(w, cell) == bool(m >> cell & 1)
    assert words.to_mask(words.with_cell(w, cell)) == m | 1 << cell
    assert words.to_mask(words.without_cell(w, cell)) == m & ~(1 << cell)


@given(masks)
def test_outlines_cross_from_word_to_word(m: int) -> None:
    w = words.to_words(m)
    assert words.to_mask(words.dilate(w)) == dilate_int(m)
    assert words.to_mask(words.halo(w)) == dilate_int(m) & ~m


@given(masks, cells)
def test_a_region_is_the_flood_of_the_int(occupied: int, cell: int) -> None:
    region = words.flood(words.to_words(occupied), words.bit(cell))
    assert words.to_mask(region) == flood_int(occupied, 1 << cell)


@given(masks, cells)
def test_the_window_around_a_cell(m: int, cell: int) -> None:
    shifted = (m << 17) >> cell  # bit j: cell - 17 + j
    expected = (shifted & 7) | ((shifted >> 13) & 56) | ((shifted >> 26) & 448)
    on_board = WINDOW_ON_BOARD[cell]
    assert words.window(words.to_words(m), cell) & on_board == expected & on_board


@given(st.integers(0, 3), st.integers(0, (1 << 48) - 1))
def test_a_word_in_its_place(q: int, x: int) -> None:
    if q == 3:
        x &= words.LAST
    assert words.to_mask(words.in_word(q, x)) == x << (48 * q)
