"""Legality: the one source of which actions are allowed now.

The turn actions are computed as sets of target cells per kind and colour (``targets``);
``legal_actions`` expands them into interned action objects, ``sample_legal`` draws one
uniformly without building the list. Why an action is not allowed, in the rule's words, is
``checks.check``'s to say.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

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
from .kingdoms import (
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
    count_word,
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
    word,
)
from .words import flood as region

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain ``int`` to the interpreter
    pass

# Per-byte bit positions, to walk a set of cells 8 cells at a time.
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
    return leader_masks(state, seat)[colour]


def leader_masks(state: State, seat: Seat, only: Colour = -1) -> list[Words]:
    """``leader_targets`` of ``seat``'s four leaders (or of the ``only`` one, the others
    0): land cells next to a face-up temple, empty once the leader is lifted (not its own
    cell), and not blocked by the ruleset (classic: touching two kingdoms). Lifting a leader
    changes only its own kingdom (it may split or lose its crown), so the counts of the board
    are corrected for that kingdom alone (``lifted_twos``)."""
    occ = state.occupied()
    cache = _cached(state)
    ks = cache.kingdoms
    twos = cache.twos
    counts = (cache.ones, twos, cache.threes)
    red = minus(state.tiles_of(RED), state.facedown)
    rivers = state.options.board.rivers
    base = inter(invert(union(union(occ, state.catastrophes), rivers)), union(red, halo(red)))
    rules = state.options.rules
    regions: tuple[Words, ...] = ()
    region_counts = (EMPTY, EMPTY, EMPTY)
    if rules.needs_regions:
        regions = regions_of(state)
        ones, rtwos, rthrees, _ = touch_counts(regions)
        region_counts = (ones, rtwos, rthrees)
    leaders = state.leaders
    lmask = state.lmask
    out: list[Words] = []
    for colour in range(4):
        if only >= 0 and colour != only:
            out.append(EMPTY)
            continue
        cur = leaders[seat * 4 + colour]
        if cur < 0:
            blocked = rules.leader_blocked(occ, twos, region_counts[1])
        else:
            home = EMPTY
            for k in ks:
                if has(k, cur):
                    home = k
                    break
            kingdom_twos = lifted_twos(counts, home, cur, lmask)
            other_twos = EMPTY
            if rules.needs_regions:
                for r in regions:
                    if has(r, cur):
                        home = r
                        break
                other_twos = lifted_twos(region_counts, home, cur, home)
            blocked = rules.leader_blocked(without_cell(occ, cur), kingdom_twos, other_twos)
        out.append(minus(base, blocked))
    return out


def catastrophe_targets(state: State) -> Words:
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


def _expand(mask: Words, kind: int, out: list[Action]) -> None:
    """Append the actions of ``kind`` on the cells of ``mask``, in cell order (a word is six
    bytes: byte ``j`` of word ``q`` is byte ``6q + j`` of the board)."""
    chunks = _action_chunks(kind)
    for q in range(4):
        x = word(mask, q)
        if x:
            for j in range(6):
                b = (x >> (8 * j)) & 255
                if b:
                    out.extend(chunks[q * 6 + j][b])


def _expand_texts(mask: Words, kind: int, out: list[str]) -> None:
    """``_expand``, the notations instead of the actions."""
    chunks = _text_chunks(kind)
    for q in range(4):
        x = word(mask, q)
        if x:
            for j in range(6):
                b = (x >> (8 * j)) & 255
                if b:
                    out.extend(chunks[q * 6 + j][b])


def _kth(mask: Words, k: int) -> Cell:
    """The ``k``-th cell of ``mask`` in cell order."""
    for q in range(4):
        x = word(mask, q)
        n = count_word(x)
        if k >= n:
            k -= n
            continue
        for j in range(6):
            b = (x >> (8 * j)) & 255
            if b:
                bits = _BYTE_BITS[b]
                if k < len(bits):
                    return (q * 6 + j) * 8 + bits[k]
                k -= len(bits)
    raise IndexError(k)


def _turn_groups(
    state: State,
) -> tuple[list[Words], list[int], list[Action], list[Action]]:
    """The turn actions: the masks of target cells with the kind of each (the index of its
    table in ``KIND_ACTIONS``: tiles, leaders, the catastrophe), the withdrawals, and the
    swaps (a shared list: do not mutate); then ``pass``."""
    seat = state.turn
    h = state.hands
    i = seat * 4
    hand = (h[i], h[i + 1], h[i + 2], h[i + 3])
    masks: list[Words] = []
    kinds: list[int] = []
    if hand[0] or hand[1] or hand[2] or hand[3]:
        threes = _cached(state).threes
        free = invert(union(union(state.occupied(), state.catastrophes), threes))
        rivers = state.options.board.rivers
        land = minus(free, rivers)
        for colour in range(4):
            if hand[colour]:
                m = inter(free, rivers) if colour == BLUE else land
                if not empty(m):
                    masks.append(m)
                    kinds.append(colour)
    lm = leader_masks(state, seat)
    for colour in range(4):
        m = lm[colour]
        if not empty(m):
            masks.append(m)
            kinds.append(4 + colour)
    if state.cats[seat]:
        m = catastrophe_targets(state)
        if not empty(m):
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


def legal_groups(state: State) -> tuple[list[Words], list[tuple[Action, ...]], list[Action]]:
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
    sizes = [count(m) for m in masks]
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
