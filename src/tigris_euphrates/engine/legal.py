"""Legality: the one source of which actions are allowed now.

The turn actions are computed as sets of target cells per kind and colour (``targets``);
``legal_actions`` expands them into interned action objects, ``sample_legal`` draws one
uniformly without building the list. Why an action is not allowed, in the rule's words, is
``checks.check``'s to say.
"""

from __future__ import annotations

import random
from typing import cast

from .actions import (
    COMMIT_ACTIONS,
    DECLINE,
    PASS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
    BuildMonument,
    BuildWonder,
    Commit,
    PlaceBuilding,
    TakePoint,
)
from .board import BLUE, MONUMENTS, NEIGHBOURS, RED
from .decisions import (
    BuildingOffer,
    Decision,
    Harvest,
    MonumentOffer,
    Support,
    TreasurePick,
    WarChoice,
)
from .errors import IllegalAction
from .groups import (
    CATASTROPHE_KIND,
    KIND_ACTIONS,
    TEXTS,
    TREASURE_KIND,
    TURN_KINDS,
    WITHDRAW_TEXTS,
    TurnGroups,
    expand,
    kth_cell,
    swap_actions,
    swap_texts,
)
from .kingdoms import (
    Counts,
    LegalCache,
    kingdoms_in,
    lifted_twos,
    recount,
    regions_of,
    touch_counts,
    touching_kingdoms,
)
from .state import State
from .types import Cell, Colour, Seat, Words
from .words import (
    EMPTY,
    bit,
    cells_of,
    count,
    empty,
    halo,
    has,
    inter,
    invert,
    low_cell,
    meets,
    minus,
    union,
    without_cell,
)
from .words import flood as region


def to_act(state: State) -> Seat | None:
    """The seat that must decide now: the owner of the top pending decision, else the turn
    player; ``None`` once the game is over."""
    if state.over:
        return None
    p = state.pending
    return p[-1].owner if p else state.turn


def _cached(state: State) -> LegalCache:
    """The kingdoms and the cells touching one to four of them, found once per state
    (``play`` carries them to the next state when a tile only grows a kingdom,
    ``grown_cache``)."""
    t = state.cache
    if t is None:
        ks = kingdoms_in(regions_of(state), state.lmask)
        ones, twos, threes, fours = touch_counts(ks)
        t = state.cache = LegalCache(ks, ones, twos, threes, fours)
    return t


def grown_cache(cache: LegalCache, cell: Cell, grown: Words) -> LegalCache | None:
    """The cache of a board once a tile is put on ``cell`` (``grown``: the region it is now
    part of), from the cache of the board before: the same when the tile touches no kingdom,
    the one kingdom it touches replaced by ``grown`` (and the counts taken down and up,
    ``recount``), None (find it again) when it touches two."""
    ks = cache.kingdoms
    nb = NEIGHBOURS[cell]
    touched = -1
    for i in range(len(ks)):
        if meets(ks[i], nb):
            if touched >= 0:
                return None
            touched = i
    if touched < 0:
        return cache
    ones, twos, threes, fours = recount(
        (cache.ones, cache.twos, cache.threes, cache.fours), ks[touched], grown
    )
    return LegalCache((*ks[:touched], grown, *ks[touched + 1 :]), ones, twos, threes, fours)


def state_kingdoms(state: State) -> list[Words]:
    """Every kingdom on the board, by their lowest leader cell (``kingdoms``'s order), from
    those ``legal_actions`` found (cached on the state until the board changes)."""
    lmask = state.lmask
    return sorted(_cached(state).kingdoms, key=lambda k: low_cell(inter(k, lmask)))


def tile_targets(state: State, colour: Colour) -> Words:
    """Cells where the turn player could put a tile of ``colour`` (ignoring the hand)."""
    threes = _cached(state).threes
    rivers = state.options.board.rivers
    free = invert(union(state.occupied(), state.catastrophes))
    terrain = rivers if colour == BLUE else invert(rivers)
    return minus(inter(free, terrain), threes)


def leader_targets(state: State, seat: Seat, colour: Colour) -> Words:
    """Cells where ``seat`` could place or move its leader of ``colour``."""
    return _leader_mask(state, seat, colour, _leader_ground(state))


#: What every leader's targets are judged from (``_leader_ground``): the pieces on the
#: board, the free land next to a face-up temple, the regions and their cells touching one,
#: two and three of them when the ruleset needs them.
_Ground = tuple[Words, Words, tuple[Words, ...], tuple[Words, Words, Words]]


def _leader_ground(state: State) -> _Ground:
    """What ``_leader_mask`` reads for each leader, found once for the four."""
    occ = state.occupied()
    red = minus(state.tiles_of(RED), state.facedown)
    rivers = state.options.board.rivers
    base = inter(invert(union(union(occ, state.catastrophes), rivers)), union(red, halo(red)))
    regions: tuple[Words, ...] = ()
    region_counts = (EMPTY, EMPTY, EMPTY)
    if state.options.rules.needs_regions:
        regions = regions_of(state)
        ones, rtwos, rthrees, _ = _region_counts(state, regions)
        region_counts = (ones, rtwos, rthrees)
    return occ, base, regions, region_counts


def _region_counts(state: State, regions: tuple[Words, ...]) -> Counts:
    """``touch_counts`` of the regions of the board, found once and then kept in step by
    ``play`` piece by piece (``changes``: ``kingdoms.regrouped``)."""
    counts = state.region_counts
    if counts is None:
        counts = state.region_counts = touch_counts(regions)
    return counts


def _leader_mask(state: State, seat: Seat, colour: Colour, ground: _Ground) -> Words:
    """Where ``seat``'s leader of ``colour`` may go: land cells next to a face-up temple,
    empty once the leader is lifted (not its own cell), and not blocked by the ruleset
    (classic: touching two kingdoms). Lifting a leader changes only its own kingdom (it may
    split or lose its crown), so the counts of the board are corrected for that kingdom
    alone (``lifted_twos``)."""
    occ, base, regions, region_counts = ground
    cache = _cached(state)
    rules = state.options.rules
    cur = state.leaders[seat * 4 + colour]
    if cur < 0:
        return minus(base, rules.leader_blocked(occ, cache.twos, region_counts[1]))
    home = EMPTY
    for k in cache.kingdoms:
        if has(k, cur):
            home = k
            break
    counts = (cache.ones, cache.twos, cache.threes)
    kingdom_twos = lifted_twos(counts, home, cur, state.lmask)
    other_twos = EMPTY
    if rules.needs_regions:
        for r in regions:
            if has(r, cur):
                home = r
                break
        other_twos = lifted_twos(region_counts, home, cur, home)
    return minus(base, rules.leader_blocked(without_cell(occ, cur), kingdom_twos, other_twos))


def catastrophe_targets(state: State) -> Words:
    """Cells a catastrophe may hit (the ruleset's ``catastrophe_targets``)."""
    return state.options.rules.catastrophe_targets(state)


def conflict(state: State) -> Support:
    """The support decision the game waits for (only while one is pending)."""
    c = state.decision
    assert isinstance(c, Support), c
    return c


def commit_range(state: State) -> list[int]:
    """The commitments the player to act may make now (English variant limits applied)."""
    c = conflict(state)
    abase, dbase, acommit = c.attacker_base, c.defender_base, c.attacker_commit
    have = state.hands[c.owner * 4 + c.support_colour]
    if not state.options.english_variant:
        return list(range(have + 1))
    if acommit < 0:
        return [0] + [n for n in range(1, have + 1) if abase + n > dbase]
    need = abase + acommit - dbase
    return [0] + ([need] if 0 < need <= have else [])


def around_union(state: State) -> tuple[Words, Words]:
    """(pieces on the board without the union tile, the kingdoms touching the union tile):
    during a war the union tile belongs to no kingdom (RULES §4, §6.2)."""
    u = state.union
    occ = without_cell(state.occupied(), u)
    around = EMPTY
    for k in touching_kingdoms(occ, state.lmask, u):
        around = union(around, k)
    return occ, around


def war_colours(state: State) -> list[Colour]:
    """Colours in conflict around the union tile (leaders of the colour in two kingdoms)."""
    if state.union < 0:
        return []
    around = around_union(state)[1]
    out = []
    leaders = state.leaders
    for colour in range(4):
        n = 0
        for i in range(colour, len(leaders), 4):
            cell = leaders[i]
            if cell >= 0 and has(around, cell):
                n += 1
        if n >= 2:
            out.append(colour)
    return out


def war_sides(state: State, colour: Colour) -> tuple[Seat, Seat, int, int]:
    """(attacker, defender, attacker's base, defender's base) of the war of ``colour`` around
    the union tile: the placer attacks when one of its leaders is in it, else the first seat
    in turn order after the placer; a base is the face-up tiles of the colour in the
    leader's own kingdom, the union tile excluded (RULES §6.2)."""
    occ, around = around_union(state)
    n = state.options.players
    seats = [
        seat
        for seat in range(n)
        if state.leaders[seat * 4 + colour] >= 0 and has(around, state.leaders[seat * 4 + colour])
    ]
    placer = state.turn
    if placer in seats:
        att = placer
    else:
        att = next((placer + i) % n for i in range(1, n) if (placer + i) % n in seats)
    dfn = seats[0] if seats[1] == att else seats[1]
    up = minus(state.tiles_of(colour), state.facedown)
    abase = count(inter(up, region(occ, bit(state.leaders[att * 4 + colour]))))
    dbase = count(inter(up, region(occ, bit(state.leaders[dfn * 4 + colour]))))
    return att, dfn, abase, dbase


def turn_groups(state: State) -> TurnGroups:
    """The turn actions of the player to act between decisions (``TurnGroups``)."""
    seat = state.turn
    h = state.hands
    i = seat * 4
    r, b, g, k = h[i], h[i + 1], h[i + 2], h[i + 3]
    hand = (r, b, g, k)
    out = TurnGroups(hand, swap_actions(hand))
    if r or b or g or k:
        threes = _cached(state).threes
        free = invert(union(union(state.occupied(), state.catastrophes), threes))
        rivers = state.options.board.rivers
        land = minus(free, rivers)
        if not empty(land):
            if r:
                out.put(0, land)
            if g:
                out.put(2, land)
            if k:
                out.put(3, land)
        if b:
            water = inter(free, rivers)
            if not empty(water):
                out.put(1, water)
    ground = _leader_ground(state)
    for colour in range(4):
        m = _leader_mask(state, seat, colour, ground)
        if not empty(m):
            out.put(4 + colour, m)
    if state.cats[seat]:
        m = catastrophe_targets(state)
        if not empty(m):
            out.put(CATASTROPHE_KIND, m)
    leaders = state.leaders
    w = 0
    for c in range(4):
        if leaders[i + c] >= 0:
            w |= 1 << c
    out.withdrawals = w
    return out


def _decision_actions(state: State, d: Decision) -> list[Action]:
    """The answers to decision ``d``."""
    out: list[Action] = []
    if isinstance(d, Support):
        return [
            COMMIT_ACTIONS[n] if n < len(COMMIT_ACTIONS) else Commit(n) for n in commit_range(state)
        ]
    if isinstance(d, WarChoice):
        return [WAR_ACTIONS[c] for c in d.colours]
    if isinstance(d, MonumentOffer):
        out = [
            BuildMonument(m, tl)
            for tl in d.blocks
            for m in range(6)
            if state.monuments[m] < 0 and d.colour in MONUMENTS[m]
        ]
        out.extend(BuildWonder(c) for c in d.centres)
        out.append(DECLINE)
        return out
    if isinstance(d, TreasurePick | Harvest):
        cells: list[object] = [DECLINE] * count(d.cells)
        expand(d.cells, TREASURE_KIND, cells, 0)
        return cast("list[Action]", cells)
    if isinstance(d, BuildingOffer):
        out = [PlaceBuilding(d.colour, c) for c in cells_of(d.cells)]
        out.append(DECLINE)
        return out
    return [TakePoint(c) for c in range(4)]


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take now (empty once the game is over)."""
    if state.over:
        return []
    if state.pending:
        return _decision_actions(state, state.pending[-1])
    groups = turn_groups(state)
    out: list[object] = [PASS] * groups.size()
    at = 0
    kinds = groups.kinds
    for kind in range(TURN_KINDS):
        if kinds >> kind & 1:
            at = expand(groups.cells(kind), kind, out, at)
    w = groups.withdrawals
    for c in range(4):
        if w >> c & 1:
            out[at] = WITHDRAW_ACTIONS[c]
            at += 1
    for a in groups.swaps:
        out[at] = a
        at += 1
    return cast("list[Action]", out)


def legal_notations(state: State) -> list[str]:
    """``[str(a) for a in legal_actions(state)]``, without building or reading an action
    per cell: each group of target cells is expanded through a table of notations."""
    if state.over:
        return []
    if state.pending:
        return [str(a) for a in _decision_actions(state, state.pending[-1])]
    groups = turn_groups(state)
    out: list[object] = ["pass"] * groups.size()
    at = 0
    kinds = groups.kinds
    for kind in range(TURN_KINDS):
        if kinds >> kind & 1:
            at = expand(groups.cells(kind), TEXTS + kind, out, at)
    w = groups.withdrawals
    for c in range(4):
        if w >> c & 1:
            out[at] = WITHDRAW_TEXTS[c]
            at += 1
    for t in swap_texts(groups.hand, groups.swaps):
        out[at] = t
        at += 1
    return cast("list[str]", out)


def legal_groups(state: State) -> tuple[list[Words], list[tuple[Action, ...]], list[Action]]:
    """``legal_actions`` before it is expanded: masks of target cells, each with the table of
    its actions by cell (the tiles or the leader of one colour, the catastrophe), then the
    other legal actions (withdrawals, swaps and ``pass``; or the answers to the decision).
    Expanding each mask through its table in order, then appending the rest, gives
    ``legal_actions`` in its order; the tables are the interned ``TILE_ACTIONS[c]``,
    ``LEADER_ACTIONS[c]`` and ``CATASTROPHE_ACTIONS``, so a caller may read a mask as bits
    without building an action per cell. (``turn_groups`` is the same between decisions
    with no list and no table: kinds, sets and bits.)"""
    if state.over:
        return [], [], []
    if state.pending:
        return [], [], _decision_actions(state, state.pending[-1])
    groups = turn_groups(state)
    masks: list[Words] = []
    tables: list[tuple[Action, ...]] = []
    kinds = groups.kinds
    for kind in range(TURN_KINDS):
        if kinds >> kind & 1:
            masks.append(groups.cells(kind))
            tables.append(KIND_ACTIONS[kind])
    w = groups.withdrawals
    rest: list[Action] = [WITHDRAW_ACTIONS[c] for c in range(4) if w >> c & 1]
    rest.extend(groups.swaps)
    rest.append(PASS)
    return masks, tables, rest


def sample_legal(state: State, rng: random.Random) -> Action:
    """One legal action drawn uniformly, without building the whole list."""
    if state.over:
        raise IllegalAction("game-over", "the game is over")
    if state.pending:
        return rng.choice(_decision_actions(state, state.pending[-1]))
    groups = turn_groups(state)
    k = int(rng.random() * groups.size())
    kinds = groups.kinds
    for kind in range(TURN_KINDS):
        if kinds >> kind & 1:
            m = groups.cells(kind)
            size = count(m)
            if k < size:
                return KIND_ACTIONS[kind][kth_cell(m, k)]
            k -= size
    w = groups.withdrawals
    for c in range(4):
        if w >> c & 1:
            if k == 0:
                return WITHDRAW_ACTIONS[c]
            k -= 1
    swaps = groups.swaps
    return swaps[k] if k < len(swaps) else PASS


__all__ = [
    "legal_actions",
    "legal_groups",
    "legal_notations",
    "sample_legal",
    "to_act",
    "war_colours",
]
