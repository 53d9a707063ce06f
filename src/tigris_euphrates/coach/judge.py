"""One decision of a finished game judged from the decider's own view, by a search.

The decider's view (``player_view``) is searched the way the ``hard`` level searches it
(``ai.SearchBot``: information-set MCTS over deals of the tiles that seat could not see,
the points it heard kept as they were), with a fixed number of iterations and a seed of
the analysis's own per ply, so an analysis is the same on any machine. When the search
chooses the action that was played, the decision is sound. Otherwise the search's choice
and the action played are each played out in the same ``worlds`` deals: the decisions
inside the action settled by the bots' fixed policies, then the rest of the decider's turn
(its second action) played as the search's own ranking would, the decisions inside it
settled again; each outcome is read as the decider's win probability
(``winprob.state_probabilities``). The *loss* is the choice's mean minus the played
action's (never below 0), and the outcomes' differences say why (``reasons``).

Comparing with the one action a search prefers, rather than with the best of several
actions measured by the same noisy outcomes, is what keeps good play nearly unmarked: the
best of six noisy means beats the action played by chance alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .. import State, apply_unchecked, legal_actions, parse_action, player_view, to_act
from ..ai import Budget, SearchBot, level_config
from ..ai.determinize import Determinizer
from ..ai.evaluate import FULL, settle
from ..ai.levels import SearchLevel
from ..ai.rank import rank_actions
from .reasons import Reason, reason_for
from .winprob import state_probabilities

#: The search level whose configuration judges: ``hard`` as shipped, without its clock.
JUDGE_LEVEL = "hard"


@dataclass(frozen=True)
class Judgement:
    """A decision judged: its decider and legal actions, the decider's mean win probability
    after the action played and after the search's choice, the choice (the action played
    when they agree) and, when the choice did better, why."""

    seat: int
    choices: int
    played: float
    best: float
    choice: str
    reason: Reason | None


class _ViewSearch(SearchBot):
    """The ``hard`` search of one decision, dealing hidden tiles from the view and the
    score rows the decider heard (every point scored is taken in public)."""

    def __init__(self, seed: int, rows: list[list[int]]) -> None:
        level = level_config(JUDGE_LEVEL)
        assert isinstance(level, SearchLevel)
        super().__init__(seed, level, name="analysis")
        self._rows = rows

    def determinizer(self, view: dict[str, Any]) -> Determinizer:
        return Determinizer(view, self._rows)


def heard_rows(state: State) -> list[list[int]]:
    """Each seat's points by colour and treasures, as a player at the table heard them."""
    return [list(state.score(p)) for p in range(state.options.players)]


def judge_decision(
    before: State, text: str, ply: int, iterations: int, worlds: int, seed: int
) -> Judgement | None:
    """The decision that played ``text`` at ``before`` judged (None: it had no choice)."""
    legal = legal_actions(before)
    if len(legal) < 2:
        return None
    seat = to_act(before)
    assert seat is not None
    played = parse_action(text)
    text = str(played)
    rows = heard_rows(before)
    view = player_view(before, seat)
    search = _ViewSearch(seed * 1_000_003 + ply, rows)
    choice = search.choose(view, Budget(iterations=iterations))
    det = Determinizer(view, rows)
    rng = random.Random(seed * 1_000_033 + ply)
    deals = [det.sample(rng) for _ in range(worlds)]
    mine = [play_out(w, played, seat) for w in deals]
    p_mine = sum(state_probabilities(s)[seat] for s in mine) / worlds
    if choice == text:
        return Judgement(seat, len(legal), p_mine, p_mine, text, None)
    theirs = [play_out(w, parse_action(choice), seat) for w in deals]
    p_theirs = sum(state_probabilities(s)[seat] for s in theirs) / worlds
    reason = reason_for(before, seat, mine, theirs) if p_theirs > p_mine else None
    return Judgement(seat, len(legal), p_mine, p_theirs, choice, reason)


def play_out(world: State, action: Any, seat: int) -> State:
    """``action`` played in ``world``, the decisions inside it settled, and the rest of the
    decider's turn played by the one-step ranking (the decisions inside it settled too)."""
    s = settle(apply_unchecked(world, action))
    if not s.over and to_act(s) == seat and not s.pending:
        follow = rank_actions(s, seat, legal_actions(s), None, FULL)
        if follow:
            s = settle(apply_unchecked(s, follow[0][1]))
    return s
