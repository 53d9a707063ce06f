"""A PettingZoo AEC environment: agents ``player_0`` … ``player_{n-1}`` in seat order.

Each agent observes ``{"planes", "features", "action_mask"}`` built from its own view
(never the state). ``step`` takes an index of the fixed codec (``rl.codec``); the agent to
act is the engine's ``to_act`` (support, war order, monument and treasure decisions included,
so agents may act out of turn). Rewards come at the end only: +1 for the best place, −1 for
the last, linearly between (shared places share the reward).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import (
    Options,
    State,
    apply,
    new_game,
    player_view,
    ranks,
    seat_totals,
    to_act,
    to_position,
)
from .codec import NUM_ACTIONS, decode, mask_of
from .observation import FEATURES, PLANES, observe


class TigrisEuphratesEnv(AECEnv):  # type: ignore[misc]
    """Tigris & Euphrates for multi-agent reinforcement learning (PettingZoo AEC API)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tigris_euphrates_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game_options = {**(options or {}), "players": players}
        Options.from_dict(self.game_options)  # refused here, with the engine's message
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        self.render_mode = render_mode
        obs = spaces.Dict(
            {
                "planes": spaces.Box(0.0, 1.0, (PLANES, 11, 16), np.float32),
                "features": spaces.Box(0.0, np.inf, (FEATURES,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state_ = new_game(self.game_options, 0 if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.state_ is not None
        seat = to_act(self.state_)
        return self.possible_agents[seat if seat is not None else self.state_.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state_ is not None
        seat = self.possible_agents.index(agent)
        view = player_view(self.state_, seat)
        planes, features = observe(view)
        mask = np.asarray(mask_of(view["legal_actions"]), dtype=np.int8)
        return {"planes": planes, "features": features, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.state_, _ = apply(self.state_, decode(int(action)))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.over:
            n = len(self.possible_agents)
            place = ranks(seat_totals(self.state_))
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 - 2.0 * (place[i] - 1) / (n - 1)
                self.terminations[a] = True
        self._accumulate_rewards()
        self.agent_selection = self._agent_to_act()

    def render(self) -> str | None:
        if self.state_ is None:
            return None
        from rich.console import Console

        from ..display import game_panel

        console = Console(record=True, width=100)
        console.print(game_panel(to_position(self.state_)))
        return console.export_text()

    def close(self) -> None:
        return None


def raw_env(**kwargs: Any) -> TigrisEuphratesEnv:
    return TigrisEuphratesEnv(**kwargs)


def env(**kwargs: Any) -> TigrisEuphratesEnv:
    """The environment (PettingZoo convention)."""
    return TigrisEuphratesEnv(**kwargs)
