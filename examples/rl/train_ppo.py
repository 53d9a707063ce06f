"""Train a masked PPO agent for two-player Tigris & Euphrates against the ``random`` bot.

A CleanRL-style single file: the policy is a small MLP (the seat's planes and features in,
one logit per index of the action codec and a value out) plus two 3×3 convolutions over the
board whose numbers per cell add to the logits of the actions that name that cell, trained
with PPO whose softmax is restricted to the legal actions (``legal_mask``), written with JAX
and optax (CPU wheels straight from PyPI; docs/rl.md says why not PyTorch). The learner
plays one seat of each game, drawn at random; the other seat plays uniformly among its legal
actions, as the ``random`` bot does. Rewards: the environment's (+1 for the win, -1 for the
loss, at the end) plus a potential-based shaping term, the change of ``SHAPING`` × (own
points - the opponent's), which leaves the best policy unchanged and gives a signal before
the end.

    nice -n 5 .venv/bin/python examples/rl/train_ppo.py --updates 200 --out build/ppo

runs 200 updates of 32 games × 128 decisions and writes ``build/ppo/policy.npz`` (the
weights as float16, what ``make_bot("ppo")`` loads: copy it to
``src/tigris_euphrates/rl/ppo_policy.npz`` to ship it) every 5 updates and at the end, and
``build/ppo/curve.csv`` (per update: the learner's decisions so far, the minutes, the games
that ended and how many the learner won). ``--plot PNG`` draws that curve. One process, one
thread. Needs the ``train`` extra: ``pip install -e '.[rl,train]'``.
"""

from __future__ import annotations

# ruff: noqa: E402 (the threads are limited before numpy and JAX are imported)
import os

# One thread: the machine is shared (XLA and the BLAS would otherwise use every core).
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from tigris_euphrates import Options, State, apply_unchecked, new_game, seat_totals, to_act
from tigris_euphrates.rl.codec import ACTIONS, NUM_ACTIONS, legal_masks
from tigris_euphrates.rl.observation import PLANES, observe_states
from tigris_euphrates.rl.policy import (
    BOARD_CHANNELS,
    BOARD_HIDDEN,
    INPUTS,
    board_gather,
    save_policy,
)

#: Weight of the points difference in the shaping potential (per point).
SHAPING = 0.03
Params = dict[str, jax.Array]


class VersusRandom:
    """``n`` two-player games in which the learner plays one seat (drawn per game) and the
    other seat plays uniformly at random; the learner is always the seat to act."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.options = Options.from_dict({"players": 2})
        self.states: list[State] = []
        self.seats: list[int] = []
        self.potential = np.zeros(n, dtype=np.float32)
        self.masks = np.zeros((n, NUM_ACTIONS), dtype=bool)
        #: +1 / 0 / -1 for the learner in the games that ended in the last step.
        self.results = np.zeros(n, dtype=np.int8)

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Start every game; the inputs and masks of the learner's first decisions."""
        self.states = [new_game(self.options, self._seed()) for _ in range(self.n)]
        self.seats = [int(self.rng.integers(2)) for _ in range(self.n)]
        for i in range(self.n):
            self.states[i] = self._opponent(self.states[i], self.seats[i])
            self.potential[i] = self._potential(i)
        return self._observe()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        """Play the learner's actions, then the opponents until the learner acts again (a
        game that ends starts again); returns inputs, masks, rewards and which games ended."""
        rewards = np.zeros(self.n, dtype=np.float32)
        dones = np.zeros(self.n, dtype=bool)
        self.results[:] = 0
        for i, index in enumerate(actions.tolist()):
            assert self.masks[i, index], "the policy chose an illegal index"
            s = self._opponent(apply_unchecked(self.states[i], ACTIONS[index]), self.seats[i])
            self.states[i] = s
            if s.over:
                totals = seat_totals(s)
                me, other = totals[self.seats[i]], totals[1 - self.seats[i]]
                self.results[i] = (me > other) - (me < other)
                rewards[i] = self.results[i] - self.potential[i]
                dones[i] = True
                self.states[i] = new_game(self.options, self._seed())
                self.seats[i] = int(self.rng.integers(2))
                self.states[i] = self._opponent(self.states[i], self.seats[i])
                self.potential[i] = self._potential(i)
            else:
                now = self._potential(i)
                rewards[i] = now - self.potential[i]
                self.potential[i] = now
        x, masks = self._observe()
        return x, masks, rewards, dones

    def _seed(self) -> int:
        return int(self.rng.integers(2**63))

    def _opponent(self, s: State, seat: int) -> State:
        while not s.over and to_act(s) != seat:
            mask = legal_masks([s])[0]
            s = apply_unchecked(s, ACTIONS[int(self.rng.choice(np.flatnonzero(mask)))])
        return s

    def _potential(self, i: int) -> float:
        scores = self.states[i].scores
        me, other = self.seats[i], 1 - self.seats[i]
        mine, theirs = sum(scores[me * 5 : me * 5 + 5]), sum(scores[other * 5 : other * 5 + 5])
        return SHAPING * float(mine - theirs)

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        planes, features = observe_states(self.states, self.seats)
        legal_masks(self.states, self.masks)
        x = np.concatenate([planes.reshape(self.n, -1), features], axis=1)
        return x, self.masks.copy()


def init_params(key: jax.Array, hidden: int) -> Params:
    """Orthogonal-initialised layers, as CleanRL does (small policy head, unit value head);
    the board's convolutions He-initialised, the last one small like the policy head."""
    keys = jax.random.split(key, 6)
    orth = jax.nn.initializers.orthogonal
    conv = jax.nn.initializers.he_normal(in_axis=(1, 2, 3), out_axis=0)
    return {
        "c1": conv(keys[4], (BOARD_HIDDEN, PLANES, 3, 3)),
        "d1": jnp.zeros(BOARD_HIDDEN),
        "c2": 0.01 * conv(keys[5], (BOARD_CHANNELS, BOARD_HIDDEN, 3, 3)),
        "d2": jnp.zeros(BOARD_CHANNELS),
        "w1": orth(np.sqrt(2))(keys[0], (INPUTS, hidden)),
        "b1": jnp.zeros(hidden),
        "w2": orth(np.sqrt(2))(keys[1], (hidden, hidden)),
        "b2": jnp.zeros(hidden),
        "wp": orth(0.01)(keys[2], (hidden, NUM_ACTIONS)),
        "bp": jnp.zeros(NUM_ACTIONS),
        "wv": orth(1.0)(keys[3], (hidden, 1)),
        "bv": jnp.zeros(1),
    }


GATHER = jnp.asarray(board_gather())


def conv3x3(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    """A 3×3 convolution of boards (batch, in, 11, 16), zero padded to the board's shape."""
    out = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME")
    return out + b[None, :, None, None]


def forward(params: Params, x: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Masked log-probabilities of every index, and the value (the same network as
    ``rl.policy.PolicyNet``, which plays the shipped weights with numpy)."""
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    h = jnp.tanh(h @ params["w2"] + params["b2"])
    planes = x[:, : PLANES * 11 * 16].reshape(-1, PLANES, 11, 16)
    board = jax.nn.relu(conv3x3(planes, params["c1"], params["d1"]))
    cells = conv3x3(board, params["c2"], params["d2"]).reshape(x.shape[0], -1)
    cells = jnp.concatenate([cells, jnp.zeros((x.shape[0], 1))], axis=1)[:, GATHER]
    logits = jnp.where(mask, h @ params["wp"] + params["bp"] + cells, -1e9)
    return jax.nn.log_softmax(logits), (h @ params["wv"] + params["bv"])[:, 0]


@jax.jit
def act(params: Params, x: jax.Array, mask: jax.Array, key: jax.Array) -> tuple[jax.Array, ...]:
    """A sampled action per row, its log-probability and the value."""
    logp, value = forward(params, x, mask)
    action = jax.random.categorical(key, logp)
    return action, jnp.take_along_axis(logp, action[:, None], 1)[:, 0], value


def ppo_loss(params: Params, batch: dict[str, jax.Array], clip: float, ent: float) -> jax.Array:
    """CleanRL's PPO loss: the clipped ratio, half the value error, minus the entropy
    bonus (over the legal actions)."""
    logp, value = forward(params, batch["x"], batch["mask"])
    new = jnp.take_along_axis(logp, batch["action"][:, None], 1)[:, 0]
    ratio = jnp.exp(new - batch["logp"])
    adv = (batch["adv"] - batch["adv"].mean()) / (batch["adv"].std() + 1e-8)
    policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - clip, 1 + clip) * adv).mean()
    probs = jnp.exp(logp)
    entropy = -jnp.sum(jnp.where(batch["mask"], probs * logp, 0.0), axis=1).mean()
    return policy + 0.5 * ((value - batch["ret"]) ** 2).mean() - ent * entropy


def gae(
    rewards: np.ndarray,
    values: np.ndarray,
    dones: np.ndarray,
    last: np.ndarray,
    gamma: float,
    lam: float,
) -> np.ndarray:
    """Generalised advantage estimates of a (steps, games) rollout."""
    adv = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], dtype=np.float32)
    for t in reversed(range(len(rewards))):
        nxt = last if t == len(rewards) - 1 else values[t + 1]
        live = 1.0 - dones[t]
        delta = rewards[t] + gamma * nxt * live - values[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
    return adv


def train(args: argparse.Namespace) -> None:
    """``args.updates`` rounds of: every game plays ``args.steps`` learner decisions, then
    ``args.epochs`` passes of PPO over them in minibatches."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    envs = VersusRandom(args.games, args.seed)
    key = jax.random.PRNGKey(args.seed)
    key, sub = jax.random.split(key)
    params = init_params(sub, args.hidden)
    optimiser = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(args.lr, eps=1e-5))
    opt_state = optimiser.init(params)

    @jax.jit
    def update(p: Params, o: Any, b: dict[str, jax.Array]) -> tuple[Params, Any]:
        _, g = jax.value_and_grad(ppo_loss)(p, b, 0.2, args.entropy)
        u, o = optimiser.update(g, o, p)
        return optax.apply_updates(p, u), o

    x, mask = envs.reset()
    start, steps, update_no = time.monotonic(), 0, 0
    size = args.games * args.steps
    names = ("x", "mask", "action", "logp", "value", "reward", "done")
    with open(out / "curve.csv", "w", newline="") as f:
        log = csv.writer(f)
        log.writerow(["steps", "minutes", "games", "won", "win_rate"])
        while update_no < args.updates:
            buf: dict[str, list[np.ndarray]] = {k: [] for k in names}
            won = finished = 0
            for _ in range(args.steps):
                key, sub = jax.random.split(key)
                a, lp, v = (np.asarray(t) for t in act(params, x, mask, sub))
                buf["x"].append(x.astype(np.float16))
                buf["mask"].append(mask)
                buf["action"].append(a)
                buf["logp"].append(lp)
                buf["value"].append(v)
                x, mask, r, d = envs.step(a)
                buf["reward"].append(r)
                buf["done"].append(d)
                finished += int(d.sum())
                won += int((envs.results > 0).sum())
            steps += size
            _, _, last = act(params, x, mask, key)
            values = np.stack(buf["value"])
            dones = np.stack(buf["done"]).astype(np.float32)
            adv = gae(
                np.stack(buf["reward"]), values, dones, np.asarray(last), args.gamma, args.lam
            )
            data = {
                "x": np.concatenate(buf["x"]).astype(np.float32),
                "mask": np.concatenate(buf["mask"]),
                "action": np.concatenate(buf["action"]),
                "logp": np.concatenate(buf["logp"]),
                "adv": adv.reshape(-1),
                "ret": (adv + values).reshape(-1),
            }
            for _ in range(args.epochs):
                order = np.random.default_rng(update_no).permutation(size)
                for k in range(0, size, args.minibatch):
                    idx = order[k : k + args.minibatch]
                    batch = {name: jnp.asarray(column[idx]) for name, column in data.items()}
                    params, opt_state = update(params, opt_state, batch)
            update_no += 1
            minutes = (time.monotonic() - start) / 60
            log.writerow([steps, f"{minutes:.2f}", finished, won, f"{won / max(finished, 1):.3f}"])
            f.flush()
            print(f"update {update_no} steps {steps} {minutes:.1f} min: won {won}/{finished}")
            if update_no % 5 == 0 or update_no == args.updates:
                save_policy(out / "policy.npz", {k: np.asarray(v) for k, v in params.items()})


def plot(curve: Path, png: Path, window: int = 5) -> None:
    """The learning curve: the share of the games won against ``random`` in each update,
    and its mean over ``window`` updates, by the learner's decisions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(curve, newline="") as f:
        rows = list(csv.DictReader(f))
    steps = np.array([int(r["steps"]) for r in rows])
    games = np.array([int(r["games"]) for r in rows])
    won = np.array([int(r["won"]) for r in rows])
    kernel = np.ones(window)
    mean = np.convolve(won, kernel, "valid") / np.maximum(np.convolve(games, kernel, "valid"), 1)
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    ax.plot(steps, won / np.maximum(games, 1), ".", alpha=0.4, label="each update")
    ax.plot(steps[window - 1 :], mean, "-", label=f"over {window} updates")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("games won against random")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    ax.set_title("masked PPO, two players, classic game (training games)")
    fig.tight_layout()
    fig.savefig(png)


def main() -> None:
    """Train (or, with ``--plot``, draw the curve of a training)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--updates", type=int, default=200, help="how many PPO updates")
    p.add_argument("--out", default="build/ppo", help="folder for policy.npz and curve.csv")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=32, help="games stepped together")
    p.add_argument("--steps", type=int, default=128, help="learner decisions per game per update")
    p.add_argument("--hidden", type=int, default=64, help="units of the two hidden layers")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--plot", metavar="PNG", help="draw OUT/curve.csv into PNG and stop")
    args = p.parse_args()
    if args.plot:
        plot(Path(args.out) / "curve.csv", Path(args.plot))
    else:
        train(args)


if __name__ == "__main__":
    main()
