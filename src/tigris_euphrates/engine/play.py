"""Applying actions: the one path that changes a game (RULES.md §5–§9, §11).

``apply`` validates, copies, mutates the copy and returns it with the events. The flow of an
action — conflicts, the building and monument (or wonder) offers, the treasure rule, the end
of the turn — runs here until the next decision is due, which is pushed on the state's stack
of pending decisions (``decisions``); answering it pops it and the flow goes on from where
its kind says. The flow's order is written here once; what each step finds due is the
ruleset's to say (``state.options.rules``, the hooks of ``rules``); each change it is made
of (a piece put or taken, points, a draw, the end of the game) is one of ``changes``.
"""

from __future__ import annotations

from typing import Any

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
    to_action,
)
from .board import (
    BLACK,
    BLOCKS,
    CELL_NAMES,
    COLOURS,
    MONUMENT_NAMES,
    NEIGHBOURS,
    RED,
)
from .changes import (
    Events,
    add_piece,
    cell_names,
    draw,
    game_over,
    lose_treasures,
    place_building,
    pop,
    push,
    remove_leader,
    remove_pieces,
    return_buildings,
    return_leaders,
    return_orphans,
    score,
    take_treasure,
    touched_kingdoms,
)
from .checks import check
from .decisions import (
    REVOLT,
    WAR,
    BuildingOffer,
    Harvest,
    Support,
    TreasurePick,
    WarChoice,
)
from .events import (
    BuildingDeclined,
    CatastrophePlaced,
    ConflictResolved,
    ConflictStarted,
    Event,
    KingdomsUnited,
    LeaderPlaced,
    MonumentBuilt,
    MonumentDeclined,
    Passed,
    SupportCommitted,
    TilePlaced,
    TilesRemoved,
    TilesSwapped,
    TreasureChoice,
    TurnStarted,
    UnionResolved,
    WarChoiceOffered,
    WarChosen,
    WonderBuilt,
)
from .kingdoms import region_at
from .legal import war_colours, war_sides
from .state import HAND_SIZE, State
from .types import Cell, Colour
from .wonder import plus_of
from .words import (
    bit,
    count,
    empty,
    flood,
    has,
    inter,
    low_cell,
    meets,
    minus,
    single,
    union,
    with_cell,
    without_cell,
)


def apply(state: State, action: Action | str | dict[str, Any]) -> tuple[State, list[Event]]:
    """Play ``action`` (object, notation or JSON form) for the player to act.

    Returns a new state and the events; ``state`` itself is never changed. Raises
    ``InvalidAction`` for malformed input and ``IllegalAction`` naming the broken rule.
    """
    act = to_action(action)
    check(state, act)
    s = state.copy()
    s.cache = state.cache  # kept in step with the board by add_piece and remove_pieces
    events: list[Event] = []
    _play(s, act, events)
    return s, events


def apply_unchecked(state: State, action: Action, events: Events = None) -> State:
    """The fast path for search and playouts: no validation. Only for legal actions."""
    s = state.copy()
    s.cache = state.cache  # kept in step with the board by add_piece and remove_pieces
    _play(s, action, events)
    return s


def _play(s: State, a: Action, ev: Events) -> None:
    s.ply += 1
    if isinstance(a, PlaceTile):
        _place_tile(s, ev, a.colour, a.cell)
    elif isinstance(a, PlaceLeader):
        _place_leader(s, ev, a.colour, a.cell)
    elif isinstance(a, Commit):
        _commit(s, ev, a.n)
    elif isinstance(a, Swap):
        _swap(s, ev, a.counts)
    elif isinstance(a, PlaceCatastrophe):
        _catastrophe(s, ev, a.cell)
    elif isinstance(a, Withdraw):
        remove_leader(s, ev, s.turn, a.colour, "withdrawn")
        _after_action(s, ev)
    elif isinstance(a, Pass):
        if ev is not None:
            ev.append(Passed(s.turn))
        _after_action(s, ev)
    elif isinstance(a, ChooseWar):
        pop(s)
        if ev is not None:
            ev.append(WarChosen(s.turn, COLOURS[a.colour]))
        _start_war(s, ev, a.colour)
    elif isinstance(a, BuildMonument):
        pop(s)
        _build_monument(s, ev, a.monument, a.cell)
    elif isinstance(a, BuildWonder):
        pop(s)
        _build_wonder(s, ev, a.cell)
    elif isinstance(a, PlaceBuilding):
        offer = s.decision
        assert isinstance(offer, BuildingOffer)
        pop(s)
        place_building(s, ev, a.colour, a.cell)
        _placement_offer(s, ev, offer.tile, offer.colour)
    elif isinstance(a, Decline):
        d = s.decision
        pop(s)
        if isinstance(d, BuildingOffer):
            if ev is not None:
                ev.append(BuildingDeclined(s.turn, COLOURS[d.colour]))
            _placement_offer(s, ev, d.tile, d.colour)
        else:
            if ev is not None:
                ev.append(MonumentDeclined(s.turn))
            _after_action(s, ev)
    elif isinstance(a, TakeTreasure):
        d = s.decision
        assert isinstance(d, TreasurePick | Harvest)
        pop(s)
        take_treasure(s, ev, d.owner, a.cell, forced=False)
        if isinstance(d, Harvest):
            _end_of_game_check(s, ev)
        else:
            _after_action(s, ev)
    elif isinstance(a, TakePoint):
        pop(s)
        score(s, ev, s.turn, a.colour, 1, "wonder")
        _end_turn(s, ev, after_wonder=True)
    else:
        raise AssertionError(f"unplayable action {a!r}")


# --- turn actions --------------------------------------------------------------------------


def _place_tile(s: State, ev: Events, colour: Colour, cell: Cell) -> None:
    seat = s.turn
    s.hands[seat * 4 + colour] -= 1
    ks = touched_kingdoms(s, cell)
    s.set_tiles(colour, with_cell(s.tiles_of(colour), cell))
    add_piece(s, cell, True)
    if ev is not None:
        ev.append(TilePlaced(seat, COLOURS[colour], CELL_NAMES[cell]))
    if len(ks) == 2:
        s.union = cell
        if ev is not None:
            ev.append(KingdomsUnited(seat, CELL_NAMES[cell]))
        _union_step(s, ev)
        return
    if len(ks) == 1:
        k = ks[0]
        leaders = s.leaders
        scorer = -1
        for want in (colour, BLACK):
            for owner in range(s.options.players):
                cell_l = leaders[owner * 4 + want]
                if cell_l >= 0 and has(k, cell_l):
                    scorer = owner
                    break
            if scorer >= 0:
                break
        if scorer >= 0:
            score(s, ev, scorer, colour, 1, "tile")
            building = s.buildings[colour]
            if building >= 0 and has(region_at(s, bit(cell)), building):
                score(s, ev, scorer, colour, 1, "building")
    _after_tile(s, ev, cell, colour)


def _place_leader(s: State, ev: Events, colour: Colour, cell: Cell) -> None:
    seat = s.turn
    idx = seat * 4 + colour
    cur = s.leaders[idx]
    if cur >= 0:
        s.lmask = without_cell(s.lmask, cur)
        remove_pieces(s, bit(cur))
    s.leaders[idx] = cell
    s.lmask = with_cell(s.lmask, cell)
    add_piece(s, cell, False)
    if ev is not None:
        origin = CELL_NAMES[cur] if cur >= 0 else None
        ev.append(LeaderPlaced(seat, COLOURS[colour], CELL_NAMES[cell], origin))
    k = region_at(s, bit(cell))
    for other in range(s.options.players):
        o = s.leaders[other * 4 + colour]
        if other != seat and o >= 0 and has(k, o):
            red = minus(s.tiles_of(RED), s.facedown)
            abase = count(inter(NEIGHBOURS[cell], red))
            dbase = count(inter(NEIGHBOURS[o], red))
            push(s, Support(seat, REVOLT, colour, seat, other, abase, dbase))
            _announce_conflict(s, ev)
            return
    _after_action(s, ev)


def _catastrophe(s: State, ev: Events, cell: Cell) -> None:
    seat = s.turn
    s.cats[seat] -= 1
    here = bit(cell)
    removed = None
    for colour in range(4):
        if has(s.tiles_of(colour), cell):
            s.set_tiles(colour, minus(s.tiles_of(colour), here))
            remove_pieces(s, here)
            s.out_public[colour] += 1
            removed = COLOURS[colour]
    s.catastrophes = union(s.catastrophes, here)
    if ev is not None:
        ev.append(CatastrophePlaced(seat, CELL_NAMES[cell], removed))
    if has(s.lmask, cell):  # a weapon ship on a leader (galaxy)
        idx = s.leaders.index(cell)
        remove_leader(s, ev, idx >> 2, idx & 3, "catastrophe")
    if has(s.treasures, cell):  # a weapon ship on an artifact (galaxy)
        lose_treasures(s, ev, here, "catastrophe")
    return_orphans(s, ev)
    _after_action(s, ev)


def _swap(s: State, ev: Events, counts: tuple[int, int, int, int]) -> None:
    seat = s.turn
    for colour, n in enumerate(counts):
        s.hands[seat * 4 + colour] -= n
        s.swapped[seat * 4 + colour] += n
    total = sum(counts)
    if ev is not None:
        tiles = {COLOURS[c]: n for c, n in enumerate(counts) if n}
        ev.append(TilesSwapped(seat, total, tiles))
    if draw(s, ev, seat, total):
        _after_action(s, ev)


# --- conflicts -----------------------------------------------------------------------------


def _announce_conflict(s: State, ev: Events) -> None:
    if ev is None:
        return
    c = s.decision
    assert isinstance(c, Support)
    colour = c.colour
    ev.append(
        ConflictStarted(
            "revolt" if c.kind == REVOLT else "war",
            COLOURS[colour],
            COLOURS[c.support_colour],
            c.attacker,
            c.defender,
            CELL_NAMES[s.leaders[c.attacker * 4 + colour]],
            CELL_NAMES[s.leaders[c.defender * 4 + colour]],
            c.attacker_base,
            c.defender_base,
        )
    )


def _commit(s: State, ev: Events, n: int) -> None:
    c = s.decision
    assert isinstance(c, Support)
    sc = c.support_colour
    attacking = c.attacker_commit < 0
    seat = c.attacker if attacking else c.defender
    s.hands[seat * 4 + sc] -= n
    s.out_public[sc] += n
    if ev is not None:
        role = "attacker" if attacking else "defender"
        ev.append(SupportCommitted(seat, role, COLOURS[sc], n))
    pop(s)
    if attacking:
        push(
            s,
            Support(
                c.defender,
                c.kind,
                c.colour,
                c.attacker,
                c.defender,
                c.attacker_base,
                c.defender_base,
                n,
            ),
        )
        return
    colour = c.colour
    att, dfn = c.attacker, c.defender
    attack = c.attacker_base + c.attacker_commit
    defence = c.defender_base + n
    winner, loser = (att, dfn) if attack > defence else (dfn, att)
    kind = "revolt" if c.kind == REVOLT else "war"
    if ev is not None:
        ev.append(ConflictResolved(kind, COLOURS[colour], winner, loser, attack, defence))
    if c.kind == REVOLT:
        remove_leader(s, ev, loser, colour, "revolt")
        score(s, ev, winner, RED, 1, "revolt")
        _after_action(s, ev)
        return
    rules = s.options.rules
    lcell = s.leaders[loser * 4 + colour]
    kingdom = flood(without_cell(s.occupied(), s.union), bit(lcell))
    removed = rules.war_losses(s, colour, kingdom, lcell)
    remove_leader(s, ev, loser, colour, "war")
    lost = count(removed)
    if lost:
        s.set_tiles(colour, minus(s.tiles_of(colour), removed))
        remove_pieces(s, removed)
        s.out_public[colour] += lost
        if ev is not None:
            ev.append(TilesRemoved(COLOURS[colour], tuple(cell_names(removed)), "war"))
        if meets(s.treasures, removed):
            lose_treasures(s, ev, inter(s.treasures, removed), "war")
    score(s, ev, winner, colour, 1 + lost, "war")
    orphans = rules.war_orphans(s)
    if not empty(orphans):
        return_leaders(s, ev, orphans)
    _union_step(s, ev)


def _union_step(s: State, ev: Events) -> None:
    """Resolve what is left of a union: the next war, the placer's choice, or the end."""
    colours = war_colours(s)
    if len(colours) == 1:
        _start_war(s, ev, colours[0])
    elif colours:
        push(s, WarChoice(s.turn, tuple(colours)))
        if ev is not None:
            ev.append(WarChoiceOffered(s.turn, tuple(COLOURS[c] for c in colours)))
    else:
        cell = s.union
        s.union = -1
        colour = next(c for c in range(4) if has(s.tiles_of(c), cell))
        if ev is not None:
            ev.append(UnionResolved(CELL_NAMES[cell]))
        _after_tile(s, ev, cell, colour)


def _start_war(s: State, ev: Events, colour: Colour) -> None:
    att, dfn, abase, dbase = war_sides(s, colour)
    push(s, Support(att, WAR, colour, att, dfn, abase, dbase))
    _announce_conflict(s, ev)


# --- after a tile: buildings, monuments and the wonder --------------------------------------


def _after_tile(s: State, ev: Events, cell: Cell, colour: Colour) -> None:
    """A tile is placed and scored (a union tile: its wars are over): the ruleset's building
    offer, then ``_placement_offer``."""
    offer = s.options.rules.building_offer(s, cell, colour)
    if offer is not None:
        push(s, offer)
        return
    _placement_offer(s, ev, cell, colour)


def _placement_offer(s: State, ev: Events, cell: Cell, colour: Colour) -> None:
    """The ruleset's monument (or wonder) offer for the tile, if any; else the action
    ends."""
    offer = s.options.rules.monument_offer(s, cell, colour)
    if offer is not None:
        push(s, offer)
        return
    _after_action(s, ev)


def _build_monument(s: State, ev: Events, monument: int, cell: Cell) -> None:
    s.facedown = union(s.facedown, BLOCKS[cell])
    s.monuments[monument] = cell
    if ev is not None:
        ev.append(MonumentBuilt(s.turn, MONUMENT_NAMES[monument], CELL_NAMES[cell]))
    return_buildings(s, ev, BLOCKS[cell], "monument")
    return_orphans(s, ev)
    _after_action(s, ev)


def _build_wonder(s: State, ev: Events, centre: Cell) -> None:
    plus = plus_of(centre)
    s.facedown = union(s.facedown, plus)
    s.wonder = centre
    if ev is not None:
        ev.append(WonderBuilt(s.turn, CELL_NAMES[centre]))
    return_buildings(s, ev, plus, "wonder")
    return_orphans(s, ev)
    _after_action(s, ev)


# --- treasures, end of action and turn -----------------------------------------------------


def _treasure_rule(s: State, ev: Events) -> bool:
    """The ruleset's treasure picks, a single candidate taken at once, until none is due;
    False if a pick must be chosen."""
    rules = s.options.rules
    while True:
        pick = rules.treasure_pick(s)
        if pick is None:
            return True
        if single(pick.cells):
            take_treasure(s, ev, pick.owner, low_cell(pick.cells), forced=True)
            continue
        push(s, pick)
        if ev is not None:
            ev.append(TreasureChoice(pick.owner))
        return False


def _after_action(s: State, ev: Events) -> None:
    """The action's own decisions are done: treasures, then the end of the action."""
    if not _treasure_rule(s, ev):
        return
    s.actions_left -= 1
    if s.actions_left == 0:
        _end_turn(s, ev)


def _end_turn(s: State, ev: Events, after_wonder: bool = False) -> None:
    """The end of the turn (§5; §11 for the wonder point and the harvest), up to the next
    decision it needs, if any: the ruleset's wonder point, its monument points, the refills,
    its harvest, then ``_end_of_game_check``."""
    rules = s.options.rules
    seat = s.turn
    if not after_wonder:
        point = rules.wonder_point(s)
        if point is not None:
            push(s, point)
            return
    for colour in rules.monument_points(s):
        score(s, ev, seat, colour, 1, "monument")
    n = s.options.players
    for i in range(n):
        who = (seat + i) % n
        need = HAND_SIZE - sum(s.hands[who * 4 : who * 4 + 4])
        if need > 0 and not draw(s, ev, who, need):
            return
    harvest = rules.harvest(s)
    if harvest is not None:
        push(s, harvest)
        return
    _end_of_game_check(s, ev)


def _end_of_game_check(s: State, ev: Events) -> None:
    """The last step of a turn: the game ends if the ruleset says so, else the next turn."""
    reason = s.options.rules.game_end(s)
    if reason:
        game_over(s, ev, reason)
        return
    s.turn = (s.turn + 1) % s.options.players
    s.actions_left = 2
    if ev is not None:
        ev.append(TurnStarted(s.turn))
