"""The trained baseline (docs/rl.md): ``make_bot("ppo")`` plays the shipped policy from a
seat's view, legally and deterministically; the numpy player computes
what the training network computes (when JAX, the ``train`` extra, is installed); the
training script runs end to end and writes weights the player loads."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from tigris_euphrates import new_game, player_view
from tigris_euphrates.ai import level_config, make_bot
from tigris_euphrates.ai.levels import PolicyConfig
from tigris_euphrates.rl.observation import FEATURES, PLANES
from tigris_euphrates.rl.policy import SHIPPED, PolicyBot, PolicyNet, board_gather
from tigris_euphrates.tournament import play_game

ROOT = Path(__file__).resolve().parents[2]
TRAINER = ROOT / "examples" / "rl" / "train_ppo.py"


def test_the_shipped_policy_is_small_and_named_like_a_level() -> None:
    assert SHIPPED.exists() and SHIPPED.stat().st_size < 2 * 1024 * 1024
    assert level_config("ppo") == PolicyConfig("ppo")
    assert isinstance(make_bot("ppo", seed=3), PolicyBot)
    with pytest.raises(ValueError, match="ppo"):
        level_config("ppo:iterations=4")


def test_without_numpy_the_ppo_bot_is_refused_with_the_way_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.raises(ValueError, match=r"needs numpy: pip install 'tigris-euphrates\[rl\]'"):
        level_config("ppo")


def test_the_same_view_gives_the_same_move() -> None:
    view = player_view(new_game({"players": 2}, seed=5), 0)
    first = make_bot("ppo", seed=1).choose(view)
    assert first in view["legal_actions"]
    assert make_bot("ppo", seed=2).choose(view) == first


def test_ppo_plays_whole_games_legally_in_every_variant() -> None:
    """Every action goes through the engine's checks (its strength is measured in
    docs/rl.md, with the command that measures it)."""
    for options in ({"players": 2}, {"players": 3, "wonder": True, "buildings": True},
                    {"ruleset": "galaxy"}):  # fmt: skip
        players = options.get("players", 2)
        assert isinstance(players, int)
        bots = [make_bot("ppo", s) if s == 0 else make_bot("random", s) for s in range(players)]
        outcome = play_game(bots, options, 7)
        assert outcome.final is not None and outcome.final.over
        assert not outcome.record().get("faults")


def test_the_numpy_player_computes_the_training_network() -> None:
    jax = pytest.importorskip("jax")
    np = pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("train_ppo", TRAINER)
    assert spec is not None and spec.loader is not None
    trainer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(trainer)
    envs = trainer.VersusRandom(4, seed=0)
    x, mask = envs.reset()
    params = trainer.init_params(jax.random.PRNGKey(0), 8)
    # the heads scaled up so that the logits differ: a real comparison
    net = PolicyNet.__new__(PolicyNet)
    net.p = {k: np.asarray(v * (50 if k in ("wp", "c2") else 1), np.float32)
             for k, v in params.items()}  # fmt: skip
    net.gather = board_gather()
    logp, _ = trainer.forward(net.p, x, mask)
    planes, features = x[:, :-FEATURES].reshape(4, PLANES, 11, 16), x[:, -FEATURES:]
    for i in range(4):
        mine = net.logits(planes[i], features[i])[mask[i]]
        mine = mine - mine.max() - np.log(np.exp(mine - mine.max()).sum())
        assert np.allclose(mine, np.asarray(logp[i])[mask[i]], atol=1e-4)


def test_the_training_script_runs_and_writes_weights_the_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    args = ["--updates", "1", "--games", "2", "--steps", "8", "--minibatch", "8",
            "--hidden", "4", "--out", str(tmp_path)]  # fmt: skip
    done = subprocess.run([sys.executable, str(TRAINER), *args], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "curve.csv").read_text().startswith("steps,minutes,games,won,win_rate")
    bot = PolicyBot(net=PolicyNet(tmp_path / "policy.npz"))
    view = player_view(new_game({"players": 2}, seed=1), 0)
    assert bot.choose(view) in view["legal_actions"]


def test_the_shipped_policy_beats_random() -> None:
    """The baseline docs/rl.md promises (200 of 200 there), on 20 other deals: a policy
    file replaced by an untrained or broken one fails here."""
    won = 0
    for g in range(20):
        seat = g % 2
        bots = [make_bot("ppo", g), make_bot("random", g)]
        if seat:
            bots.reverse()
        outcome = play_game(bots, {"players": 2}, 500 + g)
        won += outcome.result["ranking"][0] == seat
    assert won >= 18, f"ppo won {won} of 20 against random"
