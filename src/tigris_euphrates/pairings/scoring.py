"""Points of live events, for any number of players per game.

Swiss points are exact fractions: a finished game gives each seat
``(opponents beaten + ½ × opponents tied) / (seats − 1)``, so a two-player game scores
1 / ½ / 0 as in chess and a four-player game 1, ⅔, ⅓, 0 for first to last place; every game
hands out ``seats / 2`` points in all. A pairing bye is worth :data:`PAIRING_BYE_POINTS` (1,
an outright win's worth, whatever the number of players).

Arena points are integers, as on lichess: 2 per opponent beaten and 1 per opponent tied
(two players: win 2, draw 1, loss 0; four players: 6, 4, 2, 0). An outright win is a game
the entrant finished first alone (rank 0, nobody else at rank 0). After two outright wins
in a row the entrant is *on fire*: each further outright win scores double, until a game
that is not an outright win (a shared first place included), which scores as usual and puts
the fire out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tigris_euphrates.pairings.results import EntrantId, Game, Round

#: What a pairing bye is worth in a Swiss tournament.
PAIRING_BYE_POINTS = Fraction(1)
#: Outright wins in a row after which the next outright wins count double (arena).
STREAK_LENGTH = 2


def beaten_and_tied(game: Game, entrant: EntrantId) -> tuple[int, int]:
    """How many opponents ``entrant`` finished ahead of, and level with, in a finished game."""
    mine = game.rank_of(entrant)
    assert game.ranks is not None
    others = [r for e, r in zip(game.seats, game.ranks, strict=True) if e != entrant]
    return sum(r > mine for r in others), sum(r == mine for r in others)


def outright_win(game: Game, entrant: EntrantId) -> bool:
    """Whether ``entrant`` finished the finished ``game`` first and alone."""
    assert game.ranks is not None
    return game.rank_of(entrant) == 0 and game.ranks.count(0) == 1


def swiss_game_points(game: Game, entrant: EntrantId) -> Fraction:
    """The Swiss points a finished game gives ``entrant`` (between 0 and 1)."""
    beaten, tied = beaten_and_tied(game, entrant)
    return (beaten + Fraction(tied, 2)) / (len(game.seats) - 1)


def pairwise_result(game: Game, entrant: EntrantId, opponent: EntrantId) -> Fraction:
    """``entrant``'s result against one ``opponent`` of a finished game: 1 if it finished
    ahead, ½ if level, 0 if behind."""
    mine, theirs = game.rank_of(entrant), game.rank_of(opponent)
    return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


def swiss_totals(history: Iterable[Round]) -> dict[EntrantId, Fraction]:
    """Everyone's Swiss points over ``history``: finished games and byes (an entrant of an
    unfinished game is listed, with what it has so far)."""
    totals: dict[EntrantId, Fraction] = {}
    for rnd in history:
        for game in rnd.games:
            for e in game.seats:
                gained = swiss_game_points(game, e) if game.finished else Fraction(0)
                totals[e] = totals.get(e, Fraction(0)) + gained
        for bye in rnd.byes:
            totals[bye.entrant] = totals.get(bye.entrant, Fraction(0)) + bye.points
    return totals


def arena_game_points(game: Game, entrant: EntrantId) -> int:
    """The arena points a finished game gives ``entrant`` before any streak doubling."""
    beaten, tied = beaten_and_tied(game, entrant)
    return 2 * beaten + tied


@dataclass(frozen=True)
class ArenaScore:
    """One entrant's arena score: its points, and whether its next outright win counts
    double (``on_fire``)."""

    points: int
    on_fire: bool


def arena_score(games: Sequence[Game], entrant: EntrantId) -> ArenaScore:
    """``entrant``'s arena score from its games in the order they were played; games not
    finished yet are skipped."""
    points = 0
    streak = 0
    for game in games:
        if not game.finished:
            continue
        gained = arena_game_points(game, entrant)
        if outright_win(game, entrant):
            points += 2 * gained if streak >= STREAK_LENGTH else gained
            streak += 1
        else:
            points += gained
            streak = 0
    return ArenaScore(points, streak >= STREAK_LENGTH)


#: The vulgar-fraction glyphs ``format_points`` uses.
_GLYPHS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 5): "⅕",
    Fraction(2, 5): "⅖",
    Fraction(3, 5): "⅗",
    Fraction(4, 5): "⅘",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
    Fraction(1, 8): "⅛",
    Fraction(3, 8): "⅜",
    Fraction(5, 8): "⅝",
    Fraction(7, 8): "⅞",
}


def format_points(points: Fraction | int) -> str:
    """Points for display: ``"3"``, ``"2½"``, ``"1⅔"``, ``"½"``, ``"0"``. A fraction
    without a glyph (never a Swiss score of 2, 3 or 4 players) is written ``"2 3/7"``."""
    value = Fraction(points)
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if part == 0:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get(part)
    if glyph is None:
        text = f"{part.numerator}/{part.denominator}"
        return f"{sign}{whole} {text}" if whole else f"{sign}{text}"
    return f"{sign}{whole or ''}{glyph}"
