"""The pairing and scoring rules of live events, arenas and Swiss tournaments, for games of
2, 3 or 4 players: pure functions of the entrants and the games so far, standard library
only (no database, no engine).

``results`` holds the data (entrants, games, byes, rounds), ``scoring`` the points,
``standings`` the order and its tie-breaks, ``swiss`` the next round of a Swiss tournament
and ``arena`` the next games of an arena.
"""

from tigris_euphrates.pairings.arena import FreeEntrant, pair_free
from tigris_euphrates.pairings.results import Bye, Entrant, EntrantId, Game, Round, lot_of
from tigris_euphrates.pairings.scoring import (
    PAIRING_BYE_POINTS,
    ArenaScore,
    arena_score,
    format_points,
    swiss_game_points,
    swiss_totals,
)
from tigris_euphrates.pairings.standings import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Standing,
    arena_standings,
    swiss_standings,
)
from tigris_euphrates.pairings.swiss import pair_round

__all__ = [
    "ARENA_TIEBREAKS",
    "PAIRING_BYE_POINTS",
    "SWISS_TIEBREAKS",
    "ArenaScore",
    "Bye",
    "Entrant",
    "EntrantId",
    "FreeEntrant",
    "Game",
    "Round",
    "Standing",
    "arena_score",
    "arena_standings",
    "format_points",
    "lot_of",
    "pair_free",
    "pair_round",
    "swiss_game_points",
    "swiss_standings",
    "swiss_totals",
]
