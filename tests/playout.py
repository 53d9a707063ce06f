"""The random-playout invariant checker shared by every suite.

``play_random_game`` plays a seeded game through the public API (``legal_actions`` +
``apply``) and checks the invariants of DESIGN.md after every step; ``check_invariants``
can be called on any state, ``check_conservation`` on any state reached from a new game, and
``check_views`` on any state of a game in progress.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tigris_euphrates import (
    ALL_CELLS,
    NEIGHBOURS,
    TILE_TOTALS,
    CatastrophePlaced,
    Event,
    State,
    Support,
    TreasureLost,
    TreasureTaken,
    apply,
    cell_index,
    dilate,
    from_position,
    kingdoms,
    legal_actions,
    make_record,
    new_game,
    player_view,
    replay,
    result,
    spectator_view,
    to_act,
    to_position,
)

# the engine's internals the invariants look at (tests/engine uses this module)
from tigris_euphrates.engine.kingdoms import touch_counts
from tigris_euphrates.engine.state import CATASTROPHES
from tigris_euphrates.engine.wonder import plus_of
from tigris_euphrates.engine.words import to_mask, to_words


def cells_of(mask: int) -> list[int]:
    """The cells of a 176-bit mask, ascending."""
    return [c for c in range(176) if mask >> c & 1]


def mask_kingdoms(occupied: int, leaders: int) -> list[int]:
    """The engine's ``kingdoms`` on 176-bit masks."""
    return [to_mask(k) for k in kingdoms(to_words(occupied), to_words(leaders))]


class Sets:
    """A state's sets of cells (and its board's) as 176-bit ints, for checks written on the
    int."""

    def __init__(self, s: State) -> None:
        self.tiles = [to_mask(t) for t in s.tiles]
        self.facedown = to_mask(s.facedown)
        self.treasures = to_mask(s.treasures)
        self.catastrophes = to_mask(s.catastrophes)
        self.lmask = to_mask(s.lmask)
        self.rivers = to_mask(s.options.board.rivers)
        self.temples = to_mask(s.options.board.temples)


MAX_STEPS = 5000


def check_invariants(s: State) -> None:
    """Assert everything that must hold between any two decisions."""
    n = s.options.players
    board = sets = Sets(s)
    tiles = sets.tiles
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
    assert not sets.catastrophes & (any_tile | sets.lmask)
    assert sets.treasures & ~any_tile == 0, "treasures lie on tiles"
    assert sets.facedown & ~any_tile == 0
    assert (sets.treasures & ~board.temples) == 0, "treasures never move"
    # One leader per seat per colour, each on its own empty land cell next to a temple.
    cells = [c for c in s.leaders if c >= 0]
    assert len(set(cells)) == len(cells)
    mask = 0
    for c in cells:
        mask |= 1 << c
    assert mask == sets.lmask
    assert not sets.lmask & (any_tile | board.rivers | sets.catastrophes)
    if not s.pending and s.union < 0:
        red_up = tiles[0] & ~sets.facedown
        for c in cells:
            assert to_mask(NEIGHBOURS[c]) & red_up, "a leader stands next to a face-up temple"
    # No kingdom holds two leaders of one colour once conflicts are over.
    if not any(isinstance(d, Support) for d in s.pending) and s.union < 0:
        occ = any_tile | sets.lmask
        for k in mask_kingdoms(occ, sets.lmask):
            colours = [i & 3 for i, c in enumerate(s.leaders) if c >= 0 and k >> c & 1]
            assert len(colours) == len(set(colours)), "two leaders of a colour in a kingdom"
    assert dilate(ALL_CELLS) == ALL_CELLS
    # Hands hold at most six tiles; scores and counts are never negative.
    for p in range(n):
        assert 0 <= sum(s.hands[p * 4 : p * 4 + 4]) <= 6
        assert min(s.hands[p * 4 : p * 4 + 4]) >= 0
        assert 0 <= s.cats[p] <= 2
    assert min(s.scores) >= 0
    # Variants: each building on a face-up tile of its colour; the wonder on five face-down
    # tiles; no monument or wonder where the ruleset has none (the galaxy).
    for colour, cell in enumerate(s.buildings):
        if cell >= 0:
            assert s.options.buildings
            assert (tiles[colour] & ~sets.facedown) >> cell & 1, "a building stands on its colour"
    if s.wonder >= 0:
        assert s.options.wonder
        plus = to_mask(plus_of(s.wonder))
        assert plus and plus & sets.facedown == plus, "the wonder stands on five face-down tiles"
    if not s.options.rules.monuments:
        assert sets.facedown == 0 and max(s.monuments) < 0, "no monuments where the rules have none"
    # What play keeps up to date piece by piece (regions and their touch counts, the legality
    # cache) is what a count from scratch finds.
    occ = to_mask(s.occupied())
    if s.regions is not None:
        regions = sorted(to_mask(r) for r in s.regions)
        assert regions == sorted(mask_kingdoms(occ, occ)), "regions kept in step"
        if s.region_counts is not None:
            every = touch_counts([to_words(r) for r in regions])
            assert s.region_counts == every, "the regions' touch counts kept in step"
    if s.cache is not None:
        ks = mask_kingdoms(occ, sets.lmask)
        counts = touch_counts([to_words(k) for k in ks])
        c = s.cache
        assert sorted(to_mask(k) for k in c.kingdoms) == sorted(ks), "cached kingdoms in step"
        assert (c.ones, c.twos, c.threes, c.fours) == counts, "cached counts"
    if not s.over:
        assert to_act(s) is not None
        assert legal_actions(s), "the player to act always has a legal action"
    else:
        assert to_act(s) is None and legal_actions(s) == []


def check_conservation(s: State, lost: int) -> None:
    """Assert that catastrophes and treasures are conserved since the start of a new game.

    Catastrophes: those on the board plus those left in the hands are two per player.
    Treasures: those on the board, those taken (the players' treasure counts) and ``lost``
    (galaxy: artifacts destroyed by a weapon ship or removed with their tile in a war, which
    the state does not count: the caller counts the ``TreasureLost`` events) are the board's
    starting treasures, one on each temple.
    """
    n = s.options.players
    on_board = to_mask(s.catastrophes).bit_count()
    in_hands = sum(s.cats)
    assert on_board + in_hands == CATASTROPHES * n, (
        f"catastrophes: {on_board} on the board + {in_hands} in hands, expected {CATASTROPHES * n}"
    )
    taken = sum(s.scores[p * 5 + 4] for p in range(n))
    start = to_mask(s.options.board.temples).bit_count()
    treasures = to_mask(s.treasures).bit_count()
    assert treasures + taken + lost == start, (
        f"treasures: {treasures} on the board + {taken} taken + {lost} lost, expected {start}"
    )


def check_step_accounting(before: State, after: State, events: list[Event]) -> int:
    """Assert that the treasures and catastrophes an action moved are the ones its events name;
    returns how many treasures it lost.

    Every treasure gone from the board is named by exactly one ``TreasureTaken`` (and scored
    by that seat) or ``TreasureLost`` event, and none appears; treasures are lost only where
    catastrophes fall anywhere or wars are total (the galaxy). Every new catastrophe is named
    by a ``CatastrophePlaced`` event and comes out of the turn player's hand; none leaves the
    board.
    """
    n = before.options.players
    b, a = Sets(before), Sets(after)
    assert not a.treasures & ~b.treasures, "no treasure appears"
    taken = [e for e in events if isinstance(e, TreasureTaken)]
    lost = [e for e in events if isinstance(e, TreasureLost)]
    named = sorted([cell_index(e.cell) for e in taken] + [cell_index(e.cell) for e in lost])
    assert named == cells_of(b.treasures & ~a.treasures), "treasures gone = events"
    for p in range(n):
        gained = after.scores[p * 5 + 4] - before.scores[p * 5 + 4]
        assert gained == sum(e.seat == p for e in taken), f"seat {p}'s treasures = its events"
    if lost:
        rules = before.options.rules
        assert rules.catastrophes_anywhere or rules.total_war, (
            "a treasure is lost only to a catastrophe that may fall on it or to a total war"
        )
    assert not b.catastrophes & ~a.catastrophes, "catastrophes stay on the board"
    placed = [e for e in events if isinstance(e, CatastrophePlaced)]
    new = cells_of(a.catastrophes & ~b.catastrophes)
    assert sorted(cell_index(e.cell) for e in placed) == new, "new catastrophes = events"
    for p in range(n):
        spent = before.cats[p] - after.cats[p]
        assert spent == sum(e.seat == p for e in placed), f"seat {p}'s catastrophes = events"
    return len(lost)


def resample_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A copy with what ``seat`` cannot see shuffled: the other seats' hands, their swapped
    tiles and the bag, among themselves (``None``: every seat's, for a spectator)."""
    s = state.copy()
    n = s.options.players
    others = [p for p in range(n) if p != seat]
    pool: list[int] = list(s.bag[s.bag_pos :])
    for p in others:
        for c in range(4):
            pool += [c] * (s.hands[p * 4 + c] + s.swapped[p * 4 + c])
    rng.shuffle(pool)
    for p in others:
        size = sum(s.hands[p * 4 : p * 4 + 4])
        gone = sum(s.swapped[p * 4 : p * 4 + 4])
        for c in range(4):
            s.hands[p * 4 + c] = 0
            s.swapped[p * 4 + c] = 0
        for _ in range(size):
            s.hands[p * 4 + pool.pop()] += 1
        for _ in range(gone):
            s.swapped[p * 4 + pool.pop()] += 1
    s.bag = tuple(pool)
    s.bag_pos = 0
    return s


def check_views(s: State, rng: random.Random) -> None:
    """Assert that each seat's view, and the spectator's, is unchanged when what it cannot
    see (other hands, their swapped tiles, the bag order) is resampled. For games in
    progress: at the end everything is revealed."""
    assert not s.over
    for seat in range(s.options.players):
        other = resample_hidden(s, seat, rng)
        assert player_view(other, seat) == player_view(s, seat), f"seat {seat}'s view"
    assert spectator_view(resample_hidden(s, None, rng)) == spectator_view(s), "spectator view"


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
    options: dict[str, Any],
    seed: int,
    *,
    round_trip_every: int = 7,
    views_every: int = 64,
) -> tuple[State, dict[str, Any]]:
    """Play a checked random game; returns the final state and its record.

    Views are checked (``check_views``) every ``views_every`` steps and at the first
    decision of each kind (a support, a war choice, a monument, building or treasure offer,
    the wonder point, the harvest) met in the game, which keeps that check to a few states
    per game while reaching every kind of pending decision the game meets.
    """
    rng = random.Random(seed * 7919 + 1)
    view_rng = random.Random(seed * 7919 + 2)
    s = new_game(options, seed)
    actions = []
    lost = 0
    seen: set[type] = set()
    for step in range(MAX_STEPS):
        check_invariants(s)
        check_conservation(s, lost)
        if step % round_trip_every == 0:
            check_position_round_trip(s)
        if s.over:
            break
        kind = type(s.decision)
        if step % views_every == 0 or kind not in seen:
            seen.add(kind)
            check_views(s, view_rng)
        a = choose(rng, legal_actions(s))
        before = to_position(s) if step % round_trip_every == 0 else None
        s2, events = apply(s, a)
        if before is not None:
            assert to_position(s) == before, "apply leaves the given state untouched"
        assert events
        lost += check_step_accounting(s, s2, events)
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
