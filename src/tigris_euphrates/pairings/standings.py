"""The standings of live events: who is where, and by which tie-break.

Swiss (:func:`swiss_standings`), in this order, each named in :data:`SWISS_TIEBREAKS`:

1. points (:func:`~tigris_euphrates.pairings.scoring.swiss_game_points`, byes included);
2. ``buchholz``: the sum of the final points of every opponent met, once per game (an
   opponent met twice counts twice); byes add nothing;
3. ``sonneborn_berger``: for every opponent of every game, your result against that
   opponent alone (1 if you finished ahead, ½ level, 0 behind) times the opponent's final
   points, divided by the game's ``seats − 1``. With two players this is the classic
   Sonneborn–Berger (the beaten opponents' points plus half the drawn ones'); with more it
   credits whom you beat, not the table as a whole, and a game still weighs at most one
   opponent's worth on average;
4. ``wins``: the number of outright wins (first place alone);
5. ``rating``: the rating the entrant entered with;
6. ``lot``: the seeded lot, smaller first, so no two entrants share a rank.

Arena (:func:`arena_standings`), named in :data:`ARENA_TIEBREAKS`: points (streaks
included), then ``wins``, then ``rank_share`` (the mean over finished games of the share of
opponents beaten, a tie half: a game's Swiss points), then ``rating``, then ``lot``.

Only finished games count. An entrant who withdrew stays in the standings with what it
scored, and its final points still count in its opponents' tie-breaks. Ranks start at 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from tigris_euphrates.pairings.results import Entrant, EntrantId, Game, Round
from tigris_euphrates.pairings.scoring import (
    arena_score,
    outright_win,
    pairwise_result,
    swiss_game_points,
    swiss_totals,
)

#: The Swiss tie-breaks in the order they decide, as keys the page translates.
SWISS_TIEBREAKS = ("buchholz", "sonneborn_berger", "wins", "rating", "lot")
#: The arena tie-breaks in the order they decide.
ARENA_TIEBREAKS = ("wins", "rank_share", "rating", "lot")

#: One tie-break's value: a number of points, a count or a rating.
TiebreakValue = Fraction | int | float


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``tiebreaks`` holds the values named by
    :data:`SWISS_TIEBREAKS` or :data:`ARENA_TIEBREAKS`, in that order; ``games`` counts
    finished games (byes excluded) and ``wins`` outright wins. ``on_fire`` is the arena's
    streak (always ``False`` in a Swiss tournament)."""

    rank: int
    entrant: EntrantId
    points: Fraction | int
    tiebreaks: tuple[TiebreakValue, ...]
    games: int
    wins: int
    on_fire: bool = False


def _finished_games(history: Sequence[Round]) -> list[Game]:
    return [g for rnd in history for g in rnd.games if g.finished]


def _ranked(entrants: Sequence[Entrant], rows: dict[EntrantId, Standing]) -> list[Standing]:
    """The rows sorted (points and every tie-break larger first, but the lot, which comes
    last and smaller first) and numbered from 1."""

    def key(e: Entrant) -> tuple[TiebreakValue, ...]:
        row = rows[e.id]
        *larger, lot = row.tiebreaks
        return (-row.points, *(-v for v in larger), lot)

    ordered = sorted(entrants, key=key)
    return [replace(rows[e.id], rank=i + 1) for i, e in enumerate(ordered)]


def swiss_standings(entrants: Sequence[Entrant], history: Sequence[Round]) -> list[Standing]:
    """The Swiss standings of ``entrants`` (everyone who took part, withdrawn ones too)
    after ``history``."""
    totals = swiss_totals(history)
    games = _finished_games(history)
    rows = {}
    for entrant in entrants:
        me = entrant.id
        mine = [g for g in games if me in g.seats]
        buchholz = sum(
            (totals.get(o, Fraction(0)) for g in mine for o in g.opponents(me)), Fraction(0)
        )
        sb = sum(
            (
                pairwise_result(g, me, o) * totals.get(o, Fraction(0)) / (len(g.seats) - 1)
                for g in mine
                for o in g.opponents(me)
            ),
            Fraction(0),
        )
        wins = sum(outright_win(g, me) for g in mine)
        rows[me] = Standing(
            0,
            me,
            totals.get(me, Fraction(0)),
            (buchholz, sb, wins, entrant.rating, entrant.lot),
            len(mine),
            wins,
        )
    return _ranked(entrants, rows)


def arena_standings(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Standing]:
    """The arena standings of ``entrants`` after ``games`` (in the order they were played;
    those still being played do not count)."""
    finished = [g for g in games if g.finished]
    rows = {}
    for entrant in entrants:
        me = entrant.id
        mine = [g for g in finished if me in g.seats]
        score = arena_score(mine, me)
        wins = sum(outright_win(g, me) for g in mine)
        share = (
            sum((swiss_game_points(g, me) for g in mine), Fraction(0)) / len(mine)
            if mine
            else Fraction(0)
        )
        rows[me] = Standing(
            0,
            me,
            score.points,
            (wins, share, entrant.rating, entrant.lot),
            len(mine),
            wins,
            score.on_fire,
        )
    return _ranked(entrants, rows)
