"""Positions (``tne-position/1`` of FORMATS.md): any moment of a game written as JSON
(``to_position``; ``load.from_position`` reads it back), and the pieces of it that views
share.

Between actions a position holds exactly the fields of FORMATS.md. The engine adds optional
fields of its own: ``pending`` (a decision in progress: conflict, war choice, monument offer,
treasure pick), ``out`` (tiles out of the game: public ones and each seat's swapped tiles),
``end`` (why a finished game ended) and ``ply``. A position without them loads as well.

Writing needs nothing of ``state`` but its fields, so this module does not import it at run
time: ``State.__repr__`` writes its position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import CELL_NAMES, COLOURS, MONUMENT_NAMES, cells_of
from .stages import ACTION, CONFLICT, MONUMENT, REVOLT, TREASURE, WAR_CHOICE

if TYPE_CHECKING:
    from .state import State

FORMAT = "tne-position/1"
#: Each stage by its name in a position's ``pending`` field, and back.
STAGE_KEYS = {ACTION: "action", CONFLICT: "conflict", WAR_CHOICE: "war", MONUMENT: "monument"}
STAGE_KEYS[TREASURE] = "treasure"
STAGE_OF_KEY = {v: k for k, v in STAGE_KEYS.items()}


def colour_counts(values: list[int] | tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: values[c] for c in range(4)}


def board_cells(state: State) -> dict[str, dict[str, Any]]:
    """The ``cells`` object: every cell that holds a tile, treasure or catastrophe."""
    found: dict[int, dict[str, Any]] = {}
    for colour in range(4):
        for i in cells_of(state.tiles[colour]):
            entry: dict[str, Any] = {"tile": COLOURS[colour]}
            if state.treasures >> i & 1:
                entry["treasure"] = True
            if state.facedown >> i & 1:
                entry["face_down"] = True
            found[i] = entry
    for i in cells_of(state.catastrophes):
        found[i] = {"catastrophe": True}
    return {CELL_NAMES[i]: found[i] for i in sorted(found)}


def board_leaders(state: State) -> list[dict[str, Any]]:
    return [
        {"seat": i >> 2, "colour": COLOURS[i & 3], "cell": CELL_NAMES[cell]}
        for i, cell in enumerate(state.leaders)
        if cell >= 0
    ]


def built_monuments(state: State) -> dict[str, str]:
    return {MONUMENT_NAMES[m]: CELL_NAMES[t] for m, t in enumerate(state.monuments) if t >= 0}


def pending(state: State) -> dict[str, Any] | None:
    """The decision in progress, or ``None`` between actions (public information only)."""
    if state.stage == ACTION and state.union < 0:
        return None
    out: dict[str, Any] = {
        "stage": STAGE_KEYS[state.stage],
        "union": CELL_NAMES[state.union] if state.union >= 0 else None,
    }
    if state.conflict is not None:
        kind, colour, att, dfn, abase, dbase, acommit = state.conflict
        out["conflict"] = {
            "kind": "revolt" if kind == REVOLT else "war",
            "colour": COLOURS[colour],
            "attacker": att,
            "defender": dfn,
            "attacker_base": abase,
            "defender_base": dbase,
            "attacker_commit": acommit if acommit >= 0 else None,
        }
    if state.monument_offer is not None:
        colour, blocks = state.monument_offer
        out["monument"] = {"colour": COLOURS[colour], "blocks": [CELL_NAMES[t] for t in blocks]}
    if state.treasure_pick is not None:
        seat, cells = state.treasure_pick
        out["treasure"] = {"seat": seat, "cells": [CELL_NAMES[i] for i in cells_of(cells)]}
    return out


def to_position(state: State) -> dict[str, Any]:
    """The full position, bag order and every hand included (never send it to a player)."""
    n = state.options.players
    pos: dict[str, Any] = {
        "format": FORMAT,
        "options": state.options.to_dict(),
        "cells": board_cells(state),
        "monuments": built_monuments(state),
        "leaders": board_leaders(state),
        "players": [
            {
                "dynasty": state.dynasties[seat],
                "hand": colour_counts(state.hands[seat * 4 : seat * 4 + 4]),
                "catastrophes": state.cats[seat],
                "score": {
                    **colour_counts(state.scores[seat * 5 : seat * 5 + 4]),
                    "treasure": state.scores[seat * 5 + 4],
                },
            }
            for seat in range(n)
        ],
        "bag": [COLOURS[c] for c in state.bag[state.bag_pos :]],
        "turn": {"player": state.turn, "actions_left": state.actions_left},
        "over": state.over,
        "out": {
            "public": colour_counts(state.out_public),
            "swapped": [colour_counts(state.swapped[s * 4 : s * 4 + 4]) for s in range(n)],
        },
        "ply": state.ply,
    }
    if state.over:
        pos["end"] = state.end
    p = pending(state)
    if p is not None:
        pos["pending"] = p
    return pos
