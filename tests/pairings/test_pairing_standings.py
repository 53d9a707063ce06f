"""Standings and their tie-breaks, on examples worked by hand."""

from __future__ import annotations

from fractions import Fraction

from tigris_euphrates.pairings import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Bye,
    Entrant,
    Game,
    Round,
    Standing,
    arena_standings,
    swiss_standings,
)

F = Fraction
A, B, C, D, W = 1, 2, 3, 4, 5


def test_the_tiebreaks_are_named_in_order() -> None:
    assert SWISS_TIEBREAKS == ("buchholz", "sonneborn_berger", "wins", "rating", "lot")
    assert ARENA_TIEBREAKS == ("wins", "rank_share", "rating", "lot")


def test_buchholz_and_sonneborn_berger_of_two_player_rounds() -> None:
    """R1: A beats B, C draws D. R2: A draws C, B beats D.
    Points: A 1½, B 1, C 1, D ½.
    Buchholz: A = B + C = 2; B = A + D = 2; C = D + A = 2; D = C + B = 2.
    Sonneborn–Berger: A = 1·1 + ½·1 = 1½; B = 0·1½ + 1·½ = ½; C = ½·½ + ½·1½ = 1;
    D = ½·1 + 0·1 = ½. So C is second on Sonneborn–Berger, ahead of B."""
    entrants = [Entrant(e, 1500.0, e) for e in (A, B, C, D)]
    history = [
        Round((Game((A, B), (0, 1)), Game((C, D), (0, 0)))),
        Round((Game((C, A), (0, 0)), Game((D, B), (1, 0)))),
    ]
    got = swiss_standings(entrants, history)
    assert [(s.rank, s.entrant, s.points) for s in got] == [
        (1, A, F(3, 2)),
        (2, C, F(1)),
        (3, B, F(1)),
        (4, D, F(1, 2)),
    ]
    assert {s.entrant: s.tiebreaks[:3] for s in got} == {
        A: (F(2), F(3, 2), 1),
        B: (F(2), F(1, 2), 1),
        C: (F(2), F(1), 0),
        D: (F(2), F(1, 2), 0),
    }
    assert got[0] == Standing(1, A, F(3, 2), (F(2), F(3, 2), 1, 1500.0, A), 2, 1)


def test_sonneborn_berger_of_a_three_player_game_and_the_last_tiebreaks() -> None:
    """One game: A first, B and C level second. Points: A 1, B ¼, C ¼.
    Buchholz: A = ¼ + ¼ = ½; B = C = 1 + ¼ = 1¼.
    Sonneborn–Berger: A = (1·¼ + 1·¼) / 2 = ¼; B = C = (0·1 + ½·¼) / 2 = ⅛ / 2 = 1/16.
    B and C are level on everything but rating; D (a bye) and E (no game) level on all but
    the lot."""
    entrants = [
        Entrant(A, 1400.0, 9),
        Entrant(B, 1300.0, 9),
        Entrant(C, 1350.0, 9),
        Entrant(D, 1000.0, 50),
        Entrant(W, 1000.0, 40),
    ]
    history = [Round((Game((B, A, C), (1, 0, 1)),), (Bye(D, F(1, 2)),))]
    got = swiss_standings(entrants, history)
    assert [(s.entrant, s.points, s.tiebreaks[:3], s.games, s.wins) for s in got] == [
        (A, F(1), (F(1, 2), F(1, 4), 1), 1, 1),
        (D, F(1, 2), (F(0), F(0), 0), 0, 0),
        (C, F(1, 4), (F(5, 4), F(1, 16), 0), 1, 0),
        (B, F(1, 4), (F(5, 4), F(1, 16), 0), 1, 0),
        (W, F(0), (F(0), F(0), 0), 0, 0),
    ]
    assert [s.rank for s in got] == [1, 2, 3, 4, 5]


def test_the_lot_decides_last_and_ranks_stay_distinct() -> None:
    entrants = [Entrant(e, 1500.0, lot) for e, lot in ((A, 30), (B, 10), (C, 20))]
    got = swiss_standings(entrants, [])
    assert [(s.rank, s.entrant) for s in got] == [(1, B), (2, C), (3, A)]


def test_a_withdrawn_entrant_stays_with_what_it_scored() -> None:
    """W beats A in round 1 and withdraws; round 2 is played without it. W keeps its point
    and still counts in A's Buchholz."""
    entrants = [Entrant(e, 1500.0 - e, e) for e in (A, B, C, W)]
    history = [
        Round((Game((A, W), (1, 0)), Game((B, C), (0, 1)))),
        Round((Game((A, C), (0, 1)),), (Bye(B, F(1)),)),
    ]
    got = {s.entrant: s for s in swiss_standings(entrants, history)}
    assert got[W].points == 1 and got[W].games == 1
    assert got[A].tiebreaks[0] == got[W].points + got[C].points == F(1)
    assert got[B].points == F(2)
    assert got[B].tiebreaks[0] == got[C].points == F(0)  # the bye adds nothing


def test_arena_standings() -> None:
    """A: three wins (2 + 2 + 4 = 8, on fire). B: a loss, a win (2). W: draw, loss, draw
    (2). C: loss, loss, draw, draw (2). D: two draws (2) and a game still being played,
    which does not count. Among the 2-point entrants B has a win; then the mean rank-share
    decides: D ½, W ⅓, C ¼."""
    entrants = [Entrant(e, 1500.0, e) for e in (A, B, C, D, W)]
    games = [
        Game((A, B), (0, 1)),
        Game((A, C), (0, 1)),
        Game((B, C), (0, 1)),
        Game((W, D), (0, 0)),
        Game((A, W), (0, 1)),
        Game((C, D), (0, 0)),
        Game((W, C), (0, 0)),
        Game((D, B)),
    ]
    got = arena_standings(entrants, games)
    assert [(s.entrant, s.points, s.games, s.wins, s.on_fire) for s in got] == [
        (A, 8, 3, 3, True),
        (B, 2, 2, 1, False),
        (D, 2, 2, 0, False),
        (W, 2, 3, 0, False),
        (C, 2, 4, 0, False),
    ]
    assert [s.tiebreaks[1] for s in got] == [F(1), F(1, 2), F(1, 2), F(1, 3), F(1, 4)]
