"""tigris-euphrates: an exact rules engine, AI players and tools for Tigris & Euphrates.

The stable public API (FORMATS.md for the notation, positions and records)::

    new_game(options, seed) -> State
    from_position(position) -> State          to_position(state) -> dict
    legal_actions(state) -> list[Action]      (str(action) is its notation)
    apply(state, action) -> (State, events)   (action object, notation or JSON dict)
    to_act(state) -> seat | None              player_view(state, seat) -> dict
    replay(record) -> State                   result(state) -> dict | None
    InvalidAction, IllegalAction
"""

from .engine import (
    Action,
    IllegalAction,
    InvalidAction,
    State,
    apply,
    from_position,
    legal_actions,
    make_record,
    new_game,
    parse_action,
    player_view,
    redact_event,
    replay,
    result,
    spectator_view,
    to_act,
    to_position,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "IllegalAction",
    "InvalidAction",
    "State",
    "__version__",
    "apply",
    "from_position",
    "legal_actions",
    "make_record",
    "new_game",
    "parse_action",
    "player_view",
    "redact_event",
    "replay",
    "result",
    "spectator_view",
    "to_act",
    "to_position",
]
