"""The batch interface: N games stepped together give what N single environments give, replay
from their seed, reward finished games by the env's rule and refuse illegal indices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tigris_euphrates import IllegalAction, legal_actions, to_position
from tigris_euphrates.rl import FEATURES, NUM_ACTIONS, PLANES, env, mask_of
from tigris_euphrates.rl.batch import BatchArrays, GameBatch, random_actions


def check_shapes(out: BatchArrays, n: int, players: int) -> None:
    assert out.planes.shape == (n, PLANES, 11, 16) and out.planes.dtype == np.float32
    assert out.features.shape == (n, FEATURES) and out.features.dtype == np.float32
    assert out.masks.shape == (n, NUM_ACTIONS) and out.masks.dtype == np.bool_
    assert out.to_act.shape == (n,) and out.to_act.dtype == np.int64
    assert out.rewards.shape == (n, players) and out.rewards.dtype == np.float32
    assert out.dones.shape == (n,) and out.dones.dtype == np.bool_


def test_shapes_and_the_first_observation() -> None:
    batch = GameBatch(5, players=3, options={"board": "advanced"}, seed=1)
    out = batch.reset()
    check_shapes(out, 5, 3)
    assert not out.dones.any() and not out.rewards.any()
    assert out.to_act.tolist() == [0] * 5  # seat 0 opens every game
    assert len(set(batch.seeds)) == 5  # five different games
    out = batch.step(random_actions(out.masks, np.random.default_rng(0)))
    check_shapes(out, 5, 3)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"wonder": True, "buildings": True}), (3, {"ruleset": "galaxy"})],
)
def test_the_batch_is_n_single_environments(players: int, options: dict[str, Any]) -> None:
    """Each game of the batch, mirrored in its own env from the same seed with the same
    actions, shows the same observation and mask to the same seat, and ends with the env's
    rewards; a game that ends starts again at once."""
    n = 3
    batch = GameBatch(n, players=players, options=options, seed=7)
    out = batch.reset()
    mirrors = []
    for seed in batch.seeds:
        e = env(players=players, options=options)
        e.reset(seed=seed)
        mirrors.append(e)
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(700):
        for i, e in enumerate(mirrors):
            agent = e.agent_selection
            assert out.to_act[i] == e.possible_agents.index(agent)
            obs = e.observe(agent)
            assert np.array_equal(out.planes[i], obs["planes"])
            assert np.array_equal(out.features[i], obs["features"])
            assert np.array_equal(out.masks[i], obs["action_mask"].astype(bool))
            legal = mask_of(legal_actions(batch.states[i]))
            assert np.array_equal(out.masks[i], np.array(legal, dtype=bool))
        actions = random_actions(out.masks, rng)
        out = batch.step(actions)
        for i, e in enumerate(mirrors):
            e.step(int(actions[i]))
            if out.dones[i]:
                ended += 1
                assert all(e.terminations.values())
                expected = [e.rewards[a] for a in e.possible_agents]
                assert out.rewards[i].tolist() == pytest.approx(expected)
                assert max(expected) == 1.0 and min(expected) < 1.0
                e.reset(seed=batch.seeds[i])  # the batch's new game
            else:
                assert not any(e.terminations.values()) and not out.rewards[i].any()
        if ended >= 2:
            break
    assert ended >= 2


def run(batch: GameBatch, steps: int, seed: int) -> list[BatchArrays]:
    rng = np.random.default_rng(seed)
    outs = [batch.reset()]
    for _ in range(steps):
        outs.append(batch.step(random_actions(outs[-1].masks, rng)))
    return outs


def test_a_batch_replays_from_its_seed() -> None:
    a = run(GameBatch(4, seed=3), 60, seed=0)
    b = run(GameBatch(4, seed=3), 60, seed=0)
    for x, y in zip(a, b, strict=True):
        assert all(np.array_equal(u, v) for u, v in zip(x, y, strict=True))
    c = run(GameBatch(4, seed=4), 60, seed=0)
    assert not np.array_equal(a[-1].planes, c[-1].planes)


def test_out_arrays_are_filled_in_place() -> None:
    plain = GameBatch(3, players=4, seed=2)
    filled = GameBatch(3, players=4, seed=2)
    out = BatchArrays.empty(3, 4)
    rng = np.random.default_rng(1)
    expected = plain.reset()
    assert filled.reset(out=out) is out
    for _ in range(30):
        assert all(np.array_equal(u, v) for u, v in zip(out, expected, strict=True))
        actions = random_actions(expected.masks, rng)
        expected = plain.step(actions)
        assert filled.step(actions, out=out) is out


def test_an_illegal_index_is_refused_and_nothing_changes() -> None:
    batch = GameBatch(3, seed=5)
    out = batch.reset()
    actions = random_actions(out.masks, np.random.default_rng(0))
    illegal = int(np.flatnonzero(~out.masks[1])[0])
    actions[1] = illegal
    before = [to_position(s) for s in batch.states]
    states = list(batch.states)
    with pytest.raises(IllegalAction, match=f"game 1: action index {illegal} "):
        batch.step(actions)
    with pytest.raises(ValueError, match="game 2: action index 5000 out of range"):
        batch.step([int(actions[0]), int(actions[0]), 5000])
    with pytest.raises(ValueError, match="3 integers"):
        batch.step(actions[:2])
    assert batch.states == states and [to_position(s) for s in batch.states] == before
    actions[1] = int(np.flatnonzero(out.masks[1])[0])
    batch.step(actions)
    assert all(s.ply == 1 for s in batch.states)


def test_returned_arrays_are_the_callers() -> None:
    """Changing a returned mask does not change what the batch accepts."""
    batch = GameBatch(2, seed=6)
    out = batch.reset()
    legal = random_actions(out.masks, np.random.default_rng(0))
    out.masks[:] = False
    batch.step(legal)


def test_random_actions_draw_legal_indices_uniformly() -> None:
    masks = np.zeros((3, NUM_ACTIONS), dtype=bool)
    masks[0, [4, 9]] = True
    masks[1, 3925] = True
    masks[2, :] = True
    rng = np.random.default_rng(0)
    drawn = np.array([random_actions(masks, rng) for _ in range(2000)])
    assert set(drawn[:, 0]) == {4, 9} and abs((drawn[:, 0] == 4).mean() - 0.5) < 0.05
    assert set(drawn[:, 1]) == {3925}
    assert len(set(drawn[:, 2])) > 1000
    with pytest.raises(ValueError, match="rows \\[1\\] mark no action"):
        random_actions(np.eye(2, NUM_ACTIONS, dtype=bool)[[0, 1]] & [[True], [False]], rng)
