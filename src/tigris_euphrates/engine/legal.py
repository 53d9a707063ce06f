"""Legality: the one source of which actions are allowed now.

The turn actions are computed as bitboards of target cells per kind and colour (``targets``);
``legal_actions`` expands them into interned action objects, ``sample_legal`` draws one
uniformly without building the list. Why an action is not allowed, in the rule's words, is
``checks.check``'s to say.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from .actions import (
    CATASTROPHE_ACTIONS,
    COMMIT_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    PASS,
    TILE_ACTIONS,
    TREASURE_ACTIONS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
    BuildMonument,
    BuildWonder,
    Commit,
    PlaceBuilding,
    TakePoint,
    swap_action,
)
from .board import (
    BLUE,
    FULL,
    MONUMENTS,
    NEIGHBOURS,
    RED,
    cells_of,
    halo,
    region,
)
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
from .kingdoms import (
    kingdoms_in,
    lifted_twos,
    recount,
    regions_of,
    touch_counts,
    touching_kingdoms,
)
from .state import State
from .types import Cell, Colour, Mask, Seat

# Per-byte bit positions and popcounts, to walk a 176-bit mask 8 cells at a time.
_BYTE_BITS: Final = tuple(tuple(o for o in range(8) if b >> o & 1) for b in range(256))
_NBYTES: Final = 22

#: The kinds of groups of target cells (``_turn_groups``), each the index of its table of
#: interned actions by cell: the tiles of each colour (0–3), the leaders of each colour (4–7),
#: the catastrophe (8) and the treasures (9).
CATASTROPHE_KIND: Final = 8
TREASURE_KIND: Final = 9
KIND_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = (
    *TILE_ACTIONS,
    *LEADER_ACTIONS,
    CATASTROPHE_ACTIONS,
    TREASURE_ACTIONS,
)
#: The notation of each of those actions, by kind and cell.
KIND_TEXTS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(str(a) for a in table) for table in KIND_ACTIONS
)
#: By kind (filled on first use), the actions and the notations of every byte of a mask:
#: ``[kind][byte index][byte value]`` is the tuple of what the set bits of that byte stand
#: for, in cell order, so a mask is expanded one ``extend`` per non-zero byte.
_ACTION_CHUNKS: list[tuple[tuple[tuple[Action, ...], ...], ...] | None] = [None] * 10
_TEXT_CHUNKS: list[tuple[tuple[tuple[str, ...], ...], ...] | None] = [None] * 10


def to_act(state: State) -> Seat | None:
    """The seat that must decide now: the owner of the top pending decision, else the turn
    player; ``None`` once the game is over."""
    if state.over:
        return None
    p = state.pending
    return p[-1].owner if p else state.turn


#: ``_cached``'s tuples by (occupied cells, leader cells): searches and replays meet the same
#: boards many times over, in different states. Cleared when full.
_BOARDS: dict[tuple[Mask, Mask], tuple[Mask, Mask, tuple[Mask, ...], Mask, Mask]] = {}


def _cached(state: State) -> tuple[Mask, Mask, tuple[Mask, ...], Mask, Mask]:
    """(cells touching 2+ kingdoms, cells touching 3+ kingdoms, the kingdoms in no particular
    order, cells touching 1+ kingdom, cells touching 4), cached: on the state (``play``
    carries it to the next state when a tile only grows a kingdom, ``grown_cache``) and by
    board."""
    t = state.cache
    if t is None:
        key = (state.occupied(), state.lmask)
        t = _BOARDS.get(key)
        if t is None:
            if len(_BOARDS) >= 20_000:
                _BOARDS.clear()
            ks = kingdoms_in(regions_of(state), key[1])
            ones, twos, threes, fours = touch_counts(ks)
            t = _BOARDS[key] = (twos, threes, ks, ones, fours)
        state.cache = t
    return t


def grown_cache(
    cache: tuple[Mask, Mask, tuple[Mask, ...], Mask, Mask], cell: Cell, grown: Mask
) -> tuple[Mask, Mask, tuple[Mask, ...], Mask, Mask] | None:
    """The cache of a board once a tile is put on ``cell`` (``grown``: the region it is now
    part of), from the cache of the board before: the same when the tile touches no kingdom,
    the one kingdom it touches replaced by ``grown`` (and the counts taken down and up,
    ``recount``), None (find it again) when it touches two."""
    twos, threes, ks, ones, fours = cache
    nb = NEIGHBOURS[cell]
    touched = -1
    for i, k in enumerate(ks):
        if k & nb:
            if touched >= 0:
                return None
            touched = i
    if touched < 0:
        return cache
    ones, twos, threes, fours = recount((ones, twos, threes, fours), ks[touched], grown)
    return twos, threes, (*ks[:touched], grown, *ks[touched + 1 :]), ones, fours


def state_kingdoms(state: State) -> list[Mask]:
    """Every kingdom on the board, as masks, by their lowest leader cell (``kingdoms``'s
    order), from those ``legal_actions`` found (cached on the state until the board
    changes)."""
    lmask = state.lmask
    return sorted(_cached(state)[2], key=lambda k: k & lmask & -(k & lmask))


def tile_targets(state: State, colour: Colour) -> Mask:
    """Cells where the turn player could put a tile of ``colour`` (ignoring the hand)."""
    threes = _cached(state)[1]
    board = state.options.board
    empty = FULL & ~(state.occupied() | state.catastrophes)
    terrain = board.rivers if colour == BLUE else ~board.rivers
    return empty & terrain & ~threes


def leader_targets(state: State, seat: Seat, colour: Colour) -> Mask:
    """Cells where ``seat`` could place or move its leader of ``colour``."""
    return leader_masks(state, seat)[colour]


def leader_masks(state: State, seat: Seat, only: Colour = -1) -> list[Mask]:
    """``leader_targets`` of ``seat``'s four leaders (or of the ``only`` one, the others
    0): land cells next to a face-up temple, empty once the leader is lifted (not its own
    cell), and not blocked by the ruleset (classic: touching two kingdoms). Lifting a leader
    changes only its own kingdom (it may split or lose its crown), so the counts of the board
    are corrected for that kingdom alone (``lifted_twos``)."""
    occ = state.occupied()
    twos, threes, ks, ones, _ = _cached(state)
    counts = (ones, twos, threes)
    red = state.tiles[RED] & ~state.facedown
    base = FULL & ~(occ | state.catastrophes | state.options.board.rivers) & (red | halo(red))
    rules = state.options.rules
    needs_regions = rules.needs_regions
    regions: tuple[tuple[Mask, ...], Mask, Mask, Mask] | None = None
    if needs_regions:
        regions = _region_counts(state)
    leaders = state.leaders
    lmask = state.lmask
    out: list[Mask] = []
    for colour in range(4):
        if only >= 0 and colour != only:
            out.append(0)
            continue
        cur = leaders[seat * 4 + colour]
        if cur < 0:
            blocked = rules.leader_blocked(occ, twos, regions[2] if regions is not None else 0)
        else:
            here = 1 << cur
            home = 0
            for k in ks:
                if k & here:
                    home = k
                    break
            kingdom_twos = lifted_twos(counts, home, cur, lmask)
            other_twos = 0
            if regions is not None:
                for r in regions[0]:
                    if r & here:
                        home = r
                        break
                other_twos = lifted_twos(regions[1:], home, cur, home)
            blocked = rules.leader_blocked(occ & ~here, kingdom_twos, other_twos)
        out.append(base & ~blocked)
    return out


#: Every region of a board by its occupied cells, with the cells touching one, two and three
#: or more of them (searches and playouts meet the same boards many times). Cleared when full.
_REGIONS: dict[Mask, tuple[tuple[Mask, ...], Mask, Mask, Mask]] = {}


def _region_counts(state: State) -> tuple[tuple[Mask, ...], Mask, Mask, Mask]:
    """(the regions of the board, cells touching 1+, 2+ and 3+ of them), cached."""
    occ = state.occupied()
    t = _REGIONS.get(occ)
    if t is None:
        if len(_REGIONS) >= 20_000:
            _REGIONS.clear()
        regions = regions_of(state)
        ones, twos, threes, _ = touch_counts(regions)
        t = _REGIONS[occ] = (regions, ones, twos, threes)
    return t


def catastrophe_targets(state: State) -> Mask:
    """Cells a catastrophe may hit (the ruleset's ``catastrophe_targets``)."""
    return state.options.rules.catastrophe_targets(state)


_SWAP_LISTS: dict[tuple[int, ...], list[Action]] = {}


def swap_actions(hand: list[int] | tuple[int, int, int, int]) -> list[Action]:
    """The swap actions open to ``hand`` (cached per hand; do not mutate)."""
    key = tuple(hand)
    acts = _SWAP_LISTS.get(key)
    if acts is None:
        acts = _SWAP_LISTS[key] = [swap_action(t) for t in swap_options(hand)]
    return acts


def swap_options(
    hand: list[int] | tuple[int, int, int, int],
) -> Iterator[tuple[int, int, int, int]]:
    """Every way to swap 1–6 tiles from ``hand`` (counts per colour)."""
    for r in range(hand[0] + 1):
        for b in range(hand[1] + 1):
            for g in range(hand[2] + 1):
                for k in range(hand[3] + 1):
                    if 0 < r + b + g + k <= 6:
                        yield (r, b, g, k)


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


def around_union(state: State) -> tuple[Mask, Mask]:
    """(pieces on the board without the union tile, the kingdoms touching the union tile):
    during a war the union tile belongs to no kingdom (RULES §4, §6.2)."""
    u = state.union
    occ = state.occupied() & ~(1 << u)
    around = 0
    for k in touching_kingdoms(occ, state.lmask, u):
        around |= k
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
            if cell >= 0 and around >> cell & 1:
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
        if state.leaders[seat * 4 + colour] >= 0 and around >> state.leaders[seat * 4 + colour] & 1
    ]
    placer = state.turn
    if placer in seats:
        att = placer
    else:
        att = next((placer + i) % n for i in range(1, n) if (placer + i) % n in seats)
    dfn = seats[0] if seats[1] == att else seats[1]
    up = state.tiles[colour] & ~state.facedown
    abase = (up & region(occ, 1 << state.leaders[att * 4 + colour])).bit_count()
    dbase = (up & region(occ, 1 << state.leaders[dfn * 4 + colour])).bit_count()
    return att, dfn, abase, dbase


def _action_chunks(kind: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    chunks = _ACTION_CHUNKS[kind]
    if chunks is None:
        table = KIND_ACTIONS[kind]
        chunks = _ACTION_CHUNKS[kind] = tuple(
            tuple(tuple(table[i * 8 + o] for o in bits) for bits in _BYTE_BITS)
            for i in range(_NBYTES)
        )
    return chunks


def _text_chunks(kind: int) -> tuple[tuple[tuple[str, ...], ...], ...]:
    chunks = _TEXT_CHUNKS[kind]
    if chunks is None:
        table = KIND_TEXTS[kind]
        chunks = _TEXT_CHUNKS[kind] = tuple(
            tuple(tuple(table[i * 8 + o] for o in bits) for bits in _BYTE_BITS)
            for i in range(_NBYTES)
        )
    return chunks


def _expand(mask: Mask, kind: int, out: list[Action]) -> None:
    """Append the actions of ``kind`` on the cells of ``mask``, in cell order."""
    chunks = _action_chunks(kind)
    data = mask.to_bytes(_NBYTES, "little")
    for idx in range(_NBYTES):
        b = data[idx]
        if b:
            out.extend(chunks[idx][b])


def _expand_texts(mask: Mask, kind: int, out: list[str]) -> None:
    """``_expand``, the notations instead of the actions."""
    chunks = _text_chunks(kind)
    data = mask.to_bytes(_NBYTES, "little")
    for idx in range(_NBYTES):
        b = data[idx]
        if b:
            out.extend(chunks[idx][b])


def _kth(mask: Mask, k: int) -> Cell:
    data = mask.to_bytes(_NBYTES, "little")
    for idx in range(_NBYTES):
        b = data[idx]
        if b:
            bits = _BYTE_BITS[b]
            if k < len(bits):
                return idx * 8 + bits[k]
            k -= len(bits)
    raise IndexError(k)


def _turn_groups(
    state: State,
) -> tuple[list[Mask], list[int], list[Action], list[Action]]:
    """The turn actions: the masks of target cells with the kind of each (the index of its
    table in ``KIND_ACTIONS``: tiles, leaders, the catastrophe), the withdrawals, and the
    swaps (a shared list: do not mutate); then ``pass``."""
    seat = state.turn
    h = state.hands
    i = seat * 4
    hand = (h[i], h[i + 1], h[i + 2], h[i + 3])
    masks: list[Mask] = []
    kinds: list[int] = []
    if hand[0] or hand[1] or hand[2] or hand[3]:
        threes = _cached(state)[1]
        free = FULL & ~(state.occupied() | state.catastrophes | threes)
        rivers = state.options.board.rivers
        land = free & ~rivers
        for colour in range(4):
            if hand[colour]:
                m = free & rivers if colour == BLUE else land
                if m:
                    masks.append(m)
                    kinds.append(colour)
    for colour, m in enumerate(leader_masks(state, seat)):
        if m:
            masks.append(m)
            kinds.append(4 + colour)
    if state.cats[seat]:
        m = catastrophe_targets(state)
        if m:
            masks.append(m)
            kinds.append(CATASTROPHE_KIND)
    leaders = state.leaders
    withdrawals: list[Action] = [WITHDRAW_ACTIONS[c] for c in range(4) if leaders[i + c] >= 0]
    return masks, kinds, withdrawals, swap_actions(hand)


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
        _expand(d.cells, TREASURE_KIND, out)
        return out
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
    masks, kinds, withdrawals, swaps = _turn_groups(state)
    out: list[Action] = []
    for g in range(len(masks)):
        _expand(masks[g], kinds[g], out)
    out.extend(withdrawals)
    out.extend(swaps)
    out.append(PASS)
    return out


_SWAP_TEXTS: dict[tuple[int, ...], list[str]] = {}


def legal_notations(state: State) -> list[str]:
    """``[str(a) for a in legal_actions(state)]``, without building or reading an action
    per cell: each group of target cells is expanded through a table of notations."""
    if state.over:
        return []
    if state.pending:
        return [str(a) for a in _decision_actions(state, state.pending[-1])]
    masks, kinds, withdrawals, swaps = _turn_groups(state)
    out: list[str] = []
    for g in range(len(masks)):
        _expand_texts(masks[g], kinds[g], out)
    for a in withdrawals:
        out.append(str(a))
    i = state.turn * 4
    h = state.hands
    key = (h[i], h[i + 1], h[i + 2], h[i + 3])
    texts = _SWAP_TEXTS.get(key)
    if texts is None:
        texts = _SWAP_TEXTS[key] = [str(a) for a in swaps]
    out.extend(texts)
    out.append("pass")
    return out


def legal_groups(state: State) -> tuple[list[Mask], list[tuple[Action, ...]], list[Action]]:
    """``legal_actions`` before it is expanded: masks of target cells, each with the table of
    its actions by cell (the tiles or the leader of one colour, the catastrophe), then the
    other legal actions (withdrawals, swaps and ``pass``; or the answers to the decision).
    Expanding each mask through its table in order, then appending the rest, gives
    ``legal_actions`` in its order; the tables are the interned ``TILE_ACTIONS[c]``,
    ``LEADER_ACTIONS[c]`` and ``CATASTROPHE_ACTIONS``, so a caller may read a mask as bits
    without building an action per cell (the research adapters' action masks)."""
    if state.over:
        return [], [], []
    if state.pending:
        return [], [], _decision_actions(state, state.pending[-1])
    masks, kinds, withdrawals, swaps = _turn_groups(state)
    rest = withdrawals + swaps
    rest.append(PASS)
    return masks, [KIND_ACTIONS[k] for k in kinds], rest


def sample_legal(state: State, rng: random.Random) -> Action:
    """One legal action drawn uniformly, without building the whole list."""
    if state.over:
        raise IllegalAction("game-over", "the game is over")
    if state.pending:
        return rng.choice(_decision_actions(state, state.pending[-1]))
    masks, kinds, withdrawals, swaps = _turn_groups(state)
    sizes = [m.bit_count() for m in masks]
    total = len(withdrawals) + len(swaps) + 1
    for size in sizes:
        total += size
    k = int(rng.random() * total)
    for g in range(len(masks)):
        size = sizes[g]
        if k < size:
            return KIND_ACTIONS[kinds[g]][_kth(masks[g], k)]
        k -= size
    if k < len(withdrawals):
        return withdrawals[k]
    k -= len(withdrawals)
    return swaps[k] if k < len(swaps) else PASS


__all__ = [
    "legal_actions",
    "legal_groups",
    "legal_notations",
    "sample_legal",
    "to_act",
    "war_colours",
]
