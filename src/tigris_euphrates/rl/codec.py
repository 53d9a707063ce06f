"""A fixed integer encoding of every action (3926 indices), stable across versions.

Blocks, in order: tile (colour × cell), leader (colour × cell), withdraw (colour),
catastrophe (cell), swap (the 209 count vectors of 1–6 tiles, in ``swap_options`` order),
pass, commit 0–6, war (colour), monument (monument × top-left cell), decline,
treasure (cell; also the galaxy's harvest) — the 3042 indices of version 1, the classic game —
then, appended in version 2 for the variants: wonder (centre cell), point (colour), building
(colour × cell). An index never changes meaning: new actions get new blocks at the end.
Cells are ``row * 16 + col``; colours red, blue, green, black.

``ACTIONS`` holds the action of every index (``decode`` reads it); ``legal_mask(state)`` is
the mask of the legal actions read straight from the engine's ``turn_groups`` (sets of
target cells by kind, the other actions by tables of indices), equal to ``mask_of`` of
``legal_actions`` (tests/rl/test_fast_path.py).

The numpy-free half lives in ``indices`` (the blocks, ``encode``, ``decode``, ``ACTIONS``)
and ``bits`` (``legal_bits``: the mask as one int), which the build compiles with the
engine; this module re-exports them and unpacks masks with numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import Action, IllegalAction, State, check
from .bits import legal_bits
from .indices import (
    ACTIONS,
    BUILDING_AT,
    CATASTROPHE_AT,
    CLASSIC_ACTIONS,
    CODEC_VERSION,
    COMMIT_AT,
    DECLINE_AT,
    LEADER_AT,
    MONUMENT_AT,
    NUM_ACTIONS,
    PASS_AT,
    POINT_AT,
    SWAP_AT,
    SWAPS,
    TILE_AT,
    TREASURE_AT,
    WAR_AT,
    WITHDRAW_AT,
    WONDER_AT,
    decode,
    encode,
    indices_of,
    mask_of,
)

__all__ = [
    "ACTIONS",
    "BUILDING_AT",
    "CATASTROPHE_AT",
    "CLASSIC_ACTIONS",
    "CODEC_VERSION",
    "COMMIT_AT",
    "DECLINE_AT",
    "LEADER_AT",
    "MONUMENT_AT",
    "NUM_ACTIONS",
    "PASS_AT",
    "POINT_AT",
    "SWAPS",
    "SWAP_AT",
    "TILE_AT",
    "TREASURE_AT",
    "WAR_AT",
    "WITHDRAW_AT",
    "WONDER_AT",
    "checked_action",
    "decode",
    "encode",
    "indices_of",
    "legal_bits",
    "legal_mask",
    "legal_masks",
    "mask_of",
    "unpack_mask",
]

#: The bytes of a mask of every index, one bit per index.
_MASK_BYTES = (NUM_ACTIONS + 7) // 8


def unpack_mask(bits: int) -> np.ndarray:
    """The mask of ``legal_bits`` as a new uint8 array of ``NUM_ACTIONS`` 0/1 values (view
    it as bool or int8 without a copy)."""
    raw = np.frombuffer(bits.to_bytes(_MASK_BYTES, "little"), dtype=np.uint8)
    mask: np.ndarray = np.unpackbits(raw, count=NUM_ACTIONS, bitorder="little")
    return mask


def legal_mask(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """The legal actions of the player to act as a bool array of ``NUM_ACTIONS`` (all False
    once the game is over), written into ``out`` when given: ``legal_bits`` unpacked. The
    same as ``mask_of(legal_actions(state))``."""
    mask = unpack_mask(legal_bits(state)).view(bool)
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


def checked_action(state: State, legal: np.ndarray | Sequence[int] | int, index: int) -> Action:
    """The action of ``index`` when ``legal`` (``legal_mask(state)``, or ``legal_bits(state)``
    as an int) marks it; else the engine's ``check`` decides, and an ``IllegalAction`` naming
    the index, the action and the rule is raised (nothing is changed)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} out of range 0..{NUM_ACTIONS - 1}")
    action = ACTIONS[index]
    marked = legal >> index & 1 if isinstance(legal, int) else legal[index]
    if not marked:
        try:
            check(state, action)
        except IllegalAction as e:
            raise IllegalAction(
                e.code, f"action index {index} ({action}) is not legal now: {e.message}"
            ) from None
    return action
