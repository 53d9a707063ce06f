"""tigris-euphrates: an exact rules engine, AI players and tools for Tigris & Euphrates.

This package root is the engine's one public face: it re-exports the engine's whole
``__all__``, and everything outside the engine (bots, research adapters, tournaments, CLI,
server, benchmarks) imports engine names from here, never from ``tigris_euphrates.engine``
or its modules. The stable core (docs/formats.md for the notation, positions and records)::

    new_game(options, seed) -> State
    from_position(position) -> State          to_position(state) -> dict
    legal_actions(state) -> list[Action]      (str(action) is its notation)
    apply(state, action) -> (State, events)   (action object, notation or JSON dict)
    to_act(state) -> seat | None              player_view(state, seat) -> dict
    replay(record) -> State                   result(state) -> dict | None
    InvalidAction, IllegalAction

then the vocabulary (actions, decisions, events, colours, rulesets) and the research level
(``apply_unchecked``, ``sample_legal``, ``legal_groups``, sets of cells, scoring helpers), listed
by group in docs/engine.md, "Public API".
"""

from . import engine as _engine
from .engine import *  # noqa: F403  (the engine's one public face is the package's)

__version__ = "0.1.0"

__all__ = ["__version__"]
__all__ += _engine.__all__
