"""An independent, deliberately naive reading of RULES.md §4–§9 (plain sets and breadth-first
search over the position JSON, no bitboards), checked against the engine along seeded random
games: every legal turn action, and the consequences of every action (tile points, unions,
revolts, war parties and strengths, war removals and points, catastrophe orphans, monument
points, refills, the treasure rule, the treasure end)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tigris_euphrates import apply, has, legal_actions, new_game, to_act, to_position
from tigris_euphrates.engine.board import CELL_NAMES

COLS, ROWS = 16, 11
IDX = {name: i for i, name in enumerate(CELL_NAMES)}
Pos = dict[str, Any]


def nbs(c: int) -> list[int]:
    r, k = divmod(c, COLS)
    out = []
    if k > 0:
        out.append(c - 1)
    if k < COLS - 1:
        out.append(c + 1)
    if r > 0:
        out.append(c - COLS)
    if r < ROWS - 1:
        out.append(c + COLS)
    return out


class Board:
    def __init__(self, pos: Pos) -> None:
        self.tiles: dict[int, str] = {}
        self.face_down: set[int] = set()
        self.treasures: set[int] = set()
        self.dead: set[int] = set()
        for name, e in pos["cells"].items():
            i = IDX[name]
            if e.get("catastrophe"):
                self.dead.add(i)
                continue
            self.tiles[i] = e["tile"]
            if e.get("face_down"):
                self.face_down.add(i)
            if e.get("treasure"):
                self.treasures.add(i)
        self.leaders = {(d["seat"], d["colour"]): IDX[d["cell"]] for d in pos["leaders"]}

    def up(self, colour: str) -> set[int]:
        return {c for c, t in self.tiles.items() if t == colour and c not in self.face_down}

    def occupied(self) -> set[int]:
        return set(self.tiles) | set(self.leaders.values())


def region(occ: set[int], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for n in nbs(todo.pop()):
            if n in occ and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def touching(occ: set[int], leader_cells: set[int], cell: int) -> list[set[int]]:
    found: list[set[int]] = []
    for n in nbs(cell):
        if n in occ and not any(n in k for k in found):
            r = region(occ, n)
            if r & leader_cells:
                found.append(r)
    return found


def reference_turn_actions(pos: Pos, rivers: set[int]) -> set[str]:
    b = Board(pos)
    seat = pos["turn"]["player"]
    me = pos["players"][seat]
    occ = b.occupied()
    lcells = set(b.leaders.values())
    temples = b.up("red")
    out = {"pass"}
    for colour in ("red", "blue", "green", "black"):
        if me["hand"][colour]:
            for c in range(COLS * ROWS):
                if c in occ or c in b.dead or (colour == "blue") != (c in rivers):
                    continue
                if len(touching(occ, lcells, c)) < 3:
                    out.add(f"tile {colour} {CELL_NAMES[c]}")
        cur = b.leaders.get((seat, colour))
        if cur is not None:
            out.add(f"withdraw {colour}")
        occ2 = occ - {cur} if cur is not None else occ
        l2 = lcells - {cur} if cur is not None else lcells
        for c in range(COLS * ROWS):
            if c == cur or c in occ2 or c in b.dead or c in rivers:
                continue
            if any(n in temples for n in nbs(c)) and len(touching(occ2, l2, c)) < 2:
                out.add(f"leader {colour} {CELL_NAMES[c]}")
    if me["catastrophes"]:
        blocked = lcells | b.treasures | b.face_down | b.dead
        out |= {f"catastrophe {CELL_NAMES[c]}" for c in range(COLS * ROWS) if c not in blocked}
    return out


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def check_step(pos: Pos, action: str, events: list[dict[str, Any]], after: Pos) -> list[str]:
    """What RULES.md says ``action`` from ``pos`` does, compared with the engine's events."""
    b = Board(pos)
    n = len(pos["players"])
    occ = b.occupied()
    lcells = set(b.leaders.values())
    words = action.split()
    pend = pos.get("pending")
    seat = pos["turn"]["player"]
    errors: list[str] = []
    if words[0] == "tile" and not pend:
        colour, c = words[1], IDX[words[2]]
        ks = touching(occ, lcells, c)
        got = [
            (e["seat"], e["colour"], e["points"])
            for e in _of(events, "points_scored")
            if e["reason"] == "tile"
        ]
        expected: list[tuple[int, str, int]] = []
        if len(ks) == 1:
            for want in (colour, "black"):
                owners = [
                    s for (s, col), cell in b.leaders.items() if col == want and cell in ks[0]
                ]
                if owners:
                    expected = [(owners[0], colour, 1)]
                    break
        if got != expected:
            errors.append(f"tile points {got}, expected {expected}")
        if (len(ks) == 2) != bool(_of(events, "kingdoms_united")):
            errors.append("union")
    if words[0] == "leader" and not pend:
        colour, c = words[1], IDX[words[2]]
        placed = dict(b.leaders)
        placed[(seat, colour)] = c
        k = region(set(b.tiles) | set(placed.values()), c)
        rivals = [
            s for (s, col), cell in placed.items() if col == colour and s != seat and cell in k
        ]
        started = _of(events, "conflict_started")
        if rivals:
            temples = b.up("red")
            want = (
                seat,
                rivals[0],
                sum(1 for x in nbs(c) if x in temples),
                sum(1 for x in nbs(placed[(rivals[0], colour)]) if x in temples),
            )
            got_r = (
                tuple(
                    started[0][f]
                    for f in ("attacker", "defender", "attacker_base", "defender_base")
                )
                if started
                else None
            )
            if got_r != want:
                errors.append(f"revolt {got_r}, expected {want}")
        elif started:
            errors.append("revolt without a rival")
    ap = after.get("pending")
    if (
        ap
        and ap["stage"] == "conflict"
        and ap["conflict"]["kind"] == "war"
        and _of(events, "conflict_started")
    ):
        a = Board(after)
        u = IDX[ap["union"]]
        occ2 = a.occupied() - {u}
        around: set[int] = set()
        for k in touching(occ2, set(a.leaders.values()), u):
            around |= k
        colour = ap["conflict"]["colour"]
        seats = sorted(
            s for (s, col), cell in a.leaders.items() if col == colour and cell in around
        )
        turn = after["turn"]["player"]
        att = (
            turn
            if turn in seats
            else next((turn + i) % n for i in range(1, n) if (turn + i) % n in seats)
        )
        dfn = next(s for s in seats if s != att)
        up = a.up(colour)
        want_w = (
            att,
            dfn,
            len(up & region(occ2, a.leaders[(att, colour)])),
            len(up & region(occ2, a.leaders[(dfn, colour)])),
        )
        c = ap["conflict"]
        got_w = (c["attacker"], c["defender"], c["attacker_base"], c["defender_base"])
        if len(seats) != 2 or got_w != want_w:
            errors.append(f"war {got_w}, expected {want_w}")
    for e in _of(events, "conflict_resolved"):
        if e["kind"] != "war":
            continue
        assert pend is not None
        u = IDX[pend["union"]]
        colour, loser, winner = e["colour"], e["loser"], e["winner"]
        lcell = b.leaders[(loser, colour)]
        kingdom = region(occ - {u}, lcell)
        removed = {c for c in b.up(colour) & kingdom if c not in b.treasures}
        if colour == "red":
            others = lcells - {lcell}
            removed = {c for c in removed if not any(x in others for x in nbs(c))}
        got_cells = next((x["cells"] for x in _of(events, "tiles_removed")), [])
        if sorted(IDX[x] for x in got_cells) != sorted(removed):
            errors.append(f"war removed {got_cells}")
        points = [
            (x["seat"], x["points"]) for x in _of(events, "points_scored") if x["reason"] == "war"
        ]
        if points != [(winner, 1 + len(removed))]:
            errors.append(f"war points {points}")
    if words[0] == "catastrophe":
        c = IDX[words[1]]
        b.tiles.pop(c, None)
        temples = b.up("red")
        orphans = {k for k, cell in b.leaders.items() if not any(x in temples for x in nbs(cell))}
        got_o = {(e["seat"], e["colour"]) for e in _of(events, "leader_withdrawn")}
        if got_o != orphans:
            errors.append(f"orphans {got_o}, expected {orphans}")
    if _of(events, "turn_started"):
        a = Board(after)
        occ2 = a.occupied()
        want_m = []
        for name, top_left in after["monuments"].items():
            k = region(occ2, IDX[top_left])
            for colour in name.split("-"):
                cell = a.leaders.get((seat, colour))
                if cell is not None and cell in k:
                    want_m.append((seat, colour))
        got_m = [
            (e["seat"], e["colour"])
            for e in _of(events, "points_scored")
            if e["reason"] == "monument"
        ]
        if sorted(want_m) != sorted(got_m):
            errors.append(f"monument points {got_m}, expected {want_m}")
        if any(sum(p["hand"].values()) != 6 for p in after["players"]):
            errors.append("refill")
    if not ap and not after["over"]:
        a = Board(after)
        occ2 = a.occupied()
        for (s, colour), cell in a.leaders.items():
            k = region(occ2, cell)
            if any(c2 == colour and s2 != s and x in k for (s2, c2), x in a.leaders.items()):
                errors.append("two leaders of one colour in a kingdom")
            if colour == "green" and len(k & a.treasures) >= 2:
                errors.append("the treasure rule did not run")
        if len(a.treasures) <= 2 and after["turn"]["actions_left"] == 2:
            errors.append("the game should have ended (treasures)")
    return errors


@pytest.mark.parametrize(
    ("seed", "players", "english"),
    [(1, 2, False), (2, 3, True), (3, 4, False), (4, 2, True)],
)
def test_engine_agrees_with_a_naive_reading_of_the_rules(
    seed: int, players: int, english: bool
) -> None:
    rng = random.Random(seed)
    s = new_game({"players": players, "english_variant": english}, seed)
    rivers = {i for i in range(COLS * ROWS) if has(s.options.board.rivers, i)}
    steps = 0
    while to_act(s) is not None and steps < 400:
        acts = legal_actions(s)
        pos = to_position(s)
        if "pending" not in pos:
            engine = {str(a) for a in acts if not str(a).startswith("swap")}
            assert engine == reference_turn_actions(pos, rivers), steps
        # mostly tiles and leaders, so that kingdoms, revolts and wars happen
        busy = [a for a in acts if str(a).split()[0] in ("tile", "leader")]
        a = rng.choice(busy if busy and rng.random() < 0.9 else acts)
        s2, events = apply(s, a)
        wire = [e.to_dict() for e in events]
        assert check_step(pos, str(a), wire, to_position(s2)) == [], (steps, str(a))
        s = s2
        steps += 1
