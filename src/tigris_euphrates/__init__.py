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

from . import engine as _engine
from .engine import *  # noqa: F403  (the engine's one public face is the package's)

__version__ = "0.1.0"

__all__ = ["__version__"]
__all__ += _engine.__all__
