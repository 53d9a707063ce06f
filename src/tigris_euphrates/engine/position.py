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

from .board import CELL_NAMES, COLOURS, MONUMENT_NAMES
from .decisions import (
    REVOLT,
    BuildingOffer,
    Harvest,
    MonumentOffer,
    Support,
    TreasurePick,
)
from .words import cells_of, has, union

if TYPE_CHECKING:
    from .state import State

FORMAT = "tne-position/1"


def colour_counts(values: list[int] | tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: values[c] for c in range(4)}


def board_cells(state: State) -> dict[str, dict[str, Any]]:
    """The ``cells`` object: every cell that holds a tile, treasure or catastrophe, in cell
    order (a catastrophe's cell holds nothing else)."""
    red, blue, green = state.red, state.blue, state.green
    treasures, facedown, cats = state.treasures, state.facedown, state.catastrophes
    tiles = union(union(red, blue), union(green, state.black))
    out: dict[str, dict[str, Any]] = {}
    for i in cells_of(union(tiles, cats)):
        if has(cats, i):
            out[CELL_NAMES[i]] = {"catastrophe": True}
            continue
        colour = 0 if has(red, i) else 1 if has(blue, i) else 2 if has(green, i) else 3
        entry: dict[str, Any] = {"tile": COLOURS[colour]}
        if has(treasures, i):
            entry["treasure"] = True
        if has(facedown, i):
            entry["face_down"] = True
        out[CELL_NAMES[i]] = entry
    return out


def board_leaders(state: State) -> list[dict[str, Any]]:
    return [
        {"seat": i >> 2, "colour": COLOURS[i & 3], "cell": CELL_NAMES[cell]}
        for i, cell in enumerate(state.leaders)
        if cell >= 0
    ]


def built_monuments(state: State) -> dict[str, str]:
    """The ``monuments`` object: each built monument at its block's top-left cell, and the
    wonder (variant) at its centre."""
    out = {MONUMENT_NAMES[m]: CELL_NAMES[t] for m, t in enumerate(state.monuments) if t >= 0}
    if state.wonder >= 0:
        out["wonder"] = CELL_NAMES[state.wonder]
    return out


def board_buildings(state: State) -> dict[str, str]:
    """The ``buildings`` object (variant): each building on the board, colour → cell."""
    return {COLOURS[c]: CELL_NAMES[at] for c, at in enumerate(state.buildings) if at >= 0}


def pending(state: State) -> dict[str, Any] | None:
    """The decision the game waits for, or ``None`` between actions (public information
    only): its ``stage`` (the decision's name), the union tile while its wars are resolved,
    and the decision's own fields under the key of its kind. The stack never holds more than
    one decision under the rules implemented, so the top one is the whole of it."""
    d = state.decision
    if d is None and state.union < 0:
        return None
    out: dict[str, Any] = {
        "stage": d.name if d is not None else "action",
        "union": CELL_NAMES[state.union] if state.union >= 0 else None,
    }
    if isinstance(d, Support):
        out["conflict"] = {
            "kind": "revolt" if d.kind == REVOLT else "war",
            "colour": COLOURS[d.colour],
            "attacker": d.attacker,
            "defender": d.defender,
            "attacker_base": d.attacker_base,
            "defender_base": d.defender_base,
            "attacker_commit": d.attacker_commit if d.attacker_commit >= 0 else None,
        }
    elif isinstance(d, MonumentOffer):
        out["monument"] = {
            "colour": COLOURS[d.colour],
            "blocks": [CELL_NAMES[t] for t in d.blocks],
        }
        if d.centres:
            out["monument"]["centres"] = [CELL_NAMES[c] for c in d.centres]
    elif isinstance(d, TreasurePick):
        out["treasure"] = {"seat": d.owner, "cells": [CELL_NAMES[i] for i in cells_of(d.cells)]}
    elif isinstance(d, Harvest):
        out["harvest"] = {"seat": d.owner, "cells": [CELL_NAMES[i] for i in cells_of(d.cells)]}
    elif isinstance(d, BuildingOffer):
        out["building"] = {
            "colour": COLOURS[d.colour],
            "tile": CELL_NAMES[d.tile],
            "cells": [CELL_NAMES[i] for i in cells_of(d.cells)],
        }
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
    if state.options.buildings:
        pos["buildings"] = board_buildings(state)
    if state.over:
        pos["end"] = state.end
    p = pending(state)
    if p is not None:
        pos["pending"] = p
    return pos
