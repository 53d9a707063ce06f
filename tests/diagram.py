"""Build FORMATS.md positions from small text diagrams, for rules scenario tests.

A diagram draws the top-left corner of a board (rows from row 1, columns from a; spaces are
ignored; missing cells are empty land). It defines both the map (a custom ``grid`` board) and
the pieces on it:

    .  empty land        ~  empty river
    r  red tile (temple) g  green tile     k  black tile     b  blue tile (on a river)
    T  red tile with a treasure            C  red tile with a special treasure
    R G K B  face-down (monument) tiles of that colour       x  catastrophe (land)
    X  catastrophe on a river              $  green tile with a treasure (land)

Leaders are listed separately: ``"0 black c3, 1 red e5"`` (seat, colour, cell).
"""

from __future__ import annotations

from typing import Any

from tigris_euphrates.engine import State, from_position

COLOURS = ("red", "blue", "green", "black")
_TILES = {"r": "red", "g": "green", "k": "black", "b": "blue", "T": "red", "C": "red", "$": "green"}
_FACE_DOWN = {"R": "red", "G": "green", "K": "black", "B": "blue"}
_RIVER = set("~bBX")


def _cell(col: int, row: int) -> str:
    return f"{chr(97 + col)}{row + 1}"


def parse_rows(diagram: str) -> list[str]:
    rows = [line.replace(" ", "") for line in diagram.strip("\n").splitlines()]
    rows = [r for r in rows if r]
    assert len(rows) <= 11 and all(len(r) <= 16 for r in rows), "a diagram fits in 16x11"
    return rows


def position(
    diagram: str,
    *,
    leaders: str = "",
    hands: list[dict[str, int]] | None = None,
    players: int = 2,
    bag: list[str] | None = None,
    turn: int = 0,
    actions_left: int = 2,
    scores: list[dict[str, int]] | None = None,
    catastrophes: list[int] | None = None,
    monuments: dict[str, str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A ``tne-position/1`` object for the diagram (see the module docstring)."""
    rows = parse_rows(diagram)
    grid = []
    cells: dict[str, dict[str, Any]] = {}
    for r in range(11):
        line = rows[r] if r < len(rows) else ""
        line = line.ljust(16, ".")
        g = ""
        for c, ch in enumerate(line):
            name = _cell(c, r)
            if ch in "TC":
                g += ch
            elif ch in _RIVER:
                g += "~"
            else:
                g += "."
            if ch in _TILES:
                cells[name] = {"tile": _TILES[ch]}
                if ch in "TC$":
                    cells[name]["treasure"] = True
            elif ch in _FACE_DOWN:
                cells[name] = {"tile": _FACE_DOWN[ch], "face_down": True}
            elif ch in "xX":
                cells[name] = {"catastrophe": True}
            elif ch not in ".~":
                raise ValueError(f"unknown diagram character {ch!r}")
        grid.append(g)
    lead = []
    for part in filter(None, (p.strip() for p in leaders.split(","))):
        seat, colour, cell = part.split()
        lead.append({"seat": int(seat), "colour": colour, "cell": cell})
    hands = hands or [{} for _ in range(players)]
    scores = scores or [{} for _ in range(players)]
    cats = catastrophes or [2] * players
    opts = {"players": players, "board": {"grid": grid}, **options}
    return {
        "format": "tne-position/1",
        "options": opts,
        "cells": cells,
        "monuments": monuments or {},
        "leaders": lead,
        "players": [
            {
                "dynasty": ("archer", "bull", "pot", "lion")[i],
                "hand": {c: hands[i].get(c, 0) for c in COLOURS},
                "catastrophes": cats[i],
                "score": {
                    **{c: scores[i].get(c, 0) for c in COLOURS},
                    "treasure": scores[i].get("treasure", 0),
                },
            }
            for i in range(players)
        ],
        "bag": bag if bag is not None else ["black"] * 30,
        "turn": {"player": turn, "actions_left": actions_left},
        "over": False,
    }


def state(diagram: str, **kwargs: Any) -> State:
    """``from_position(position(diagram, ...))``."""
    return from_position(position(diagram, **kwargs))
