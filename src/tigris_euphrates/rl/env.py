"""A PettingZoo AEC environment: agents ``player_0`` … ``player_{n-1}`` in seat order.

Each agent observes ``{"planes", "features", "action_mask"}``: what its own view shows,
built from the state through the view's allowlist (``observe_state``, equal to ``observe`` of
the view) with the mask of ``legal_mask`` as int8 (equal to ``mask_of`` of the legal
actions; the agents not to act get all zeros). The legal actions are read once per state
(``legal_bits``) and shared by ``observe`` and ``step``.
``step`` takes an index of the fixed codec (``rl.codec``); the agent to act is the engine's
``to_act`` (support, war order, monument and treasure decisions included, so agents may act
out of turn). An index the mask marks is played on the engine's unchecked path; any other
goes to the engine's ``check`` and is refused with an ``IllegalAction`` naming the index, the
action and the rule, the game unchanged. Rewards come at the end only: +1 for the best
place, −1 for the last, linearly between (shared places share the reward).

``opponents`` seats bots in some seats (seat number to a spec, as ``tne tournament`` takes
them: a level or ``cmd:COMMAND``, a program speaking ``tne-bot/1``): those seats are not
agents; the environment plays them between the agents' steps, each bot seeing its view and
its redacted events only. A program that fails is started again, at most ``restarts`` times
an episode (once unless told), then replaced by a bot of the ``fallback`` level for the rest
of the episode, as in a tournament (``botproto.faults``); ``faults`` lists what happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import (
    Options,
    State,
    apply,
    apply_unchecked,
    new_game,
    player_view,
    redact_event,
    result,
    to_act,
    to_position,
)
from ..ai import TIMEOUT_LEVEL, Bot
from ..botproto import BotFault, ProtocolBot, check_fallback, check_spec, make_player
from ..botproto.faults import RESTARTS, Faults
from .codec import NUM_ACTIONS, checked_action, legal_bits, unpack_mask
from .observation import FEATURES, PLANES, observe_state
from .rewards import final_rewards


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
        opponents: Mapping[int, str] | None = None,
        fallback: str = TIMEOUT_LEVEL,
        bot_logs: Path | None = None,
        restarts: int = RESTARTS,
    ) -> None:
        super().__init__()
        self.game_options = {**(options or {}), "players": players}
        Options.from_dict(self.game_options)  # refused here, with the engine's message
        self.opponents = dict(opponents or {})
        for seat, spec in self.opponents.items():
            if not (isinstance(seat, int) and 0 <= seat < players):
                raise ValueError(f"no seat {seat!r} for an opponent in a {players}-player game")
            check_spec(spec)
        if len(self.opponents) == players:
            raise ValueError("every seat is an opponent: leave at least one to the agents")
        check_fallback(fallback)
        self.fallback = fallback
        self.restarts = restarts
        self._faults = Faults(fallback, restarts)
        self.bot_logs = bot_logs
        self.bots: dict[int, Bot] = {}
        self.possible_agents = [f"player_{i}" for i in range(players) if i not in self.opponents]
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
        self._seats = {a: int(a.removeprefix("player_")) for a in self.possible_agents}
        #: The legal actions (``legal_bits``) of the state they were read for (observe and
        #: step share them).
        self._legal_for: State | None = None
        self._legal = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._stop_bots()
        game_seed = 0 if seed is None else seed
        self.state_ = new_game(self.game_options, game_seed)
        self._legal_for = None
        self._faults = Faults(self.fallback, self.restarts)
        self._start_bots(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._play_opponents()
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.state_ is not None
        seat = to_act(self.state_)
        seat = seat if seat is not None else self.state_.turn
        name = f"player_{seat}"
        return name if name in self._seats else self.possible_agents[0]

    def _start_bots(self, seed: int) -> None:
        """Seat the opponents of an episode (programs started, a failed one replaced)."""
        assert self.state_ is not None
        for seat, spec in sorted(self.opponents.items()):
            bot = make_player(spec, seed * 10 + seat + 1, self.bot_logs)
            self.bots[seat] = bot
            if isinstance(bot, ProtocolBot):
                try:
                    bot.begin(self.state_.options.to_dict(), seat)
                except BotFault as fault:
                    self._replace(seat, fault)

    def _replace(self, seat: int, fault: BotFault) -> None:
        """A program failed: started again, or a bot of the fallback level takes its seat."""
        assert self.state_ is not None
        self._faults.handle(self.bots, seat, self.state_.ply, fault)

    @property
    def faults(self) -> list[dict[str, Any]]:
        """The opponents' faults of this episode: seat, ply, fault, detail and what was done
        (``restart`` or ``fallback LEVEL``), as a tournament record lists them."""
        return self._faults.faults

    def _play(self, action: str) -> None:
        """Play ``action`` and tell every opponent the events it may hear."""
        assert self.state_ is not None
        self.state_, events = apply(self.state_, action)
        for seat, bot in self.bots.items():
            bot.observe([redact_event(e, seat) for e in events])

    def _play_opponents(self) -> None:
        """Let the opponents act until an agent is to act or the game is over."""
        state = self.state_
        while state is not None and not state.over and to_act(state) in self.bots:
            seat = to_act(state)
            assert seat is not None
            view = player_view(state, seat)
            try:
                choice = self.bots[seat].choose(view)
            except BotFault as fault:
                self._replace(seat, fault)
                continue
            if choice not in view["legal_actions"]:
                raise ValueError(f"opponent in seat {seat} chose {choice!r}, not a legal action")
            self._play(choice)
            state = self.state_
        if state is not None and state.over:
            self._stop_bots()

    def _stop_bots(self) -> None:
        """Stop the opponents' programs (telling them the result when the game is over)."""
        res = result(self.state_) if self.state_ is not None else None
        for bot in self.bots.values():
            if isinstance(bot, ProtocolBot):
                bot.finish(res)

    def _legal_bits(self) -> int:
        """The legal actions of the current state as ``legal_bits`` (read once per state)."""
        state = self.state_
        assert state is not None
        if self._legal_for is not state:
            self._legal = legal_bits(state)
            self._legal_for = state
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state_
        assert state is not None
        seat = self._seats[agent]
        planes, features = observe_state(state, seat)
        if to_act(state) == seat:
            mask = unpack_mask(self._legal_bits()).view(np.int8)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"planes": planes, "features": features, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None and action is not None
        chosen = checked_action(self.state_, self._legal_bits(), int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.bots:
            self._play(str(chosen))
            self._play_opponents()
        else:
            self.state_ = apply_unchecked(self.state_, chosen)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state_.over:
            rewards = final_rewards(self.state_)
            for a in self.possible_agents:
                self.rewards[a] = rewards[self._seats[a]]
                self.terminations[a] = True
            # Only here: before the end every reward is 0.0, which would add nothing.
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
        self._stop_bots()


def raw_env(**kwargs: Any) -> TigrisEuphratesEnv:
    return TigrisEuphratesEnv(**kwargs)


def env(**kwargs: Any) -> TigrisEuphratesEnv:
    """The environment (PettingZoo convention)."""
    return TigrisEuphratesEnv(**kwargs)
