"""Reading another seat's red tiles from the turn actions it did *not* take.

``RedEvidence`` reads the kind of each turn action with frequencies counted over whole
games, so a tile of another colour says the same in every position. But a one-step player
that holds red and sees a red temple worth more than what it played would have placed the
temple: in *this* position its choice says whether it could have. ``read_action`` asks, for
each red count r = 0 … ``TOP`` the seat may hold, whether a one-step player with that hand
would rather have placed a red tile (r ≥ 1) or started one of the revolts open to it (their
worth grows with r) than taken the action it took; the answer is a likelihood per red count,
filed with the seat's hand as ``RedEvidence`` files the kinds.

Only public things are read: the position before the action as this seat saw it (its own
view; the other hands are dealt from what it cannot see) and the action taken. The one-step
player (``rank_actions``' valuation with ``BASIC`` weights) is a model of how the others
choose, not knowledge of their hands, so the likelihood never drops below ``miss``.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..engine import State, apply_unchecked, legal_actions
from ..engine.actions import (
    Action,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Withdraw,
)
from ..engine.board import COLOUR_INDEX, RED, cell_index
from ..engine.state import ACTION, REVOLT
from .determinize import Determinizer
from .evaluate import BASIC, Weights, settle, value_for
from .red_evidence import LIKELIHOOD, TOP

#: The kinds ``RedEvidence`` still files when actions are read here: revolts (their worth
#: depends on the red count itself) and what was kept after a red tile or red support.
READING = {k: LIKELIHOOD[k] for k in ("revolt", "after_red_tile", "after_red_support")}


def turn_action(events: list[dict[str, Any]], seat: int) -> Action | None:
    """The turn action ``seat`` took, read from the events it caused (a swap gives
    ``Pass``: its tiles are hidden, and the one-step value does not see which went);
    None when the events hold none."""
    for e in events:
        if e.get("seat") != seat:
            continue
        kind = e.get("type")
        if kind == "tile_placed":
            return PlaceTile(COLOUR_INDEX[e["colour"]], cell_index(e["cell"]))
        if kind == "leader_placed":
            return PlaceLeader(COLOUR_INDEX[e["colour"]], cell_index(e["cell"]))
        if kind == "catastrophe_placed":
            return PlaceCatastrophe(cell_index(e["cell"]))
        if kind == "leader_withdrawn":
            return Withdraw(COLOUR_INDEX[e["colour"]])
        if kind in ("passed", "tiles_swapped"):
            return Pass()
    return None


def _with_red(w: State, seat: int, r: int, need: int, rng: random.Random) -> State | None:
    """A copy of world ``w`` whose ``seat`` holds ``r`` red tiles and as many tiles as
    before, the others of the colours its dealt hand held (topped up at random), one of
    colour ``need`` at least (-1: none needed); None when no such hand exists."""
    base = seat * 4
    hand = w.hands[base : base + 4]
    k = sum(hand)
    if r > k or (need >= 0 and need != RED and r >= k):
        return None
    others = [c for c in range(1, 4) for _ in range(hand[c])]
    rng.shuffle(others)
    while len(others) < k - r:
        others.append(rng.randrange(1, 4))
    others = others[: k - r]
    if need > 0 and need not in others:
        others[0] = need
    x = w.copy()
    x.hands[base + RED] = r
    for c in range(1, 4):
        x.hands[base + c] = others.count(c)
    return x


def _mean(worlds: list[State], a: Action, seat: int, wt: Weights) -> float:
    return sum(value_for(settle(apply_unchecked(w, a)), seat, wt) for w in worlds) / len(worlds)


def read_action(
    det: Determinizer,
    seat: int,
    action: Action,
    rng: random.Random,
    worlds: int = 6,
    miss: float = 0.1,
    tau: float = 0.02,
    conflict_tau: float = 0.3,
    wt: Weights = BASIC,
) -> tuple[float, ...] | None:
    """Per red count r = 0 … ``TOP`` (``TOP`` standing for more), how likely a one-step
    player holding r red tiles is to take ``action`` at the position of ``det`` (the view
    before it, a turn action of ``seat`` due): about 1 when nothing r makes possible or
    better is worth more than it, about ``miss`` when something is (by more than ``tau``
    points, smoothly; ``conflict_tau`` when a conflict's outcome is in the comparison, as
    its worth is a mean over the hands the chooser imagined). None when the action says
    nothing this way (a red tile; a revolt, whose own worth depends on r:
    ``RedEvidence`` files those by kind)."""
    base = det.sample(rng)
    if base.stage != ACTION or base.turn != seat or base.over:
        return None
    if isinstance(action, PlaceTile) and action.colour == RED:
        return None
    taken = apply_unchecked(base, action)
    if taken.conflict is not None and taken.conflict[0] == REVOLT:
        return None
    open_conflict = taken.stage != ACTION
    need = action.colour if isinstance(action, PlaceTile) else -1
    # The red tiles and revolts open to the seat, found once (legal with any red tile).
    probe = _with_red(base, seat, 1, need, rng)
    if probe is None:
        return None
    red_best = -math.inf
    revolts: list[Action] = []
    for a in legal_actions(probe):
        if isinstance(a, PlaceTile) and a.colour == RED:
            after = apply_unchecked(probe, a)
            if after.stage == ACTION or after.over:
                # (a red tile that starts a war is left out: its worth depends on the hands)
                red_best = max(red_best, value_for(after, seat, wt))
        elif isinstance(a, PlaceLeader):
            c = apply_unchecked(probe, a).conflict
            if c is not None and c[0] == REVOLT:
                revolts.append(a)
    samples = [base] + [det.sample(rng) for _ in range(worlds - 1)]
    out: list[float] = []
    for r in range(TOP + 1):
        hands = [_with_red(w, seat, r, need, rng) for w in samples]
        ws = [h for h in hands if h is not None]
        if len(ws) < len(hands):
            out.append(0.01)  # no hand of this size holds r red tiles and the tile played
            continue
        own = _mean(ws, action, seat, wt) if open_conflict else value_for(taken, seat, wt)
        best = red_best if r >= 1 else -math.inf
        gap = (own - best) / (conflict_tau if open_conflict else tau)
        for a in revolts:
            gap = min(gap, (own - _mean(ws, a, seat, wt)) / conflict_tau)
        if gap == math.inf:
            out.append(1.0)
            continue
        z = max(-30.0, min(30.0, gap))
        out.append(miss + (1.0 - miss) / (1.0 + math.exp(-z)))
    return tuple(out)
