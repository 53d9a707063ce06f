"""The post-game analysis of a finished game (``tne-analysis/1``, docs/formats.md).

For every position of the record, each seat's probability of finishing first
(``winprob.state_probabilities`` on the true state: once the game is over its whole record
is open). Every decision with a choice is judged from what the decider's own view allowed
(``judge``): a search of the ``hard`` level from that view, with a fixed number of
iterations; when it prefers another action, both are played out in the same deals of the
hidden tiles and read as the decider's win probability. The decision's *loss* is what the
action played gave up against the search's choice; a loss of at least ``THRESHOLDS``
marks it an inaccuracy, a mistake or a blunder, the choice is the suggestion, and the
reason says what the suggestion gains (``reasons``). Each seat's *accuracy* sums its
losses up as one number from 0 to 100.

Refused for a game that is not over: the analysis reads the true state, so it would show
hidden tiles. A game stopped before its rules ended it (every seat but one resigned, a
forfeit) is over: its record's result says so, and it is analysed up to where it stopped,
the curve ending on the position the resignation left.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Final

from .. import InvalidAction, State, replay_steps, start_of
from .judge import judge_decision
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
    """How much work one analysis does: the search's iterations at each decision
    (``iterations``), the deals of the hidden tiles the action played and the search's
    choice are played out in (``worlds``) and the seed of the searches and the deals. The
    same record and budget give the same analysis, on any machine."""

    iterations: int = 400
    worlds: int = 8
    seed: int = 0

    def __post_init__(self) -> None:
        if not (8 <= self.iterations <= 20_000 and 1 <= self.worlds <= 64):
            raise ValueError("an analysis budget takes 8–20,000 iterations and 1–64 worlds")


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
    judged = judge_decision(before, text, ply, budget.iterations, budget.worlds, budget.seed)
    if judged is None:
        return None
    played, best = round(judged.played, 4), round(max(judged.best, judged.played), 4)
    loss = round(best - played, 4)
    named = mark(loss)
    return {
        "ply": ply,
        "seat": judged.seat,
        "action": text,
        "choices": judged.choices,
        "played": played,
        "best": best,
        "loss": loss,
        "mark": named,
        "suggestion": judged.choice if loss > 0 else None,
        "reason": judged.reason if named else None,
        "accuracy": accuracy(loss),
    }


def accuracy(loss: float) -> float:
    """A decision's accuracy from 0 to 100 (lichess's curve on the chance of winning lost):
    100 for no loss, about 80 for a loss of 0.05, 40 for 0.20."""
    return round(min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669)), 1)


def summary(decisions: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions judged, the count of each mark and the mean loss."""
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d["seat"] == seat]
        entry: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for name in MARKS:
            entry[name] = sum(1 for d in mine if d["mark"] == name)
        entry["mean_loss"] = round(sum(d["loss"] for d in mine) / len(mine), 4) if mine else 0.0
        entry["accuracy"] = (
            round(sum(accuracy(d["loss"]) for d in mine) / len(mine), 1) if mine else 100.0
        )
        out.append(entry)
    return out


def _rounded(values: list[float]) -> list[float]:
    return [round(v, 4) for v in values]
