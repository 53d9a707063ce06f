"""What one seat (or a spectator) may see: the only place where secrets are removed.

Views are *built* field by field from public facts (an allowlist), so a new state field
stays private until someone adds it here on purpose. Events are redacted per seat by
``redact_event``. RULES.md §10: hands are private, the bag order secret, other players'
score rows hidden under hidden scoring, swapped-away colours known only to the swapper;
at the end everything is revealed.
"""

from __future__ import annotations

from typing import Any

from .board import COLOURS, MONUMENT_NAMES, TILE_TOTALS
from .events import EVENTS, Event
from .legal import legal_notations, to_act, war_colours, war_sides
from .position import (
    board_buildings,
    board_cells,
    board_leaders,
    built_monuments,
    colour_counts,
    pending,
)
from .scoring import result
from .state import State
from .types import Seat
from .words import count

FORMAT = "tne-view/1"


def unseen_tiles(state: State, seat: Seat | None) -> list[int]:
    """Per colour, the tiles ``seat`` cannot see: other hands, the bag, others' swaps."""
    out = []
    for c in range(4):
        n = TILE_TOTALS[c] - count(state.tiles_of(c)) - state.out_public[c]
        if seat is not None:
            n -= state.hands[seat * 4 + c] + state.swapped[seat * 4 + c]
        out.append(n)
    return out


def shared_view(state: State) -> dict[str, Any]:
    """What every seat's view of ``state`` holds alike: the options, the board, the bag and
    the tiles out, the turn, the decision, the end. ``player_view`` builds it for each call;
    a caller making several seats' views of one state (the server, at each step) builds it
    once and hands it to each: those views then share these values, which must not be
    changed in place."""
    over = state.over
    opts = state.options
    out: dict[str, Any] = {
        "options": opts.to_dict(),
        "grid": list(opts.board.grid),
        "cells": board_cells(state),
        "monuments": built_monuments(state),
        "monuments_left": (
            [MONUMENT_NAMES[m] for m in range(6) if state.monuments[m] < 0]
            if opts.rules.monuments
            else []
        ),
        "leaders": board_leaders(state),
        "bag_size": state.bag_left,
        "removed": colour_counts(state.out_public),
        "turn": {"player": state.turn, "actions_left": state.actions_left},
        "to_act": to_act(state),
        "pending": _pending(state),
        "over": over,
        "ply": state.ply,
    }
    if opts.buildings:
        out["buildings"] = board_buildings(state)
    if over:
        out["end"] = state.end
        out["result"] = result(state)
    return out


def player_view(
    state: State, seat: Seat | None, shared: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The game as ``seat`` sees it at the table (``None``: a spectator); ``shared``, when
    given, is ``shared_view(state)`` of this same state."""
    n = state.options.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in a {n}-player game")
    if shared is None:
        shared = shared_view(state)
    over = state.over
    open_scores = state.options.open_scoring or over
    players = []
    for p in range(n):
        hand = state.hands[p * 4 : p * 4 + 4]
        entry: dict[str, Any] = {
            "seat": p,
            "dynasty": state.dynasties[p],
            "hand_size": sum(hand),
            "catastrophes": state.cats[p],
            "leaders_off_board": [COLOURS[c] for c in range(4) if state.leaders[p * 4 + c] < 0],
            "swapped": sum(state.swapped[p * 4 : p * 4 + 4]),
        }
        if p == seat or over:
            entry["hand"] = colour_counts(hand)
            entry["swapped_tiles"] = colour_counts(state.swapped[p * 4 : p * 4 + 4])
        if p == seat or open_scores:
            row = state.scores[p * 5 : p * 5 + 5]
            entry["score"] = {**colour_counts(row), "treasure": row[4]}
        players.append(entry)
    actor = shared["to_act"]
    view: dict[str, Any] = {
        "format": FORMAT,
        "seat": seat,
        "options": shared["options"],
        "grid": shared["grid"],
        "cells": shared["cells"],
        "monuments": shared["monuments"],
        "monuments_left": shared["monuments_left"],
        "leaders": shared["leaders"],
        "players": players,
        "bag_size": shared["bag_size"],
        "removed": shared["removed"],
        "unseen": colour_counts(unseen_tiles(state, seat)),
        "turn": shared["turn"],
        "to_act": actor,
        "pending": shared["pending"],
        "legal_actions": (legal_notations(state) if seat is not None and actor == seat else []),
        "over": over,
        "ply": shared["ply"],
    }
    if "buildings" in shared:
        view["buildings"] = shared["buildings"]
    if over:
        view["end"] = shared["end"]
        view["result"] = shared["result"]
    return view


def _pending(state: State) -> dict[str, Any] | None:
    """The open decision; the placer's choice of the next war also lists each war of the
    union with its sides and base strengths (what the board shows everybody)."""
    out = pending(state)
    if out is not None and out["stage"] == "war":
        out["wars"] = []
        for colour in war_colours(state):
            att, dfn, abase, dbase = war_sides(state, colour)
            out["wars"].append(
                {
                    "colour": COLOURS[colour],
                    "attacker": att,
                    "defender": dfn,
                    "attacker_base": abase,
                    "defender_base": dbase,
                }
            )
    return out


def spectator_view(state: State) -> dict[str, Any]:
    """The public view: what someone watching the table sees."""
    return player_view(state, None)


def redact_event(event: Event | dict[str, Any], seat: Seat | None) -> dict[str, Any]:
    """The event's wire form as ``seat`` may see it (tiles drawn or swapped by others:
    counts only). Takes a typed event or its ``to_dict()`` form."""
    if isinstance(event, Event):
        private = event.private
        data = event.to_dict()
    else:
        cls = EVENTS.get(event.get("type", ""))
        private = cls.private if cls is not None else ()
        data = dict(event)
    if private and data.get("seat") != seat:
        for key in private:
            data.pop(key, None)
    return data
