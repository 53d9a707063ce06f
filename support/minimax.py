"""A minimax that sees everything: the yardstick our search, which sees only its view, is
measured against (``bench/minimax.py`` plays it; tests/support/ checks it).

The open-source engine the project measures itself against, 0b01/tigris-and-euphrates,
plays an alpha-beta minimax on the full game state: it knows the other player's hand and the
bag. ``Cheater`` is such a player written for this engine. It gets the referee's ``State``
(never a view), so:

* support commitments are chosen knowing the other side's hand, and a conflict at a leaf is
  settled with the hands as they really are;
* swaps and refills draw the real tiles, so it knows what it and its opponent will hold, and
  when the bag runs out;

and it searches ``depth`` decisions ahead (a turn is two decisions; support, war order,
monuments and treasures are decisions too) with alpha-beta pruning. Python cannot search all
~300 actions at every level the way a compiled engine does, so each level above the last
keeps its best ``widths`` actions by a one-step look-ahead from the point of view of the
player who moves there; the last level is searched in full, with cut-offs. With the
``reference`` evaluation positions are scored with the open-source engine's own evaluation,
re-created in ``support/reference.py`` (that player still knows more than the original: the
bag's order, not only its contents, and it may play every action of this engine). With
``ours`` (the default) they are scored with our search's evaluation (``evaluate.value_for``,
``FULL`` weights): a stronger player, and the harder yardstick.
"""

from __future__ import annotations

import math
from typing import Any

from support import reference
from tigris_euphrates import Action, State, apply_unchecked, legal_actions, to_act
from tigris_euphrates.ai import Bot, make_bot
from tigris_euphrates.ai.evaluate import FULL, Weights, settle, value_for
from tigris_euphrates.tournament import Omniscient, play_game

#: The cheater's static evaluations (``bench/minimax.py --eval``): ours (``evaluate.value_for``
#: with ``FULL`` weights), or the open-source engine 0b01/tigris-and-euphrates's
#: (``support/reference.py``).
EVALUATIONS = {
    "ours": "our FULL evaluation",
    "reference": "the open-source engine's evaluation (support/reference.py)",
}


class Cheater:
    """Full-information alpha-beta minimax (two players: the other seat minimises)."""

    name = "minimax"

    def __init__(
        self,
        depth: int = 4,
        widths: tuple[int, ...] = (10, 6, 4),
        weights: Weights = FULL,
        evaluation: str = "ours",
    ) -> None:
        if depth < 1:
            raise ValueError("depth must be at least 1")
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}")
        self.depth = depth
        self.widths = widths
        self.weights = weights
        self.evaluation = evaluation
        self.nodes = 0  # positions scored for the last decision

    def choose_from_state(self, s: State) -> str:
        """The action the search picks for the seat to act in ``s`` (the true state)."""
        me = to_act(s)
        assert me is not None
        self.nodes = 0
        acts = legal_actions(s)
        if len(acts) == 1:
            return str(acts[0])
        best_v, best = -math.inf, acts[0]
        alpha, beta = -math.inf, math.inf
        for a in self._ordered(s, acts, me, 0):
            v = self._value(apply_unchecked(s, a), self.depth - 1, alpha, beta, me)
            if v > best_v:
                best_v, best = v, a
            alpha = max(alpha, v)
        return str(best)

    def _leaf(self, s: State, me: int) -> float:
        self.nodes += 1
        if not s.over and s.pending:
            s = settle(s)  # the decisions inside this action, with the real hands
        if self.evaluation == "reference":
            return reference.value(s, me)
        return value_for(s, me, self.weights)

    def _ordered(self, s: State, acts: list[Action], actor: int, level: int) -> list[Action]:
        """``acts`` best first for ``actor`` by a one-step look-ahead, cut to this level's
        width (the last level is not cut: ``_value`` searches it in full)."""
        if level >= len(self.widths) or len(acts) <= 1:
            return acts
        scored = []
        for i, a in enumerate(acts):
            scored.append((-self._leaf(apply_unchecked(s, a), actor), i, a))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in scored[: self.widths[level]]]

    def _value(self, s: State, depth: int, alpha: float, beta: float, me: int) -> float:
        if s.over or depth == 0:
            return self._leaf(s, me)
        actor = to_act(s)
        assert actor is not None
        acts = legal_actions(s)
        level = self.depth - depth
        maximise = actor == me
        if depth == 1:  # the last level in full: each action scored from our side
            best = -math.inf if maximise else math.inf
            for a in acts:
                v = self._leaf(apply_unchecked(s, a), me)
                if maximise:
                    best = max(best, v)
                    if best >= beta:
                        break
                else:
                    best = min(best, v)
                    if best <= alpha:
                        break
            return best
        best = -math.inf if maximise else math.inf
        for a in self._ordered(s, acts, actor, level):
            v = self._value(apply_unchecked(s, a), depth - 1, alpha, beta, me)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One game through the referee: our bot (views and redacted events only) against the
    minimax, which the referee hands the true state (hands, bag order)."""
    seat_ours = task["index"] % 2  # seats alternate
    ours = make_bot(task["bot"], task["seed"] * 2 + seat_ours)
    cheater = Cheater(task["depth"], tuple(task["widths"]), evaluation=task["evaluation"])
    seats: list[Bot | Omniscient] = [cheater, cheater]
    seats[seat_ours] = ours
    game = play_game(seats, {"players": 2}, task["seed"])
    keys = game.result["scores"]
    mine, theirs = keys[seat_ours], keys[1 - seat_ours]
    return {
        "index": task["index"],
        "seed": task["seed"],
        "seat": seat_ours,
        "scores": [mine[0], theirs[0]],
        "win": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "plies": game.plies,
        "end": game.result["end"],
        "times": [game.times[seat_ours], game.times[1 - seat_ours]],
    }
