"""The reward rule of the research adapters: rewards come at the end of a game only."""

from __future__ import annotations

from .. import State, ranks, seat_totals


def final_rewards(state: State) -> list[float]:
    """Each seat's reward once ``state`` is over: +1 for the best place, −1 for the last,
    linearly between (shared places share the reward)."""
    n = state.options.players
    place = ranks(seat_totals(state))
    return [1.0 - 2.0 * (place[i] - 1) / (n - 1) for i in range(n)]
