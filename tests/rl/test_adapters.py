"""The research adapters: codec round trips, masks from legal_actions, the PettingZoo API."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from tigris_euphrates import (
    apply_unchecked,
    legal_actions,
    new_game,
    player_view,
    sample_legal,
)
from tigris_euphrates.rl import NUM_ACTIONS, decode, encode, env, mask_of, observe
from tigris_euphrates.rl.codec import CODEC_VERSION
from tigris_euphrates.rl.observation import FEATURES, PLANES

#: Some indices of the classic codec (version 1), which must never change meaning.
CLASSIC = {
    0: "tile red a1",
    704: "leader red a1",
    1409: "withdraw blue",
    1412: "catastrophe a1",
    1588: "swap black=1",
    1797: "pass",
    1798: "commit 0",
    1805: "war red",
    1809: "monument red-blue a1",
    2865: "decline",
    2866: "treasure a1",
    3041: "treasure p11",
}

#: The option sets the research adapters must support: every variant.
VARIANTS: list[dict[str, Any]] = [
    {},
    {"wonder": True, "buildings": True, "english_variant": True},
    {"ruleset": "galaxy", "board": "advanced"},
]


def test_codec_round_trips_every_index() -> None:
    assert NUM_ACTIONS == 3926 and CODEC_VERSION == 2
    for i, text in CLASSIC.items():
        assert str(decode(i)) == text  # the version-1 indices keep their meaning
    assert str(decode(3042)) == "wonder a1"
    assert str(decode(3042 + 176)) == "point red"
    assert str(decode(3042 + 180)) == "building red a1"
    assert str(decode(NUM_ACTIONS - 1)) == "building black p11"
    for i in range(NUM_ACTIONS):
        a = decode(i)
        assert encode(a) == i
        assert encode(str(a)) == i


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_masks_mark_exactly_the_legal_actions(variant: int) -> None:
    rng = random.Random(4)
    s = new_game({"players": 4, **VARIANTS[variant]}, 4)
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


@pytest.mark.parametrize("variant", range(1, len(VARIANTS)))
def test_pettingzoo_api_for_each_variant(variant: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(players=3, options=VARIANTS[variant]), num_cycles=200)


def test_observations_show_the_wonder_and_the_buildings() -> None:
    """Planes 28 (the wonder's five cells) and 29 (buildings), and the variant features."""
    from diagram import position
    from tigris_euphrates import from_position

    pos = position(
        """
        . R . r r r
        R R R . . .
        . R . . . .
        """,
        leaders="0 black d2",
        monuments={"wonder": "b2"},
        buildings={"red": "e1"},
        bag=["black"] * 20,
        wonder=True,
        spare_treasures=3,
    )
    planes, features = observe(player_view(from_position(pos), 0))
    assert planes[28].sum() == 5 and planes[28, 1, 1] == 1  # b2 and its four neighbours
    assert planes[29].sum() == 1 and planes[29, 0, 4] == 1  # the red building on e1
    assert list(features[-5:]) == [1.0, 1.0, 0.0, 0.0, 0.0]  # wonder, buildings on


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
