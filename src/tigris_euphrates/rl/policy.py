"""A trained policy played with numpy: the ``ppo`` bot.

``examples/rl/train_ppo.py`` trains a small network with masked PPO against the ``random``
bot and saves its weights with ``save_policy``; the weights trained for docs/rl.md ship
beside this module (``ppo_policy.npz``, float16). The network has two parts whose logits
add up:

* the whole position: the seat's planes and features (``observe``, flattened into
  ``INPUTS`` numbers) through two tanh layers, then one logit per index of the action codec
  and a value;
* the board: two 3×3 convolutions over the planes (the same weights at every cell), giving
  ``BOARD_CHANNELS`` numbers per cell, one per codec block that names a cell (a tile or a
  leader of each colour, a catastrophe, each monument, a treasure, a wonder, a building of
  each colour). What makes a cell good for a tile of a colour (a leader of that colour of
  one's own beside it, say) is then learnt once for every cell rather than cell by cell.

``PolicyBot`` reads a seat's view, as every bot does (never the state), and plays the legal
action of the highest logit, so it is deterministic: the same view, the same move. It needs
only numpy (the ``rl`` extra); ``make_bot("ppo")`` loads it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from .codec import NUM_ACTIONS, decode, mask_of
from .indices import (
    BUILDING_AT,
    CATASTROPHE_AT,
    LEADER_AT,
    MONUMENT_AT,
    TILE_AT,
    TREASURE_AT,
    WONDER_AT,
)
from .observation import FEATURES, PLANES, observe

#: The network's input: the planes flattened, then the features.
INPUTS = PLANES * 11 * 16 + FEATURES
#: The codec's blocks that name a cell, as (first index, how many channels of 176 cells).
CELL_BLOCKS = (
    (TILE_AT, 4),
    (LEADER_AT, 4),
    (CATASTROPHE_AT, 1),
    (MONUMENT_AT, 6),
    (TREASURE_AT, 1),
    (WONDER_AT, 1),
    (BUILDING_AT, 4),
)
#: The board part's numbers per cell: one per channel of ``CELL_BLOCKS``.
BOARD_CHANNELS = sum(n for _, n in CELL_BLOCKS)
#: Channels of the board part's first convolution.
BOARD_HIDDEN = 24
#: The weights that ship with the package.
SHIPPED = Path(__file__).with_name("ppo_policy.npz")
#: The arrays a policy file holds: the two hidden layers (w1, w2), the policy head (wp) and
#: the value head (wv), each with its bias (b…); the board's two convolutions (c1, c2:
#: out × in × 3 × 3) and their biases.
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv", "c1", "d1", "c2", "d2")


def board_gather() -> np.ndarray:
    """For each codec index, its place in the board part's flattened output
    (``channel * 176 + cell``), or ``BOARD_CHANNELS * 176`` (a zero) for an action that names
    no cell."""
    cells = 11 * 16
    gather = np.full(NUM_ACTIONS, BOARD_CHANNELS * cells, dtype=np.int32)
    channel = 0
    for first, n in CELL_BLOCKS:
        gather[first : first + n * cells] = np.arange(channel * cells, (channel + n) * cells)
        channel += n
    return gather


def conv3x3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3×3 convolution of one board ``x`` (in, 11, 16) by ``w`` (out, in, 3, 3), zero
    padded so the output keeps the board's shape (out, 11, 16)."""
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    out = np.zeros((w.shape[0], 11, 16), dtype=np.float32)
    for dr in range(3):
        for dc in range(3):
            window = padded[:, dr : dr + 11, dc : dc + 16]
            out += np.einsum("oi,ihw->ohw", w[:, :, dr, dc], window)
    biased: np.ndarray = out + b[:, None, None]
    return biased


def save_policy(path: Path, params: dict[str, np.ndarray]) -> None:
    """Write ``params`` (the arrays of ``LAYERS``) as float16, compressed."""
    missing = [k for k in LAYERS if k not in params]
    if missing:
        raise ValueError(f"a policy needs the arrays {', '.join(missing)}")
    arrays = {k: np.asarray(params[k], dtype=np.float16) for k in LAYERS}
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


class PolicyNet:
    """The network of a policy file, in numpy (float32)."""

    def __init__(self, path: Path = SHIPPED) -> None:
        with np.load(path, allow_pickle=False) as data:
            self.p = {k: data[k].astype(np.float32) for k in LAYERS}
        if (
            self.p["w1"].shape[0] != INPUTS
            or self.p["wp"].shape[1] != NUM_ACTIONS
            or self.p["c2"].shape[0] != BOARD_CHANNELS
        ):
            raise ValueError(f"{path} was trained for other observations or another codec")
        self.gather = board_gather()

    def logits(self, planes: np.ndarray, features: np.ndarray) -> np.ndarray:
        """One logit per codec index for one seat's planes (PLANES, 11, 16) and features."""
        p = self.p
        x = np.concatenate([planes.reshape(-1), features])
        h = np.tanh(x @ p["w1"] + p["b1"])
        h = np.tanh(h @ p["w2"] + p["b2"])
        board = np.maximum(conv3x3(planes, p["c1"], p["d1"]), 0.0)
        cells = np.append(conv3x3(board, p["c2"], p["d2"]).reshape(-1), 0.0)
        out: np.ndarray = h @ p["wp"] + p["bp"] + cells[self.gather]
        return out


@cache
def shipped_net() -> PolicyNet:
    """The shipped network, read once per process."""
    return PolicyNet(SHIPPED)


class PolicyBot:
    """Plays the legal action the trained policy rates highest (trained for two players on
    the classic game; it plays any game the observations describe)."""

    def __init__(self, seed: int = 0, name: str = "ppo", net: PolicyNet | None = None) -> None:
        self.name = name
        self.seed = seed
        self.net = net or shipped_net()

    def __repr__(self) -> str:
        """The call that makes this bot afresh."""
        return f"{type(self).__name__}({self.seed}, name={self.name!r})"

    def choose(self, view: dict[str, Any], budget: Any = None) -> str:
        """The legal action of ``view`` with the highest logit, in the view's notation."""
        legal = [str(a) for a in view["legal_actions"]]
        if not legal:
            raise ValueError("the view offers no legal action: it is not this seat's decision")
        planes, features = observe(view)
        mask = np.asarray(mask_of(legal), dtype=bool)
        logits = np.where(mask, self.net.logits(planes, features), -np.inf)
        chosen = str(decode(int(np.argmax(logits))))
        if chosen not in legal:
            raise ValueError(f"the policy chose {chosen!r}, which the view does not offer")
        return chosen

    def observe(self, events: list[dict[str, Any]]) -> None:
        """Nothing to remember: the policy reads only the view."""
        return None

    def default_budget(self, players: int) -> Any:
        """No budget: one pass through the network a decision."""
        from ..ai.base import Budget

        return Budget()
