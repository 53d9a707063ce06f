"""The rules engine of Tigris & Euphrates: pure Python, standard library only.

See ``tigris_euphrates`` for the public API; everything here is stable vocabulary:
states, actions, legality, apply, views, positions and records.
"""

from .actions import Action, action_from_dict, parse_action
from .errors import EngineError, IllegalAction, InvalidAction
from .legal import check, legal_actions, sample_legal, to_act
from .play import apply, apply_unchecked
from .position import from_position, to_position
from .record import make_record, replay, replay_steps
from .scoring import result
from .state import Options, State, new_game
from .view import player_view, redact_event, spectator_view

__all__ = [
    "Action",
    "EngineError",
    "IllegalAction",
    "InvalidAction",
    "Options",
    "State",
    "action_from_dict",
    "apply",
    "apply_unchecked",
    "check",
    "from_position",
    "legal_actions",
    "make_record",
    "new_game",
    "parse_action",
    "player_view",
    "redact_event",
    "replay",
    "replay_steps",
    "result",
    "sample_legal",
    "spectator_view",
    "to_act",
    "to_position",
]
