"""The research adapters' fast path: observations built from the state equal the view's and
see nothing the seat cannot see; masks read from the engine's legal groups equal the masks
of the legal actions' notation; the env refuses an illegal index and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from diagram import play, st
from tigris_euphrates import (
    IllegalAction,
    State,
    apply_unchecked,
    legal_actions,
    new_game,
    player_view,
    sample_legal,
    to_act,
    to_position,
)
from tigris_euphrates.rl import NUM_ACTIONS, decode, encode, env, mask_of, observe
from tigris_euphrates.rl.codec import ACTIONS, indices_of, legal_mask, legal_masks
from tigris_euphrates.rl.observation import STAGES, observe_state, observe_states

#: Every kind of game the adapters support: (options, seeds of the random playouts).
GAMES: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"players": 2}, (1, 2)),
    ({"players": 3}, (3,)),
    ({"players": 4}, (4,)),
    ({"players": 3, "wonder": True, "buildings": True, "english_variant": True}, (5, 6)),
    ({"players": 3, "ruleset": "galaxy", "board": "advanced"}, (7, 8)),
    ({"players": 4, "open_scoring": True}, (9,)),
]


def playout(options: dict[str, Any], seed: int) -> list[State]:
    """Every state of a seeded random game, the finished one included."""
    rng = random.Random(seed)
    s = new_game(options, seed)
    out = [s]
    while not s.over:
        s = apply_unchecked(s, sample_legal(s, rng))
        out.append(s)
    return out


def wonder_states() -> list[State]:
    """Moments random games seldom reach: the wonder offered on two centres, the wonder
    offered with a monument, the wonder point, and a built wonder with a building."""
    two_pluses = """
        . k . k .
        k k . k k
        . k . k .
    """
    plus_and_block = """
        k k . .
        k . k .
        . k . .
    """
    built = """
        . K . r
        K K K .
        . K . .
    """
    out = [
        play(st(two_pluses, hands=[{"black": 1}, {}], wonder=True), "tile black c2")[0],
        play(st(plus_and_block, hands=[{"black": 1}, {}], wonder=True), "tile black b2")[0],
        play(
            st(built, monuments={"wonder": "b2"}, leaders="0 black d2", wonder=True),
            "pass",
            "pass",
        )[0],
        st(built, monuments={"wonder": "b2"}, buildings={"red": "d1"}, wonder=True),
    ]
    return out


def sample_states() -> list[State]:
    states = [s for options, seeds in GAMES for seed in seeds for s in playout(options, seed)]
    return states + wonder_states()


def same(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    return all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def states() -> list[State]:
    return sample_states()


def test_the_samples_reach_every_decision_and_the_end(states: list[State]) -> None:
    """The equality tests below see conflicts, wars, offers, picks and harvests."""
    stages = {s.decision.name if s.decision is not None else "action" for s in states}
    assert stages == set(STAGES)
    assert any(s.over for s in states) and any(s.union >= 0 for s in states)
    assert any(s.options.open_scoring and not s.over for s in states)


def test_observations_from_the_state_equal_the_views(states: list[State]) -> None:
    """``observe_state`` is ``observe(player_view(...))``, for every seat of every sample."""
    for s in states:
        for seat in range(s.options.players):
            fast = observe_state(s, seat)
            assert same(fast, observe(player_view(s, seat))), (seat, to_position(s))
            planes, features = np.ones_like(fast[0]), np.ones_like(fast[1])
            assert same(observe_state(s, seat, planes, features), fast)
    some = states[::37]
    seats = [i % s.options.players for i, s in enumerate(some)]
    planes, features = observe_states(some, seats)
    for i, (s, seat) in enumerate(zip(some, seats, strict=True)):
        assert same((planes[i], features[i]), observe_state(s, seat))


def hidden_changed(s: State, seat: int, rng: random.Random) -> State:
    """``s`` changed only where ``seat`` cannot see: the bag's order, the colours of the other
    seats' hands (one tile traded with the bag, the sizes kept), the colours they swapped
    away, and their scores under hidden scoring."""
    t = s.copy()
    rest = list(t.bag[t.bag_pos :])
    for other in range(s.options.players):
        if other == seat:
            continue
        have = [c for c in range(4) if t.hands[other * 4 + c]]
        for c in have:
            k = next((k for k, b in enumerate(rest) if b != c), None)
            if k is not None:
                t.hands[other * 4 + c] -= 1
                t.hands[other * 4 + rest[k]] += 1
                rest[k] = c
                break
        gone = [c for c in range(4) if t.swapped[other * 4 + c]]
        if gone:
            t.swapped[other * 4 + gone[0]] -= 1
            t.swapped[other * 4 + (gone[0] + 1) % 4] += 1
        if not (s.options.open_scoring or s.over):
            t.scores[other * 5 + rng.randrange(5)] += 3
    rng.shuffle(rest)
    t.bag = t.bag[: t.bag_pos] + tuple(rest)
    return t


def test_observations_do_not_see_hidden_information(states: list[State]) -> None:
    """Other seats' hands, their swapped colours, hidden scores and the bag's order change
    nothing a seat observes; its own hand does change what it observes."""
    rng = random.Random(0)
    changed_hidden = changed_own = 0
    for s in states[::5]:
        for seat in range(s.options.players):
            t = hidden_changed(s, seat, rng)
            if to_position(t) != to_position(s):
                changed_hidden += 1
            assert same(observe_state(t, seat), observe_state(s, seat))
            own = s.copy()
            mine = [c for c in range(4) if own.hands[seat * 4 + c]]
            if mine:
                own.hands[seat * 4 + mine[0]] -= 1
                own.hands[seat * 4 + (mine[0] + 1) % 4] += 1
                assert not same(observe_state(own, seat), observe_state(s, seat))
                changed_own += 1
    assert changed_hidden > 100 and changed_own > 100


def test_masks_from_the_legal_groups_equal_the_notations(states: list[State]) -> None:
    for s in states:
        legal = legal_actions(s)
        expected = np.array(mask_of([str(a) for a in legal]), dtype=bool)
        assert np.array_equal(legal_mask(s), expected), to_position(s)
        assert indices_of(legal) == [encode(str(a)) for a in legal]
        out = np.ones(NUM_ACTIONS, dtype=bool)
        assert legal_mask(s, out) is out and np.array_equal(out, expected)
    some = states[::41]
    assert np.array_equal(legal_masks(some), np.stack([legal_mask(s) for s in some]))


def test_the_action_table_is_the_codec() -> None:
    assert len(ACTIONS) == NUM_ACTIONS
    assert all(encode(a) == i and decode(i) is a for i, a in enumerate(ACTIONS))
    assert indices_of(ACTIONS) == list(range(NUM_ACTIONS))


def test_the_env_observes_what_the_view_shows() -> None:
    e = env(players=3, options={"wonder": True, "buildings": True})
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in e.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = e.last()
        s = e.state_
        assert s is not None
        for seat, other in enumerate(e.possible_agents):
            o = e.observe(other)
            view = player_view(s, seat)
            assert same((o["planes"], o["features"]), observe(view))
            mask = np.array(mask_of(view["legal_actions"]), dtype=np.int8)
            assert o["action_mask"].dtype == np.int8 and np.array_equal(o["action_mask"], mask)
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_env_refuses_an_illegal_index_and_changes_nothing() -> None:
    e = env(players=2)
    e.reset(seed=5)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before, agent = e.state_, e.agent_selection
    assert before is not None
    position = to_position(before)
    with pytest.raises(IllegalAction) as refused:
        e.step(illegal)
    assert f"action index {illegal} ({decode(illegal)})" in str(refused.value)
    assert refused.value.code  # the engine's rule
    with pytest.raises(ValueError, match="out of range"):
        e.step(NUM_ACTIONS)
    assert e.state_ is before and to_position(before) == position
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["action_mask"], mask)
    e.step(int(np.flatnonzero(mask)[0]))  # a legal index still plays
    assert e.state_ is not before and e.state_.ply == 1


def test_observe_state_refuses_a_seat_not_in_the_game() -> None:
    s = new_game({"players": 2}, 0)
    with pytest.raises(ValueError, match="no seat 2"):
        observe_state(s, 2)
    assert to_act(s) == 0
