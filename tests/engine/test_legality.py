"""One source of legality: ``check``/``apply`` accept exactly what ``legal_actions`` lists,
and a refused action names its rule and leaves the state untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tigris_euphrates import (
    KIND_ACTIONS,
    NO_CELLS,
    TURN_KINDS,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    to_position,
    turn_groups,
)
from tigris_euphrates.engine import (
    NCELLS,
    BuildWonder,
    MonumentOffer,
    PlaceBuilding,
    TakePoint,
)
from tigris_euphrates.engine.actions import (
    CATASTROPHE_ACTIONS,
    COMMIT_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    PASS,
    TILE_ACTIONS,
    TREASURE_ACTIONS,
    WAR_ACTIONS,
    WITHDRAW_ACTIONS,
    Action,
    BuildMonument,
    swap_action,
)
from tigris_euphrates.engine.board import BLOCKS
from tigris_euphrates.engine.checks import check
from tigris_euphrates.engine.legal import legal_groups, legal_notations, sample_legal
from tigris_euphrates.engine.play import apply_unchecked
from tigris_euphrates.engine.state import State
from tigris_euphrates.engine.words import cells_of


def universe(state: State) -> list[Action]:
    """Every action worth trying in ``state`` (a superset of the legal ones)."""
    acts: list[Action] = []
    for c in range(4):
        acts.extend(TILE_ACTIONS[c])
        acts.extend(LEADER_ACTIONS[c])
    acts.extend(WITHDRAW_ACTIONS)
    acts.extend(CATASTROPHE_ACTIONS)
    acts.extend(TREASURE_ACTIONS)
    acts.extend(COMMIT_ACTIONS)
    acts.extend(WAR_ACTIONS)
    acts += [PASS, DECLINE]
    hand = state.hands[state.turn * 4 : state.turn * 4 + 4]
    for r in range(hand[0] + 2):
        for b in range(hand[1] + 2):
            for g in range(hand[2] + 2):
                for k in range(hand[3] + 2):
                    if 0 < r + b + g + k <= 7:
                        acts.append(swap_action((r, b, g, k)))
    offer = state.decision
    if isinstance(offer, MonumentOffer):
        near = {t + d for t in offer.blocks for d in (-17, -16, -1, 0, 1, 16)}
        acts += [BuildMonument(m, t) for m in range(6) for t in near if t in BLOCKS]
    acts += [BuildWonder(i) for i in range(NCELLS)]
    acts += [TakePoint(c) for c in range(4)]
    acts += [PlaceBuilding(c, i) for c in range(4) for i in range(NCELLS)]
    return acts


#: The option sets the legality tests sample: the classic game, the wonder and the
#: buildings together, and the galaxy ruleset.
VARIANTS: list[dict[str, Any]] = [{}, {"wonder": True, "buildings": True}, {"ruleset": "galaxy"}]


def sample_states(
    seed: int, players: int, every: int = 9, variant: dict[str, Any] | None = None
) -> list[State]:
    rng = random.Random(seed)
    options = {"players": players, "english_variant": seed % 2 == 1, **(variant or {})}
    state = new_game(options, seed)
    out = []
    step = 0
    while not state.over:
        if step % every == 0 or state.pending:
            out.append(state)
        state = apply_unchecked(state, sample_legal(state, rng))
        step += 1
    return out


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 2)])
def test_check_agrees_with_legal_actions(seed: int, players: int, variant: int) -> None:
    """``check`` accepts exactly ``legal_actions``, in the classic game and the variants."""
    for state in sample_states(seed, players, variant=VARIANTS[variant])[:60]:
        legal = set(legal_actions(state))
        accepted = set()
        for a in universe(state):
            try:
                check(state, a)
            except IllegalAction as e:
                assert e.message and e.code
                continue
            accepted.add(a)
        missing = {str(a) for a in legal - accepted}
        extra = {str(a) for a in accepted - legal}
        assert not missing and not extra, (missing, extra, state)


def test_refused_actions_leave_the_state_untouched() -> None:
    rng = random.Random(5)
    for state in sample_states(5, 3, every=25)[:20]:
        before = to_position(state)
        legal = set(legal_actions(state))
        tried = 0
        for a in rng.sample(universe(state), 200):
            if a in legal:
                continue
            with pytest.raises(IllegalAction):
                apply(state, a)
            tried += 1
        assert tried
        assert to_position(state) == before


def test_sample_legal_draws_only_legal_actions() -> None:
    rng = random.Random(3)
    for state in sample_states(6, 2, every=20)[:15]:
        legal = set(legal_actions(state))
        for _ in range(30):
            assert sample_legal(state, rng) in legal


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_unchecked_path_agrees_with_apply(variant: int) -> None:
    rng = random.Random(11)
    state = new_game({"players": 4, **VARIANTS[variant]}, 11)
    while not state.over:
        a = rng.choice(legal_actions(state))
        checked, _ = apply(state, a)
        fast = apply_unchecked(state, a)
        assert checked == fast
        state = checked


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_legal_groups_expand_to_legal_actions(variant: int) -> None:
    """``legal_groups`` is ``legal_actions`` before expansion: each mask through its table,
    then the rest, gives the same actions in the same order."""
    for state in [*sample_states(7, 3, every=3, variant=VARIANTS[variant]), finished(variant)]:
        masks, tables, rest = legal_groups(state)
        expanded = [
            table[cell] for m, table in zip(masks, tables, strict=True) for cell in cells_of(m)
        ]
        assert expanded + rest == legal_actions(state)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_turn_groups_are_the_turn_actions_as_integers(variant: int) -> None:
    """Between decisions ``turn_groups`` is ``legal_actions`` as integers: the cells of each
    kind through that kind's table, then the withdrawals its bits name, the hand's swaps and
    ``pass``, in the same order and number (``size``)."""
    seen = 0
    for state in sample_states(7, 3, every=2, variant=VARIANTS[variant]):
        if state.over or state.pending:
            continue
        groups = turn_groups(state)
        expanded = [
            KIND_ACTIONS[kind][cell]
            for kind in range(TURN_KINDS)
            if groups.kinds >> kind & 1
            for cell in cells_of(groups.cells(kind))
        ]
        assert all(
            groups.cells(kind) == NO_CELLS
            for kind in range(TURN_KINDS)
            if not groups.kinds >> kind & 1
        )
        withdrawals = [WITHDRAW_ACTIONS[c] for c in range(4) if groups.withdrawals >> c & 1]
        actions = expanded + withdrawals + groups.swaps + [PASS]
        assert actions == legal_actions(state)
        assert groups.size() == len(actions)
        seat = state.turn
        assert groups.hand == tuple(state.hands[seat * 4 : seat * 4 + 4])
        seen += 1
    assert seen


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_legal_notations_are_the_legal_actions_written(variant: int) -> None:
    """``legal_notations`` (what a player's view lists) is each legal action's notation, in
    ``legal_actions``' order, at turn actions and at every kind of decision met in play."""
    for state in [*sample_states(7, 3, every=1, variant=VARIANTS[variant]), finished(variant)]:
        assert legal_notations(state) == [str(a) for a in legal_actions(state)]


def finished(variant: int) -> State:
    rng = random.Random(2)
    state = new_game({"players": 2, **VARIANTS[variant]}, 2)
    while not state.over:
        state = apply_unchecked(state, sample_legal(state, rng))
    return state
