"""What an event does next, decided from what its store holds (``store.events.EventState``)
with the pure rules of ``tigris_euphrates.pairings``: the standings, and the step the pairing
process takes (start, new games, byes, next round, the end).

An arena pairs its free entrants as soon as a table of them can be made (``pair_free``);
one whose last game ended less than ``ARENA_REST`` seconds ago is not paired again with
someone of that game, so a free entrant finishing soon after gets the chance to be its
opponent. A Swiss event pairs its next round once every game of the round ended
(``pair_round``); an entrant in another real-time game when the round is paired is absent
for the round (no points).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ..pairings import (
    Bye,
    Entrant,
    FreeEntrant,
    Game,
    Round,
    Standing,
    arena_score,
    arena_standings,
    lot_of,
    pair_free,
    pair_round,
    swiss_standings,
)
from ..store.eventrows import EventBye, EventState, EventStep, NewGame

#: An arena's entrant is not paired again with the people of its last game for this long
#: after it ended, while others may still come free.
ARENA_REST = 10.0

#: Makes an event's game for accounts in seat order.
GameMaker = Callable[[EventState, list[int]], NewGame]


def entrants_of(state: EventState) -> list[Entrant]:
    """Every entrant, as the rules see them (rating at entry, lot drawn with the seed)."""
    seed = state.event.seed
    return [Entrant(e.account_id, e.rating, lot_of(seed, e.account_id)) for e in state.entrants]


def finished_games(state: EventState) -> list[Game]:
    """The event's finished games in the order they were made."""
    return [
        Game(tuple(g.seats), tuple(g.ranks))
        for g in state.games
        if g.state == "over" and g.ranks is not None
    ]


def history_of(state: EventState) -> list[Round]:
    """A Swiss event's rounds so far: finished games and byes, round by round."""
    out = []
    for n in range(1, state.event.round + 1):
        games = tuple(
            Game(tuple(g.seats), tuple(g.ranks))
            for g in state.games
            if g.round == n and g.state == "over" and g.ranks is not None
        )
        byes = tuple(
            Bye(b.account_id, Fraction(b.points).limit_denominator(12))
            for b in state.byes
            if b.round == n
        )
        out.append(Round(games, byes))
    return out


def standings(state: EventState) -> list[Standing]:
    """The standings now (games under way do not count yet)."""
    if state.event.kind == "swiss":
        return swiss_standings(entrants_of(state), history_of(state))
    return arena_standings(entrants_of(state), finished_games(state))


def decide(state: EventState, now: float, make: GameMaker) -> EventStep:
    """The step the pairing process takes now."""
    if state.event.kind == "swiss":
        return _swiss(state, now, make)
    return _arena(state, now, make)


def _arena(state: EventState, now: float, make: GameMaker) -> EventStep:
    event = state.event
    if now < event.starts:
        return EventStep()
    playing = [g for g in state.games if g.state == "playing"]
    if event.ends is not None and now >= event.ends:
        # the window closed: no new games; those under way finish and count
        return EventStep(state=None if playing else "finished")
    step = EventStep(state="running" if event.state == "scheduled" else None)
    busy = state.busy | {a for g in playing for a in g.seats}
    finished = finished_games(state)
    ended = [g for g in state.games if g.state in ("over", "aborted")]
    entrants = {e.id: e for e in entrants_of(state)}
    free: list[FreeEntrant] = []
    resting: dict[int, frozenset[int]] = {}
    for e in state.entrants:
        if e.state != "active" or e.account_id in busy:
            continue
        me = e.account_id
        last = next((g for g in reversed(ended) if me in g.seats), None)
        opponents = frozenset(a for a in last.seats if a != me) if last else frozenset()
        if last is not None and last.ended is not None and now - last.ended < ARENA_REST:
            resting[me] = opponents
        mine = [g for g in finished if me in g.seats]
        entrant = entrants[me]
        free.append(
            FreeEntrant(me, arena_score(mine, me).points, entrant.rating, entrant.lot, opponents)
        )
    firsts = {e.id: sum(1 for g in state.games if g.seats[0] == e.id) for e in free}
    for table in pair_free(free, event.settings["players"], firsts):
        if any(resting.get(a, frozenset()) & set(table) for a in table):
            continue  # a rematch at once: wait for someone else to come free
        step.games.append(make(state, list(table)))
    return step


def _swiss(state: EventState, now: float, make: GameMaker) -> EventStep:
    event = state.event
    rounds = event.settings["rounds"] or 1
    if event.state == "scheduled":
        if now < event.starts:
            return EventStep()
        return _swiss_round(state, 1, make)
    if any(g.state == "playing" for g in state.games):
        return EventStep()
    if event.round >= rounds:
        return EventStep(state="finished")
    return _swiss_round(state, event.round + 1, make)


def _swiss_round(state: EventState, n: int, make: GameMaker) -> EventStep:
    event = state.event
    active = [e.account_id for e in state.entrants if e.state == "active"]
    present = [a for a in active if a not in state.busy]
    absent = [EventBye(n, a, 0.0) for a in active if a in state.busy]
    if len(present) < 2:
        # nobody to play: the event ends (a lone entrant scores the round as a bye)
        byes = [EventBye(n, a, 1.0) for a in present] + absent
        return EventStep(byes=byes, round=n, state="finished")
    by_id = {e.id: e for e in entrants_of(state)}
    paired = pair_round([by_id[a] for a in present], history_of(state), event.settings["players"])
    step = EventStep(round=n, state="running")
    step.games = [make(state, list(g.seats)) for g in paired.games]
    step.byes = [EventBye(n, b.entrant, float(b.points)) for b in paired.byes] + absent
    return step
