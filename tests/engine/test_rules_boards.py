"""RULES.md §2 (the boards): the standard and the advanced board, cell by cell.

The two maps below are copied from RULES.md §2 as printed there (column letters, row
numbers): ``.`` land, ``~`` river, ``T`` a starting temple with a treasure, ``C`` one with
a special treasure. Each board is checked against them three ways: the board's own masks,
the pieces of a new game, and where a new game lets each colour of tile go.
"""

from __future__ import annotations

import pytest

from tigris_euphrates import (
    Words,
    count,
    from_position,
    has,
    legal_actions,
    meets,
    new_game,
    to_position,
)
from tigris_euphrates.engine.board import Board

STANDARD = """
   abcdefghijklmnop
 1 ....~~~~~.T.~...
 2 .C..~.......~..C
 3 ...~~T......~~..
 4 ~~~~.........~~~
 5 .............T~~
 6 ..............~.
 7 ~~~~....T...~~~.
 8 .C.~~~~.....~...
 9 ......~~~~~~~.C.
10 .....T..........
11 ..........T.....
"""

ADVANCED = """
   abcdefghijklmnop
 1 ..~~T....T.....~
 2 ..~~..........T~
 3 .C~~...........~
 4 ..~...T....T~~~~
 5 ..~.........~...
 6 ..~T........~..C
 7 ..~~........~~..
 8 C..~~~.T....T~..
 9 .....~~~.....~..
10 ....C.~~~~~~~~..
11 ......~..C....C.
"""

#: name -> (map, river cells, temples, special temples), the counts as RULES.md §2 states them.
BOARDS = {
    "standard": (STANDARD, 41, 10, 4),
    "advanced": (ADVANCED, 39, 14, 6),
}


def rules_map(text: str) -> dict[str, str]:
    """Cell name -> map character, read from a map as RULES.md prints it."""
    header, *rows = text.strip("\n").splitlines()
    columns = header.strip()
    assert columns == "abcdefghijklmnop"
    assert len(rows) == 11
    out = {}
    for r, line in enumerate(rows, start=1):
        number, cells = line.split()
        assert int(number) == r and len(cells) == 16
        for col, ch in zip(columns, cells, strict=True):
            out[f"{col}{r}"] = ch
    return out


def masked(mask: Words, cell: str) -> bool:
    """Whether ``cell`` (a name) is in the board's set of cells ``mask`` (cell
    ``row * 16 + column``)."""
    index = (int(cell[1:]) - 1) * 16 + ord(cell[0]) - ord("a")
    return has(mask, index)


@pytest.mark.parametrize("name", BOARDS)
def test_the_board_masks_match_the_rules_map_cell_by_cell(name: str) -> None:
    text, rivers, temples, specials = BOARDS[name]
    expected = rules_map(text)
    board: Board = new_game({"board": name}, seed=1).options.board
    for cell, ch in expected.items():
        assert masked(board.rivers, cell) == (ch == "~"), f"{name} {cell}: river"
        assert masked(board.temples, cell) == (ch in "TC"), f"{name} {cell}: temple"
        assert masked(board.specials, cell) == (ch == "C"), f"{name} {cell}: special treasure"
    assert list(expected.values()).count("~") == count(board.rivers) == rivers
    assert count(board.temples) == temples and count(board.specials) == specials
    assert not meets(board.temples, board.rivers), "no temple stands on a river"
    assert "".join(board.grid) == "".join(expected.values())


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_has_a_temple_and_a_treasure_on_each_rules_temple_only(
    name: str, players: int
) -> None:
    expected = rules_map(BOARDS[name][0])
    pos = to_position(new_game({"players": players, "board": name}, seed=3))
    temples = {cell for cell, ch in expected.items() if ch in "TC"}
    assert pos["cells"] == {cell: {"tile": "red", "treasure": True} for cell in temples}
    assert pos["leaders"] == [] and pos["monuments"] == {}


@pytest.mark.parametrize("name", BOARDS)
def test_blue_tiles_go_on_the_rules_rivers_and_the_others_on_its_free_land(name: str) -> None:
    expected = rules_map(BOARDS[name][0])
    pos = to_position(new_game({"board": name}, seed=5))
    pos["players"][0]["hand"] = {"red": 2, "blue": 2, "green": 1, "black": 1}
    targets: dict[str, set[str]] = {c: set() for c in ("red", "blue", "green", "black")}
    for action in legal_actions(from_position(pos)):
        words = str(action).split()
        if words[0] == "tile":
            targets[words[1]].add(words[2])
    rivers = {cell for cell, ch in expected.items() if ch == "~"}
    land = {cell for cell, ch in expected.items() if ch == "."}
    assert targets == {"red": land, "blue": rivers, "green": land, "black": land}
