"""The codec's index of every action, without numpy: its blocks, ``encode``, ``decode`` and
the table ``ACTIONS`` (``codec`` describes the layout and re-exports all of it).

Standard library and engine only, like ``bits``, which reads ``INDEX_BY_ID`` to turn the
engine's interned actions into indices; the build compiles both with the engine
(``setup.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .. import (
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
    Pass,
    PlaceBuilding,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakePoint,
    TakeTreasure,
    Withdraw,
    parse_action,
    swap_action,
    swap_options,
)

SWAPS: Final = tuple(swap_options([6, 6, 6, 6]))
_SWAP_INDEX: Final = {counts: i for i, counts in enumerate(SWAPS)}

TILE_AT: Final = 0
LEADER_AT: Final = TILE_AT + 4 * NCELLS
WITHDRAW_AT: Final = LEADER_AT + 4 * NCELLS
CATASTROPHE_AT: Final = WITHDRAW_AT + 4
SWAP_AT: Final = CATASTROPHE_AT + NCELLS
PASS_AT: Final = SWAP_AT + len(SWAPS)
COMMIT_AT: Final = PASS_AT + 1
WAR_AT: Final = COMMIT_AT + 7
MONUMENT_AT: Final = WAR_AT + 4
DECLINE_AT: Final = MONUMENT_AT + 6 * NCELLS
TREASURE_AT: Final = DECLINE_AT + 1
CLASSIC_ACTIONS: Final = TREASURE_AT + NCELLS
WONDER_AT: Final = CLASSIC_ACTIONS
POINT_AT: Final = WONDER_AT + NCELLS
BUILDING_AT: Final = POINT_AT + 4
NUM_ACTIONS: Final = BUILDING_AT + 4 * NCELLS

#: The codec's version: 1 had the classic blocks only; 2 appended the variants' blocks.
CODEC_VERSION: Final = 2


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
ACTIONS: Final[tuple[Action, ...]] = tuple([_decode(i) for i in range(NUM_ACTIONS)])

#: Index by ``id`` of the actions in ``ACTIONS``: the engine hands out its interned actions
#: (tiles, leaders, swaps, …), found here without hashing; others go through ``encode``.
#: ``ACTIONS`` keeps them alive, so an id found here is the object's own.
INDEX_BY_ID: Final[dict[int, int]] = {id(a): i for i, a in enumerate(ACTIONS)}


def mask_of(legal: Iterable[Action | str]) -> list[int]:
    """A 0/1 list of length ``NUM_ACTIONS`` marking the given legal actions."""
    mask = [0] * NUM_ACTIONS
    for a in legal:
        mask[encode(a)] = 1
    return mask


def indices_of(actions: Iterable[Action]) -> list[int]:
    """The indices of action objects, without their notation (the inverse of ``ACTIONS``)."""
    get = INDEX_BY_ID.get
    out = []
    for a in actions:
        i = get(id(a))
        out.append(encode(a) if i is None else i)
    return out
