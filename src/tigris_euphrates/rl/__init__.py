"""Research adapters: a fixed action codec, observation tensors, a PettingZoo AEC env and a
batch of games stepped together.

A seat's observation holds only what its ``player_view`` shows: ``observe(view)`` reads the
view, and ``observe_state(state, seat)`` (what the environments use) reads the state through
the view's allowlist and gives the same arrays. Action masks come from the engine's one
source of legality (``legal_actions``, or the turn's actions as integers of
``turn_groups`` for ``legal_mask``).

The integer work of that fast path (``bits``, ``indices``: no numpy) may run compiled
(mypyc, built with the engine from this same source by ``setup.py``) or as plain Python,
with the same arrays; ``COMPILED`` says which. It runs compiled only on the compiled engine,
and ``TNE_PURE_PYTHON=1`` asks for the source (``_core``).
"""

import sys

from . import _core  # first: it chooses between the compiled modules and the source
from .batch import BatchArrays, GameBatch, random_actions
from .codec import NUM_ACTIONS, decode, encode, legal_mask, mask_of
from .env import TigrisEuphratesEnv, env, raw_env
from .observation import FEATURES, PLANES, observe, observe_state

#: Whether this process runs the compiled fast path rather than its pure-Python source.
COMPILED: bool = _core.WANT_COMPILED and not str(sys.modules[__name__ + ".bits"].__file__).endswith(
    ".py"
)

__all__ = [
    "COMPILED",
    "FEATURES",
    "NUM_ACTIONS",
    "PLANES",
    "BatchArrays",
    "GameBatch",
    "TigrisEuphratesEnv",
    "decode",
    "encode",
    "env",
    "legal_mask",
    "mask_of",
    "observe",
    "observe_state",
    "random_actions",
    "raw_env",
]
