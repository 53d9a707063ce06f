"""Differential test: the bitboard legality against a naive grid implementation.

The reference below works on (row, col) coordinates with breadth-first search and no bit
tricks, straight from RULES.md §4–§5; random game states must give the same legal cells.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from tigris_euphrates.engine import has, legal_actions, new_game
from tigris_euphrates.engine.legal import sample_legal
from tigris_euphrates.engine.play import apply_unchecked
from tigris_euphrates.engine.state import State

Cell = tuple[int, int]


def cell_of(i: int) -> Cell:
    return divmod(i, 16)


def adjacent(cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < 11 and 0 <= c + dc < 16]  # fmt: skip


class Grid:
    """The board as dictionaries of coordinates."""

    def __init__(self, s: State, lift: Cell | None = None) -> None:
        self.tile: dict[Cell, int] = {}
        self.face_down: set[Cell] = set()
        for i in range(176):
            for colour in range(4):
                if has(s.tiles[colour], i):
                    self.tile[cell_of(i)] = colour
            if has(s.facedown, i):
                self.face_down.add(cell_of(i))
        self.leaders = {cell_of(c) for c in s.leaders if c >= 0} - ({lift} if lift else set())
        self.catastrophes = {cell_of(i) for i in range(176) if has(s.catastrophes, i)}
        self.treasures = {cell_of(i) for i in range(176) if has(s.treasures, i)}
        grid = s.options.board.grid
        self.river = {(r, c) for r in range(11) for c in range(16) if grid[r][c] == "~"}

    def occupied(self, cell: Cell) -> bool:
        return cell in self.tile or cell in self.leaders

    def region(self, start: Cell) -> set[Cell]:
        seen = {start}
        todo = deque([start])
        while todo:
            for n in adjacent(todo.popleft()):
                if n not in seen and self.occupied(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def kingdoms_touching(self, cell: Cell) -> int:
        found: list[set[Cell]] = []
        for n in adjacent(cell):
            if self.occupied(n) and not any(n in k for k in found):
                r = self.region(n)
                if r & self.leaders:
                    found.append(r)
                elif not any(n in k for k in found):
                    found.append(set())  # a leaderless region: remember nothing
        return sum(1 for k in found if k)

    def empty(self, cell: Cell) -> bool:
        return not self.occupied(cell) and cell not in self.catastrophes


def reference_legal(s: State) -> set[str]:
    """Turn actions of placement kinds, as notation, by the naive reading of the rules."""
    out: set[str] = set()
    seat = s.turn
    names = ("red", "blue", "green", "black")
    g = Grid(s)
    every = [(r, c) for r in range(11) for c in range(16)]
    name = lambda cell: f"{chr(97 + cell[1])}{cell[0] + 1}"  # noqa: E731
    for colour in range(4):
        if not s.hands[seat * 4 + colour]:
            continue
        for cell in every:
            if not g.empty(cell):
                continue
            if (colour == 1) != (cell in g.river):
                continue
            if g.kingdoms_touching(cell) >= 3:
                continue
            out.add(f"tile {names[colour]} {name(cell)}")
    for colour in range(4):
        cur = s.leaders[seat * 4 + colour]
        lifted = Grid(s, cell_of(cur) if cur >= 0 else None)
        for cell in every:
            if cur >= 0 and cell == cell_of(cur):
                continue
            if not lifted.empty(cell) or cell in lifted.river:
                continue
            if not any(lifted.tile.get(n) == 0 and n not in lifted.face_down
                       for n in adjacent(cell)):  # fmt: skip
                continue
            if lifted.kingdoms_touching(cell) >= 2:
                continue
            out.add(f"leader {names[colour]} {name(cell)}")
    if s.cats[seat]:
        for cell in every:
            if cell in g.leaders or cell in g.catastrophes or cell in g.face_down:
                continue
            if cell in g.treasures:
                continue
            out.add(f"catastrophe {name(cell)}")
    return out


@pytest.mark.parametrize(("seed", "players", "board"),
                         [(1, 2, "standard"), (2, 3, "advanced"), (3, 4, "standard"),
                          (4, 4, "advanced")])  # fmt: skip
def test_bitboards_agree_with_naive_reference(seed: int, players: int, board: str) -> None:
    rng = random.Random(seed)
    s = new_game({"players": players, "board": board}, seed)
    checked = 0
    step = 0
    while not s.over:
        if not s.pending and step % 4 == 0:
            mine = {str(a) for a in legal_actions(s) if a.kind in ("tile", "leader", "catastrophe")}
            assert mine == reference_legal(s), f"step {step}"
            checked += 1
        s = apply_unchecked(s, sample_legal(s, rng))
        step += 1
    assert checked > 20
