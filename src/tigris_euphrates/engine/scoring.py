"""Final scoring (RULES.md §9): treasures fill the lowest colours, the lowest colour decides,
ties are broken by the next colours up, equal players share the place."""

from __future__ import annotations

from typing import Any

from .state import State


def final_totals(colours: list[int], treasures: int) -> list[int]:
    """The four colour totals after placing ``treasures`` where they help most, ascending.

    Adding each treasure to the currently lowest colour maximises the sorted totals
    lexicographically (lowest first), which is exactly the ranking key.
    """
    totals = sorted(colours)
    for _ in range(treasures):
        totals[0] += 1
        totals.sort()
    return totals


def seat_totals(state: State) -> list[list[int]]:
    """Each seat's final totals (ascending) as the game stands."""
    out = []
    for seat in range(state.options.players):
        row = state.scores[seat * 5 : seat * 5 + 5]
        out.append(final_totals(row[:4], row[4]))
    return out


def ranking(totals: list[list[int]]) -> list[int | list[int]]:
    """Seats best first by competition rank; seats sharing a place form a nested list."""
    order = sorted(range(len(totals)), key=lambda s: totals[s], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and totals[groups[-1][0]] == totals[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return [g[0] if len(g) == 1 else sorted(g) for g in groups]


def ranks(totals: list[list[int]]) -> list[int]:
    """Competition rank of each seat: 1 + the number of seats with a strictly better key."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


def result(state: State) -> dict[str, Any] | None:
    """The record's ``result`` object once the game is over, else ``None``."""
    if not state.over:
        return None
    totals = seat_totals(state)
    return {"scores": totals, "ranking": ranking(totals), "end": state.end}
