"""Legality: the one source of which actions are allowed now.

The turn actions are computed as bitboards of target cells per kind and colour (``targets``);
``legal_actions`` expands them into interned action objects, ``sample_legal`` draws one
uniformly without building the list, and ``check`` explains, with the rule's words, why an
action is not allowed.
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
    ChooseWar,
    Commit,
    Decline,
    Pass,
    PlaceBuilding,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakePoint,
    TakeTreasure,
    Withdraw,
    swap_action,
)
from .board import (
    BLUE,
    CELL_NAMES,
    COLOURS,
    FULL,
    MONUMENT_NAMES,
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
    WonderPoint,
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
from .rules import building_cells
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

#: What each kind of decision asks, in the words of an error that names it.
DECISION_WORDS: dict[type[Decision] | None, str] = {
    None: "a turn action",
    Support: "a support commitment (commit N)",
    WarChoice: "the choice of the next war (war COLOUR)",
    MonumentOffer: "a monument decision (monument C1-C2 CELL, wonder CELL or decline)",
    TreasurePick: "a treasure pick (treasure CELL)",
    BuildingOffer: "a building decision (building COLOUR CELL or decline)",
    WonderPoint: "the colour of the wonder point (point COLOUR)",
    Harvest: "the artifact to harvest (treasure CELL)",
}

#: The actions that answer each kind of decision (None: the turn actions).
ANSWERS: dict[type[Decision] | None, tuple[type[Action], ...]] = {
    None: (PlaceTile, PlaceLeader, Withdraw, PlaceCatastrophe, Swap, Pass),
    Support: (Commit,),
    WarChoice: (ChooseWar,),
    MonumentOffer: (BuildMonument, BuildWonder, Decline),
    TreasurePick: (TakeTreasure,),
    BuildingOffer: (PlaceBuilding, Decline),
    WonderPoint: (TakePoint,),
    Harvest: (TakeTreasure,),
}


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
    return _leader_masks(state, seat)[colour]


def _leader_masks(state: State, seat: Seat, only: Colour = -1) -> list[Mask]:
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
    for colour, m in enumerate(_leader_masks(state, seat)):
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


# ---------------------------------------------------------------------------------------------
# Explaining why an action is illegal. ``check`` agrees with ``legal_actions`` (tests prove it).


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _check_tile(state: State, colour: Colour, cell: Cell) -> None:
    seat = state.turn
    if not state.hands[seat * 4 + colour]:
        raise _illegal("no-tile", f"you have no {COLOURS[colour]} tile in hand")
    _check_empty(state, cell, "a tile")
    rivers = state.options.board.rivers
    if colour == BLUE and not rivers >> cell & 1:
        raise _illegal("blue-on-land", "blue tiles go only on rivers")
    if colour != BLUE and rivers >> cell & 1:
        raise _illegal(
            "tile-on-river", f"{COLOURS[colour]} tiles go only on land (only blue on rivers)"
        )
    if state.cache is not None:  # legal_actions ran: the cells touching 3+ kingdoms are known
        three = state.cache[1] >> cell & 1
    else:
        three = len(touching_kingdoms(state.occupied(), state.lmask, cell)) >= 3
    if three:
        raise _illegal("three-kingdoms", "a tile may not touch three or more kingdoms")


def _check_empty(state: State, cell: Cell, what: str) -> None:
    bit = 1 << cell
    if state.lmask & bit:
        raise _illegal("occupied", f"{what} may not go on a leader ({CELL_NAMES[cell]})")
    if state.catastrophes & bit:
        raise _illegal("occupied", f"{what} may not go on a catastrophe ({CELL_NAMES[cell]})")
    if state.occupied() & bit:
        raise _illegal("occupied", f"{what} needs an empty cell; {CELL_NAMES[cell]} holds a tile")


def _check_leader(state: State, colour: Colour, cell: Cell) -> None:
    seat = state.turn
    cur = state.leaders[seat * 4 + colour]
    if cur == cell:
        raise _illegal("same-cell", "a leader cannot be placed on the cell it stands on")
    # Lifting the leader empties only its own cell, which is not ``cell``.
    _check_empty(state, cell, "a leader")
    if state.options.board.rivers >> cell & 1:
        raise _illegal("leader-on-river", "leaders go only on land, never on a river")
    red = state.tiles[RED] & ~state.facedown
    if not NEIGHBOURS[cell] & red:
        raise _illegal("no-temple", "a leader must be placed next to a face-up temple (red tile)")
    rules = state.options.rules
    if state.cache is not None:  # legal_actions ran: the targets are a few masks away
        if not _leader_masks(state, seat, colour)[colour] >> cell & 1:
            raise _illegal(rules.blocked_code, rules.blocked_words)
        return
    # The ruleset's hook, asked about ``cell`` alone: the masks hold at most that cell.
    here = 1 << cur if cur >= 0 else 0
    occ = state.occupied() & ~here
    bit = 1 << cell
    kingdom_twos = bit if len(touching_kingdoms(occ, state.lmask & ~here, cell)) >= 2 else 0
    region_twos = 0
    if rules.needs_regions and len(touching_kingdoms(occ, occ, cell)) >= 2:
        region_twos = bit
    if rules.leader_blocked(occ, kingdom_twos, region_twos) & bit:
        raise _illegal(rules.blocked_code, rules.blocked_words)


def _check_catastrophe(state: State, cell: Cell) -> None:
    if not state.cats[state.turn]:
        raise _illegal("no-catastrophe", "you have no catastrophe tile left")
    bit = 1 << cell
    if state.catastrophes & bit:
        raise _illegal(
            "catastrophe-on-catastrophe", "a catastrophe may not be placed on another catastrophe"
        )
    if state.options.rules.catastrophe_targets(state) & bit:
        return
    if building_cells(state) & bit:
        raise _illegal(
            "catastrophe-on-building",
            "a catastrophe may not be placed on the tile of a civilization building",
        )
    if state.lmask & bit:
        raise _illegal("catastrophe-on-leader", "a catastrophe may not be placed on a leader")
    if state.catastrophes & bit:
        raise _illegal(
            "catastrophe-on-catastrophe", "a catastrophe may not be placed on another catastrophe"
        )
    if state.facedown & bit:
        raise _illegal(
            "catastrophe-on-monument", "a catastrophe may not be placed on a monument tile"
        )
    if state.treasures & bit:
        raise _illegal(
            "catastrophe-on-treasure", "a catastrophe may not be placed on a tile with a treasure"
        )


def _check_swap(state: State, counts: tuple[int, int, int, int]) -> None:
    total = sum(counts)
    if not 1 <= total <= 6:
        raise _illegal("swap-size", "a swap discards 1 to 6 tiles")
    seat = state.turn
    for colour, n in enumerate(counts):
        if n > state.hands[seat * 4 + colour]:
            raise _illegal(
                "swap-not-in-hand", f"you cannot swap {n} {COLOURS[colour]}: not in your hand"
            )


def _check_commit(state: State, n: int) -> None:
    c = conflict(state)
    sc = c.support_colour
    role = "attacker" if c.attacker_commit < 0 else "defender"
    if n > state.hands[c.owner * 4 + sc]:
        raise _illegal(
            "support-not-in-hand",
            f"you cannot commit {n}: support is {COLOURS[sc]} tiles from your hand",
        )
    if n not in commit_range(state):
        if role == "attacker":
            raise _illegal(
                "english-attacker",
                "English variant: the attacker may commit only to get ahead of the defender's base",
            )
        raise _illegal(
            "english-defender",
            "English variant: the defender may commit only to equal the attacker's total exactly",
        )


def check(state: State, action: Action) -> None:
    """Raise ``IllegalAction`` (naming the rule) unless ``action`` is legal now."""
    if state.over:
        raise _illegal("game-over", "the game is over")
    opts = state.options
    pending = state.pending
    d = pending[-1] if pending else None
    kind = type(d) if d is not None else None
    if not isinstance(action, ANSWERS[kind]):
        if isinstance(action, BuildWonder | TakePoint) and not opts.wonder:
            raise _illegal("no-wonder", "the wonder variant is not in play in this game")
        if isinstance(action, PlaceBuilding) and not opts.buildings:
            raise _illegal("no-buildings", "the buildings variant is not in play in this game")
        if isinstance(action, BuildMonument) and not opts.rules.monuments:
            raise _illegal("no-monuments", f"there are no monuments in the {opts.ruleset} ruleset")
        raise _illegal(
            "wrong-decision", f"the decision now is {DECISION_WORDS[kind]}, not {action}"
        )
    if isinstance(action, PlaceTile):
        _check_tile(state, action.colour, action.cell)
    elif isinstance(action, PlaceLeader):
        _check_leader(state, action.colour, action.cell)
    elif isinstance(action, Withdraw):
        if state.leaders[state.turn * 4 + action.colour] < 0:
            raise _illegal(
                "leader-off-board", f"your {COLOURS[action.colour]} leader is not on the board"
            )
    elif isinstance(action, PlaceCatastrophe):
        _check_catastrophe(state, action.cell)
    elif isinstance(action, Swap):
        _check_swap(state, action.counts)
    elif isinstance(action, Commit):
        _check_commit(state, action.n)
    elif isinstance(action, ChooseWar):
        assert isinstance(d, WarChoice)
        if action.colour not in d.colours:
            raise _illegal("no-such-war", f"there is no {COLOURS[action.colour]} war to choose")
    elif isinstance(action, BuildMonument):
        assert isinstance(d, MonumentOffer)
        _check_monument(state, d, action)
    elif isinstance(action, BuildWonder):
        assert isinstance(d, MonumentOffer)
        if not opts.wonder:
            raise _illegal("no-wonder", "the wonder variant is not in play in this game")
        if action.cell not in d.centres:
            where = ", ".join(CELL_NAMES[c] for c in d.centres) or "none"
            raise _illegal(
                "no-such-wonder",
                f"{CELL_NAMES[action.cell]} is not the centre of a plus of five face-up "
                f"{COLOURS[d.colour]} tiles the placed tile is part of (centres: {where})",
            )
    elif isinstance(action, PlaceBuilding):
        assert isinstance(d, BuildingOffer)
        if action.colour != d.colour:
            raise _illegal(
                "wrong-building",
                f"the offer is for the {COLOURS[d.colour]} building, "
                f"not the {COLOURS[action.colour]} one",
            )
        if not d.cells >> action.cell & 1:
            cells = ", ".join(CELL_NAMES[i] for i in cells_of(d.cells))
            raise _illegal(
                "no-such-building-cell",
                f"the {COLOURS[d.colour]} building may go only on a tile of the placed tile's "
                f"runs longer than its present one: {cells}",
            )
    elif isinstance(action, TakeTreasure):
        assert isinstance(d, TreasurePick | Harvest)
        if not d.cells >> action.cell & 1:
            specials = opts.board.specials
            if (
                isinstance(d, TreasurePick)
                and state.treasures >> action.cell & 1
                and d.cells & specials
            ):
                raise _illegal(
                    "special-first", "special treasures (corner temples) must be taken first"
                )
            cells = ", ".join(CELL_NAMES[i] for i in cells_of(d.cells))
            raise _illegal(
                "not-takeable",
                f"no treasure may be taken at {CELL_NAMES[action.cell]}; choose one of {cells}",
            )


def _check_monument(state: State, offer: MonumentOffer, action: BuildMonument) -> None:
    colour, blocks = offer.colour, offer.blocks
    if action.cell not in blocks:
        where = ", ".join(CELL_NAMES[t] for t in blocks)
        raise _illegal(
            "no-such-block",
            f"{CELL_NAMES[action.cell]} is not the top-left cell of a completed "
            f"{COLOURS[colour]} block (choose {where})",
        )
    if state.monuments[action.monument] >= 0:
        raise _illegal(
            "monument-built", f"the {MONUMENT_NAMES[action.monument]} monument is already built"
        )
    if colour not in MONUMENTS[action.monument]:
        raise _illegal(
            "monument-colour",
            f"the {MONUMENT_NAMES[action.monument]} monument has no {COLOURS[colour]} part",
        )


__all__ = [
    "check",
    "legal_actions",
    "legal_groups",
    "legal_notations",
    "sample_legal",
    "to_act",
    "war_colours",
]
