"""A static evaluation of a state, and the small fixed policies the bots share.

The evaluation values each seat's position in victory points:

* **scores, lowest colour first**: a seat's final score is its lowest colour (treasures fill
  the lowest colours), so the colour totals, sorted ascending after treasures, are weighted
  1, 0.3, 0.1, 0.03 — a point in the weakest colour is worth most, which keeps colours
  balanced;
* **leaders well placed**: each leader on the board is worth future points of its colour,
  weighted by how much that colour is needed, more when it stands in a big kingdom, is guarded
  by temples (revolt strength) and backed by tiles of its colour (war strength);
* a little for tiles in hand (support) and for catastrophes left.

``utilities`` turns the values into one number per seat: how far the seat is ahead of its
best opponent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Final

from .. import (
    BLACK,
    BLOCKS,
    GREEN,
    MONUMENTS,
    NEIGHBOURS,
    RED,
    Action,
    BuildMonument,
    BuildWonder,
    Commit,
    Decline,
    MonumentOffer,
    State,
    Support,
    TakePoint,
    WonderPoint,
    apply_unchecked,
    commit_range,
    conflict,
    count,
    final_totals,
    has,
    inter,
    legal_actions,
    meets,
    minus,
    state_kingdoms,
)

RANK_WEIGHTS: Final = (1.0, 0.3, 0.1, 0.03)


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights. ``BASIC`` is greedy's; ``FULL`` adds what a one-step player
    cannot use but a search can: monument income, and leaders worth less as the game ends."""

    leader: float = 1.2
    temple_guard: float = 0.25
    war_guard: float = 0.08
    kingdom_size: float = 0.04
    hand_tile: float = 0.04
    catastrophe: float = 0.25
    #: Points per future own turn for each monument colour a leader collects (0: ignored).
    monument_income: float = 0.0
    #: Own turns left at which leaders keep their full value (0: always full value).
    horizon: float = 0.0
    #: Own turns of monument income counted at most.
    income_turns: float = 6.0
    #: Buildings variant: worth added to a leader whose kingdom holds the building of its
    #: colour (each tile of that colour placed there scores one point more).
    building: float = 0.3
    #: Galaxy: how much more a leader's backing (tiles of its colour) weighs, a lost war
    #: vacating every one of them; and the worth of a merchant leader standing by two or
    #: more artifacts (one is harvested at the end of its owner's turn).
    galaxy_war: float = 2.0
    harvest: float = 0.8

    def __reduce__(self) -> tuple[type[Weights], tuple[float, ...]]:
        """Pickled and copied as the call that makes it: compiled (mypyc), a frozen
        dataclass cannot be filled in field by field, the way pickle rebuilds an object."""
        return (Weights, tuple(getattr(self, f.name) for f in fields(self)))


BASIC: Final = Weights()
FULL: Final = Weights(monument_income=0.5, horizon=4.0)


def own_turns_left(s: State) -> float:
    """About how many more turns each seat gets: a turn draws about two tiles."""
    left = len(s.bag) - s.bag_pos
    return left / (2.2 * s.options.players)


def colour_ranks(row: list[int]) -> list[int]:
    """Each colour's rank among a seat's four colour scores, lowest first (ties: lower
    colour index first): ``RANK_WEIGHTS[rank]`` is the marginal worth of a point of it."""
    ranks = [0, 0, 0, 0]
    for c in range(4):
        v = row[c]
        rank = 0
        for d in range(4):  # the colours a stable sort puts first: lower, or equal and before
            w = row[d]
            if w < v or (w == v and d < c):
                rank += 1
        ranks[c] = rank
    return ranks


def seat_values(s: State, wt: Weights = BASIC) -> list[float]:
    """Each seat's value in (weighted) victory points (a new list)."""
    return _seat_values(s, wt)


def _seat_values(s: State, wt: Weights) -> list[float]:
    n = s.options.players
    fd = s.facedown
    red_up = minus(s.tiles_of(RED), fd)
    cats = s.cats
    w0, w1, w2, w3 = RANK_WEIGHTS
    kingdoms = state_kingdoms(s)
    leader_w, temple_w, war_w, size_w = wt.leader, wt.temple_guard, wt.war_guard, wt.kingdom_size
    income = wt.monument_income
    scale = 1.0
    turns = 0.0
    if wt.horizon > 0 or income > 0:
        turns = own_turns_left(s)
        if wt.horizon > 0 and turns < wt.horizon:
            scale = turns / wt.horizon
        turns = min(turns, wt.income_turns)
    monument_cells: list[tuple[int, int]] = []  # (2x2 block's top left, monument) of built ones
    if income > 0:
        for m, top_left in enumerate(s.monuments):
            if top_left >= 0:
                monument_cells.append((top_left, m))
    # The variants' own terms (none of them applies to the classic game).
    opts = s.options
    wonder = s.wonder if income > 0 else -1
    buildings = s.buildings if opts.buildings else None
    harvests = opts.rules.harvest_treasures
    if opts.rules.total_war:
        war_w *= wt.galaxy_war
    out = []
    for p in range(n):
        *row, t = s.score(p)
        totals = sorted(row)
        while t:  # treasures fill the lowest colour first
            totals[0] += 1
            t -= 1
            if totals[0] > totals[1]:
                totals.sort()
        v = w0 * totals[0] + w1 * totals[1] + w2 * totals[2] + w3 * totals[3]
        ranks: list[int] | None = None
        for c, cell in enumerate(s.leaders_of(p)):
            if cell < 0:
                continue
            if ranks is None:
                ranks = colour_ranks(row)
            for k in kingdoms:
                if has(k, cell):
                    break
            temples = count(inter(NEIGHBOURS[cell], red_up))
            backing = count(inter(minus(s.tiles_of(c), fd), k))
            size = count(k)
            w = scale * (
                leader_w
                + temple_w * (temples if temples < 3 else 3)
                + war_w * (backing if backing < 6 else 6)
                + size_w * (size if size < 15 else 15)
            )
            for top_left, m in monument_cells:
                if meets(BLOCKS[top_left], k) and c in MONUMENTS[m]:
                    w += income * turns
            if wonder >= 0 and c == BLACK and has(k, wonder):
                w += income * turns  # a point of any colour at the end of each own turn
            if buildings is not None and buildings[c] >= 0 and has(k, buildings[c]):
                w += wt.building
            if harvests and c == GREEN and count(inter(k, s.treasures)) >= 2:
                v += wt.harvest
            v += (0.35 + RANK_WEIGHTS[ranks[c]]) * w
        v += wt.hand_tile * sum(s.hand(p))
        v += wt.catastrophe * cats[p]
        out.append(v)
    return out


def final_key(s: State, seat: int) -> list[int]:
    *row, treasures = s.score(seat)
    return final_totals(row, treasures)


def utilities(s: State, wt: Weights = BASIC) -> list[float]:
    """Per seat, its lead over the best opponent in (weighted) points; a finished game is
    worth +/- 30 plus the margin of the lowest colours."""
    n = s.options.players
    if s.over:
        keys = [final_key(s, p) for p in range(n)]
        out = []
        for p in range(n):
            best_other = max(keys[q] for q in range(n) if q != p)
            margin = keys[p][0] - best_other[0]
            if keys[p] > best_other:
                out.append(30.0 + margin)
            elif keys[p] == best_other:
                out.append(0.0)
            else:
                out.append(-30.0 + margin)
        return out
    v = seat_values(s, wt)
    out = []
    for p in range(n):
        top = max(v[q] for q in range(n) if q != p)
        out.append(v[p] - top)
    return out


def value_for(s: State, seat: int, wt: Weights = BASIC) -> float:
    """One seat's evaluation (final position: +/- 100 for a win/loss)."""
    n = s.options.players
    if s.over:
        keys = [final_key(s, p) for p in range(n)]
        best_other = max(keys[q] for q in range(n) if q != seat)
        if keys[seat] > best_other:
            return 100.0 + keys[seat][0]
        if keys[seat] == best_other:
            return 0.0
        return -100.0 + keys[seat][0]
    v = seat_values(s, wt)
    top = max(v[q] for q in range(n) if q != seat)
    return v[seat] - top


# --- fixed policies for the decisions inside an action ---------------------------------------


def commit_choice(s: State) -> Action:
    """A sensible support commitment with what the actor's hand holds (no look-ahead).

    Attacker: commit everything if that can beat the defender's base, else nothing.
    Defender: commit the least that wins (ties go to the defender), else nothing.
    The English variant's limits are respected (``commit_range``).
    """
    c = conflict(s)
    abase, dbase, acommit = c.attacker_base, c.defender_base, c.attacker_commit
    options = commit_range(s)
    if acommit < 0:
        best = max(options)
        return Commit(best) if abase + best > dbase else Commit(0)
    need = abase + acommit - dbase
    if need <= 0:
        return Commit(0)
    for n in options:
        if n >= need:
            return Commit(n)
    return Commit(0)


def useful_commits(s: State) -> list[int]:
    """The support commitments open to the player to act that no other one beats in every
    case (the rest are *dominated*: the same outcome for more tiles thrown away).

    Committed tiles are discarded whatever happens. The defender commits last, knowing the
    attacker's total: nothing, or exactly the least that wins (ties go to the defender; no
    commitment at all when it already wins). The attacker cannot know the defender's answer,
    so any count that beats the defender's base may be worth it; one that does not loses
    for certain, as nothing would. (The English variant's limits are this very rule.)"""
    c = conflict(s)
    abase, dbase, acommit = c.attacker_base, c.defender_base, c.attacker_commit
    options = commit_range(s)
    if acommit < 0:
        return [n for n in options if n == 0 or abase + n > dbase]
    need = abase + acommit - dbase
    return [n for n in options if n == 0 or (need > 0 and n == need)]


def monument_choice(s: State) -> Action:
    """Build the monument whose colours the placer's leaders can collect (the first if
    none), or the wonder when it is offered and no monument would bring two colours."""
    acts = legal_actions(s)
    seat = s.turn
    best: Action = Decline()
    best_v = -1.0
    for a in acts:
        if isinstance(a, BuildMonument):
            v = sum(1.0 for col in MONUMENTS[a.monument] if s.leader(seat, col) >= 0)
        elif isinstance(a, BuildWonder):
            v = 1.5
        else:
            continue
        if v > best_v:
            best, best_v = a, v
    return best


def point_choice(s: State) -> Action:
    """The wonder point in the turn player's lowest colour."""
    row = s.score(s.turn)[:4]
    return TakePoint(min(range(4), key=row.__getitem__))


def settle(s: State, rng: random.Random | None = None, limit: int = 40) -> State:
    """Play the decisions inside the current action with the fixed policies, until a turn
    action (or the end) is due. Returns a new state (``s`` untouched)."""
    steps = 0
    while not s.over and s.pending and steps < limit:
        steps += 1
        d = s.pending[-1]
        if isinstance(d, Support):
            a = commit_choice(s)
        elif isinstance(d, MonumentOffer):
            a = monument_choice(s)
        elif isinstance(d, WonderPoint):
            a = point_choice(s)
        else:
            acts = legal_actions(s)
            a = acts[0] if rng is None else rng.choice(acts)
        s = apply_unchecked(s, a)
    return s
