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
from .decisions import (
    DECISIONS,
    REVOLT,
    WAR,
    BuildingOffer,
    Harvest,
    MonumentOffer,
    Support,
    TreasurePick,
    WarChoice,
    WonderPoint,
)
from .errors import InvalidAction
from .legal import war_colours
from .position import FORMAT
from .state import Options, State, blank_state
from .types import Cell, Colour, Words
from .wonder import plus_of
from .words import EMPTY, count, empty, has, minus, union, with_cell, within


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
    s = blank_state(Options.from_dict(position.get("options")))
    s.red = s.blue = s.green = s.black = EMPTY
    s.treasures = EMPTY
    _read_cells(s, position.get("cells", {}))
    _read_monuments(s, position.get("monuments", {}))
    _read_buildings(s, position.get("buildings"))
    _read_leaders(s, position.get("leaders", []))
    _read_players(s, position.get("players"))
    _read_bag(s, position.get("bag", []))
    _read_turn(s, position)
    _read_out(s, position.get("out"))
    _read_pending(s, position.get("pending"))
    return s


def _read_cells(s: State, cells: Any) -> None:
    """The ``cells`` object: the tiles (face up or down), treasures and catastrophes."""
    if not isinstance(cells, dict):
        raise _bad("cells must be an object")
    rivers = s.options.board.rivers
    for name, entry in cells.items():
        i = _cell(name)
        if not isinstance(entry, dict):
            raise _bad(f"cell {name} must be an object")
        if entry.get("catastrophe"):
            if entry.get("tile") or entry.get("treasure"):
                raise _bad(f"cell {name}: a catastrophe cell holds nothing else")
            s.catastrophes = with_cell(s.catastrophes, i)
            continue
        if "tile" in entry:
            colour = _colour(entry["tile"])
            if (colour == 1) != has(rivers, i):
                raise _bad(f"cell {name}: blue tiles only on rivers, others only on land")
            s.set_tiles(colour, with_cell(s.tiles_of(colour), i))
            if entry.get("face_down"):
                s.facedown = with_cell(s.facedown, i)
        if entry.get("treasure"):
            if "tile" not in entry:
                raise _bad(f"cell {name}: a treasure lies on a tile")
            s.treasures = with_cell(s.treasures, i)


def _read_monuments(s: State, monuments: Any) -> None:
    """The ``monuments`` object: each built monument's block of four, and the wonder."""
    if not isinstance(monuments, dict):
        raise _bad("monuments must be an object")
    for name, where in monuments.items():
        if name == "wonder":
            if not s.options.wonder:
                raise _bad("a wonder on the board needs the wonder option")
            centre = _cell(where)
            plus = plus_of(centre)
            if empty(plus) or not within(plus, s.facedown):
                raise _bad("the wonder must stand on a plus of five face-down tiles")
            s.wonder = centre
            continue
        if name not in MONUMENT_INDEX:
            raise _bad(f"unknown monument {name!r}")
        t = _cell(where)
        if t not in BLOCKS or not within(BLOCKS[t], s.facedown):
            raise _bad(f"monument {name} must stand on a block of four face-down tiles")
        s.monuments[MONUMENT_INDEX[name]] = t


def _read_leaders(s: State, leaders: Any) -> None:
    """The ``leaders`` list: each on its own empty land cell, one of a colour a seat."""
    occupied = union(union(s.tiles_of(0), s.tiles_of(1)), union(s.tiles_of(2), s.tiles_of(3)))
    if not isinstance(leaders, list):
        raise _bad("leaders must be a list")
    n = s.options.players
    rivers = s.options.board.rivers
    for entry in leaders:
        if not isinstance(entry, dict):
            raise _bad("each leader is an object with seat, colour and cell")
        seat = _int(entry.get("seat"), "a leader's seat", 0, n - 1)
        colour = _colour(entry.get("colour"))
        i = _cell(entry.get("cell"))
        if s.leaders[seat * 4 + colour] >= 0:
            raise _bad(f"seat {seat} has two {COLOURS[colour]} leaders")
        if has(union(union(occupied, s.lmask), s.catastrophes), i) or has(rivers, i):
            raise _bad(f"leader on {CELL_NAMES[i]}: leaders stand alone on land")
        s.leaders[seat * 4 + colour] = i
        s.lmask = with_cell(s.lmask, i)


def _read_players(s: State, players: Any) -> None:
    """The ``players`` list: each seat's dynasty (all different), hand, catastrophes and
    score."""
    n = s.options.players
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


def _read_bag(s: State, bag: Any) -> None:
    """The ``bag``: a list of colours in drawing order, or counts (loaded in colour order)."""
    if isinstance(bag, dict):
        counts = _counts(bag, "bag")
        s.bag = tuple(c for c in range(4) for _ in range(counts[c]))
    elif isinstance(bag, list):
        s.bag = tuple(_colour(c) for c in bag)
    else:
        raise _bad("bag must be a list of colours or an object of counts")


def _read_turn(s: State, position: dict[str, Any]) -> None:
    """Whose turn it is and the actions left, whether (and how) the game is over, the ply."""
    turn = position.get("turn", {})
    if not isinstance(turn, dict):
        raise _bad("turn must be an object")
    s.turn = _int(turn.get("player", 0), "turn player", 0, s.options.players - 1)
    s.actions_left = _int(turn.get("actions_left", 2), "actions left", 0, 2)
    s.over = bool(position.get("over", False))
    if s.over:
        end = position.get("end", "treasures")
        if end not in ("treasures", "bag"):
            raise _bad('end must be "treasures" or "bag"')
        s.end = end
    s.ply = _int(position.get("ply", 0), "ply")


def _read_buildings(s: State, data: Any) -> None:
    """The ``buildings`` object (variant): colour → cell of a face-up tile of that colour."""
    if data is None or data == {}:
        return
    if not s.options.buildings:
        raise _bad("buildings on the board need the buildings option")
    if not isinstance(data, dict):
        raise _bad("buildings must be an object of colour → cell")
    for name, where in data.items():
        colour = _colour(name)
        cell = _cell(where)
        if not has(minus(s.tiles_of(colour), s.facedown), cell):
            raise _bad(f"the {name} building must stand on a face-up {name} tile")
        s.move_building(colour, cell)


def _read_out(s: State, out: Any) -> None:
    n = s.options.players
    if out is None:
        # Unknown history: everything not on the board, in a hand or in the bag is out.
        for c in range(4):
            on_board = count(s.tiles_of(c))
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
    """The ``pending`` field written by ``position.pending``: the decision the game waits
    for, rebuilt on the stack."""
    if p is None:
        return
    stages = ("action", *DECISIONS)
    if not isinstance(p, dict) or p.get("stage") not in stages:
        raise _bad(f"pending.stage must be one of {', '.join(stages)}")
    if p.get("union") is not None:
        s.union = _cell(p["union"])
    n = s.options.players
    stage = p["stage"]
    turn = s.turn
    if stage == "conflict":
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
        acommit = -1 if commit is None else _int(commit, "attacker_commit")
        abase = _int(c.get("attacker_base"), "attacker_base")
        dbase = _int(c.get("defender_base"), "defender_base")
        owner = att if acommit < 0 else dfn
        s.pending = (Support(owner, kind, colour, att, dfn, abase, dbase, acommit),)
    elif stage == "war":
        if s.union < 0:
            raise _bad("a war choice needs pending.union")
        colours = tuple(war_colours(s))
        if len(colours) < 2:
            raise _bad("a war choice needs two or more wars around the union tile")
        s.pending = (WarChoice(turn, colours),)
    elif stage == "monument":
        m = p.get("monument")
        if not isinstance(m, dict) or not isinstance(m.get("blocks"), list):
            raise _bad("a monument stage needs pending.monument with colour and blocks")
        centres = m.get("centres", [])
        if not isinstance(centres, list):
            raise _bad("pending.monument.centres must be a list of cells")
        s.pending = (
            MonumentOffer(
                turn,
                _colour(m.get("colour")),
                tuple(_cell(b) for b in m["blocks"]),
                tuple(_cell(c) for c in centres),
            ),
        )
    elif stage in ("treasure", "harvest"):
        t = p.get(stage)
        if not isinstance(t, dict) or not isinstance(t.get("cells"), list):
            raise _bad(f"a {stage} stage needs pending.{stage} with seat and cells")
        seat = _int(t.get("seat"), f"{stage} seat", 0, n - 1)
        cells = _cells(t["cells"])
        s.pending = (TreasurePick(seat, cells) if stage == "treasure" else Harvest(seat, cells),)
    elif stage == "building":
        b = p.get("building")
        if not isinstance(b, dict) or not isinstance(b.get("cells"), list):
            raise _bad("a building stage needs pending.building with colour, tile and cells")
        tile = _cell(b.get("tile"))
        s.pending = (BuildingOffer(turn, _colour(b.get("colour")), tile, _cells(b["cells"])),)
    elif stage == "wonder_point":
        s.pending = (WonderPoint(turn),)


def _cells(names: list[Any]) -> Words:
    """The set of the cells named."""
    cells = EMPTY
    for name in names:
        cells = with_cell(cells, _cell(name))
    return cells
