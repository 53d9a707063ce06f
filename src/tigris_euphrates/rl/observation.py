"""Observation tensors of one seat (seat-relative, so seat 0 is always "me").

``observe(view)`` returns ``(planes, features)``: ``planes`` has ``PLANES`` boards of 11×16
cells, ``features`` ``FEATURES`` numbers. Only what the view holds is used.

``observe_state(state, seat)`` builds the same arrays straight from the state, reading only
the fields ``player_view`` lets the seat see (the same allowlist: the board, public counts,
its own hand and swapped tiles, others' scores only under open scoring or once the game is
over): ``bits`` (numpy-free, compiled with the engine when the build compiles) gives the
planes as one bitboard int, unpacked here with numpy in one call, and the features as a
short list of counts, divided here in one go. The environments use it;
tests/rl/test_fast_path.py proves it equal to ``observe(player_view(state, seat))`` and
blind to what the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import DEFAULT_RULESET, NCELLS, RULESETS, State
from .bits import DIVISORS, STAGES, feature_counts, plane_bits

COLOURS = ("red", "blue", "green", "black")

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
    planes = _view_planes(view, seat, n)
    features = np.asarray(_view_features(view, seat, n), dtype=np.float32)
    assert features.shape == (FEATURES,)
    return planes, features


def _view_planes(view: dict[str, Any], seat: int, n: int) -> np.ndarray:
    """The planes of ``view`` (listed above ``PLANES``), the leaders' by seat relative to
    ``seat``."""
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
    return planes


def _view_features(view: dict[str, Any], seat: int, n: int) -> list[float]:
    """The features of ``view`` (listed above ``FEATURES``), relative to ``seat``."""
    pending = view.get("pending") or {}
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
    rules = RULESETS[options.get("ruleset") or DEFAULT_RULESET]
    f.append(1.0 if rules.harvest_treasures else 0.0)
    f.append(1.0 if options.get("english_variant") else 0.0)
    f.append(1.0 if options.get("open_scoring") else 0.0)
    return f


#: The bytes of one plane's bitboard (a bit per cell, cell ``row * 16 + col``).
_PLANE_BYTES = (NCELLS + 7) // 8
assert _PLANE_BYTES * 8 == NCELLS
#: The bytes of every plane, one after the other.
_ALL_BYTES = PLANES * _PLANE_BYTES

#: What each feature is divided by (``bits.DIVISORS``), in ``observe``'s order.
_DIVISORS = np.array(DIVISORS)
assert _DIVISORS.shape == (FEATURES,)

#: The eight bits of each byte value as float32 0/1, lowest first (a cell per bit).
_BYTE_BITS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


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
    raw = np.frombuffer(plane_bits(state, seat).to_bytes(_ALL_BYTES, "little"), dtype=np.uint8)
    unpacked = _BYTE_BITS.take(raw, axis=0).reshape(PLANES, 11, 16)
    if planes is None:
        planes = unpacked
    else:
        planes[...] = unpacked
    values = np.array(feature_counts(state, seat), dtype=np.float64) / _DIVISORS
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
        data.append(plane_bits(state, seat).to_bytes(_ALL_BYTES, "little"))
        counts.append(feature_counts(state, seat))
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
