"""Loading positions (``tne-position/1`` of FORMATS.md): ``from_position`` builds a state
from a position written by ``position.to_position`` (or by hand), validating every field;
a malformed one raises ``InvalidAction`` naming what is wrong."""

from __future__ import annotations

from typing import Any

from .board import (
    BLOCKS,
    CELL_NAMES,
    COLOUR_INDEX,
    COLOURS,
    DYNASTIES,
    MONUMENT_INDEX,
    TILE_TOTALS,
    cell_index,
)
from .errors import InvalidAction
from .position import FORMAT, STAGE_OF_KEY
from .stages import CONFLICT, MONUMENT, REVOLT, TREASURE, WAR, WAR_CHOICE
from .state import Options, State, blank_state
from .types import Cell, Colour


def _bad(message: str) -> InvalidAction:
    return InvalidAction("bad-position", message)


def _colour(name: Any) -> Colour:
    if name not in COLOUR_INDEX:
        raise _bad(f"{name!r} is not a colour")
    return COLOUR_INDEX[name]


def _int(value: Any, what: str, low: int = 0, high: int = 10**9) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _counts(data: Any, what: str) -> list[int]:
    if not isinstance(data, dict) or set(data) - set(COLOURS):
        raise _bad(f"{what} must be an object of colour counts")
    return [_int(data.get(c, 0), f"{what} {c}") for c in COLOURS]


def _cell(name: Any) -> Cell:
    if not isinstance(name, str):
        raise _bad(f"{name!r} is not a cell")
    return cell_index(name)


def from_position(position: dict[str, Any]) -> State:
    """A state from a position (FORMATS.md). Malformed positions raise ``InvalidAction``.

    A bag written as counts (as in a player's view) is loaded in colour order: the order is
    unknown to whoever wrote it.
    """
    if not isinstance(position, dict):
        raise _bad("a position is a JSON object")
    if position.get("format", FORMAT) != FORMAT:
        raise _bad(f"unknown position format {position.get('format')!r}")
    options = Options.from_dict(position.get("options"))
    board = options.board
    n = options.players
    s = blank_state(options)
    s.tiles = [0, 0, 0, 0]
    s.treasures = 0
    cells = position.get("cells", {})
    if not isinstance(cells, dict):
        raise _bad("cells must be an object")
    for name, entry in cells.items():
        i = _cell(name)
        bit = 1 << i
        if not isinstance(entry, dict):
            raise _bad(f"cell {name} must be an object")
        if entry.get("catastrophe"):
            if entry.get("tile") or entry.get("treasure"):
                raise _bad(f"cell {name}: a catastrophe cell holds nothing else")
            s.catastrophes |= bit
            continue
        if "tile" in entry:
            colour = _colour(entry["tile"])
            if (colour == 1) != bool(board.rivers >> i & 1):
                raise _bad(f"cell {name}: blue tiles only on rivers, others only on land")
            s.tiles[colour] |= bit
            if entry.get("face_down"):
                s.facedown |= bit
        if entry.get("treasure"):
            if "tile" not in entry:
                raise _bad(f"cell {name}: a treasure lies on a tile")
            s.treasures |= bit
    monuments = position.get("monuments", {})
    if not isinstance(monuments, dict):
        raise _bad("monuments must be an object")
    for name, where in monuments.items():
        if name not in MONUMENT_INDEX:
            raise _bad(f"unknown monument {name!r}")
        t = _cell(where)
        if t not in BLOCKS or BLOCKS[t] & s.facedown != BLOCKS[t]:
            raise _bad(f"monument {name} must stand on a block of four face-down tiles")
        s.monuments[MONUMENT_INDEX[name]] = t
    occupied = s.tiles[0] | s.tiles[1] | s.tiles[2] | s.tiles[3]
    leaders = position.get("leaders", [])
    if not isinstance(leaders, list):
        raise _bad("leaders must be a list")
    for entry in leaders:
        if not isinstance(entry, dict):
            raise _bad("each leader is an object with seat, colour and cell")
        seat = _int(entry.get("seat"), "a leader's seat", 0, n - 1)
        colour = _colour(entry.get("colour"))
        i = _cell(entry.get("cell"))
        bit = 1 << i
        if s.leaders[seat * 4 + colour] >= 0:
            raise _bad(f"seat {seat} has two {COLOURS[colour]} leaders")
        if (occupied | s.lmask | s.catastrophes) & bit or board.rivers & bit:
            raise _bad(f"leader on {CELL_NAMES[i]}: leaders stand alone on land")
        s.leaders[seat * 4 + colour] = i
        s.lmask |= bit
    players = position.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise _bad(f"players must list {n} players")
    dynasties = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            raise _bad("each player is an object")
        dyn = p.get("dynasty", DYNASTIES[seat])
        if dyn not in DYNASTIES:
            raise _bad(f"unknown dynasty {dyn!r}")
        dynasties.append(dyn)
        s.hands[seat * 4 : seat * 4 + 4] = _counts(p.get("hand", {}), "hand")
        s.cats[seat] = _int(p.get("catastrophes", 2), "catastrophes", 0, 2)
        score = p.get("score", {})
        if not isinstance(score, dict):
            raise _bad("score must be an object")
        s.scores[seat * 5 : seat * 5 + 4] = _counts(
            {k: v for k, v in score.items() if k != "treasure"}, "score"
        )
        s.scores[seat * 5 + 4] = _int(score.get("treasure", 0), "treasure score")
    if len(set(dynasties)) != n:
        raise _bad("each player has a different dynasty")
    s.dynasties = tuple(dynasties)
    bag = position.get("bag", [])
    if isinstance(bag, dict):
        counts = _counts(bag, "bag")
        s.bag = tuple(c for c in range(4) for _ in range(counts[c]))
    elif isinstance(bag, list):
        s.bag = tuple(_colour(c) for c in bag)
    else:
        raise _bad("bag must be a list of colours or an object of counts")
    turn = position.get("turn", {})
    if not isinstance(turn, dict):
        raise _bad("turn must be an object")
    s.turn = _int(turn.get("player", 0), "turn player", 0, n - 1)
    s.actions_left = _int(turn.get("actions_left", 2), "actions left", 0, 2)
    s.over = bool(position.get("over", False))
    if s.over:
        end = position.get("end", "treasures")
        if end not in ("treasures", "bag"):
            raise _bad('end must be "treasures" or "bag"')
        s.end = end
    s.ply = _int(position.get("ply", 0), "ply")
    _read_out(s, position.get("out"))
    _read_pending(s, position.get("pending"))
    return s


def _read_out(s: State, out: Any) -> None:
    n = s.options.players
    if out is None:
        # Unknown history: everything not on the board, in a hand or in the bag is out.
        for c in range(4):
            on_board = s.tiles[c].bit_count()
            in_hands = sum(s.hands[seat * 4 + c] for seat in range(n))
            s.out_public[c] = max(0, TILE_TOTALS[c] - on_board - in_hands - s.bag.count(c))
        return
    if not isinstance(out, dict):
        raise _bad("out must be an object")
    s.out_public = _counts(out.get("public", {}), "out.public")
    swapped = out.get("swapped", [{}] * n)
    if not isinstance(swapped, list) or len(swapped) != n:
        raise _bad("out.swapped lists one object per seat")
    for seat, counts in enumerate(swapped):
        s.swapped[seat * 4 : seat * 4 + 4] = _counts(counts, "out.swapped")


def _read_pending(s: State, p: Any) -> None:
    if p is None:
        return
    if not isinstance(p, dict) or p.get("stage") not in STAGE_OF_KEY:
        raise _bad("pending.stage must be action, conflict, war, monument or treasure")
    s.stage = STAGE_OF_KEY[p["stage"]]
    if p.get("union") is not None:
        s.union = _cell(p["union"])
    n = s.options.players
    if s.stage == CONFLICT:
        c = p.get("conflict")
        if not isinstance(c, dict):
            raise _bad("a conflict stage needs pending.conflict")
        kind = {"revolt": REVOLT, "war": WAR}.get(c.get("kind", ""))
        if kind is None:
            raise _bad('conflict kind must be "revolt" or "war"')
        colour = _colour(c.get("colour"))
        att = _int(c.get("attacker"), "attacker", 0, n - 1)
        dfn = _int(c.get("defender"), "defender", 0, n - 1)
        for seat in (att, dfn):
            if s.leaders[seat * 4 + colour] < 0:
                raise _bad(f"conflict: seat {seat} has no {COLOURS[colour]} leader on the board")
        commit = c.get("attacker_commit")
        s.conflict = (
            kind,
            colour,
            att,
            dfn,
            _int(c.get("attacker_base"), "attacker_base"),
            _int(c.get("defender_base"), "defender_base"),
            -1 if commit is None else _int(commit, "attacker_commit"),
        )
    elif s.stage == MONUMENT:
        m = p.get("monument")
        if not isinstance(m, dict) or not isinstance(m.get("blocks"), list):
            raise _bad("a monument stage needs pending.monument with colour and blocks")
        s.monument_offer = (_colour(m.get("colour")), tuple(_cell(b) for b in m["blocks"]))
    elif s.stage == TREASURE:
        t = p.get("treasure")
        if not isinstance(t, dict) or not isinstance(t.get("cells"), list):
            raise _bad("a treasure stage needs pending.treasure with seat and cells")
        mask = 0
        for name in t["cells"]:
            mask |= 1 << _cell(name)
        s.treasure_pick = (_int(t.get("seat"), "treasure seat", 0, n - 1), mask)
    elif s.stage == WAR_CHOICE and s.union < 0:
        raise _bad("a war choice needs pending.union")
