"""Many games stepped together, for training loops: numpy arrays in, numpy arrays out.

``GameBatch(n, players, options, seed)`` holds ``n`` games. ``reset()`` starts them all and
``step(actions)`` plays one index of the codec in each (``actions[i]`` in game ``i``, by the
seat to act there); both return a ``BatchArrays``: the observation of the seat to act in each
game (the planes and features of ``observe_state``, the mask of ``legal_mask``), that seat,
and the rewards and done flags of the step. A game that ends is started again at once: its
``rewards`` and ``dones`` row is about the game that just ended (``final_rewards``, the env's
rule), its observation, mask and seat about the new game. Games are seeded from ``seed`` in
the order they start (``reset`` starts games 0 … n-1, a step restarts the games that ended in
index order), so a batch replays exactly from its seed and actions.

Every index is checked against the mask before any game is played: an index that is not
legal raises ``IllegalAction`` naming the game, the index, the action and the rule, and no
game changes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import IllegalAction, Options, State, apply_unchecked, new_game, to_act
from .codec import NUM_ACTIONS, checked_action, legal_masks
from .observation import FEATURES, PLANES, observe_states
from .rewards import final_rewards


class BatchArrays(NamedTuple):
    """What ``GameBatch.reset`` and ``step`` return, one row per game."""

    #: (n, PLANES, 11, 16) float32: the board planes of the seat to act (``observe``).
    planes: np.ndarray
    #: (n, FEATURES) float32: the features of the seat to act.
    features: np.ndarray
    #: (n, NUM_ACTIONS) bool: the legal actions of the seat to act.
    masks: np.ndarray
    #: (n,) int64: the seat to act, the seat the observation belongs to.
    to_act: np.ndarray
    #: (n, players) float32: each seat's reward for the step (non-zero only where a game ended).
    rewards: np.ndarray
    #: (n,) bool: the game ended in this step (and the row's observation is a new game's).
    dones: np.ndarray

    @staticmethod
    def empty(n: int, players: int) -> BatchArrays:
        """Arrays of the right shapes and types to pass as ``out``."""
        return BatchArrays(
            np.zeros((n, PLANES, 11, 16), dtype=np.float32),
            np.zeros((n, FEATURES), dtype=np.float32),
            np.zeros((n, NUM_ACTIONS), dtype=bool),
            np.zeros(n, dtype=np.int64),
            np.zeros((n, players), dtype=np.float32),
            np.zeros(n, dtype=bool),
        )


class GameBatch:
    """``n`` games of ``players`` seats with ``options`` (any option set the engine accepts),
    seeded from ``seed``."""

    def __init__(
        self, n: int, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> None:
        if not (isinstance(n, int) and n >= 1):
            raise ValueError(f"a batch holds at least one game, not {n!r}")
        self.n = n
        self.players = players
        self.options = Options.from_dict({**(options or {}), "players": players})
        self._rng = np.random.default_rng(seed)
        #: The games being played (read them, do not change them).
        self.states: list[State] = []
        #: The engine seed of each game being played (``new_game(options, seed)``).
        self.seeds: list[int] = []
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=bool)

    def reset(self, seed: int | None = None, out: BatchArrays | None = None) -> BatchArrays:
        """Start ``n`` new games (from ``seed`` when given, else going on with the batch's
        seeds) and observe them; no rewards, no games done."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.seeds = [self._next_seed() for _ in range(self.n)]
        self.states = [new_game(self.options, s) for s in self.seeds]
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        return self._observe(rewards, np.zeros(self.n, dtype=bool), out)

    def step(self, actions: np.ndarray | list[int], out: BatchArrays | None = None) -> BatchArrays:
        """Play ``actions[i]`` (an index of the codec) in game ``i`` for its seat to act, start
        the games that end again, and observe them all."""
        if not self.states:
            raise RuntimeError("reset() the batch before stepping it")
        indices = np.asarray(actions)
        if indices.shape != (self.n,) or not np.issubdtype(indices.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.n} integers (one per game), not {indices.dtype} "
                f"of shape {indices.shape}"
            )
        chosen = []
        masks = self._masks
        for i, index in enumerate(indices.tolist()):
            try:
                chosen.append(checked_action(self.states[i], masks[i], index))
            except IllegalAction as e:
                raise IllegalAction(e.code, f"game {i}: {e.message}") from None
            except ValueError as e:
                raise ValueError(f"game {i}: {e}") from None
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        dones = np.zeros(self.n, dtype=bool)
        states = self.states
        for i, action in enumerate(chosen):
            s = apply_unchecked(states[i], action)
            if s.over:
                rewards[i] = final_rewards(s)
                dones[i] = True
                self.seeds[i] = self._next_seed()
                s = new_game(self.options, self.seeds[i])
            states[i] = s
        return self._observe(rewards, dones, out)

    def _next_seed(self) -> int:
        return int(self._rng.integers(2**63))

    def _observe(
        self, rewards: np.ndarray, dones: np.ndarray, out: BatchArrays | None
    ) -> BatchArrays:
        seats = []
        for s in self.states:
            seat = to_act(s)
            assert seat is not None  # games that end are started again
            seats.append(seat)
        legal_masks(self.states, self._masks)
        if out is None:
            planes, features = observe_states(self.states, seats)
            return BatchArrays(
                planes,
                features,
                self._masks.copy(),
                np.array(seats, dtype=np.int64),
                rewards,
                dones,
            )
        observe_states(self.states, seats, out.planes, out.features)
        out.masks[...] = self._masks
        out.to_act[...] = seats
        out.rewards[...] = rewards
        out.dones[...] = dones
        return out


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row of ``masks`` (n, NUM_ACTIONS), drawn uniformly among those the row
    marks (a random policy for a batch)."""
    counts = masks.sum(axis=1)
    if not counts.all():
        raise ValueError(f"rows {np.flatnonzero(counts == 0).tolist()} mark no action")
    picks = np.minimum((rng.random(len(counts)) * counts).astype(np.intp), counts - 1)
    marked = np.flatnonzero(masks)
    starts = np.cumsum(counts) - counts
    chosen: np.ndarray = marked[starts + picks] - np.arange(len(counts)) * masks.shape[1]
    return chosen
