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

import math
import random
from dataclasses import dataclass

from ..engine import State, apply_unchecked, legal_actions
from ..engine.actions import Action, BuildMonument, Commit, Decline
from ..engine.board import BLOCKS, MONUMENTS, NEIGHBOURS, RED, dilate
from ..engine.board import FULL as ALL_CELLS
from ..engine.legal import commit_range, state_kingdoms
from ..engine.scoring import final_totals
from ..engine.state import ACTION, CONFLICT, MONUMENT

RANK_WEIGHTS = (1.0, 0.3, 0.1, 0.03)


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
    #: Weight of the wars waiting to happen (0: ignored): see ``war_potential``.
    war_potential: float = 0.0
    #: Points per tile in hand that can back one of the seat's leaders in a conflict: red
    #: (revolts) while it has a leader on the board, another colour while its leader of
    #: that colour is on the board (wars); at most ``support_cap`` of a colour count.
    hand_support: float = 0.0
    support_cap: int = 4
    #: Colours with equal scores share their ranks' weights (``colour_needs``) when a
    #: leader's worth is weighted by how much its colour is needed; off, ties go by colour
    #: index, so with every colour at 0 a red leader counts 1.35 times its worth and a black
    #: one 0.38 times, and a first red point makes red the least needed colour at once.
    tied_colours: bool = False


BASIC = Weights()
FULL = Weights(monument_income=0.5, horizon=4.0)


def own_turns_left(s: State) -> float:
    """About how many more turns each seat gets: a turn draws about two tiles."""
    left = len(s.bag) - s.bag_pos
    return left / (2.2 * s.options.players)


def colour_needs(row: list[int], tied: bool = True) -> list[float]:
    """Each colour's marginal worth (``RANK_WEIGHTS`` by its rank among the seat's four
    colour scores, lowest first). With ``tied`` colours with equal scores take the mean of
    their ranks' weights (nothing tells which of two equal colours will be the lower one);
    without, ties go by colour index (``colour_ranks``)."""
    if not tied:
        return [RANK_WEIGHTS[r] for r in colour_ranks(row)]
    order = sorted(row)
    out = []
    for c in range(4):
        idx = [i for i, x in enumerate(order) if x == row[c]]
        out.append(sum(RANK_WEIGHTS[i] for i in idx) / len(idx))
    return out


def colour_ranks(row: list[int]) -> list[int]:
    """Each colour's rank among a seat's four colour scores, lowest first (ties: lower
    colour index first): ``RANK_WEIGHTS[rank]`` is the marginal worth of a point of it."""
    ranks = [0, 0, 0, 0]
    for i, e in enumerate(sorted(range(4), key=row.__getitem__)):  # stable
        ranks[e] = i
    return ranks


#: ``seat_values`` by everything it reads. The search evaluates the same public position
#: many times (in each world it deals, and when ranking as well as at a leaf); hands enter
#: the value only by their sizes, so the worlds share entries. Cleared when full.
_VALUES: dict[tuple[object, ...], list[float]] = {}


def seat_values(s: State, wt: Weights = BASIC) -> list[float]:
    """Each seat's value in (weighted) victory points (a new list)."""
    h = s.hands
    key = (
        wt,
        s.facedown,
        s.bag_pos - len(s.bag),
        *s.tiles,
        *s.leaders,
        *s.scores,
        *s.cats,
        *s.monuments,
        *[h[i] + h[i + 1] + h[i + 2] + h[i + 3] for i in range(0, len(h), 4)],
    )
    v = _VALUES.get(key)
    if v is None:
        if len(_VALUES) >= 50_000:
            _VALUES.clear()
        v = _VALUES[key] = _seat_values(s, wt)
    v = v[:]
    if wt.hand_support > 0:
        hand_support(s, wt, v)
    return v


def _seat_values(s: State, wt: Weights) -> list[float]:
    n = s.options.players
    scores = s.scores
    leaders = s.leaders
    fd = s.facedown
    red_up = s.tiles[RED] & ~fd
    tiles = s.tiles
    hands = s.hands
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
    monument_cells: list[tuple[int, int]] = []  # (2x2 block, monument index) of built ones
    if income > 0:
        for m, top_left in enumerate(s.monuments):
            if top_left >= 0:
                monument_cells.append((BLOCKS[top_left], m))
    out = []
    for p in range(n):
        b = p * 5
        row = scores[b : b + 4]
        t = scores[b + 4]
        totals = sorted(row)
        while t:  # treasures fill the lowest colour first
            totals[0] += 1
            t -= 1
            if totals[0] > totals[1]:
                totals.sort()
        v = w0 * totals[0] + w1 * totals[1] + w2 * totals[2] + w3 * totals[3]
        base = p * 4
        need: list[float] | None = None
        for c in range(4):
            cell = leaders[base + c]
            if cell < 0:
                continue
            if need is None:
                need = colour_needs(row, wt.tied_colours)
            bit = 1 << cell
            for k in kingdoms:
                if k & bit:
                    break
            temples = (NEIGHBOURS[cell] & red_up).bit_count()
            backing = (tiles[c] & ~fd & k).bit_count()
            size = k.bit_count()
            w = scale * (
                leader_w
                + temple_w * (temples if temples < 3 else 3)
                + war_w * (backing if backing < 6 else 6)
                + size_w * (size if size < 15 else 15)
            )
            for block, m in monument_cells:
                if block & k and c in MONUMENTS[m]:
                    w += income * turns
            v += (0.35 + need[c]) * w
        v += wt.hand_tile * (hands[base] + hands[base + 1] + hands[base + 2] + hands[base + 3])
        v += wt.catastrophe * cats[p]
        out.append(v)
    if wt.war_potential > 0:
        war_potential(s, kingdoms, scale * wt.leader, wt.war_potential, out)
    return out


def hand_support(s: State, wt: Weights, out: list[float]) -> None:
    """Add to ``out`` the worth of each seat's hand as support in conflicts to come.

    A conflict is decided by the tiles the two sides commit from their hands, so a hand that
    can back the seat's leaders (red tiles for revolts, a leader's colour for wars) keeps them
    on the board and wins the conflicts it starts; a search sees only a few actions ahead,
    and without this term it spends those tiles on points now. Outside the memo of
    ``seat_values``: it reads the hands' colours, which differ from world to world."""
    h = s.hands
    leaders = s.leaders
    w = wt.hand_support
    cap = wt.support_cap
    if wt.horizon > 0:
        turns = own_turns_left(s)
        if turns < wt.horizon:
            w *= turns / wt.horizon
    for p in range(len(out)):
        b = p * 4
        if max(leaders[b : b + 4]) < 0:
            continue  # no leader on the board: nothing to back
        count = 0
        for c in range(4):
            if c == RED or leaders[b + c] >= 0:
                n = h[b + c]
                count += n if n < cap else cap
        out[p] += w * count


def war_potential(
    s: State, kingdoms: list[int], leader: float, weight: float, out: list[float]
) -> None:
    """Add to ``out`` each seat's share of the wars waiting to happen.

    Two kingdoms with an empty cell between them are one tile from a war, and in four-player
    games one of six turn actions before a seat's next turn may be that tile. For each
    colour led on both sides by different seats, the side with more tiles of the colour
    (ties: even odds) is expected to win ``1 +`` the other side's tiles in points of the
    colour (weighted by how much the seat needs that colour) and the other side to lose its
    leader; ``weight`` scales the expectation (how likely the war is to come)."""
    n = s.options.players
    if len(kingdoms) < 2:
        return
    leaders = s.leaders
    fd = s.facedown
    tiles = s.tiles
    scores = s.scores
    free = ALL_CELLS & ~(s.occupied() | s.catastrophes)
    heads: list[list[tuple[int, int]]] = []  # per kingdom: (colour, seat) of its leaders
    for k in kingdoms:
        row = []
        for idx in range(n * 4):
            cell = leaders[idx]
            if cell >= 0 and k >> cell & 1:
                row.append((idx & 3, idx >> 2))
        heads.append(row)
    need = [colour_needs(scores[p * 5 : p * 5 + 4], False) for p in range(n)]

    reach = [dilate(k) & free for k in kingdoms]
    for i, ki in enumerate(kingdoms):
        for j in range(i + 1, len(kingdoms)):
            kj = kingdoms[j]
            if not dilate(kj) & reach[i]:
                continue
            for colour, p in heads[i]:
                for colour2, q in heads[j]:
                    if colour2 != colour or q == p:
                        continue
                    mine = tiles[colour] & ~fd
                    a = (mine & ki).bit_count()
                    b = (mine & kj).bit_count()
                    odds = 1.0 if a > b else 0.0 if a < b else 0.5
                    wp, wq = need[p][colour], need[q][colour]
                    out[p] += weight * (odds * (1 + b) * wp - (1 - odds) * (0.35 + wp) * leader)
                    out[q] += weight * ((1 - odds) * (1 + a) * wq - odds * (0.35 + wq) * leader)


def final_key(s: State, seat: int) -> list[int]:
    row = s.scores[seat * 5 : seat * 5 + 5]
    return final_totals(row[:4], row[4])


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


def win_chances(s: State, wt: Weights = BASIC, spread: float = 0.8) -> list[float]:
    """Per seat, about its chance of finishing first, in [0, 1]: the normal probability
    that its lead over the best opponent (``utilities``) survives the turns left, whose
    swing grows with their square root (``spread`` points a turn, plus half a point); a
    finished game is 1 for the winner, 0.5 for a shared first place, 0 otherwise, nudged by
    a hundredth of the margin of the lowest colours.

    A lead is linear in points; a chance of winning is not: behind the best opponent, a
    gamble that may win a war is worth more than its mean, ahead a safe move is. (Backed up
    by the search in four-player games it won as often as the lead: 49/120 against three
    greedy; see ``bench/strength_notes.md``.)"""
    leads = utilities(s, wt)
    if s.over:  # leads are 30 + margin (won), 0 (shared first place), -30 + margin (lost)
        out = []
        for u in leads:
            if u > 0:
                out.append(1.0 + 0.01 * (u - 30.0))
            elif u < 0:
                out.append(0.01 * (u + 30.0))
            else:
                out.append(0.5)
        return out
    sigma = 0.5 + spread * math.sqrt(own_turns_left(s))
    k = 1.0 / (sigma * math.sqrt(2.0))
    return [0.5 * (1.0 + math.erf(u * k)) for u in leads]


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
    c = s.conflict
    assert c is not None
    _kind, _colour, _att, _dfn, abase, dbase, acommit = c
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
    c = s.conflict
    assert c is not None
    _kind, _colour, _att, _dfn, abase, dbase, acommit = c
    options = commit_range(s)
    if acommit < 0:
        return [n for n in options if n == 0 or abase + n > dbase]
    need = abase + acommit - dbase
    return [n for n in options if n == 0 or (need > 0 and n == need)]


def monument_choice(s: State) -> Action:
    """Build the monument whose colours the placer's leaders can collect, else the first."""
    acts = legal_actions(s)
    seat = s.turn
    best: Action = Decline()
    best_v = -1.0
    for a in acts:
        if isinstance(a, BuildMonument):
            v = sum(1.0 for col in MONUMENTS[a.monument] if s.leaders[seat * 4 + col] >= 0)
            if v > best_v:
                best, best_v = a, v
    return best


def settle(s: State, rng: random.Random | None = None, limit: int = 40) -> State:
    """Play the decisions inside the current action with the fixed policies, until a turn
    action (or the end) is due. Returns a new state (``s`` untouched)."""
    steps = 0
    while not s.over and s.stage != ACTION and steps < limit:
        steps += 1
        if s.stage == CONFLICT:
            a = commit_choice(s)
        elif s.stage == MONUMENT:
            a = monument_choice(s)
        else:
            acts = legal_actions(s)
            a = acts[0] if rng is None else rng.choice(acts)
        s = apply_unchecked(s, a)
    return s
