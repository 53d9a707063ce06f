"""Pairing the next round of a Swiss tournament, for games of 2, 3 or 4 players.

:func:`pair_round` is pure and deterministic: the same entrants and history always give
the same round. Everyone is placed by (points, larger first; rating, larger first; lot,
smaller first), points counting finished games and byes (a late joiner has 0 and so starts
at the bottom).

Two players (Dutch-style):

* An odd count gives a pairing bye to the lowest-placed entrant who has had no bye (if all
  have, the lowest-placed). The bye is chosen before the pairing and not revisited.
* The others are paired top down: the highest unpaired entrant takes, from its score group
  (the unpaired on its points), the one half-way down; so a group splits into a top half
  S1 and a bottom half S2 paired S1[i] v S2[i], and the lowest of an odd group, left
  alone, floats down to meet the highest of those below. When that would be a rematch the
  alternatives come in Dutch order: the rest of S2 downwards, then S1 upwards, then the
  groups below, top first.
* That search backtracks: the first pairing in this order without any rematch wins. When
  none exists the search runs again allowing one rematch, then two, and so on, so a
  rematch happens only when it must, and as few as can be. All passes together visit at
  most :data:`NODE_BUDGET` nodes; past that the pairing is greedy (top down, each the first
  candidate it has not met, else the first candidate), which can leave a rematch a longer
  search would have avoided; so too when the field is too large for the search's
  recursion (some two thousand entrants).
* Seat 0 (the first move) goes to whoever has had it less often so far; on a tie, the
  higher placed.

Three or four players:

* The entrants fill tables of ``size`` in placing order, with tables one smaller where the
  count does not divide (at the bottom; as many full tables as possible). No table is
  smaller than ``size − 1`` nor than 2: whoever cannot be seated gets a pairing bye, the
  lowest-placed without a bye first.
* Repeated meetings (every earlier meeting of two entrants at one table counts) are kept
  few in two steps between neighbouring tables. The tables are filled top down: the
  highest unseated entrant heads the next table, and each further seat takes, among the
  entrants who would fill this table and the next in placing order, the one who has met
  fewest of those already seated, then the highest placed. Then two entrants of
  neighbouring tables are swapped, one swap at a time, while a swap removes meetings: the
  swap that removes most, then the one that moves entrants least far in the placing, then
  the highest tables.
* Seats: whoever has sat later on average so far (seat i of an n-seat game counts
  i / (n − 1); no game yet counts ½) sits earlier; on a tie, the higher placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tigris_euphrates.pairings.results import Bye, Entrant, EntrantId, Game, Round
from tigris_euphrates.pairings.scoring import PAIRING_BYE_POINTS, swiss_totals

#: The nodes the two-player search may visit, over all its passes, before it settles for
#: the greedy pairing.
NODE_BUDGET = 10_000

#: Two entrants, smaller id first: the key of their meetings.
Meeting = tuple[EntrantId, EntrantId]


def meeting(a: EntrantId, b: EntrantId) -> Meeting:
    """The key of the meetings of ``a`` and ``b``."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Past:
    """What the pairing reads of the history: points, meetings, byes and seats."""

    points: dict[EntrantId, Fraction]
    met: dict[Meeting, int]
    byes: frozenset[EntrantId]
    firsts: dict[EntrantId, int]
    lateness: dict[EntrantId, Fraction]
    met_by: dict[EntrantId, frozenset[EntrantId]]

    @classmethod
    def of(cls, history: Sequence[Round]) -> Past:
        """The past read from ``history`` (unfinished games count as meetings and seats,
        not as points)."""
        met: dict[Meeting, int] = {}
        met_by: dict[EntrantId, set[EntrantId]] = {}
        firsts: dict[EntrantId, int] = {}
        seats: dict[EntrantId, list[Fraction]] = {}
        for game in (g for rnd in history for g in rnd.games):
            last = len(game.seats) - 1
            for i, e in enumerate(game.seats):
                seats.setdefault(e, []).append(Fraction(i, last))
                met_by.setdefault(e, set()).update(game.opponents(e))
                for o in game.seats[i + 1 :]:
                    met[meeting(e, o)] = met.get(meeting(e, o), 0) + 1
            firsts[game.seats[0]] = firsts.get(game.seats[0], 0) + 1
        return cls(
            points=swiss_totals(history),
            met=met,
            byes=frozenset(b.entrant for rnd in history for b in rnd.byes),
            firsts=firsts,
            lateness={e: sum(s, Fraction(0)) / len(s) for e, s in seats.items()},
            met_by={e: frozenset(o) for e, o in met_by.items()},
        )

    def opponents(self, entrant: EntrantId) -> frozenset[EntrantId]:
        """Everyone ``entrant`` has met."""
        return self.met_by.get(entrant, frozenset())

    def met_count(self, a: EntrantId, b: EntrantId) -> int:
        """How often ``a`` and ``b`` have met."""
        return self.met.get(meeting(a, b), 0)


def placing(entrants: Sequence[Entrant], past: Past) -> list[EntrantId]:
    """The entrants in placing order: points, then rating (larger first), then lot."""
    ordered = sorted(
        entrants, key=lambda e: (-past.points.get(e.id, Fraction(0)), -e.rating, e.lot)
    )
    return [e.id for e in ordered]


def pick_byes(order: Sequence[EntrantId], count: int, past: Past) -> list[EntrantId]:
    """``count`` entrants for a bye: from the bottom of ``order`` up, those without a bye
    first, then those with one."""
    bottom_up = list(reversed(order))
    fresh = [e for e in bottom_up if e not in past.byes]
    again = [e for e in bottom_up if e in past.byes]
    return (fresh + again)[:count]


def pair_round(entrants: Sequence[Entrant], history: Sequence[Round], size: int) -> Round:
    """The next round for ``entrants`` (those present: the withdrawn left out, late joiners
    in) after ``history``, at tables of ``size`` players."""
    if size < 2:
        raise ValueError(f"a game has two or more players, not {size}")
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("an entrant is listed twice")
    past = Past.of(history)
    order = placing(entrants, past)
    if size == 2:
        byes = pick_byes(order, len(order) % 2, past)
        rest = [e for e in order if e not in byes]
        tables = [list(pair) for pair in pair_two(rest, past)]
        games = tuple(_seat_two(t, order, past) for t in tables)
    else:
        sizes = table_sizes(len(order), size)
        byes = pick_byes(order, len(order) - sum(sizes), past)
        rest = [e for e in order if e not in byes]
        tables = reduce_meetings(fill_tables(rest, sizes, past), order, past)
        games = tuple(_seat_many(t, order, past) for t in tables)
    return Round(games, tuple(Bye(e, PAIRING_BYE_POINTS) for e in byes))


def _seat_two(pair: list[EntrantId], order: list[EntrantId], past: Past) -> Game:
    seats = sorted(pair, key=lambda e: (past.firsts.get(e, 0), order.index(e)))
    return Game(tuple(seats))


def _seat_many(table: list[EntrantId], order: list[EntrantId], past: Past) -> Game:
    seats = sorted(table, key=lambda e: (-past.lateness.get(e, Fraction(1, 2)), order.index(e)))
    return Game(tuple(seats))


# --- two players -------------------------------------------------------------------------


class _OutOfBudget(Exception):
    """The search visited :data:`NODE_BUDGET` nodes."""


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfBudget


def candidates(order: Sequence[EntrantId], points: dict[EntrantId, Fraction]) -> list[EntrantId]:
    """The opponents of ``order[0]`` (the highest unpaired) in Dutch preference order."""
    top = points.get(order[0], Fraction(0))
    group = [e for e in order if points.get(e, Fraction(0)) == top]
    below = [e for e in order if points.get(e, Fraction(0)) != top]
    half = len(group) // 2
    return group[half:] + group[half - 1 : 0 : -1] + below if half else below


def _hopeless(order: Sequence[EntrantId], past: Past, allowance: int) -> bool:
    """Whether the entrants of ``order`` who have met all the others left need more
    rematches than ``allowance`` (two of them can share one)."""
    lonely = sum(all(o == e or o in past.opponents(e) for o in order) for e in order)
    return (lonely + 1) // 2 > allowance


def _match(
    order: tuple[EntrantId, ...], past: Past, allowance: int, budget: _Budget
) -> list[Meeting] | None:
    if not order:
        return []
    budget.spend()
    if _hopeless(order, past, allowance):
        return None
    top = order[0]
    for other in candidates(order, past.points):
        cost = 1 if past.met_count(top, other) else 0
        if cost > allowance:
            continue
        rest = tuple(e for e in order[1:] if e != other)
        found = _match(rest, past, allowance - cost, budget)
        if found is not None:
            return [(top, other), *found]
    return None


def pair_two(order: Sequence[EntrantId], past: Past) -> list[Meeting]:
    """An even number of entrants, in placing order, paired (higher placed first in each
    pair): the first pairing in Dutch order with the fewest rematches, or the greedy one
    when the search runs out of nodes."""
    if len(order) % 2:
        raise ValueError("an odd number of entrants cannot be paired")
    budget = _Budget(NODE_BUDGET)
    try:
        for allowance in range(len(order) // 2 + 1):
            found = _match(tuple(order), past, allowance, budget)
            if found is not None:
                return found
    except (_OutOfBudget, RecursionError):
        pass
    return _greedy(order, past)


def _greedy(order: Sequence[EntrantId], past: Past) -> list[Meeting]:
    """Top down, each highest unpaired with its first candidate it has not met (else its
    first candidate): no backtracking."""
    left, pairs = list(order), []
    while left:
        options = candidates(left, past.points)
        other = next((o for o in options if not past.met_count(left[0], o)), options[0])
        pairs.append((left[0], other))
        left = [e for e in left[1:] if e != other]
    return pairs


# --- three or four players ---------------------------------------------------------------


def table_sizes(count: int, size: int) -> list[int]:
    """The table sizes for ``count`` entrants at tables of ``size``: as few byes as
    possible, then as many full tables as possible, largest first. A smaller table has
    ``size − 1`` players, and never fewer than 2."""
    smaller = max(size - 1, 2)
    for byes in range(count + 1):
        seated = count - byes
        for full in range(seated // size, -1, -1):
            rest = seated - full * size
            if rest == 0 or (smaller < size and rest % smaller == 0):
                return [size] * full + [smaller] * (rest // smaller if smaller < size else 0)
    return []


def fill_tables(
    order: Sequence[EntrantId], sizes: Sequence[int], past: Past
) -> list[list[EntrantId]]:
    """Tables of ``sizes`` filled top down: the highest unseated entrant heads the next
    table, and each further seat takes, among the entrants that would fill this table and
    the next in placing order, the one who has met fewest of those already seated (then
    the highest placed)."""
    where = {e: i for i, e in enumerate(order)}
    left, tables = list(order), []
    for t, n in enumerate(sizes):
        reach = n + (sizes[t + 1] if t + 1 < len(sizes) else 0)
        table, pool = [left[0]], left[1:reach]
        while len(table) < n:
            pick = min(pool, key=lambda e: (sum(past.met_count(e, m) for m in table), where[e]))
            table.append(pick)
            pool.remove(pick)
        tables.append(table)
        left = [e for e in left if e not in table]
    return tables


def table_meetings(table: Sequence[EntrantId], past: Past) -> int:
    """The earlier meetings of the entrants of one table, every pair and every time."""
    return sum(past.met_count(a, b) for i, a in enumerate(table) for b in table[i + 1 :])


def _best_swap(
    tables: list[list[EntrantId]], where: dict[EntrantId, int], past: Past
) -> tuple[int, int, int] | None:
    """The best swap between neighbouring tables that removes meetings: (table, index in
    it, index in the next), or ``None``."""
    best: tuple[tuple[int, int, int, int], tuple[int, int, int]] | None = None
    for t in range(len(tables) - 1):
        upper, lower = tables[t], tables[t + 1]
        before = table_meetings(upper, past) + table_meetings(lower, past)
        for i, x in enumerate(upper):
            for j, y in enumerate(lower):
                up = [*upper[:i], y, *upper[i + 1 :]]
                down = [*lower[:j], x, *lower[j + 1 :]]
                gain = before - table_meetings(up, past) - table_meetings(down, past)
                if gain <= 0:
                    continue
                key = (-gain, abs(where[x] - where[y]), t, where[x])
                if best is None or key < best[0]:
                    best = (key, (t, i, j))
    return None if best is None else best[1]


def reduce_meetings(
    tables: list[list[EntrantId]], order: Sequence[EntrantId], past: Past
) -> list[list[EntrantId]]:
    """The tables after swapping entrants of neighbouring tables while a swap removes
    earlier meetings (every swap removes at least one, so this ends)."""
    where = {e: i for i, e in enumerate(order)}
    tables = [list(t) for t in tables]
    while (swap := _best_swap(tables, where, past)) is not None:
        t, i, j = swap
        tables[t][i], tables[t + 1][j] = tables[t + 1][j], tables[t][i]
    return tables
