"""Pairing an arena: whoever is free (not in a game, not paused) is grouped into new games.

:func:`pair_free` is pure and deterministic. The free entrants are placed by (points, larger
first; rating, larger first; lot, smaller first) and grouped with their neighbours in that
order, into tables of exactly ``size``: as many tables as the free entrants fill. The
leftovers (fewer than ``size``, the lowest placed unless moving them avoids a clash) stay
free for the next call.

Nobody is seated with someone from their previous game (``last_opponents``, read both
ways: a clash when either lists the other) where another grouping into as many tables
exists: the tables come first, so when every such grouping has a clash, the one with
fewest clashes is taken rather than fewer tables. The search takes
the highest free entrant and its nearest neighbours first (the group whose farthest member
is nearest, then the nearer ones), backtracking; when no grouping without a clash exists
it allows one clash, then two, and so on, so two entrants alone who just played each other
are paired again rather than left waiting. All passes together try at most
:data:`NODE_BUDGET` groups; past that the grouping is greedy (top down, each table the
highest left and its nearest neighbours that clash with nobody in it, filled up with the
nearest others if too few do); so too when the field is too large for the search's
recursion (some two thousand entrants at two players a table).

Seats: ``first_counts`` maps an entrant to how many games of the event it has moved first
in; a table is seated by that count, fewest first (so the first move rotates), then by
placing. An entrant missing from it counts 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from tigris_euphrates.pairings.results import EntrantId, Lot

#: The groups the search may try, over all its passes, before it settles for the greedy
#: grouping.
NODE_BUDGET = 10_000

#: A new game's entrants in seat order.
Table = tuple[EntrantId, ...]


@dataclass(frozen=True)
class FreeEntrant:
    """An entrant waiting for a game: its arena points, rating and lot, and whom it met in
    its last game."""

    id: EntrantId
    points: int
    rating: float
    lot: Lot
    last_opponents: frozenset[EntrantId] = frozenset()


class _OutOfBudget(Exception):
    """The search tried :data:`NODE_BUDGET` groups."""


@dataclass
class _Search:
    """The search: who clashes with whom (both ways round), the table size, the tries
    left."""

    clashes: frozenset[tuple[EntrantId, EntrantId]]
    size: int
    tries: int

    def clash_count(self, group: Sequence[EntrantId]) -> int:
        return sum((a, b) in self.clashes for i, a in enumerate(group) for b in group[i + 1 :])

    def groups(
        self, order: tuple[EntrantId, ...], skips: int, allowance: int
    ) -> list[Table] | None:
        """Tables for everyone in ``order`` but ``skips`` of them, with at most
        ``allowance`` clashes, or ``None``."""
        if len(order) == skips:
            return []
        top, rest = order[0], order[1:]
        for picked in nearest_first(len(rest), self.size - 1):
            self.tries -= 1
            if self.tries < 0:
                raise _OutOfBudget
            group = (top, *(rest[i] for i in picked))
            cost = self.clash_count(group)
            if cost > allowance:
                continue
            remaining = tuple(e for i, e in enumerate(rest) if i not in picked)
            found = self.groups(remaining, skips, allowance - cost)
            if found is not None:
                return [group, *found]
        if skips:
            return self.groups(rest, skips - 1, allowance)
        return None

    def greedy(self, order: tuple[EntrantId, ...], skips: int) -> list[Table]:
        """Tables top down, each the highest left and its nearest neighbours that clash
        with nobody picked so far, filled up with the nearest others if too few do."""
        left, tables = list(order), []
        while len(left) - skips >= self.size:
            group = [left[0]]
            for e in left[1:]:
                if len(group) < self.size and not self.clash_count([*group, e]):
                    group.append(e)
            group += [e for e in left[1:] if e not in group][: self.size - len(group)]
            tables.append(tuple(group))
            left = [e for e in left if e not in group]
        return tables


def nearest_first(count: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every choice of ``k`` of ``range(count)``, the farthest member nearest first, then
    in lexicographic order: (0, 1), (0, 2), (1, 2), (0, 3), ..."""
    for last in range(k - 1, count):
        for head in combinations(range(last), k - 1):
            yield (*head, last)


def pair_free(
    free: Sequence[FreeEntrant], size: int, first_counts: Mapping[EntrantId, int] | None = None
) -> list[Table]:
    """New tables of ``size`` among the ``free`` entrants, highest placed first, each in
    seat order; the leftovers are not in any."""
    if size < 2:
        raise ValueError(f"a game has two or more players, not {size}")
    ranked = sorted(free, key=lambda f: (-f.points, -f.rating, f.lot))
    order = tuple(f.id for f in ranked)
    clashes = frozenset(
        pair
        for f in ranked
        for o in f.last_opponents
        if o in order
        for pair in ((f.id, o), (o, f.id))
    )
    skips = len(order) % size
    search = _Search(clashes, size, NODE_BUDGET)
    tables = None
    try:
        for allowance in range(len(clashes) // 2 + 1):
            tables = search.groups(order, skips, allowance)
            if tables is not None:
                break
    except (_OutOfBudget, RecursionError):
        tables = None
    if tables is None:
        tables = search.greedy(order, skips)
    counts = first_counts or {}
    where = {e: i for i, e in enumerate(order)}
    return [tuple(sorted(t, key=lambda e: (counts.get(e, 0), where[e]))) for t in tables]
