"""The environment with opponents: seats played by bots (a level or a ``tne-bot/1`` program)
between the agents' steps; the agents are the other seats."""

from __future__ import annotations

import shlex
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from tigris_euphrates import result
from tigris_euphrates.rl import env
from tigris_euphrates.rl.env import TigrisEuphratesEnv

ROOT = Path(__file__).resolve().parents[2]
PYBOT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples/bots/pybot.py'))}"
CRASH = "cmd:" + shlex.join(
    [sys.executable, str(ROOT / "tests/tournament/faulty_bot.py"), "crash", "4"]
)


def play_out(e: TigrisEuphratesEnv, seed: int) -> tuple[dict[str, float], int]:
    """Play an episode with uniformly random legal actions; the final rewards and steps."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return final, steps


def test_a_program_and_a_level_as_opponents(tmp_path: Path) -> None:
    e = env(players=4, opponents={1: PYBOT, 3: "random"}, bot_logs=tmp_path)
    assert e.possible_agents == ["player_0", "player_2"]
    final, steps = play_out(e, 5)
    assert sorted(final) == ["player_0", "player_2"] and steps > 20
    assert e.state_ is not None and e.state_.over and e.faults == []
    # The game the agents and the opponents played is a legal, complete game.
    assert result(e.state_) is not None
    assert "game over" in (tmp_path / "bot-52.stderr").read_text()  # seed 5, seat 1
    e.close()


def test_a_failing_program_is_started_again_once_then_replaced_by_the_fallback_level(
    tmp_path: Path,
) -> None:
    """As in a tournament: one restart an episode, counted over the episode, then the
    fallback level plays the seat to the end."""
    e = env(players=2, opponents={0: CRASH}, fallback="random", bot_logs=tmp_path)
    final, _ = play_out(e, 3)
    assert list(final) == ["player_1"]
    assert [(f["seat"], f["fault"], f["then"]) for f in e.faults] == [
        (0, "crash", "restart"),
        (0, "crash", "fallback random"),
    ]
    assert e.faults[0]["ply"] < e.faults[1]["ply"]
    # A new episode starts the program afresh, with its restart again.
    play_out(e, 4)
    assert [f["then"] for f in e.faults] == ["restart", "fallback random"]
    e.close()


def test_no_restart_when_told_so(tmp_path: Path) -> None:
    e = env(players=2, opponents={0: CRASH}, fallback="random", bot_logs=tmp_path, restarts=0)
    play_out(e, 3)
    assert [(f["fault"], f["then"]) for f in e.faults] == [("crash", "fallback random")]
    e.close()


def test_opponents_keep_the_pettingzoo_api() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(players=3, opponents={2: "random"}), num_cycles=100)


def test_bad_opponents_are_refused() -> None:
    for bad in ({2: "random"}, {0: "nobody"}, {0: "random", 1: "random"}, {0: "cmd:"}):
        with pytest.raises(ValueError):
            env(players=2, opponents=bad)
    with pytest.raises(ValueError):
        env(players=2, opponents={1: "random"}, fallback=PYBOT)
