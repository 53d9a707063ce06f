"""Puzzles from real mistakes ("find the move"): the blunders of a finished, analysed game,
each turned into the position its decider faced (``tne-puzzle/1``, docs/formats.md).

A decision of the analysis (``tne-analysis/1``) becomes a puzzle when it is marked a
``blunder`` (a loss of at least ``BLUNDER`` in win probability), the analysis found a better
action (its ``suggestion``) and the position was a real decision (at least two legal
actions). The puzzle holds the decider's *view* before that ply (``player_view``: never the
true state, so no opponent's hand, no bag order, no score the rules hide), the solution (the
suggestion, and every other action the analysis judged within ``NEAR`` of the best when it
lists its judged actions' values), the move played in the game (the mistake), the reason
the analysis gave, the chance lost, the game's options and a starting rating
(``starting_mu``). The same record and analysis give the same puzzles.

Standard library and the engine's public API only: the server stores the puzzles and rates
the attempts (``store/puzzles.py``); ``answer`` reads an attempt against a puzzle.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import Any, Final

from .. import (
    DEFAULT_RULESET,
    RULESETS,
    InvalidAction,
    State,
    legal_actions,
    parse_action,
    player_view,
    replay_steps,
    to_act,
)

FORMAT: Final = "tne-puzzle/1"
#: The least loss (0–1) of a decision that becomes a puzzle: the analysis's blunder.
BLUNDER: Final = 0.20
#: An action judged within this of the best is accepted as a solution too.
NEAR: Final = 0.02
#: The ends of a record's result that stop a game before its rules end it (as the analysis).
ENDED_EARLY: Final = ("resign", "forfeit")
#: openskill's default rating (Plackett–Luce: μ 25, σ 25/3), a puzzle's start beside it.
DEFAULT_MU: Final = 25.0
DEFAULT_SIGMA: Final = 25.0 / 3.0
#: How far a puzzle's starting μ may lie from the default, either way.
SPREAD: Final = 6.0


def puzzle_id(game_id: str, ply: int) -> str:
    """A puzzle's id: 12 hex digits of a digest of its game and ply (the same puzzle made
    twice has the same id, and the id does not name the game)."""
    return hashlib.sha256(f"tne-puzzle:{game_id}:{ply}".encode()).hexdigest()[:12]


def starting_mu(loss: float, choices: int) -> float:
    """A new puzzle's rating (μ): harder with more legal actions to look through (one point a
    doubling past 32), easier the more the mistake lost (ten points per unit of win
    probability past ``BLUNDER``: a move that throws the game away is easier to see), within
    ``SPREAD`` of the default."""
    shift = math.log2(max(choices, 2) / 32) - 10.0 * (loss - BLUNDER)
    return round(DEFAULT_MU + max(-SPREAD, min(SPREAD, shift)), 4)


def extract(record: Mapping[str, Any], analysis: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The puzzles of a finished game (``record``, ``tne-record/1``) and its analysis, in the
    order of their plies. An unfinished game is refused (``InvalidAction`` ``game-not-over``),
    so is an analysis of another record (``analysis-mismatch``)."""
    steps = list(replay_steps(dict(record)))
    result = record.get("result")
    early = isinstance(result, dict) and result.get("end") in ENDED_EARLY
    if not (early or (steps and steps[-1][2].over)):
        raise InvalidAction("game-not-over", "only a finished game makes puzzles")
    if analysis.get("plies") != len(steps):
        raise InvalidAction("analysis-mismatch", "the analysis is not of this record's moves")
    decisions = [d for d in analysis.get("decisions") or [] if isinstance(d, dict)]
    out = []
    for decision in sorted(decisions, key=lambda d: int(d.get("ply", -1))):
        ply = int(decision.get("ply", -1))
        if 0 <= ply < len(steps):
            puzzle = candidate(steps[ply][0], steps[ply][1], decision, dict(record["options"]))
            if puzzle is not None:
                out.append(puzzle)
    return out


def candidate(
    before: State, text: str, decision: Mapping[str, Any], options: dict[str, Any]
) -> dict[str, Any] | None:
    """The puzzle of one judged decision taken at ``before`` (``text``: the action played),
    or None when it is no puzzle: not a blunder, no suggestion, no real choice, or a
    decision that does not fit the position (another seat, an action not legal there)."""
    loss = float(decision.get("loss") or 0.0)
    suggestion = decision.get("suggestion")
    if decision.get("mark") != "blunder" or loss < BLUNDER or not isinstance(suggestion, str):
        return None
    seat = to_act(before)
    legal = {str(a) for a in legal_actions(before)}
    if seat is None or seat != decision.get("seat") or len(legal) < 2:
        return None
    solution = _canonical(suggestion)
    played = _canonical(text)
    if solution not in legal or played not in legal or solution == played:
        return None
    accepted = [solution, *sorted(_near_best(decision, legal) - {solution, played})]
    ruleset = str(options.get("ruleset") or DEFAULT_RULESET)
    reason = decision.get("reason")
    return {
        "format": FORMAT,
        "ply": int(decision["ply"]),
        "seat": seat,
        "options": options,
        "family": RULESETS[ruleset].family,
        "view": player_view(before, seat),
        "choices": len(legal),
        "solution": solution,
        "accepted": accepted,
        "played": played,
        "reason": dict(reason) if isinstance(reason, Mapping) else None,
        "loss": round(loss, 4),
        "best": round(float(decision.get("best") or 0.0), 4),
        "played_chance": round(float(decision.get("played") or 0.0), 4),
        "rating": {"mu": starting_mu(loss, len(legal)), "sigma": round(DEFAULT_SIGMA, 4)},
    }


def _canonical(text: str) -> str:
    """An action's notation as the engine writes it (``InvalidAction``: it does not parse)."""
    return str(parse_action(text))


def _near_best(decision: Mapping[str, Any], legal: set[str]) -> set[str]:
    """The legal actions the analysis judged within ``NEAR`` of the best, when it lists its
    judged actions' values: ``values`` as ``{notation: chance}`` or ``candidates`` as
    ``[{"action", "value"}]``. Without such a list, none (the suggestion alone solves it)."""
    values: dict[str, float] = {}
    listed = decision.get("values")
    if isinstance(listed, Mapping):
        values = {str(a): float(v) for a, v in listed.items() if isinstance(v, int | float)}
    for entry in decision.get("candidates") or []:
        if isinstance(entry, Mapping) and isinstance(entry.get("value"), int | float):
            values[str(entry.get("action"))] = float(entry["value"])
    if not values:
        return set()
    best = max(float(decision.get("best") or 0.0), *values.values())
    near = set()
    for action, value in values.items():
        try:
            canonical = _canonical(action)
        except InvalidAction:
            continue
        if value >= best - NEAR - 1e-9 and canonical in legal:
            near.add(canonical)
    return near


def answer(puzzle: Mapping[str, Any], text: str) -> tuple[str, bool, bool]:
    """An attempt at ``puzzle``: the action in the engine's notation, whether it is legal in
    the puzzle's position and whether it solves it. A text that is no action is refused
    (``InvalidAction``, the engine's code and words)."""
    canonical = _canonical(text)
    legal = canonical in set(puzzle["view"].get("legal_actions") or [])
    return canonical, legal, legal and canonical in set(puzzle["accepted"])
