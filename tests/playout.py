"""The random-playout invariant checker shared by every suite.

``play_random_game`` plays a seeded game through the public API (``legal_actions`` +
``apply``) and checks the invariants of DESIGN.md after every step; ``check_invariants``
can be called on any state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tigris_euphrates import (
    apply,
    from_position,
    legal_actions,
    make_record,
    new_game,
    replay,
    result,
    to_act,
    to_position,
)
from tigris_euphrates.engine import Support
from tigris_euphrates.engine.board import FULL, NEIGHBOURS, TILE_TOTALS, dilate
from tigris_euphrates.engine.kingdoms import kingdoms, touch_counts
from tigris_euphrates.engine.state import State
from tigris_euphrates.engine.wonder import plus_of

MAX_STEPS = 5000


def check_invariants(s: State) -> None:
    """Assert everything that must hold between any two decisions."""
    n = s.options.players
    board = s.options.board
    tiles = s.tiles
    # Tiles conserved: board + hands + bag + out of the game = 153, colour by colour.
    bag = s.bag[s.bag_pos :]
    for c in range(4):
        total = (
            tiles[c].bit_count()
            + sum(s.hands[p * 4 + c] for p in range(n))
            + bag.count(c)
            + s.out_public[c]
            + sum(s.swapped[p * 4 + c] for p in range(n))
        )
        assert total == TILE_TOTALS[c], f"colour {c}: {total} tiles, expected {TILE_TOTALS[c]}"
    # Pieces do not overlap; terrain is respected.
    for a in range(4):
        for b in range(a + 1, 4):
            assert not tiles[a] & tiles[b]
    any_tile = tiles[0] | tiles[1] | tiles[2] | tiles[3]
    assert tiles[1] & ~board.rivers == 0, "blue tiles only on rivers"
    assert (tiles[0] | tiles[2] | tiles[3]) & board.rivers == 0, "other tiles only on land"
    assert not s.catastrophes & (any_tile | s.lmask)
    assert s.treasures & ~any_tile == 0, "treasures lie on tiles"
    assert s.facedown & ~any_tile == 0
    assert (s.treasures & ~board.temples) == 0, "treasures never move"
    # One leader per seat per colour, each on its own empty land cell next to a temple.
    cells = [c for c in s.leaders if c >= 0]
    assert len(set(cells)) == len(cells)
    mask = 0
    for c in cells:
        mask |= 1 << c
    assert mask == s.lmask
    assert not s.lmask & (any_tile | board.rivers | s.catastrophes)
    if not s.pending and s.union < 0:
        red_up = tiles[0] & ~s.facedown
        for c in cells:
            assert NEIGHBOURS[c] & red_up, "a leader stands next to a face-up temple"
    # No kingdom holds two leaders of one colour once conflicts are over.
    if not any(isinstance(d, Support) for d in s.pending) and s.union < 0:
        occ = any_tile | s.lmask
        for k in kingdoms(occ, s.lmask):
            colours = [i & 3 for i, c in enumerate(s.leaders) if c >= 0 and k >> c & 1]
            assert len(colours) == len(set(colours)), "two leaders of a colour in a kingdom"
    assert dilate(FULL) == FULL
    # Hands hold at most six tiles; scores and counts are never negative.
    for p in range(n):
        assert 0 <= sum(s.hands[p * 4 : p * 4 + 4]) <= 6
        assert min(s.hands[p * 4 : p * 4 + 4]) >= 0
        assert 0 <= s.cats[p] <= 2
    assert min(s.scores) >= 0
    # Variants: each building on a face-up tile of its colour; the wonder on five face-down
    # tiles; no monument or wonder in the galaxy ruleset.
    for colour, cell in enumerate(s.buildings):
        if cell >= 0:
            assert s.options.buildings
            assert (tiles[colour] & ~s.facedown) >> cell & 1, "a building stands on its colour"
    if s.wonder >= 0:
        assert s.options.wonder
        plus = plus_of(s.wonder)
        assert plus and plus & s.facedown == plus, "the wonder stands on five face-down tiles"
    if s.options.ruleset == "galaxy":
        assert s.facedown == 0 and max(s.monuments) < 0, "no monuments in the galaxy"
    # What play keeps up to date piece by piece (regions, the legality cache) is what a count
    # from scratch finds.
    occ = s.occupied()
    if s.regions is not None:
        assert sorted(s.regions) == sorted(kingdoms(occ, occ)), "regions kept in step"
    if s.cache is not None:
        ks = kingdoms(occ, s.lmask)
        ones, twos, threes, fours = touch_counts(ks)
        twos_, threes_, ks_, ones_, fours_ = s.cache
        assert sorted(ks_) == sorted(ks), "cached kingdoms kept in step"
        assert (ones_, twos_, threes_, fours_) == (ones, twos, threes, fours), "cached counts"
    if not s.over:
        assert to_act(s) is not None
        assert legal_actions(s), "the player to act always has a legal action"
    else:
        assert to_act(s) is None and legal_actions(s) == []


def check_position_round_trip(s: State) -> None:
    pos = to_position(s)
    again = from_position(json.loads(json.dumps(pos)))
    assert again == s, "position round trip"
    assert to_position(again) == pos


def choose(rng: random.Random, legal: list[Any]) -> Any:
    """Random play that prefers building to swapping, so games also end on treasures."""
    a = rng.choice(legal)
    for _ in range(3):
        if a.kind not in ("swap", "pass", "catastrophe", "withdraw"):
            break
        a = rng.choice(legal)
    return a


def play_random_game(
    options: dict[str, Any], seed: int, *, round_trip_every: int = 7
) -> tuple[State, dict[str, Any]]:
    """Play a checked random game; returns the final state and its record."""
    rng = random.Random(seed * 7919 + 1)
    s = new_game(options, seed)
    actions = []
    for step in range(MAX_STEPS):
        check_invariants(s)
        if step % round_trip_every == 0:
            check_position_round_trip(s)
        if s.over:
            break
        a = choose(rng, legal_actions(s))
        before = to_position(s) if step % round_trip_every == 0 else None
        s2, events = apply(s, a)
        if before is not None:
            assert to_position(s) == before, "apply leaves the given state untouched"
        assert events
        actions.append(a)
        s = s2
    else:
        raise AssertionError(f"game did not end in {MAX_STEPS} steps")
    check_position_round_trip(s)
    record = make_record(options, actions, seed=seed, final=s)
    record = json.loads(json.dumps(record))
    assert replay(record) == s, "replay reproduces the game"
    assert record["result"] == result(s)
    return s, record
