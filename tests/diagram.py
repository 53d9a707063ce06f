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

from tigris_euphrates import State, from_position

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
    buildings: dict[str, str] | None = None,
    spare_treasures: int = 0,
    **options: Any,
) -> dict[str, Any]:
    """A ``tne-position/1`` object for the diagram (see the module docstring).

    ``monuments`` maps built monuments (and, in the wonder variant, ``"wonder"``) to their
    cells. ``buildings`` (colour -> cell of the buildings on the board, ``{}`` for none) is
    written only when given, and giving it turns the buildings variant on (the option of the
    same name cannot be passed through ``options``).
    ``spare_treasures`` (0 to 4) adds that many isolated temples with a treasure on row 11
    (p11, n11, l11, j11), so that a scenario does not end the game by the treasure rule.
    """
    rows = parse_rows(diagram)
    if spare_treasures:
        assert 0 <= spare_treasures <= 4, "at most 4 spare treasures"
        rows += [""] * (11 - len(rows))
        last = list(rows[10].ljust(16, "."))
        for col in (15, 13, 11, 9)[:spare_treasures]:
            assert last[col] == ".", "spare treasures need p11, n11, l11, j11 free"
            last[col] = "T"
        rows[10] = "".join(last)
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
    if buildings is not None:
        opts["buildings"] = True
    pos: dict[str, Any] = {
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
    if buildings is not None:
        pos["buildings"] = buildings
    return pos


def state(diagram: str, **kwargs: Any) -> State:
    """``from_position(position(diagram, ...))``."""
    return from_position(position(diagram, **kwargs))


def st(diagram: str, **kwargs: Any) -> State:
    """``state(diagram, ...)`` with 3 spare treasures (unless given), the rules scenarios'
    default: taking a treasure in a scenario must not end the game by the treasure rule."""
    kwargs.setdefault("spare_treasures", 3)
    return state(diagram, **kwargs)


# A score row of zeros (four colours and ``treasure``), as ``score`` returns it.
ZERO = {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0}


# --- helpers for the rules scenario tests ---------------------------------------------------


def play(s: State, *actions: str) -> tuple[State, list[dict[str, Any]]]:
    """Apply ``actions`` (notation) in order; the final state and all the events."""
    from tigris_euphrates import apply

    events: list[dict[str, Any]] = []
    for a in actions:
        s, ev = apply(s, a)
        events.extend(e.to_dict() for e in ev)
    return s, events


def cells(s: State) -> dict[str, dict[str, Any]]:
    """The position's ``cells`` object."""
    from tigris_euphrates import to_position

    return dict(to_position(s)["cells"])


def leaders_on_board(s: State) -> set[tuple[int, str, str]]:
    """The leaders on the board as (seat, colour, cell)."""
    from tigris_euphrates import to_position

    return {(d["seat"], d["colour"], d["cell"]) for d in to_position(s)["leaders"]}


def score(s: State, seat: int) -> dict[str, int]:
    """The seat's score row (four colours and ``treasure``), zeros included."""
    from tigris_euphrates import to_position

    return dict(to_position(s)["players"][seat]["score"])


def hand(s: State, seat: int) -> dict[str, int]:
    from tigris_euphrates import to_position

    return dict(to_position(s)["players"][seat]["hand"])


def legal(s: State) -> set[str]:
    """The notation of every legal action now."""
    from tigris_euphrates import legal_actions

    return {str(a) for a in legal_actions(s)}


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def assert_illegal(s: State, action: str, code: str, words: str = "") -> str:
    """``action`` raises IllegalAction with ``code`` (its message containing ``words``), is
    not among the legal actions, and leaves the state unchanged. Returns the message."""
    import pytest

    from tigris_euphrates import IllegalAction, apply, to_position

    before = to_position(s)
    with pytest.raises(IllegalAction) as info:
        apply(s, action)
    assert info.value.code == code, info.value
    assert words in str(info.value), str(info.value)
    assert to_position(s) == before
    assert action not in legal(s)
    return str(info.value)


def assert_refused(s: State, action: str) -> str:
    """``action`` raises IllegalAction (whatever its code), is not among the legal actions,
    and leaves the state unchanged. Returns the message. For rules whose error code is not
    fixed yet (the variants)."""
    import pytest

    from tigris_euphrates import IllegalAction, apply, to_position

    before = to_position(s)
    with pytest.raises(IllegalAction) as info:
        apply(s, action)
    assert to_position(s) == before
    assert action not in legal(s)
    return str(info.value)


def pending(s: State) -> dict[str, Any] | None:
    """The engine's ``pending`` field of the position (None between actions)."""
    from tigris_euphrates import to_position

    p = to_position(s).get("pending")
    return dict(p) if p is not None else None
