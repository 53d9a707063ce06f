"""The research adapters: codec round trips, masks from legal_actions, the PettingZoo API."""

from __future__ import annotations

import random
import warnings

import numpy as np
from pettingzoo.test import api_test

from tigris_euphrates.engine import legal_actions, new_game, player_view
from tigris_euphrates.engine.legal import sample_legal
from tigris_euphrates.engine.play import apply_unchecked
from tigris_euphrates.rl import NUM_ACTIONS, decode, encode, env, mask_of, observe
from tigris_euphrates.rl.observation import FEATURES, PLANES


def test_codec_round_trips_every_index() -> None:
    assert NUM_ACTIONS == 3042
    for i in range(NUM_ACTIONS):
        a = decode(i)
        assert encode(a) == i
        assert encode(str(a)) == i


def test_masks_mark_exactly_the_legal_actions() -> None:
    rng = random.Random(4)
    s = new_game({"players": 4}, 4)
    while not s.over:
        legal = legal_actions(s)
        mask = mask_of(legal)
        assert sum(mask) == len(legal)
        assert {str(decode(i)) for i, m in enumerate(mask) if m} == {str(a) for a in legal}
        s = apply_unchecked(s, sample_legal(s, rng))


def test_observation_shapes_and_seat_relativity() -> None:
    s = new_game({"players": 3}, 2)
    planes, features = observe(player_view(s, 1))
    assert planes.shape == (PLANES, 11, 16) and features.shape == (FEATURES,)
    assert planes[5].sum() == 10  # the ten treasures of the standard board


def test_pettingzoo_api() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(players=2), num_cycles=200, verbose_progress=False)
        api_test(env(players=4, options={"board": "advanced"}), num_cycles=100)


def test_full_game_through_the_env() -> None:
    e = env(players=3)
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    steps = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 50
    assert sorted(final) == ["player_0", "player_1", "player_2"]
    assert max(final.values()) == 1.0 and min(final.values()) < 1.0
