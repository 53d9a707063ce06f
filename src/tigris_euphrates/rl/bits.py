"""The integer work of the research adapters' fast path, without numpy: a seat's observation
planes as one bitboard int (``plane_bits``), its features as counts before division
(``feature_counts``, flags as bools), and the legal actions as one int of codec indices
(``legal_bits``).

``observation`` and ``codec`` turn these into numpy arrays in a call or two. This module
needs only the standard library and the engine, so the build compiles it with mypyc in the
engine's group (``setup.py``; the engine's functions and its ``State`` are then called
natively); ``rl._core`` runs it from this source when there is no matching build or
``TNE_PURE_PYTHON`` is set, with the same results.

Only the fields ``player_view`` shows the seat are read: the board, public counts, its own
hand and swapped tiles, others' scores only under open scoring or once the game is over.
"""

from __future__ import annotations

from typing import Final

from .. import (
    BLOCKS,
    CATASTROPHE_ACTIONS,
    KIND_ACTIONS,
    LEADER_ACTIONS,
    NCELLS,
    NEIGHBOURS,
    NO_CELLS,
    PASS,
    TILE_ACTIONS,
    TURN_KINDS,
    WITHDRAW_ACTIONS,
    Action,
    Board,
    BuildingOffer,
    Harvest,
    MonumentOffer,
    State,
    Support,
    TreasurePick,
    inter,
    legal_groups,
    minus,
    to_act,
    to_mask,
    turn_groups,
    union,
    unseen_tiles,
    with_cell,
)
from .indices import INDEX_BY_ID, encode, indices_of

#: The decision stages of the features' one-hot, in order (no decision: ``action``).
STAGES: Final = (
    "action",
    "conflict",
    "war",
    "monument",
    "treasure",
    "building",
    "wonder_point",
    "harvest",
)

#: What each feature is divided by, in ``observation.observe``'s order (1: a count or a flag
#: as it is): own hand (4), own score (5), others' scores (15), hand sizes (4), catastrophes
#: (4), leaders off the board (16), bag size, unseen (4), actions left, stage (8), conflict
#: role (2), bases (2), attacker commitment, players (3), my turn, I act now, options (5).
DIVISORS: Final[tuple[float, ...]] = (
    (6.0,) * 4
    + (10.0,) * 5
    + (10.0,) * 15
    + (6.0,) * 4
    + (2.0,) * 4
    + (1.0,) * 16
    + (100.0,)
    + (30.0,) * 4
    + (2.0,)
    + (1.0,) * 8
    + (1.0,) * 2
    + (10.0,) * 2
    + (6.0,)
    + (1.0,) * 3
    + (1.0,) * 2
    + (1.0,) * 5
)

_STAGE_INDEX: Final = {name: i for i, name in enumerate(STAGES)}
_NO_SCORE: Final = [0, 0, 0, 0, 0]
_NO_CONFLICT: Final = [0, 0, 0, 0, 0]
#: The stage as eight flags, by the stage's index in ``STAGES``.
_STAGE_HOT: Final = [[1 if i == k else 0 for i in range(len(STAGES))] for k in range(len(STAGES))]

#: The other seats of a ``players``-seat game as ``seat`` sees them (in seat order after it),
#: at ``players * 4 + seat``.
_OTHERS: Final[list[tuple[int, ...]]] = [
    tuple([(seat + k) % n for k in range(1, n)]) if n >= 2 and seat < n else ()
    for n in range(5)
    for seat in range(4)
]

#: Where the planes of each seat's leaders (red, blue, green, black, one plane each) start in
#: ``plane_bits`` as ``seat`` sees it, at ``players * 4 + seat``.
_LEADER_AT: Final[list[tuple[int, ...]]] = [
    tuple([(9 + (p - seat) % n * 4) * NCELLS for p in range(n)]) if n >= 2 and seat < n else ()
    for n in range(5)
    for seat in range(4)
]

#: The planes a board fixes (special treasure cells, rivers) as one int, by board id (the
#: board kept, so the id cannot be reused).
_BOARD_BITS: Final[dict[int, tuple[Board, int]]] = {}


def _board_bits(board: Board) -> int:
    hit = _BOARD_BITS.get(id(board))
    if hit is None or hit[0] is not board:
        if len(_BOARD_BITS) >= 64:
            _BOARD_BITS.clear()
        hit = (board, to_mask(board.specials) << 6 * NCELLS | to_mask(board.rivers) << 8 * NCELLS)
        _BOARD_BITS[id(board)] = hit
    return hit[1]


def plane_bits(state: State, seat: int) -> int:
    """Every plane's bitboard in one int, plane ``k`` at bit ``k * NCELLS``
    (``observation.observe``'s planes): each plane's set of cells found on words, then made
    an int once (``to_mask``)."""
    opts = state.options
    n = opts.players
    tiles = state.tiles
    red = tiles[0]
    blue = tiles[1]
    green = tiles[2]
    black = tiles[3]
    cats = state.catastrophes
    down = state.facedown
    hidden = union(down, cats)  # not face up
    placed = minus(union(union(red, blue), union(green, black)), cats)
    bits = (
        to_mask(minus(red, hidden))
        | to_mask(minus(blue, hidden)) << NCELLS
        | to_mask(minus(green, hidden)) << 2 * NCELLS
        | to_mask(minus(black, hidden)) << 3 * NCELLS
        | to_mask(inter(placed, down)) << 4 * NCELLS
        | to_mask(inter(placed, state.treasures)) << 5 * NCELLS
        | to_mask(cats) << 7 * NCELLS
        | _board_bits(opts.board)
    )
    at = _LEADER_AT[n * 4 + seat]
    for p in range(n):
        plane = at[p]
        for cell in state.leaders_of(p):
            if cell >= 0:
                bits |= 1 << (cell + plane)
            plane += NCELLS
    if state.union >= 0:
        bits |= 1 << (state.union + 25 * NCELLS)
    d = state.decision
    if isinstance(d, MonumentOffer):
        blocks = NO_CELLS
        for top_left in d.blocks:
            blocks = union(blocks, BLOCKS[top_left])
        bits |= to_mask(blocks) << 26 * NCELLS
        for centre in d.centres:
            bits |= 1 << (centre + 30 * NCELLS)
    elif isinstance(d, TreasurePick | Harvest):
        bits |= to_mask(d.cells) << 27 * NCELLS
    elif isinstance(d, BuildingOffer):
        bits |= to_mask(d.cells) << 31 * NCELLS
    wonder = state.wonder
    if wonder >= 0:
        bits |= to_mask(with_cell(NEIGHBOURS[wonder], wonder)) << 28 * NCELLS
    if opts.buildings:
        for cell in state.buildings:
            if cell >= 0:
                bits |= 1 << (cell + 29 * NCELLS)
    return bits


def feature_counts(state: State, seat: int) -> list[int]:
    """The features before division (``DIVISORS``), from the fields the seat may see."""
    opts = state.options
    n = opts.players
    cats = state.cats
    others = _OTHERS[n * 4 + seat]
    hand = state.hand(seat)
    out = [*hand, *state.score(seat)]
    if opts.open_scoring or state.over:
        for p in others:
            out += state.score(p)
    else:
        out += _NO_SCORE * (n - 1)
    out += _NO_SCORE * (4 - n)
    sizes = [hand[0] + hand[1] + hand[2] + hand[3]]
    catastrophes = [cats[seat]]
    off = [cell < 0 for cell in state.leaders_of(seat)]
    for p in others:
        h = state.hand(p)
        sizes.append(h[0] + h[1] + h[2] + h[3])
        catastrophes.append(cats[p])
        off += [cell < 0 for cell in state.leaders_of(p)]
    missing = 4 - n
    out += sizes
    out += [0] * missing
    out += catastrophes
    out += [0] * missing
    out += off
    out += [0] * (4 * missing)
    out.append(state.bag_left)
    out += unseen_tiles(state, seat)
    out.append(state.actions_left)
    d = state.decision
    out += _STAGE_HOT[_STAGE_INDEX[d.name] if d is not None else 0]
    if isinstance(d, Support):
        out += [
            d.attacker == seat,
            d.defender == seat,
            d.attacker_base,
            d.defender_base,
            max(d.attacker_commit, 0),
        ]
    else:
        out += _NO_CONFLICT
    out += [n == 2, n == 3, n == 4, state.turn == seat, to_act(state) == seat]
    out += [
        opts.wonder,
        opts.buildings,
        opts.rules.harvest_treasures,
        opts.english_variant,
        opts.open_scoring,
    ]
    return out


#: The first index of each table of actions by cell that ``legal_groups`` hands out, by the
#: table's id; ``_TABLES`` keeps the tables alive, so an id found here is the table's own.
_TABLE_AT: Final[dict[int, int]] = {}
_TABLES: Final[list[tuple[Action, ...]]] = []


def _table_at(table: tuple[Action, ...]) -> int:
    """The index of ``table[0]``, checked to start a block where ``table[c]`` has the index
    after it plus ``c`` (remembered)."""
    at = _TABLE_AT.get(id(table))
    if at is None:
        at = encode(table[0])
        if len(table) != NCELLS or encode(table[-1]) != at + NCELLS - 1:
            raise ValueError(f"the actions from {table[0]} are not a block of the codec by cell")
        _TABLES.append(table)
        _TABLE_AT[id(table)] = at
    return at


for _table in (*TILE_ACTIONS, *LEADER_ACTIONS, CATASTROPHE_ACTIONS):
    _table_at(_table)


#: The bits (bit ``i``: index ``i``) of lists of interned actions (``legal_groups``' other
#: actions), by the ids of the actions: an id of ``INDEX_BY_ID`` is an action ``ACTIONS``
#: keeps alive, so a key made only of such ids always means the same actions. Cleared when
#: full.
_REST_BITS: Final[dict[tuple[int, ...], int]] = {}


def _rest_bits(rest: list[Action]) -> int:
    key = tuple([id(a) for a in rest])
    bits = _REST_BITS.get(key)
    if bits is None:
        bits = 0
        for a in rest:
            i = INDEX_BY_ID.get(id(a))
            if i is None:  # actions the engine makes afresh (monuments, buildings, …)
                bits = 0
                for index in indices_of(rest):
                    bits |= 1 << index
                return bits
            bits |= 1 << i
        if len(_REST_BITS) >= 20_000:
            _REST_BITS.clear()
        _REST_BITS[key] = bits
    return bits


#: The first codec index of the actions of each kind of ``TurnGroups`` (``KIND_ACTIONS``).
_KIND_AT: Final = tuple([_table_at(KIND_ACTIONS[kind]) for kind in range(TURN_KINDS)])
#: The bits of the withdrawals by ``TurnGroups.withdrawals`` (bit ``c``: colour ``c``).
_WITHDRAW_BITS: Final = tuple(
    [
        sum(1 << INDEX_BY_ID[id(WITHDRAW_ACTIONS[c])] for c in range(4) if w >> c & 1)
        for w in range(16)
    ]
)
_PASS_BIT: Final = 1 << INDEX_BY_ID[id(PASS)]
#: The bits of the swaps open to a hand, by the hand (filled on first use).
_SWAP_BITS: Final[dict[tuple[int, int, int, int], int]] = {}


def legal_bits(state: State) -> int:
    """The legal actions of the player to act as one int, bit ``i`` for index ``i``: between
    decisions read from ``turn_groups`` (each set of target cells made an int, ``to_mask``,
    and shifted to its block; the withdrawals, the swaps of the hand and ``pass`` from
    tables), else the answers to the decision by their indices. No action object is made,
    no notation read."""
    if state.over or state.pending:
        rest = legal_groups(state)[2]
        return _rest_bits(rest) if rest else 0
    groups = turn_groups(state)
    swaps = _SWAP_BITS.get(groups.hand)
    if swaps is None:
        swaps = _SWAP_BITS[groups.hand] = _rest_bits(groups.swaps) if groups.swaps else 0
    bits = swaps | _WITHDRAW_BITS[groups.withdrawals] | _PASS_BIT
    kinds = groups.kinds
    for kind in range(TURN_KINDS):
        if kinds >> kind & 1:
            bits |= to_mask(groups.cells(kind)) << _KIND_AT[kind]
    return bits
