"""The post-game analysis of a finished game (``tne-analysis/1``, docs/formats.md).

For every position of the record, each seat's probability of finishing first
(``winprob.state_probabilities`` on the true state: once the game is over its whole record
is open). For every decision with a choice, what the decider's own view allowed: the
decider's hidden tiles are dealt ``worlds`` times (``ai.Determinizer``, seeded by the
budget's seed and the ply, so an analysis is reproducible), the legal actions are ranked by
the bots' one-step look-ahead (``ai.rank.rank_actions``, the ``FULL`` evaluation) and the
best ``candidates`` of them, with the action played, are each played in every world, the
decisions inside them settled by the bots' fixed policies (``evaluate.settle``) and the
result read as the decider's win probability. The decision's *loss* is the best
candidate's mean minus the played action's; a loss of at least ``THRESHOLDS`` marks it an
inaccuracy, a mistake or a blunder, and the best candidate is the suggestion.

Refused for a game that is not over: the analysis reads the true state, so it would show
hidden tiles. A game stopped before its rules ended it (every seat but one resigned, a
forfeit) is over: its record's result says so, and it is analysed up to where it stopped,
the curve ending on the position the resignation left.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any, Final

from .. import (
    InvalidAction,
    State,
    apply_unchecked,
    legal_actions,
    parse_action,
    player_view,
    replay_steps,
    start_of,
    to_act,
)
from ..ai.determinize import Determinizer
from ..ai.evaluate import FULL, settle
from ..ai.rank import rank_actions
from .winprob import reliability, state_probabilities

FORMAT: Final = "tne-analysis/1"

#: The least loss in win probability (0–1) of each mark, worst first.
THRESHOLDS: Final = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
MARKS: Final = tuple(name for name, _ in reversed(THRESHOLDS))
#: The ends of a record's result that stop a game before its rules end it: every seat but
#: one resigned (the server), a protocol bot's fault without a fallback (the referee).
ENDED_EARLY: Final = ("resign", "forfeit")


@dataclass(frozen=True)
class AnalysisBudget:
    """How much work one analysis does: the actions judged at each decision beside the one
    played (``candidates``), the deals of the hidden tiles each is judged over (``worlds``)
    and the seed of those deals. The same record and budget give the same analysis."""

    candidates: int = 6
    worlds: int = 4
    seed: int = 0

    def __post_init__(self) -> None:
        if not (1 <= self.candidates <= 50 and 1 <= self.worlds <= 32):
            raise ValueError("an analysis budget takes 1–50 candidates and 1–32 worlds")


def mark(loss: float) -> str | None:
    """The mark of a decision that lost ``loss`` in win probability (None: no mark)."""
    for name, least in THRESHOLDS:
        if loss >= least:
            return name
    return None


def analyse(record: dict[str, Any], budget: AnalysisBudget | None = None) -> dict[str, Any]:
    """The analysis of a finished game's record (``tne-analysis/1``); an unfinished game, or
    a record that does not replay, is refused with ``InvalidAction``."""
    budget = budget or AnalysisBudget()
    steps = finished_steps(record)
    return assemble(record, budget, judge_span(record, budget, 0, len(steps)))


def finished_steps(record: dict[str, Any]) -> list[tuple[State, str, State, list[Any]]]:
    """The record's steps, refused (``InvalidAction``) unless they end the game, or the
    record's result says the game ended before its rules ended it (``ENDED_EARLY``: its
    steps are analysed up to where it stopped)."""
    steps = list(replay_steps(record))
    result = record.get("result")
    early = isinstance(result, dict) and result.get("end") in ENDED_EARLY
    if not (early or (steps and steps[-1][2].over)):
        raise InvalidAction("game-not-over", "only a finished game can be analysed")
    return steps


def judge_span(
    record: dict[str, Any], budget: AnalysisBudget, first: int, last: int
) -> list[dict[str, Any]]:
    """The decisions of plies ``first`` to ``last`` (excluded) judged: a part of the work,
    the same as in the whole analysis (each ply's deals have a seed of their own), so that
    a server can report its progress between the parts."""
    decisions = []
    for ply, (before, text, _, _) in enumerate(finished_steps(record)):
        if first <= ply < last:
            judged = judge(before, text, ply, budget)
            if judged is not None:
                decisions.append(judged)
    return decisions


def assemble(
    record: dict[str, Any], budget: AnalysisBudget, decisions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The analysis from every judged decision: the curve, the marks' summary."""
    steps = finished_steps(record)
    start = start_of(record)
    n = start.options.players
    curve = [_rounded(state_probabilities(start))]
    curve += [_rounded(state_probabilities(after)) for _, _, after, _ in steps]
    return {
        "format": FORMAT,
        "players": n,
        "plies": len(steps),
        "budget": asdict(budget),
        "thresholds": {name: least for name, least in THRESHOLDS},
        "curve": curve,
        "reliability": reliability(start),
        "decisions": decisions,
        "summary": summary(decisions, n),
    }


def judge(before: State, text: str, ply: int, budget: AnalysisBudget) -> dict[str, Any] | None:
    """One decision judged from the decider's view (None when it had no choice)."""
    legal = legal_actions(before)
    if len(legal) < 2:
        return None
    seat = to_act(before)
    assert seat is not None
    played = parse_action(text)
    text = str(played)
    rows = [list(before.score(p)) for p in range(before.options.players)]
    det = Determinizer(player_view(before, seat), rows)
    rng = random.Random(budget.seed * 1_000_003 + ply)
    worlds = [det.sample(rng) for _ in range(budget.worlds)]
    ranked = rank_actions(worlds[0], seat, legal, worlds, FULL)
    candidates = [a for _, a in ranked[: budget.candidates]]
    if played not in candidates:
        candidates.append(played)
    values = {str(a): _mean_probability(worlds, a, seat) for a in candidates}
    best = max(values, key=lambda a: (values[a], a == text))
    loss = max(0.0, values[best] - values[text])
    return {
        "ply": ply,
        "seat": seat,
        "action": text,
        "choices": len(legal),
        "played": round(values[text], 4),
        "best": round(values[best], 4),
        "loss": round(loss, 4),
        "mark": mark(round(loss, 4)),
        "suggestion": None if best == text else best,
    }


def _mean_probability(worlds: list[State], action: Any, seat: int) -> float:
    """The decider's mean win probability after ``action`` and the decisions inside it."""
    total = 0.0
    for world in worlds:
        total += state_probabilities(settle(apply_unchecked(world, action)))[seat]
    return total / len(worlds)


def summary(decisions: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions judged, the count of each mark and the mean loss."""
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d["seat"] == seat]
        entry: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for name in MARKS:
            entry[name] = sum(1 for d in mine if d["mark"] == name)
        entry["mean_loss"] = round(sum(d["loss"] for d in mine) / len(mine), 4) if mine else 0.0
        out.append(entry)
    return out


def _rounded(values: list[float]) -> list[float]:
    return [round(v, 4) for v in values]
