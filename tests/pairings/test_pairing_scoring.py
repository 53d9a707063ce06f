"""Swiss and arena points, streaks, and how points are written."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tigris_euphrates.pairings import (
    ArenaScore,
    Bye,
    Game,
    Round,
    arena_score,
    format_points,
    swiss_game_points,
    swiss_totals,
)
from tigris_euphrates.pairings.scoring import arena_game_points


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ((0, 1), ("1", "0")),
        ((0, 0), ("1/2", "1/2")),
        ((1, 0), ("0", "1")),
        ((0, 1, 2), ("1", "1/2", "0")),
        ((0, 1, 1), ("1", "1/4", "1/4")),
        ((0, 0, 2), ("3/4", "3/4", "0")),
        ((0, 1, 2, 3), ("1", "2/3", "1/3", "0")),
        ((3, 0, 0, 2), ("0", "5/6", "5/6", "1/3")),
        ((0, 0, 0, 0), ("1/2", "1/2", "1/2", "1/2")),
    ],
)
def test_swiss_points_of_a_game(ranks: tuple[int, ...], expected: tuple[str, ...]) -> None:
    game = Game(tuple(range(10, 10 + len(ranks))), ranks)
    got = tuple(swiss_game_points(game, e) for e in game.seats)
    assert got == tuple(Fraction(x) for x in expected)
    # a game hands out seats / 2 points in all
    assert sum(got) == Fraction(len(ranks), 2)


def test_swiss_totals_count_byes_and_skip_unfinished_games() -> None:
    history = [
        Round((Game((1, 2), (0, 1)),), (Bye(3, Fraction(1)),)),
        Round((Game((3, 1), (0, 0)), Game((2, 4))), ()),
    ]
    assert swiss_totals(history) == {
        1: Fraction(3, 2),
        2: Fraction(0),
        3: Fraction(3, 2),
        4: Fraction(0),
    }


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ((0, 1), (2, 0)),
        ((0, 0), (1, 1)),
        ((0, 1, 2, 3), (6, 4, 2, 0)),
        ((0, 0, 2, 3), (5, 5, 2, 0)),
        ((1, 0, 1), (1, 4, 1)),
    ],
)
def test_arena_points_of_a_game(ranks: tuple[int, ...], expected: tuple[int, ...]) -> None:
    game = Game(tuple(range(len(ranks))), ranks)
    assert tuple(arena_game_points(game, e) for e in game.seats) == expected


def _games(outcomes: str, players: int = 2) -> list[Game]:
    """Entrant 0's games: W an outright win, D first place shared with one other, L last."""
    seats = tuple(range(players))
    last = players - 1
    ranks = {
        "W": (0, *range(1, players)),
        "D": (0, 0, *range(2, players)),
        "L": (last, *range(last)),
    }
    return [Game(seats, ranks[o]) for o in outcomes]


@pytest.mark.parametrize(
    ("outcomes", "players", "points", "on_fire"),
    [
        ("", 2, 0, False),
        ("W", 2, 2, False),
        ("WW", 2, 4, True),
        ("WWW", 2, 8, True),
        ("WWWW", 2, 12, True),
        ("WWWL", 2, 8, False),
        ("WWWLW", 2, 10, False),
        ("WWWLWWW", 2, 16, True),
        ("WWD", 2, 5, False),
        ("WWDW", 2, 7, False),
        ("WLWLW", 2, 6, False),
        ("WWW", 4, 6 + 6 + 12, True),
        ("WWDW", 4, 6 + 6 + 5 + 6, False),
        ("LWWWW", 3, 0 + 4 + 4 + 8 + 8, True),
    ],
)
def test_arena_streaks(outcomes: str, players: int, points: int, on_fire: bool) -> None:
    assert arena_score(_games(outcomes, players), 0) == ArenaScore(points, on_fire)


def test_an_unfinished_game_neither_scores_nor_breaks_a_streak() -> None:
    games = [*_games("WW"), Game((0, 1)), *_games("W")]
    assert arena_score(games, 0) == ArenaScore(8, True)


@pytest.mark.parametrize(
    ("points", "text"),
    [
        (Fraction(0), "0"),
        (Fraction(3), "3"),
        (7, "7"),
        (Fraction(1, 2), "½"),
        (Fraction(5, 2), "2½"),
        (Fraction(5, 3), "1⅔"),
        (Fraction(1, 3), "⅓"),
        (Fraction(9, 4), "2¼"),
        (Fraction(11, 6), "1⅚"),
        (Fraction(17, 7), "2 3/7"),
        (Fraction(-1, 2), "-½"),
    ],
)
def test_format_points(points: Fraction | int, text: str) -> None:
    assert format_points(points) == text
