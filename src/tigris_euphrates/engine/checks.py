"""Explaining why an action is illegal: ``check`` raises ``IllegalAction`` with the rule's
words (and a stable code) unless an action is legal now. It agrees with ``legal`` (tests
prove it) and reads its cache when ``legal_actions`` filled it.
"""

from __future__ import annotations

from .actions import (
    Action,
    BuildMonument,
    BuildWonder,
    ChooseWar,
    Commit,
    Decline,
    Pass,
    PlaceBuilding,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakePoint,
    TakeTreasure,
    Withdraw,
)
from .board import BLUE, CELL_NAMES, COLOURS, MONUMENT_NAMES, MONUMENTS, NEIGHBOURS, RED
from .decisions import (
    BuildingOffer,
    Decision,
    Harvest,
    MonumentOffer,
    Support,
    TreasurePick,
    WarChoice,
    WonderPoint,
)
from .errors import IllegalAction
from .kingdoms import touching_kingdoms
from .legal import commit_range, conflict, leader_targets
from .rules import building_cells
from .state import State
from .types import Cell, Colour
from .words import EMPTY, bit, cells_of, has, meets, minus

#: What each kind of decision asks, in the words of an error that names it.
DECISION_WORDS: dict[type[Decision] | None, str] = {
    None: "a turn action",
    Support: "a support commitment (commit N)",
    WarChoice: "the choice of the next war (war COLOUR)",
    MonumentOffer: "a monument decision (monument C1-C2 CELL, wonder CELL or decline)",
    TreasurePick: "a treasure pick (treasure CELL)",
    BuildingOffer: "a building decision (building COLOUR CELL or decline)",
    WonderPoint: "the colour of the wonder point (point COLOUR)",
    Harvest: "the artifact to harvest (treasure CELL)",
}

#: The actions that answer each kind of decision (None: the turn actions).
ANSWERS: dict[type[Decision] | None, tuple[type[Action], ...]] = {
    None: (PlaceTile, PlaceLeader, Withdraw, PlaceCatastrophe, Swap, Pass),
    Support: (Commit,),
    WarChoice: (ChooseWar,),
    MonumentOffer: (BuildMonument, BuildWonder, Decline),
    TreasurePick: (TakeTreasure,),
    BuildingOffer: (PlaceBuilding, Decline),
    WonderPoint: (TakePoint,),
    Harvest: (TakeTreasure,),
}


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _check_tile(state: State, colour: Colour, cell: Cell) -> None:
    seat = state.turn
    if not state.hands[seat * 4 + colour]:
        raise _illegal("no-tile", f"you have no {COLOURS[colour]} tile in hand")
    _check_empty(state, cell, "a tile")
    rivers = state.options.board.rivers
    if colour == BLUE and not has(rivers, cell):
        raise _illegal("blue-on-land", "blue tiles go only on rivers")
    if colour != BLUE and has(rivers, cell):
        raise _illegal(
            "tile-on-river", f"{COLOURS[colour]} tiles go only on land (only blue on rivers)"
        )
    if state.cache is not None:  # legal_actions ran: the cells touching 3+ kingdoms are known
        three = has(state.cache.threes, cell)
    else:
        three = len(touching_kingdoms(state.occupied(), state.lmask, cell)) >= 3
    if three:
        raise _illegal("three-kingdoms", "a tile may not touch three or more kingdoms")


def _check_empty(state: State, cell: Cell, what: str) -> None:
    if has(state.lmask, cell):
        raise _illegal("occupied", f"{what} may not go on a leader ({CELL_NAMES[cell]})")
    if has(state.catastrophes, cell):
        raise _illegal("occupied", f"{what} may not go on a catastrophe ({CELL_NAMES[cell]})")
    if has(state.occupied(), cell):
        raise _illegal("occupied", f"{what} needs an empty cell; {CELL_NAMES[cell]} holds a tile")


def _check_leader(state: State, colour: Colour, cell: Cell) -> None:
    seat = state.turn
    cur = state.leaders[seat * 4 + colour]
    if cur == cell:
        raise _illegal("same-cell", "a leader cannot be placed on the cell it stands on")
    # Lifting the leader empties only its own cell, which is not ``cell``.
    _check_empty(state, cell, "a leader")
    if has(state.options.board.rivers, cell):
        raise _illegal("leader-on-river", "leaders go only on land, never on a river")
    red = minus(state.tiles_of(RED), state.facedown)
    if not meets(NEIGHBOURS[cell], red):
        raise _illegal("no-temple", "a leader must be placed next to a face-up temple (red tile)")
    rules = state.options.rules
    if state.cache is not None:  # legal_actions ran: the targets are a few sets away
        if not has(leader_targets(state, seat, colour), cell):
            raise _illegal(rules.blocked_code, rules.blocked_words)
        return
    # The ruleset's hook, asked about ``cell`` alone: the sets hold at most that cell.
    here = bit(cur) if cur >= 0 else EMPTY
    occ = minus(state.occupied(), here)
    one = bit(cell)
    kingdom_twos = (
        one if len(touching_kingdoms(occ, minus(state.lmask, here), cell)) >= 2 else EMPTY
    )
    region_twos = EMPTY
    if rules.needs_regions and len(touching_kingdoms(occ, occ, cell)) >= 2:
        region_twos = one
    if has(rules.leader_blocked(occ, kingdom_twos, region_twos), cell):
        raise _illegal(rules.blocked_code, rules.blocked_words)


def _check_catastrophe(state: State, cell: Cell) -> None:
    if not state.cats[state.turn]:
        raise _illegal("no-catastrophe", "you have no catastrophe tile left")
    if has(state.catastrophes, cell):
        raise _illegal(
            "catastrophe-on-catastrophe", "a catastrophe may not be placed on another catastrophe"
        )
    if has(state.options.rules.catastrophe_targets(state), cell):
        return
    if has(building_cells(state), cell):
        raise _illegal(
            "catastrophe-on-building",
            "a catastrophe may not be placed on the tile of a civilization building",
        )
    if has(state.lmask, cell):
        raise _illegal("catastrophe-on-leader", "a catastrophe may not be placed on a leader")
    if has(state.catastrophes, cell):
        raise _illegal(
            "catastrophe-on-catastrophe", "a catastrophe may not be placed on another catastrophe"
        )
    if has(state.facedown, cell):
        raise _illegal(
            "catastrophe-on-monument", "a catastrophe may not be placed on a monument tile"
        )
    if has(state.treasures, cell):
        raise _illegal(
            "catastrophe-on-treasure", "a catastrophe may not be placed on a tile with a treasure"
        )


def _check_swap(state: State, counts: tuple[int, int, int, int]) -> None:
    total = sum(counts)
    if not 1 <= total <= 6:
        raise _illegal("swap-size", "a swap discards 1 to 6 tiles")
    seat = state.turn
    for colour, n in enumerate(counts):
        if n > state.hands[seat * 4 + colour]:
            raise _illegal(
                "swap-not-in-hand", f"you cannot swap {n} {COLOURS[colour]}: not in your hand"
            )


def _check_commit(state: State, n: int) -> None:
    c = conflict(state)
    sc = c.support_colour
    role = "attacker" if c.attacker_commit < 0 else "defender"
    if n > state.hands[c.owner * 4 + sc]:
        raise _illegal(
            "support-not-in-hand",
            f"you cannot commit {n}: support is {COLOURS[sc]} tiles from your hand",
        )
    if n not in commit_range(state):
        if role == "attacker":
            raise _illegal(
                "english-attacker",
                "English variant: the attacker may commit only to get ahead of the defender's base",
            )
        raise _illegal(
            "english-defender",
            "English variant: the defender may commit only to equal the attacker's total exactly",
        )


def check(state: State, action: Action) -> None:
    """Raise ``IllegalAction`` (naming the rule) unless ``action`` is legal now."""
    if state.over:
        raise _illegal("game-over", "the game is over")
    pending = state.pending
    d = pending[-1] if pending else None
    kind = type(d) if d is not None else None
    if not isinstance(action, ANSWERS[kind]):
        raise _not_an_answer(state, action, kind)
    if d is None:
        _check_turn_action(state, action)
    else:
        _check_answer(state, d, action)


def _not_an_answer(state: State, action: Action, kind: type[Decision] | None) -> IllegalAction:
    """Why ``action`` does not answer the decision of ``kind`` (None: a turn action): a
    variant not in play, else the decision it should answer."""
    opts = state.options
    if isinstance(action, BuildWonder | TakePoint) and not opts.wonder:
        return _illegal("no-wonder", "the wonder variant is not in play in this game")
    if isinstance(action, PlaceBuilding) and not opts.buildings:
        return _illegal("no-buildings", "the buildings variant is not in play in this game")
    if isinstance(action, BuildMonument) and not opts.rules.monuments:
        return _illegal("no-monuments", f"there are no monuments in the {opts.ruleset} ruleset")
    return _illegal("wrong-decision", f"the decision now is {DECISION_WORDS[kind]}, not {action}")


def _check_turn_action(state: State, action: Action) -> None:
    """A turn action's own rules (a pass has none)."""
    if isinstance(action, PlaceTile):
        _check_tile(state, action.colour, action.cell)
    elif isinstance(action, PlaceLeader):
        _check_leader(state, action.colour, action.cell)
    elif isinstance(action, Withdraw):
        if state.leaders[state.turn * 4 + action.colour] < 0:
            raise _illegal(
                "leader-off-board", f"your {COLOURS[action.colour]} leader is not on the board"
            )
    elif isinstance(action, PlaceCatastrophe):
        _check_catastrophe(state, action.cell)
    elif isinstance(action, Swap):
        _check_swap(state, action.counts)


def _check_answer(state: State, d: Decision, action: Action) -> None:
    """An answer's rules against the decision ``d`` it answers (a decline and the wonder
    point have none)."""
    if isinstance(action, Commit):
        _check_commit(state, action.n)
    elif isinstance(action, ChooseWar):
        assert isinstance(d, WarChoice)
        if action.colour not in d.colours:
            raise _illegal("no-such-war", f"there is no {COLOURS[action.colour]} war to choose")
    elif isinstance(action, BuildMonument):
        assert isinstance(d, MonumentOffer)
        _check_monument(state, d, action)
    elif isinstance(action, BuildWonder):
        assert isinstance(d, MonumentOffer)
        _check_wonder(state, d, action)
    elif isinstance(action, PlaceBuilding):
        assert isinstance(d, BuildingOffer)
        _check_building(d, action)
    elif isinstance(action, TakeTreasure):
        assert isinstance(d, TreasurePick | Harvest)
        _check_treasure(state, d, action)


def _check_wonder(state: State, offer: MonumentOffer, action: BuildWonder) -> None:
    if not state.options.wonder:
        raise _illegal("no-wonder", "the wonder variant is not in play in this game")
    if action.cell not in offer.centres:
        where = ", ".join(CELL_NAMES[c] for c in offer.centres) or "none"
        raise _illegal(
            "no-such-wonder",
            f"{CELL_NAMES[action.cell]} is not the centre of a plus of five face-up "
            f"{COLOURS[offer.colour]} tiles the placed tile is part of (centres: {where})",
        )


def _check_building(offer: BuildingOffer, action: PlaceBuilding) -> None:
    if action.colour != offer.colour:
        raise _illegal(
            "wrong-building",
            f"the offer is for the {COLOURS[offer.colour]} building, "
            f"not the {COLOURS[action.colour]} one",
        )
    if not has(offer.cells, action.cell):
        cells = ", ".join(CELL_NAMES[i] for i in cells_of(offer.cells))
        raise _illegal(
            "no-such-building-cell",
            f"the {COLOURS[offer.colour]} building may go only on a tile of the placed tile's "
            f"runs longer than its present one: {cells}",
        )


def _check_treasure(state: State, pick: TreasurePick | Harvest, action: TakeTreasure) -> None:
    if has(pick.cells, action.cell):
        return
    specials = state.options.board.specials
    if (
        isinstance(pick, TreasurePick)
        and has(state.treasures, action.cell)
        and meets(pick.cells, specials)
    ):
        raise _illegal("special-first", "special treasures (corner temples) must be taken first")
    cells = ", ".join(CELL_NAMES[i] for i in cells_of(pick.cells))
    raise _illegal(
        "not-takeable",
        f"no treasure may be taken at {CELL_NAMES[action.cell]}; choose one of {cells}",
    )


def _check_monument(state: State, offer: MonumentOffer, action: BuildMonument) -> None:
    colour, blocks = offer.colour, offer.blocks
    if action.cell not in blocks:
        where = ", ".join(CELL_NAMES[t] for t in blocks)
        raise _illegal(
            "no-such-block",
            f"{CELL_NAMES[action.cell]} is not the top-left cell of a completed "
            f"{COLOURS[colour]} block (choose {where})",
        )
    if state.monuments[action.monument] >= 0:
        raise _illegal(
            "monument-built", f"the {MONUMENT_NAMES[action.monument]} monument is already built"
        )
    if colour not in MONUMENTS[action.monument]:
        raise _illegal(
            "monument-colour",
            f"the {MONUMENT_NAMES[action.monument]} monument has no {COLOURS[colour]} part",
        )


__all__ = ["ANSWERS", "DECISION_WORDS", "check"]
