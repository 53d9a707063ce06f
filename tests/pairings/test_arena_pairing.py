"""Arena pairing: neighbours in the placing, never the same opponent twice in a row where
another choice exists, leftovers stay free, the first seat rotates."""

from __future__ import annotations

import pytest

from tigris_euphrates.pairings import FreeEntrant, pair_free
from tigris_euphrates.pairings.arena import nearest_first


def free(*ids: int, last: dict[int, set[int]] | None = None) -> list[FreeEntrant]:
    """Entrants placed in the order given (points fall with the position)."""
    last = last or {}
    return [
        FreeEntrant(e, 100 - i, 1500.0, e, frozenset(last.get(e, ()))) for i, e in enumerate(ids)
    ]


@pytest.mark.parametrize(
    ("ids", "size", "last", "expected"),
    [
        ((1, 2, 3, 4), 2, {}, [(1, 2), (3, 4)]),
        ((1, 2, 3, 4, 5), 2, {}, [(1, 2), (3, 4)]),
        # 1 just played 2: 1 takes 3, 2 takes 4
        ((1, 2, 3, 4), 2, {1: {2}}, [(1, 3), (2, 4)]),
        # the clash is read both ways
        ((1, 2, 3, 4), 2, {2: {1}}, [(1, 3), (2, 4)]),
        # two alone who just met: paired again rather than left waiting
        ((1, 2), 2, {1: {2}, 2: {1}}, [(1, 2)]),
        # three free, 2 and 3 just met: 1 plays 2, 3 waits
        ((1, 2, 3), 2, {2: {3}, 3: {2}}, [(1, 2)]),
        # three free, 1 and 2 just met: 1 plays 3, 2 waits
        ((1, 2, 3), 2, {1: {2}, 2: {1}}, [(1, 3)]),
        # 1 met everyone else: 2 v 3 and 1 waits rather than a rematch
        ((1, 2, 3), 2, {1: {2, 3}}, [(2, 3)]),
        ((1, 2, 3, 4, 5, 6, 7), 3, {}, [(1, 2, 3), (4, 5, 6)]),
        # 1, 2, 3 just played together: two of them must share a table again (one clash);
        # the nearest such grouping for 1
        ((1, 2, 3, 4, 5, 6), 3, {e: {1, 2, 3} - {e} for e in (1, 2, 3)}, [(1, 2, 4), (3, 5, 6)]),
        # 1 and 2 just played: 2 moves down a table
        ((1, 2, 3, 4, 5, 6), 3, {1: {2}, 2: {1}}, [(1, 3, 4), (2, 5, 6)]),
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), 4, {}, [(1, 2, 3, 4), (5, 6, 7, 8)]),
        ((1, 2, 3), 4, {}, []),
        ((), 2, {}, []),
    ],
)
def test_groups(
    ids: tuple[int, ...], size: int, last: dict[int, set[int]], expected: list[tuple[int, ...]]
) -> None:
    assert pair_free(free(*ids, last=last), size) == expected


def test_four_from_one_game_split_two_and_two() -> None:
    """1 to 4 just played together; 8 free at tables of 4: two clashes at least, so two of
    them at each table."""
    last = {e: {1, 2, 3, 4} - {e} for e in (1, 2, 3, 4)}
    assert pair_free(free(*range(1, 9), last=last), 4) == [(1, 2, 5, 6), (3, 4, 7, 8)]
    # with 12 free, three tables: one clash
    tables = pair_free(free(*range(1, 13), last=last), 4)
    assert sum(len(set(t) & {1, 2, 3, 4}) >= 2 for t in tables) == 1


def test_placing_is_points_then_rating_then_lot() -> None:
    entrants = [
        FreeEntrant(1, 10, 1500.0, 5),
        FreeEntrant(2, 12, 1400.0, 5),
        FreeEntrant(3, 10, 1600.0, 9),
        FreeEntrant(4, 10, 1500.0, 2),
    ]
    assert pair_free(entrants, 2) == [(2, 3), (4, 1)]


def test_the_first_seat_goes_to_whoever_has_moved_first_least() -> None:
    entrants = free(1, 2, 3, 4, 5, 6)
    assert pair_free(entrants, 3, {1: 2, 2: 1, 3: 1, 4: 0, 6: 1}) == [(2, 3, 1), (4, 5, 6)]
    assert pair_free(entrants, 2, {1: 1}) == [(2, 1), (3, 4), (5, 6)]


def test_the_same_free_entrants_give_the_same_tables() -> None:
    entrants = free(*range(1, 12), last={3: {4}, 5: {6, 7}})
    assert pair_free(entrants, 3) == pair_free(list(reversed(entrants)), 3)


def test_nearest_first_order() -> None:
    assert list(nearest_first(4, 2)) == [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]
    assert list(nearest_first(3, 1)) == [(0,), (1,), (2,)]


def test_a_size_below_two_is_refused() -> None:
    with pytest.raises(ValueError):
        pair_free(free(1, 2), 1)
