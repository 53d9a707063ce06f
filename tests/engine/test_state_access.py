"""The ``State`` accessors read and write the flattened per-seat lists, and the engine
package exports everything other packages import."""

from __future__ import annotations

import random

import tigris_euphrates.engine as engine
from tigris_euphrates.engine import State, apply, legal_actions, new_game


def _played(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    s = new_game({"players": 3}, seed=seed)
    for _ in range(plies):
        if s.over:
            break
        s, _ = apply(s, rng.choice(legal_actions(s)))
    return s


def test_readers_match_the_flat_lists() -> None:
    s = _played(5, 60)
    for seat in range(s.players):
        assert s.hand(seat) == tuple(s.hands[seat * 4 : seat * 4 + 4])
        assert s.score(seat) == tuple(s.scores[seat * 5 : seat * 5 + 5])
        assert s.leaders_of(seat) == tuple(s.leaders[seat * 4 : seat * 4 + 4])
        assert s.swapped_of(seat) == tuple(s.swapped[seat * 4 : seat * 4 + 4])
        for colour in range(4):
            assert s.hand_count(seat, colour) == s.hands[seat * 4 + colour]
            assert s.leader(seat, colour) == s.leaders[seat * 4 + colour]


def test_writers_touch_one_seat_only() -> None:
    s = new_game({"players": 3}, seed=2)
    before = s.copy()
    w = s.copy()
    w.clear_hand(1)
    assert w.hand(1) == (0, 0, 0, 0)
    w.add_to_hand(1, 2)
    w.add_to_hand(1, 0, 3)
    w.add_swapped(1, 3, 2)
    assert w.hand(1) == (3, 0, 1, 0)
    assert w.swapped_of(1) == (0, 0, 0, 2)
    for seat in (0, 2):
        assert w.hand(seat) == s.hand(seat)
        assert w.swapped_of(seat) == (0, 0, 0, 0)
    assert s == before


def test_the_package_exports_what_it_lists() -> None:
    for name in engine.__all__:
        assert hasattr(engine, name), name
    assert engine.ALL_CELLS == (1 << engine.NCELLS) - 1
