"""The turn's legal actions as integers (``TurnGroups``: sets of target cells by kind,
bits, the hand whose swaps are open) and their expansion into interned actions and
notations through tables (``KIND_ACTIONS``, ``KIND_TEXTS``, the swaps by hand).

``legal.turn_groups`` fills a ``TurnGroups`` from a state; ``legal_actions`` and
``legal_notations`` expand it, ``sample_legal`` and the research adapters' masks read it as
it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from .actions import (
    CATASTROPHE_ACTIONS,
    LEADER_ACTIONS,
    TILE_ACTIONS,
    TREASURE_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
    swap_action,
)
from .types import Cell, Words
from .words import EMPTY, count, count_word, word

# Per-byte bit positions, to walk a set of cells 8 cells at a time.
_BYTE_BITS: Final = tuple(tuple(o for o in range(8) if b >> o & 1) for b in range(256))
_NBYTES: Final = 22

#: The kinds of groups of target cells (``turn_groups``), each the index of its table of
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
#: The notation of each withdrawal, by colour.
WITHDRAW_TEXTS: Final = tuple(str(a) for a in WITHDRAW_ACTIONS)
#: Where the notations' tables start among the tables ``expand`` reads: table ``k`` is the
#: actions of kind ``k`` (``KIND_ACTIONS``), table ``TEXTS + k`` their notations.
TEXTS: Final = 10
#: By table (filled on first use), what the set bits of every byte of a set of cells stand
#: for: ``[table][byte index][byte value]`` is the tuple of those actions or notations, in
#: cell order.
_CHUNKS: Final[list[tuple[tuple[tuple[object, ...], ...], ...] | None]] = [None] * 20


#: The swaps open to a hand and their notations, by the hand's counts packed in one int
#: (``_hand_key``), filled on first use.
_SWAP_LISTS: list[list[Action] | None] = [None] * 4096
_SWAP_TEXTS: list[list[str] | None] = [None] * 4096


def _hand_key(r: int, b: int, g: int, k: int) -> int:
    """The index of a hand in ``_SWAP_LISTS``: three bits a colour (-1 for a hand holding
    eight or more of a colour, which only a position written by hand can)."""
    if r > 7 or b > 7 or g > 7 or k > 7:
        return -1
    return r | b << 3 | g << 6 | k << 9


def swap_actions(hand: list[int] | tuple[int, int, int, int]) -> list[Action]:
    """The swap actions open to ``hand`` (shared per hand; do not mutate)."""
    key = _hand_key(hand[0], hand[1], hand[2], hand[3])
    if key < 0:
        return [swap_action(t) for t in swap_options(hand)]
    acts = _SWAP_LISTS[key]
    if acts is None:
        acts = _SWAP_LISTS[key] = [swap_action(t) for t in swap_options(hand)]
    return acts


def swap_texts(hand: tuple[int, int, int, int], swaps: list[Action]) -> list[str]:
    """The notations of ``swaps``, the swaps open to ``hand`` (shared per hand)."""
    key = _hand_key(hand[0], hand[1], hand[2], hand[3])
    if key < 0:
        return [str(a) for a in swaps]
    texts = _SWAP_TEXTS[key]
    if texts is None:
        texts = _SWAP_TEXTS[key] = [str(a) for a in swaps]
    return texts


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


def _chunks(table: int) -> tuple[tuple[tuple[object, ...], ...], ...]:
    chunks = _CHUNKS[table]
    if chunks is None:
        items: tuple[object, ...] = (
            KIND_ACTIONS[table] if table < TEXTS else KIND_TEXTS[table - TEXTS]
        )
        chunks = _CHUNKS[table] = tuple(
            tuple(tuple(items[i * 8 + o] for o in bits) for bits in _BYTE_BITS)
            for i in range(_NBYTES)
        )
    return chunks


def expand(mask: Words, table: int, out: list[object], at: int) -> int:
    """Write what table ``table`` holds for the cells of ``mask`` (the actions of a kind, or
    their notations: ``TEXTS``) into ``out`` from index ``at`` on, in cell order; the index
    after the last one written. ``out`` is made at its final size first
    (``TurnGroups.size``), and typed ``object`` here so that writing an item checks no
    type. A word is six bytes: byte ``j`` of word ``q`` is byte ``6q + j`` of the board."""
    chunks = _chunks(table)
    for q in range(4):
        x = word(mask, q)
        byte = q * 6
        while x:
            b = x & 255
            if b:
                for item in chunks[byte][b]:
                    out[at] = item
                    at += 1
            x >>= 8
            byte += 1
    return at


def kth_cell(mask: Words, k: int) -> Cell:
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


#: The number of kinds of the turn's groups (tiles 0–3, leaders 4–7, the catastrophe 8).
TURN_KINDS: Final = 9


class TurnGroups:
    """The turn player's legal actions as integers, without an object per action: the
    target cells of each kind (``cells(kind)``; ``kinds`` has bit ``k`` set when kind ``k``,
    ``KIND_ACTIONS``' index, has a cell: the tiles of each colour 0–3, the leaders 4–7, the
    catastrophe 8), the leaders that may be withdrawn (``withdrawals``, bit ``c``: colour
    ``c``), the swaps open to the hand (``hand``: its counts, ``swaps``: a shared list) and
    ``pass``, in the order of ``legal_actions``. The sets are fields, machine words in the
    compiled core, not a list of boxed sets."""

    __slots__ = (
        "hand",
        "kinds",
        "m0",
        "m1",
        "m2",
        "m3",
        "m4",
        "m5",
        "m6",
        "m7",
        "m8",
        "swaps",
        "withdrawals",
    )

    def __init__(self, hand: tuple[int, int, int, int], swaps: list[Action]) -> None:
        self.hand = hand
        self.swaps = swaps
        self.kinds = 0
        self.withdrawals = 0
        self.m0 = self.m1 = self.m2 = self.m3 = self.m4 = EMPTY
        self.m5 = self.m6 = self.m7 = self.m8 = EMPTY

    def cells(self, kind: int) -> Words:
        """The target cells of ``kind``."""
        if kind < 4:
            if kind < 2:
                return self.m0 if kind == 0 else self.m1
            return self.m2 if kind == 2 else self.m3
        if kind < 8:
            if kind < 6:
                return self.m4 if kind == 4 else self.m5
            return self.m6 if kind == 6 else self.m7
        return self.m8

    def put(self, kind: int, cells: Words) -> None:
        """Set the target cells of ``kind`` (not empty)."""
        self.kinds |= 1 << kind
        if kind == 0:
            self.m0 = cells
        elif kind == 1:
            self.m1 = cells
        elif kind == 2:
            self.m2 = cells
        elif kind == 3:
            self.m3 = cells
        elif kind == 4:
            self.m4 = cells
        elif kind == 5:
            self.m5 = cells
        elif kind == 6:
            self.m6 = cells
        elif kind == 7:
            self.m7 = cells
        else:
            self.m8 = cells

    def size(self) -> int:
        """How many legal actions: the cells of every kind, the withdrawals, the swaps and
        ``pass``."""
        n = 1 + len(self.swaps)
        w = self.withdrawals
        for c in range(4):
            n += w >> c & 1
        kinds = self.kinds
        for kind in range(TURN_KINDS):
            if kinds >> kind & 1:
                n += count(self.cells(kind))
        return n

    def __repr__(self) -> str:
        groups = ", ".join(
            f"{kind}: {count(self.cells(kind))} cells"
            for kind in range(TURN_KINDS)
            if self.kinds >> kind & 1
        )
        return (
            f"<TurnGroups {{{groups}}}, withdrawals {self.withdrawals:04b}, "
            f"{len(self.swaps)} swaps of {self.hand}>"
        )
