"""A fixed integer encoding of every action (3926 indices), stable across versions.

Blocks, in order: tile (colour × cell), leader (colour × cell), withdraw (colour),
catastrophe (cell), swap (the 209 count vectors of 1–6 tiles, in ``swap_options`` order),
pass, commit 0–6, war (colour), monument (monument × top-left cell), decline,
treasure (cell; also the galaxy's harvest) — the 3042 indices of version 1, the classic game —
then, appended in version 2 for the variants: wonder (centre cell), point (colour), building
(colour × cell). An index never changes meaning: new actions get new blocks at the end.
Cells are ``row * 16 + col``; colours red, blue, green, black.

``ACTIONS`` holds the action of every index (``decode`` reads it); ``legal_mask(state)`` is
the mask of the legal actions read straight from the engine's ``legal_groups`` (bitboards of
target cells, the few other actions by a table of indices), equal to ``mask_of`` of
``legal_actions`` (tests/rl/test_fast_path.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..engine import (
    CATASTROPHE_ACTIONS,
    COMMIT_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    NCELLS,
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
    IllegalAction,
    Pass,
    PlaceBuilding,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    State,
    Swap,
    TakePoint,
    TakeTreasure,
    Withdraw,
    check,
    legal_groups,
    parse_action,
    swap_action,
    swap_options,
)

SWAPS = tuple(swap_options([6, 6, 6, 6]))
_SWAP_INDEX = {counts: i for i, counts in enumerate(SWAPS)}

TILE_AT = 0
LEADER_AT = TILE_AT + 4 * NCELLS
WITHDRAW_AT = LEADER_AT + 4 * NCELLS
CATASTROPHE_AT = WITHDRAW_AT + 4
SWAP_AT = CATASTROPHE_AT + NCELLS
PASS_AT = SWAP_AT + len(SWAPS)
COMMIT_AT = PASS_AT + 1
WAR_AT = COMMIT_AT + 7
MONUMENT_AT = WAR_AT + 4
DECLINE_AT = MONUMENT_AT + 6 * NCELLS
TREASURE_AT = DECLINE_AT + 1
CLASSIC_ACTIONS = TREASURE_AT + NCELLS
WONDER_AT = CLASSIC_ACTIONS
POINT_AT = WONDER_AT + NCELLS
BUILDING_AT = POINT_AT + 4
NUM_ACTIONS = BUILDING_AT + 4 * NCELLS

#: The codec's version: 1 had the classic blocks only; 2 appended the variants' blocks.
CODEC_VERSION = 2


def encode(action: Action | str) -> int:
    """The index of an action (object or notation)."""
    a = parse_action(action) if isinstance(action, str) else action
    if isinstance(a, PlaceTile):
        return TILE_AT + a.colour * NCELLS + a.cell
    if isinstance(a, PlaceLeader):
        return LEADER_AT + a.colour * NCELLS + a.cell
    if isinstance(a, Withdraw):
        return WITHDRAW_AT + a.colour
    if isinstance(a, PlaceCatastrophe):
        return CATASTROPHE_AT + a.cell
    if isinstance(a, Swap):
        return SWAP_AT + _SWAP_INDEX[a.counts]
    if isinstance(a, Pass):
        return PASS_AT
    if isinstance(a, Commit):
        if a.n > 6:
            raise ValueError("commitments above 6 cannot occur (a hand holds 6 tiles)")
        return COMMIT_AT + a.n
    if isinstance(a, ChooseWar):
        return WAR_AT + a.colour
    if isinstance(a, BuildMonument):
        return MONUMENT_AT + a.monument * NCELLS + a.cell
    if isinstance(a, Decline):
        return DECLINE_AT
    if isinstance(a, TakeTreasure):
        return TREASURE_AT + a.cell
    if isinstance(a, BuildWonder):
        return WONDER_AT + a.cell
    if isinstance(a, TakePoint):
        return POINT_AT + a.colour
    if isinstance(a, PlaceBuilding):
        return BUILDING_AT + a.colour * NCELLS + a.cell
    raise ValueError(f"{a} has no index in the codec")


def decode(index: int) -> Action:
    """The action of an index (the inverse of ``encode``)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} out of range 0..{NUM_ACTIONS - 1}")
    return ACTIONS[index]


def _decode(index: int) -> Action:
    if index < LEADER_AT:
        return TILE_ACTIONS[index // NCELLS][index % NCELLS]
    if index < WITHDRAW_AT:
        i = index - LEADER_AT
        return LEADER_ACTIONS[i // NCELLS][i % NCELLS]
    if index < CATASTROPHE_AT:
        return WITHDRAW_ACTIONS[index - WITHDRAW_AT]
    if index < SWAP_AT:
        return CATASTROPHE_ACTIONS[index - CATASTROPHE_AT]
    if index < PASS_AT:
        return swap_action(SWAPS[index - SWAP_AT])
    if index == PASS_AT:
        return PASS
    if index < WAR_AT:
        return COMMIT_ACTIONS[index - COMMIT_AT]
    if index < MONUMENT_AT:
        return WAR_ACTIONS[index - WAR_AT]
    if index < DECLINE_AT:
        i = index - MONUMENT_AT
        return BuildMonument(i // NCELLS, i % NCELLS)
    if index == DECLINE_AT:
        return DECLINE
    if index < WONDER_AT:
        return TREASURE_ACTIONS[index - TREASURE_AT]
    if index < POINT_AT:
        return BuildWonder(index - WONDER_AT)
    if index < BUILDING_AT:
        return TakePoint(index - POINT_AT)
    i = index - BUILDING_AT
    return PlaceBuilding(i // NCELLS, i % NCELLS)


#: The action of every index, made once (the interned actions of the engine where it has them).
ACTIONS: tuple[Action, ...] = tuple(_decode(i) for i in range(NUM_ACTIONS))

#: Index by ``id`` of the actions in ``ACTIONS``: the engine hands out its interned actions
#: (tiles, leaders, swaps, …), found here without hashing; others go through ``encode``.
#: ``ACTIONS`` keeps them alive, so an id found here is the object's own.
_INDEX_BY_ID: dict[int, int] = {id(a): i for i, a in enumerate(ACTIONS)}

#: The bytes of a mask of every index, one bit per index.
_MASK_BYTES = (NUM_ACTIONS + 7) // 8

#: The first index of each table of actions by cell that ``legal_groups`` hands out, by the
#: table's id; ``_TABLES`` keeps the tables alive, so an id found here is the table's own.
_TABLE_AT: dict[int, int] = {}
_TABLES: list[tuple[Action, ...]] = []


def mask_of(legal: Iterable[Action | str]) -> list[int]:
    """A 0/1 list of length ``NUM_ACTIONS`` marking the given legal actions."""
    mask = [0] * NUM_ACTIONS
    for a in legal:
        mask[encode(a)] = 1
    return mask


def indices_of(actions: Iterable[Action]) -> list[int]:
    """The indices of action objects, without their notation (the inverse of ``ACTIONS``)."""
    get = _INDEX_BY_ID.get
    out = []
    for a in actions:
        i = get(id(a))
        out.append(encode(a) if i is None else i)
    return out


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
#: actions), by the ids of the actions: an id of ``_INDEX_BY_ID`` is an action ``ACTIONS``
#: keeps alive, so a key made only of such ids always means the same actions. Cleared when
#: full.
_REST_BITS: dict[tuple[int, ...], int] = {}


def _rest_bits(rest: list[Action]) -> int:
    key = tuple(map(id, rest))
    bits = _REST_BITS.get(key)
    if bits is None:
        bits = 0
        try:
            for i in map(_INDEX_BY_ID.__getitem__, key):
                bits |= 1 << i
        except KeyError:  # actions the engine makes afresh (monuments, buildings, …)
            bits = 0
            for i in indices_of(rest):
                bits |= 1 << i
            return bits
        if len(_REST_BITS) >= 20_000:
            _REST_BITS.clear()
        _REST_BITS[key] = bits
    return bits


def legal_bits(state: State) -> int:
    """The legal actions of the player to act as one int, bit ``i`` for index ``i``, read
    from ``legal_groups``: each mask of target cells shifted to its block, the other actions
    by their indices (no action object is made, no notation read)."""
    masks, tables, rest = legal_groups(state)
    bits = _rest_bits(rest) if rest else 0
    table_at = _TABLE_AT.get
    for g in range(len(masks)):
        at = table_at(id(tables[g]))
        bits |= masks[g] << (_table_at(tables[g]) if at is None else at)
    return bits


def legal_mask(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """The legal actions of the player to act as a bool array of ``NUM_ACTIONS`` (all False
    once the game is over), written into ``out`` when given: ``legal_bits`` unpacked. The
    same as ``mask_of(legal_actions(state))``."""
    raw = np.frombuffer(legal_bits(state).to_bytes(_MASK_BYTES, "little"), dtype=np.uint8)
    mask = np.unpackbits(raw, count=NUM_ACTIONS, bitorder="little").view(bool)
    if out is None:
        return mask
    out[...] = mask
    return out


def legal_masks(states: Sequence[State], out: np.ndarray | None = None) -> np.ndarray:
    """``legal_mask`` of each state, as a bool array (len(states), NUM_ACTIONS), unpacked in
    one call (written into ``out`` when given)."""
    data = b"".join([legal_bits(s).to_bytes(_MASK_BYTES, "little") for s in states])
    raw = np.frombuffer(data, dtype=np.uint8).reshape(len(states), _MASK_BYTES)
    masks = np.unpackbits(raw, axis=1, count=NUM_ACTIONS, bitorder="little").view(bool)
    if out is None:
        return masks
    out[...] = masks
    return out


def checked_action(state: State, mask: np.ndarray | Sequence[int], index: int) -> Action:
    """The action of ``index`` when ``mask`` (``legal_mask(state)``) marks it; else the
    engine's ``check`` decides, and an ``IllegalAction`` naming the index, the action and the
    rule is raised (nothing is changed)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} out of range 0..{NUM_ACTIONS - 1}")
    action = ACTIONS[index]
    if not mask[index]:
        try:
            check(state, action)
        except IllegalAction as e:
            raise IllegalAction(
                e.code, f"action index {index} ({action}) is not legal now: {e.message}"
            ) from None
    return action
