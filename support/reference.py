"""The evaluation of the open-source engine the strength table measures against, re-created
on this engine's ``State`` (a helper of the benchmarks and the tests, not part of the package).

That engine (github.com/0b01/tigris-and-euphrates, Rust, two players) searches with
alpha-beta negamax four or five actions deep on its full game state: it reads both hands,
and it knows the bag's contents by colour (its draws inside the search are random, so it does
not know their order). Its evaluation of a seat, read from its source and written here
afresh, adds up:

* 100 per point of the final score (the lowest colour, treasures filling the lowest first),
  and 20 more per point once fewer than 20 tiles are left in the bag;
* minus 8 per point between the seat's highest and lowest colour;
* 25 per treasure, 5 per catastrophe tile left, 2 per point in all colours together;
* 12 per leader on the board, 15 more for each one whose colour is (one of) the lowest;
* 8 per red tile in hand (at most 4), and 4 per tile in hand of a standing leader's colour
  (at most 3 of each);
* per leader: 6 per red tile beside it; for the first leader met in each kingdom, 3 per
  tile of its colour in that kingdom, and for a green leader 15 per treasure there;
* per tile in hand of a colour that has fewer than 10 left in the bag, 10 minus that count;
  and, for each lowest colour with fewer than 5 left in the bag, minus 3 per tile short of 5.

A position is worth the seat's total minus the other seat's (``value``); a finished game is
worth plus or minus a large constant, so that a won ending is preferred to any position.
``bench/minimax.py --eval reference`` plays the cheating minimax (``support/minimax.py``) with
this evaluation.
"""

from __future__ import annotations

from tigris_euphrates import (
    GREEN,
    NEIGHBOURS,
    NO_CELLS,
    RED,
    State,
    bit,
    count,
    final_totals,
    has,
    inter,
    region,
    union,
)

#: What a finished game is worth beyond any position (the other engine scores a win as a win).
WON = 1_000_000.0


def bag_counts(s: State) -> list[int]:
    """Tiles left in the bag by colour (red, blue, green, black)."""
    rest = s.bag[s.bag_pos :]
    return [rest.count(colour) for colour in range(4)]


def seat_eval(s: State, seat: int, bag: list[int] | None = None) -> int:
    """The other engine's evaluation of ``seat`` in ``s`` (see the module's docstring)."""
    if bag is None:
        bag = bag_counts(s)
    *row, treasures = s.score(seat)
    hand = s.hand(seat)
    leaders = s.leaders_of(seat)
    final = final_totals(row, treasures)[0]
    low, high = min(row), max(row)
    v = 100 * final - 8 * (high - low) + 25 * treasures
    v += 8 * min(hand[RED], 4)
    for colour, cell in enumerate(leaders):
        if cell >= 0:  # on the board; more if of a lowest colour; its colour in hand
            v += 12 + (15 if row[colour] == low else 0) + 4 * min(hand[colour], 3)
    occupied = s.occupied()
    red = s.tiles[RED]
    seen = NO_CELLS
    for colour, cell in enumerate(leaders):
        if cell < 0:
            continue
        v += 6 * count(inter(NEIGHBOURS[cell], red))
        if has(seen, cell):
            continue  # as there: only the first leader met in a kingdom counts its tiles
        kingdom = region(occupied, bit(cell))
        seen = union(seen, kingdom)
        v += 3 * count(inter(kingdom, s.tiles[colour]))
        if colour == GREEN:
            v += 15 * count(inter(kingdom, s.treasures))
    v += 5 * s.cats[seat] + 2 * sum(row)
    if sum(bag) > 0:
        for colour in range(4):
            if bag[colour] < 10:
                v += hand[colour] * (10 - bag[colour])
            if row[colour] == low and bag[colour] < 5:
                v -= 3 * (5 - bag[colour])
    if sum(bag) < 20:
        v += 20 * final
    return v


def value(s: State, seat: int) -> float:
    """``seat``'s evaluation minus the other seat's, as the other engine's negamax scores a
    position (two players)."""
    other = 1 - seat
    if s.over:
        *row, treasures = s.score(seat)
        mine = final_totals(row, treasures)
        *row, treasures = s.score(other)
        theirs = final_totals(row, treasures)
        if mine != theirs:
            return WON if mine > theirs else -WON
        return 0.0
    bag = bag_counts(s)
    return float(seat_eval(s, seat, bag) - seat_eval(s, other, bag))
