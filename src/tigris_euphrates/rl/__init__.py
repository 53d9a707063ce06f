"""Research adapters: a fixed action codec, observation tensors and a PettingZoo AEC env.

Everything here is built from ``player_view`` (never the state), so agents trained on it
cannot see hidden tiles; the action mask comes from the view's ``legal_actions``, the
engine's one source of legality.
"""

from .codec import NUM_ACTIONS, decode, encode, mask_of
from .env import TigrisEuphratesEnv, env, raw_env
from .observation import FEATURES, PLANES, observe

__all__ = [
    "FEATURES",
    "NUM_ACTIONS",
    "PLANES",
    "TigrisEuphratesEnv",
    "decode",
    "encode",
    "env",
    "mask_of",
    "observe",
    "raw_env",
]
