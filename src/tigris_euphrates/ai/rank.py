"""The one-step look-ahead: actions ranked by the static evaluation of where they lead.

Each action is played on a world, the decisions inside it (support, war order, monument,
treasure) are settled with the fixed policies (``evaluate.settle``) and the result is scored
for the seat (``evaluate.value_for``). The greedy player chooses by it; the search ranks a
node's candidates with it. Compiled with the engine when the build can (``setup.py``).
"""

from __future__ import annotations

from .. import Action, State, apply_unchecked
from .evaluate import BASIC, Weights, settle, value_for


def rank_actions(
    state: State,
    seat: int,
    actions: list[Action],
    worlds: list[State] | None = None,
    wt: Weights = BASIC,
) -> list[tuple[float, Action]]:
    """(value for ``seat``, action) for each action, best first (stable for equal values).

    ``state`` is one world; ``worlds`` (optional, each of which must allow the actions) are
    used to average the actions whose outcome depends on hidden tiles.
    """
    scored: list[tuple[float, int, Action]] = []
    for i, a in enumerate(actions):
        s2 = apply_unchecked(state, a)
        # Only decisions inside the action (support!) depend much on hidden tiles; a swap's
        # draw changes nothing the evaluation looks at but the hand size, so one world will do.
        if worlds and s2.pending:
            total = 0.0
            for w in worlds:
                total += value_for(settle(apply_unchecked(w, a)), seat, wt)
            v = total / len(worlds)
        else:
            v = value_for(settle(s2), seat, wt)
        scored.append((v, i, a))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(v, a) for v, _, a in scored]
