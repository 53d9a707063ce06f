"""The event data: lots are seeded and stable, games check their shape, reprs round-trip."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tigris_euphrates.pairings import Bye, Entrant, Game, Round, lot_of


def test_a_lot_is_the_same_everywhere_and_depends_on_the_seed() -> None:
    assert lot_of(1, 42) == lot_of(1, 42)
    assert lot_of(1, 42) != lot_of(2, 42)
    assert lot_of(1, 42) != lot_of(1, 43)
    # the first eight bytes of sha256(b"7:5"), read big-endian
    assert lot_of(7, 5) == 0xDA7E9C169D1A5DB3


@pytest.mark.parametrize(
    "value",
    [
        Entrant(3, 1512.5, lot_of(9, 3)),
        Game((1, 2, 3), (0, 1, 1)),
        Game((4, 5)),
        Bye(7, Fraction(1)),
        Round((Game((1, 2), (1, 0)),), (Bye(3, Fraction(1, 2)),)),
    ],
)
def test_reprs_round_trip(value: object) -> None:
    assert eval(repr(value)) == value


@pytest.mark.parametrize(
    ("seats", "ranks"),
    [((1,), None), ((1, 1), None), ((1, 2), (0,)), ((1, 2, 3), (0, 1))],
)
def test_a_malformed_game_is_refused(seats: tuple[int, ...], ranks: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        Game(seats, ranks)


def test_a_game_reads_its_places() -> None:
    game = Game((4, 8, 6), (2, 0, 1))
    assert game.finished and game.rank_of(8) == 0 and game.opponents(8) == (4, 6)
    assert not Game((4, 8)).finished
    with pytest.raises(ValueError):
        Game((4, 8)).rank_of(4)
    assert Round((game,), (Bye(9, Fraction(1)),)).entrants() == (4, 8, 6, 9)
