"""Observation tensors of one seat (seat-relative, so seat 0 is always "me").

``observe(view)`` returns ``(planes, features)``: ``planes`` has ``PLANES`` boards of 11×16
cells, ``features`` ``FEATURES`` numbers. Only what the view holds is used.

``observe_state(state, seat)`` builds the same arrays straight from the state, reading only
the fields ``player_view`` lets the seat see (the same allowlist: the board, public counts,
its own hand and swapped tiles, others' scores only under open scoring or once the game is
over): the planes are bitboards unpacked with numpy in one call, the features a short list
of counts divided in one go. The environments use it; tests/rl/test_fast_path.py proves it
equal to ``observe(player_view(state, seat))`` and blind to what the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import (
    BLOCKS,
    NCELLS,
    NEIGHBOURS,
    Board,
    BuildingOffer,
    Harvest,
    MonumentOffer,
    State,
    Support,
    TreasurePick,
    to_act,
    unseen_tiles,
)

COLOURS = ("red", "blue", "green", "black")
STAGES = (
    "action",
    "conflict",
    "war",
    "monument",
    "treasure",
    "building",
    "wonder_point",
    "harvest",
)

# Planes: 0-3 face-up tiles by colour, 4 face-down tiles, 5 treasures, 6 special treasure
# cells, 7 catastrophes, 8 rivers, 9-24 leaders (relative seat × colour), 25 union tile,
# 26 blocks offered for a monument, 27 treasures that may be taken now (a pick or the
# galaxy's harvest), 28 the wonder's five cells, 29 buildings (the tile's colour tells which),
# 30 wonder centres offered, 31 cells a building may go to now.
PLANES = 32
# Features: own hand (4), own score (5), visible scores of others (3 × 5, 0 when hidden),
# hand sizes (4), catastrophes left (4), leaders off board (4 × 4), bag size, unseen (4),
# actions left, stage (8), my role in a conflict (attacker, defender), conflict bases (2),
# attacker commitment, players (3: 2/3/4), my turn, I act now, the variants in play (wonder,
# buildings, galaxy ruleset), English variant, open scoring.
FEATURES = 4 + 5 + 15 + 4 + 4 + 16 + 1 + 4 + 1 + 8 + 2 + 2 + 1 + 3 + 1 + 1 + 3 + 2


def _rc(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - 97


def observe(view: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Planes (PLANES, 11, 16) and features (FEATURES,) as float32, relative to the seat."""
    seat = view["seat"] if view["seat"] is not None else 0
    n = view["options"]["players"]
    planes = np.zeros((PLANES, 11, 16), dtype=np.float32)
    for name, cell in view["cells"].items():
        r, c = _rc(name)
        if cell.get("catastrophe"):
            planes[7, r, c] = 1
            continue
        if cell.get("face_down"):
            planes[4, r, c] = 1
        else:
            planes[COLOURS.index(cell["tile"]), r, c] = 1
        if cell.get("treasure"):
            planes[5, r, c] = 1
    for r, row in enumerate(view["grid"]):
        for c, ch in enumerate(row):
            if ch == "C":
                planes[6, r, c] = 1
            elif ch == "~":
                planes[8, r, c] = 1
    for lead in view["leaders"]:
        r, c = _rc(lead["cell"])
        rel = (lead["seat"] - seat) % n
        planes[9 + rel * 4 + COLOURS.index(lead["colour"]), r, c] = 1
    pending = view.get("pending") or {}
    if pending.get("union"):
        r, c = _rc(pending["union"])
        planes[25, r, c] = 1
    for name in (pending.get("monument") or {}).get("blocks", []):
        r, c = _rc(name)
        planes[26, r : r + 2, c : c + 2] = 1
    for kind in ("treasure", "harvest"):
        for name in (pending.get(kind) or {}).get("cells", []):
            r, c = _rc(name)
            planes[27, r, c] = 1
    wonder = view["monuments"].get("wonder")
    if wonder:
        r, c = _rc(wonder)
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            planes[28, r + dr, c + dc] = 1
    for name in (view.get("buildings") or {}).values():
        r, c = _rc(name)
        planes[29, r, c] = 1
    for name in (pending.get("monument") or {}).get("centres", []):
        r, c = _rc(name)
        planes[30, r, c] = 1
    for name in (pending.get("building") or {}).get("cells", []):
        r, c = _rc(name)
        planes[31, r, c] = 1

    f: list[float] = []
    players = view["players"]
    me = players[seat]
    f += [me.get("hand", {}).get(c, 0) / 6 for c in COLOURS]
    own = me.get("score") or {}
    f += [own.get(k, 0) / 10 for k in (*COLOURS, "treasure")]
    for k in range(1, 4):
        p = players[(seat + k) % n] if k < n else None
        score = (p or {}).get("score") or {}
        f += [score.get(key, 0) / 10 for key in (*COLOURS, "treasure")]
    for k in range(4):
        p = players[(seat + k) % n] if k < n else None
        f.append((p["hand_size"] / 6) if p else 0.0)
    for k in range(4):
        p = players[(seat + k) % n] if k < n else None
        f.append((p["catastrophes"] / 2) if p else 0.0)
    for k in range(4):
        p = players[(seat + k) % n] if k < n else None
        off = p["leaders_off_board"] if p else []
        f += [1.0 if c in off else 0.0 for c in COLOURS]
    f.append(view["bag_size"] / 100)
    f += [view["unseen"][c] / 30 for c in COLOURS]
    f.append(view["turn"]["actions_left"] / 2)
    stage = pending.get("stage", "action") if pending else "action"
    f += [1.0 if stage == s else 0.0 for s in STAGES]
    conflict = pending.get("conflict") or {}
    f.append(1.0 if conflict.get("attacker") == seat else 0.0)
    f.append(1.0 if conflict.get("defender") == seat else 0.0)
    f.append(conflict.get("attacker_base", 0) / 10)
    f.append(conflict.get("defender_base", 0) / 10)
    commit = conflict.get("attacker_commit")
    f.append((commit or 0) / 6)
    f += [1.0 if n == k else 0.0 for k in (2, 3, 4)]
    f.append(1.0 if view["turn"]["player"] == seat else 0.0)
    f.append(1.0 if view["to_act"] == seat else 0.0)
    options = view["options"]
    f.append(1.0 if options.get("wonder") else 0.0)
    f.append(1.0 if options.get("buildings") else 0.0)
    f.append(1.0 if options.get("ruleset") == "galaxy" else 0.0)
    f.append(1.0 if options.get("english_variant") else 0.0)
    f.append(1.0 if options.get("open_scoring") else 0.0)
    features = np.asarray(f, dtype=np.float32)
    assert features.shape == (FEATURES,)
    return planes, features


#: The bytes of one plane's bitboard (a bit per cell, cell ``row * 16 + col``).
_PLANE_BYTES = (NCELLS + 7) // 8
assert _PLANE_BYTES * 8 == NCELLS
#: The bytes of every plane, one after the other.
_ALL_BYTES = PLANES * _PLANE_BYTES

#: The eight bits of each byte value as float32 0/1, lowest first (a cell per bit).
_BYTE_BITS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


#: What each feature is divided by, in ``observe``'s order (1: a count or a flag as it is).
_DIVISORS = np.array(
    [6.0] * 4
    + [10.0] * 5
    + [10.0] * 15
    + [6.0] * 4
    + [2.0] * 4
    + [1.0] * 16
    + [100.0]
    + [30.0] * 4
    + [2.0]
    + [1.0] * 8
    + [1.0] * 2
    + [10.0] * 2
    + [6.0]
    + [1.0] * 3
    + [1.0] * 2
    + [1.0] * 5
)
assert _DIVISORS.shape == (FEATURES,)

_STAGE_INDEX = {name: i for i, name in enumerate(STAGES)}
_NO_SCORE = [0, 0, 0, 0, 0]
_NO_CONFLICT = [0, 0, 0, 0, 0]
#: The stage as eight flags, by the stage's index in ``STAGES``.
_STAGE_HOT = [[1 if i == k else 0 for i in range(len(STAGES))] for k in range(len(STAGES))]

#: The other seats of a ``players``-seat game as ``seat`` sees them (in seat order after it),
#: by (players, seat).
_OTHERS = {
    (n, seat): tuple((seat + k) % n for k in range(1, n)) for n in (2, 3, 4) for seat in range(n)
}

#: Where the plane of each leader (``leaders[i]``: seat ``i >> 2``, colour ``i & 3``) starts in
#: ``_plane_bits`` as ``seat`` sees it, by (players, seat).
_LEADER_AT = {
    (n, seat): tuple((9 + ((i >> 2) - seat) % n * 4 + (i & 3)) * NCELLS for i in range(4 * n))
    for n in (2, 3, 4)
    for seat in range(n)
}


def observe_state(
    state: State,
    seat: int,
    planes: np.ndarray | None = None,
    features: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``observe(player_view(state, seat))`` built from the state without the view: planes
    (PLANES, 11, 16) and features (FEATURES,) as float32, written into ``planes`` and
    ``features`` when given. Reads only what ``player_view`` shows ``seat``."""
    n = state.options.players
    if not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in a {n}-player game")
    raw = np.frombuffer(_plane_bits(state, seat).to_bytes(_ALL_BYTES, "little"), dtype=np.uint8)
    unpacked = _BYTE_BITS.take(raw, axis=0).reshape(PLANES, 11, 16)
    if planes is None:
        planes = unpacked
    else:
        planes[...] = unpacked
    values = np.array(_feature_counts(state, seat), dtype=np.float64) / _DIVISORS
    if features is None:
        features = values.astype(np.float32)
    else:
        features[...] = values
    return planes, features


def observe_states(
    states: Sequence[State],
    seats: Sequence[int],
    planes: np.ndarray | None = None,
    features: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``observe_state`` of many states at once (state ``i`` seen by ``seats[i]``): planes
    (len(states), PLANES, 11, 16) and features (len(states), FEATURES), unpacked and divided
    in one call each (written into ``planes`` and ``features`` when given)."""
    if len(states) != len(seats):
        raise ValueError(f"{len(states)} states but {len(seats)} seats")
    data = []
    counts = []
    for state, seat in zip(states, seats, strict=True):
        n = state.options.players
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} in a {n}-player game")
        data.append(_plane_bits(state, seat).to_bytes(_ALL_BYTES, "little"))
        counts.append(_feature_counts(state, seat))
    raw = np.frombuffer(b"".join(data), dtype=np.uint8)
    unpacked = _BYTE_BITS.take(raw, axis=0).reshape(len(states), PLANES, 11, 16)
    if planes is None:
        planes = unpacked
    else:
        planes[...] = unpacked
    values = np.array(counts, dtype=np.float64).reshape(len(states), FEATURES) / _DIVISORS
    if features is None:
        features = values.astype(np.float32)
    else:
        features[...] = values
    return planes, features


#: The planes a board fixes (special treasure cells, rivers) as one int, by board id (the
#: board kept, so the id cannot be reused).
_BOARD_BITS: dict[int, tuple[Board, int]] = {}


def _board_bits(board: Board) -> int:
    hit = _BOARD_BITS.get(id(board))
    if hit is None or hit[0] is not board:
        if len(_BOARD_BITS) >= 64:
            _BOARD_BITS.clear()
        hit = _BOARD_BITS[id(board)] = (
            board,
            board.specials << 6 * NCELLS | board.rivers << 8 * NCELLS,
        )
    return hit[1]


def _plane_bits(state: State, seat: int) -> int:
    """Every plane's bitboard in one int, plane ``k`` at bit ``k * NCELLS`` (``observe``'s
    planes)."""
    opts = state.options
    n = opts.players
    tiles = state.tiles
    cats = state.catastrophes
    down = state.facedown
    up = ~(down | cats)
    placed = (tiles[0] | tiles[1] | tiles[2] | tiles[3]) & ~cats
    bits = (
        tiles[0] & up
        | (tiles[1] & up) << NCELLS
        | (tiles[2] & up) << 2 * NCELLS
        | (tiles[3] & up) << 3 * NCELLS
        | (placed & down) << 4 * NCELLS
        | (placed & state.treasures) << 5 * NCELLS
        | cats << 7 * NCELLS
        | _board_bits(opts.board)
    )
    leaders = state.leaders
    at = _LEADER_AT[n, seat]
    for i in range(len(leaders)):
        cell = leaders[i]
        if cell >= 0:
            bits |= 1 << (cell + at[i])
    if state.union >= 0:
        bits |= 1 << (state.union + 25 * NCELLS)
    d = state.decision
    if isinstance(d, MonumentOffer):
        for top_left in d.blocks:
            bits |= BLOCKS[top_left] << 26 * NCELLS
        for centre in d.centres:
            bits |= 1 << (centre + 30 * NCELLS)
    elif isinstance(d, TreasurePick | Harvest):
        bits |= d.cells << 27 * NCELLS
    elif isinstance(d, BuildingOffer):
        bits |= d.cells << 31 * NCELLS
    wonder = state.wonder
    if wonder >= 0:
        bits |= (1 << wonder | NEIGHBOURS[wonder]) << 28 * NCELLS
    if opts.buildings:
        for cell in state.buildings:
            if cell >= 0:
                bits |= 1 << (cell + 29 * NCELLS)
    return bits


def _feature_counts(state: State, seat: int) -> list[int]:
    """The features before division (``_DIVISORS``), from the fields the seat may see."""
    opts = state.options
    n = opts.players
    hands = state.hands
    scores = state.scores
    leaders = state.leaders
    cats = state.cats
    others = _OTHERS[n, seat]
    i = seat * 4
    out = hands[i : i + 4] + scores[seat * 5 : seat * 5 + 5]
    if opts.open_scoring or state.over:
        for p in others:
            out += scores[p * 5 : p * 5 + 5]
    else:
        out += _NO_SCORE * (n - 1)
    out += _NO_SCORE * (4 - n)
    sizes = [hands[i] + hands[i + 1] + hands[i + 2] + hands[i + 3]]
    catastrophes = [cats[seat]]
    off = [leaders[i] < 0, leaders[i + 1] < 0, leaders[i + 2] < 0, leaders[i + 3] < 0]
    for p in others:
        i = p * 4
        sizes.append(hands[i] + hands[i + 1] + hands[i + 2] + hands[i + 3])
        catastrophes.append(cats[p])
        off += [leaders[i] < 0, leaders[i + 1] < 0, leaders[i + 2] < 0, leaders[i + 3] < 0]
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
        opts.ruleset == "galaxy",
        opts.english_variant,
        opts.open_scoring,
    ]
    return out
