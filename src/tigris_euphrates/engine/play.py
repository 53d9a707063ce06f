"""Applying actions: the one path that changes a game (RULES.md §5–§9).

``apply`` validates, copies, mutates the copy and returns it with the events. The flow of an
action — conflicts, the monument offer, the treasure rule, the end of the turn — runs here
until the next decision is due, which is then recorded in the state's pending fields.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Action,
    BuildMonument,
    ChooseWar,
    Commit,
    Decline,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    Withdraw,
    to_action,
)
from .board import (
    BLACK,
    BLOCKS,
    BLOCKS_AT,
    CELL_NAMES,
    COLOURS,
    GREEN,
    MONUMENT_NAMES,
    MONUMENTS,
    NEIGHBOURS,
    RED,
    dilate,
    region,
)
from .kingdoms import touching_kingdoms
from .legal import around_union, check, war_colours
from .scoring import result
from .stages import ACTION, CONFLICT, MONUMENT, REVOLT, TREASURE, WAR, WAR_CHOICE
from .state import HAND_SIZE, State
from .types import Cell, Colour, Seat

Event = dict[str, Any]
Events = list[Event] | None


def apply(state: State, action: Action | str | dict[str, Any]) -> tuple[State, list[Event]]:
    """Play ``action`` (object, notation or JSON form) for the player to act.

    Returns a new state and the events; ``state`` itself is never changed. Raises
    ``InvalidAction`` for malformed input and ``IllegalAction`` naming the broken rule.
    """
    act = to_action(action)
    check(state, act)
    s = state.copy()
    events: list[Event] = []
    _play(s, act, events)
    s.cache = None  # nothing cached while the board was changing may survive
    return s, events


def apply_unchecked(state: State, action: Action, events: Events = None) -> State:
    """The fast path for search and playouts: no validation. Only for legal actions."""
    s = state.copy()
    _play(s, action, events)
    s.cache = None
    return s


def _emit(events: Events, event_type: str, /, **fields: Any) -> None:
    if events is not None:
        fields["type"] = event_type
        events.append(fields)


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
        _remove_leader(s, ev, s.turn, a.colour, "withdrawn")
        _after_action(s, ev)
    elif isinstance(a, Pass):
        _emit(ev, "passed", seat=s.turn)
        _after_action(s, ev)
    elif isinstance(a, ChooseWar):
        _emit(ev, "war_chosen", seat=s.turn, colour=COLOURS[a.colour])
        _start_war(s, ev, a.colour)
    elif isinstance(a, BuildMonument):
        _build_monument(s, ev, a.monument, a.cell)
    elif isinstance(a, Decline):
        s.monument_offer = None
        s.stage = ACTION
        _emit(ev, "monument_declined", seat=s.turn)
        _after_action(s, ev)
    elif isinstance(a, TakeTreasure):
        pick = s.treasure_pick
        assert pick is not None
        s.treasure_pick = None
        s.stage = ACTION
        _take_treasure(s, ev, pick[0], a.cell, forced=False)
        _after_action(s, ev)
    else:
        raise AssertionError(f"unplayable action {a!r}")


# --- turn actions --------------------------------------------------------------------------


def _score(s: State, ev: Events, seat: Seat, colour: Colour, points: int, reason: str) -> None:
    s.scores[seat * 5 + colour] += points
    _emit(ev, "points_scored", seat=seat, colour=COLOURS[colour], points=points, reason=reason)


def _place_tile(s: State, ev: Events, colour: Colour, cell: Cell) -> None:
    seat = s.turn
    s.hands[seat * 4 + colour] -= 1
    ks = touching_kingdoms(s.occupied(), s.lmask, cell)
    s.tiles[colour] |= 1 << cell
    _emit(ev, "tile_placed", seat=seat, colour=COLOURS[colour], cell=CELL_NAMES[cell])
    if len(ks) == 2:
        s.union = cell
        _emit(ev, "kingdoms_united", seat=seat, cell=CELL_NAMES[cell])
        _union_step(s, ev)
        return
    if len(ks) == 1:
        k = ks[0]
        leaders = s.leaders
        scorer = -1
        for want in (colour, BLACK):
            for owner in range(s.options.players):
                cell_l = leaders[owner * 4 + want]
                if cell_l >= 0 and k >> cell_l & 1:
                    scorer = owner
                    break
            if scorer >= 0:
                break
        if scorer >= 0:
            _score(s, ev, scorer, colour, 1, "tile")
    if not _monument_check(s, cell, colour):
        _after_action(s, ev)


def _place_leader(s: State, ev: Events, colour: Colour, cell: Cell) -> None:
    seat = s.turn
    idx = seat * 4 + colour
    cur = s.leaders[idx]
    if cur >= 0:
        s.lmask &= ~(1 << cur)
    s.leaders[idx] = cell
    s.lmask |= 1 << cell
    _emit(
        ev,
        "leader_placed",
        seat=seat,
        colour=COLOURS[colour],
        cell=CELL_NAMES[cell],
        origin=CELL_NAMES[cur] if cur >= 0 else None,
    )
    k = region(s.occupied(), 1 << cell)
    for other in range(s.options.players):
        o = s.leaders[other * 4 + colour]
        if other != seat and o >= 0 and k >> o & 1:
            red = s.tiles[RED] & ~s.facedown
            abase = (NEIGHBOURS[cell] & red).bit_count()
            dbase = (NEIGHBOURS[o] & red).bit_count()
            s.conflict = (REVOLT, colour, seat, other, abase, dbase, -1)
            s.stage = CONFLICT
            _emit_conflict(s, ev)
            return
    _after_action(s, ev)


def _catastrophe(s: State, ev: Events, cell: Cell) -> None:
    seat = s.turn
    s.cats[seat] -= 1
    bit = 1 << cell
    removed = None
    for colour in range(4):
        if s.tiles[colour] & bit:
            s.tiles[colour] &= ~bit
            s.out_public[colour] += 1
            removed = COLOURS[colour]
    s.catastrophes |= bit
    _emit(ev, "catastrophe_placed", seat=seat, cell=CELL_NAMES[cell], removed=removed)
    _orphans(s, ev)
    _after_action(s, ev)


def _swap(s: State, ev: Events, counts: tuple[int, int, int, int]) -> None:
    seat = s.turn
    for colour, n in enumerate(counts):
        s.hands[seat * 4 + colour] -= n
        s.swapped[seat * 4 + colour] += n
    total = sum(counts)
    _emit(
        ev,
        "tiles_swapped",
        seat=seat,
        count=total,
        tiles={COLOURS[c]: n for c, n in enumerate(counts) if n},
    )
    if _draw(s, ev, seat, total):
        _after_action(s, ev)


def _draw(s: State, ev: Events, seat: Seat, k: int) -> bool:
    """Draw ``k`` tiles for ``seat``; a bag holding fewer ends the game at once (False)."""
    left = len(s.bag) - s.bag_pos
    take = k if k <= left else left
    if take:
        drawn = s.bag[s.bag_pos : s.bag_pos + take]
        s.bag_pos += take
        base = seat * 4
        for colour in drawn:
            s.hands[base + colour] += 1
        if ev is not None:
            tiles = {COLOURS[c]: drawn.count(c) for c in range(4) if c in drawn}
            _emit(ev, "tiles_drawn", seat=seat, count=take, tiles=tiles)
    if take < k:
        _game_over(s, ev, "bag")
        return False
    return True


# --- conflicts -----------------------------------------------------------------------------


def _emit_conflict(s: State, ev: Events) -> None:
    if ev is None:
        return
    c = s.conflict
    assert c is not None
    kind, colour, att, dfn, abase, dbase, _ = c
    _emit(
        ev,
        "conflict_started",
        kind="revolt" if kind == REVOLT else "war",
        colour=COLOURS[colour],
        support=COLOURS[RED if kind == REVOLT else colour],
        attacker=att,
        defender=dfn,
        attacker_leader=CELL_NAMES[s.leaders[att * 4 + colour]],
        defender_leader=CELL_NAMES[s.leaders[dfn * 4 + colour]],
        attacker_base=abase,
        defender_base=dbase,
    )


def _commit(s: State, ev: Events, n: int) -> None:
    c = s.conflict
    assert c is not None
    kind, colour, att, dfn, abase, dbase, acommit = c
    sc = RED if kind == REVOLT else colour
    seat = att if acommit < 0 else dfn
    s.hands[seat * 4 + sc] -= n
    s.out_public[sc] += n
    _emit(
        ev,
        "support_committed",
        seat=seat,
        role="attacker" if acommit < 0 else "defender",
        colour=COLOURS[sc],
        count=n,
    )
    if acommit < 0:
        s.conflict = (kind, colour, att, dfn, abase, dbase, n)
        return
    attack = abase + acommit
    defence = dbase + n
    winner, loser = (att, dfn) if attack > defence else (dfn, att)
    s.conflict = None
    s.stage = ACTION
    if kind == REVOLT:
        _emit(
            ev,
            "conflict_resolved",
            kind="revolt",
            colour=COLOURS[colour],
            winner=winner,
            loser=loser,
            attacker_total=attack,
            defender_total=defence,
        )
        _remove_leader(s, ev, loser, colour, "revolt")
        _score(s, ev, winner, RED, 1, "revolt")
        _after_action(s, ev)
        return
    u = 1 << s.union
    lcell = s.leaders[loser * 4 + colour]
    kingdom = region(s.occupied() & ~u, 1 << lcell)
    removed = s.tiles[colour] & ~s.facedown & kingdom & ~s.treasures
    if colour == RED:
        removed &= ~dilate(s.lmask & ~(1 << lcell))
    _emit(
        ev,
        "conflict_resolved",
        kind="war",
        colour=COLOURS[colour],
        winner=winner,
        loser=loser,
        attacker_total=attack,
        defender_total=defence,
    )
    _remove_leader(s, ev, loser, colour, "war")
    count = removed.bit_count()
    if count:
        s.tiles[colour] &= ~removed
        s.out_public[colour] += count
        if ev is not None:
            cells = [CELL_NAMES[i] for i in range(len(CELL_NAMES)) if removed >> i & 1]
            _emit(ev, "tiles_removed", colour=COLOURS[colour], cells=cells, reason="war")
    _score(s, ev, winner, colour, 1 + count, "war")
    _union_step(s, ev)


def _union_step(s: State, ev: Events) -> None:
    """Resolve what is left of a union: the next war, the placer's choice, or the end."""
    colours = war_colours(s)
    if len(colours) == 1:
        _start_war(s, ev, colours[0])
    elif colours:
        s.stage = WAR_CHOICE
        _emit(ev, "war_choice", seat=s.turn, colours=[COLOURS[c] for c in colours])
    else:
        cell = s.union
        s.union = -1
        s.stage = ACTION
        colour = next(c for c in range(4) if s.tiles[c] >> cell & 1)
        _emit(ev, "union_resolved", cell=CELL_NAMES[cell])
        if not _monument_check(s, cell, colour):
            _after_action(s, ev)


def _start_war(s: State, ev: Events, colour: Colour) -> None:
    occ, around = around_union(s)
    n = s.options.players
    seats = [
        seat
        for seat in range(n)
        if s.leaders[seat * 4 + colour] >= 0 and around >> s.leaders[seat * 4 + colour] & 1
    ]
    placer = s.turn
    if placer in seats:
        att = placer
    else:
        att = next((placer + i) % n for i in range(1, n) if (placer + i) % n in seats)
    dfn = seats[0] if seats[1] == att else seats[1]
    up = s.tiles[colour] & ~s.facedown
    abase = (up & region(occ, 1 << s.leaders[att * 4 + colour])).bit_count()
    dbase = (up & region(occ, 1 << s.leaders[dfn * 4 + colour])).bit_count()
    s.conflict = (WAR, colour, att, dfn, abase, dbase, -1)
    s.stage = CONFLICT
    _emit_conflict(s, ev)


def _remove_leader(s: State, ev: Events, seat: Seat, colour: Colour, reason: str) -> None:
    idx = seat * 4 + colour
    cell = s.leaders[idx]
    s.leaders[idx] = -1
    s.lmask &= ~(1 << cell)
    _emit(
        ev,
        "leader_withdrawn",
        seat=seat,
        colour=COLOURS[colour],
        cell=CELL_NAMES[cell],
        reason=reason,
    )


def _orphans(s: State, ev: Events) -> None:
    """Return every leader left without an adjacent face-up temple."""
    near_temple = dilate(s.tiles[RED] & ~s.facedown)
    for idx, cell in enumerate(s.leaders):
        if cell >= 0 and not near_temple >> cell & 1:
            _remove_leader(s, ev, idx >> 2, idx & 3, "no temple")


# --- monuments, treasures, end of action and turn ------------------------------------------


def _monument_check(s: State, cell: Cell, colour: Colour) -> bool:
    """Offer a monument if the tile completes a face-up block; True if a decision is due."""
    if not any(s.monuments[m] < 0 and colour in MONUMENTS[m] for m in range(6)):
        return False
    up = s.tiles[colour] & ~s.facedown
    blocks = tuple(t for t in BLOCKS_AT[cell] if up & BLOCKS[t] == BLOCKS[t])
    if not blocks:
        return False
    s.stage = MONUMENT
    s.monument_offer = (colour, blocks)
    return True


def _build_monument(s: State, ev: Events, monument: int, cell: Cell) -> None:
    s.facedown |= BLOCKS[cell]
    s.monuments[monument] = cell
    s.monument_offer = None
    s.stage = ACTION
    _emit(
        ev,
        "monument_built",
        seat=s.turn,
        monument=MONUMENT_NAMES[monument],
        cell=CELL_NAMES[cell],
    )
    _orphans(s, ev)
    _after_action(s, ev)


def _take_treasure(s: State, ev: Events, seat: Seat, cell: Cell, forced: bool) -> None:
    s.treasures &= ~(1 << cell)
    s.scores[seat * 5 + 4] += 1
    _emit(ev, "treasure_taken", seat=seat, cell=CELL_NAMES[cell], forced=forced)


def _treasure_rule(s: State, ev: Events) -> bool:
    """Traders take treasures down to one per kingdom; False if a pick must be chosen."""
    n = s.options.players
    specials = s.options.board.specials
    while True:
        occ = s.occupied()
        for i in range(n):
            seat = (s.turn + i) % n
            trader = s.leaders[seat * 4 + GREEN]
            if trader < 0:
                continue
            held = region(occ, 1 << trader) & s.treasures
            if held.bit_count() < 2:
                continue
            candidates = held & specials or held
            if candidates.bit_count() == 1:
                _take_treasure(s, ev, seat, candidates.bit_length() - 1, forced=True)
                break
            s.stage = TREASURE
            s.treasure_pick = (seat, candidates)
            _emit(ev, "treasure_choice", seat=seat)
            return False
        else:
            return True


def _after_action(s: State, ev: Events) -> None:
    """The action's own decisions are done: treasures, then the end of the action."""
    if not _treasure_rule(s, ev):
        return
    s.actions_left -= 1
    if s.actions_left == 0:
        _end_turn(s, ev)


def _end_turn(s: State, ev: Events) -> None:
    seat = s.turn
    occ = s.occupied()
    for m, top_left in enumerate(s.monuments):
        if top_left < 0:
            continue
        kingdom = region(occ, BLOCKS[top_left])
        for colour in MONUMENTS[m]:
            cell = s.leaders[seat * 4 + colour]
            if cell >= 0 and kingdom >> cell & 1:
                _score(s, ev, seat, colour, 1, "monument")
    n = s.options.players
    for i in range(n):
        who = (seat + i) % n
        need = HAND_SIZE - sum(s.hands[who * 4 : who * 4 + 4])
        if need > 0 and not _draw(s, ev, who, need):
            return
    if s.treasures.bit_count() <= 2:
        _game_over(s, ev, "treasures")
        return
    s.turn = (seat + 1) % n
    s.actions_left = 2
    _emit(ev, "turn_started", seat=s.turn)


def _game_over(s: State, ev: Events, reason: str) -> None:
    s.over = True
    s.end = reason
    s.stage = ACTION
    s.conflict = None
    s.monument_offer = None
    s.treasure_pick = None
    _emit(ev, "game_over", reason=reason, result=result(s))
