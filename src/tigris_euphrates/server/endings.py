"""How a game ends other than by its rules: a player resigns, or the players abort it.

A resignation is the game's next log entry, ``resign SEAT LEVEL`` (``store/fairplay.py``),
written by the resigning seat. The seat ranks last whatever its score (below every seat
that did not resign; of two that resigned, the one who resigned first is last). When one
seat is left, the game is over there (``end`` is ``"resign"``); while two or more play on, a
bot of ``LEVEL`` plays the resigned seat out and the rules end the game. A rated game counts
it: a resigned seat forfeits (``fairplay.SeatPlay.forfeits``).

An abort (the log entry ``abort`` written by a seat) stops a game unrated while a player has
not made a move yet: the table did not start, nobody lost anything.

A rated game's **opening** lasts until every seat has completed its first turn: the turn
has passed from each seat once (``opening``: fewer ``TurnStarted`` events than seats; a
turn that passed cannot be undone, so the opening never comes back). A seat that gives up
in the opening — its player resigns, the seat goes to a bot (its player's leave, the
creator's hand-over after an absence, a moderator's ban) or its clock runs out — aborts
the game instead: the server writes ``abort SEAT WHY`` (``WHY``: ``resign``, ``bot``,
``timeout``) in place of the resignation or the seat change, under the game's lock and
against its next step like any entry, so the log decides (a move that closed the opening
stored first makes the resignation a rated one). An aborted game is unrated (status
``aborted``); nobody's rating or statistics change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import Event, State, TurnStarted, player_view, ranking, seat_totals
from ..store.jsontypes import JsonDict
from ..store.logentry import Abort, HandOver, LogEntry, Resign, TakeBack
from ..store.rows import GameResult
from .frames import SeatNote

#: Why a game ended when every seat but one resigned (the record's rules know ``treasures``
#: and ``bag``; a resigned game's record has no ``result``: the rules did not end it).
RESIGN_END = "resign"
#: Why an aborted game's record ended (it is ranked nobody).
ABORT_END = "abort"


def conceded(players: int, resigned: Sequence[int]) -> bool:
    """Whether every seat but one resigned: the game is over."""
    return len(resigned) >= players - 1 > 0


def final_result(state: State, resigned: Sequence[int]) -> GameResult | None:
    """The game's result (``None`` while it goes on): the engine's (``scoring.result``),
    with the resigned seats moved below the others, the first to resign last."""
    players = state.options.players
    if not state.over and not conceded(players, resigned):
        return None
    totals = seat_totals(state)
    end = state.end if state.over else RESIGN_END
    kept: list[int | list[int]] = []
    for group in ranking(totals):
        seats = [s for s in (group if isinstance(group, list) else [group]) if s not in resigned]
        if seats:
            kept.append(seats[0] if len(seats) == 1 else seats)
    return {"scores": totals, "ranking": kept + list(reversed(list(resigned))), "end": end}


def ended_view(state: State, seat: int | None, resigned: Sequence[int]) -> JsonDict:
    """The view of ``seat`` of a game every seat but one resigned: over, with its result
    and, the game being over, every hand and score public (RULES.md §10)."""
    view = player_view(state, seat)
    view["players"] = [player_view(state, p)["players"][p] for p in range(state.options.players)]
    view.update(
        over=True,
        to_act=None,
        pending=None,
        legal_actions=[],
        end=RESIGN_END,
        result=final_result(state, resigned),
    )
    return view


def opening(players: int, entries: Iterable[Sequence[Event]]) -> bool:
    """Whether some seat has not completed its first turn yet (the module's opening), from
    the events of the game's kept entries: the turn passed fewer times than there are
    seats (it passes in seat order, from seat 0)."""
    passed = 0
    for events in entries:
        passed += sum(1 for event in events if isinstance(event, TurnStarted))
        if passed >= players:
            return False
    return True


def aborted_result(state: State) -> GameResult:
    """The result of an aborted game, as its record carries it: the totals as they stood,
    nobody ranked (nobody won or lost), ``end`` ``"abort"``."""
    return {"scores": seat_totals(state), "ranking": [], "end": ABORT_END}


def may_abort(players: int, movers: set[int | None]) -> bool:
    """Whether the game may still be aborted: some seat has made no move of its own yet
    (``movers``: the seats of the game's kept entries)."""
    return any(seat not in movers for seat in range(players))


def seat_note(seq: int, by: int | None, entry: LogEntry) -> SeatNote | None:
    """The log's line of a seat change, a resignation or a player's abort (entry ``seq``,
    written by seat ``by``; ``None``: the creator, the clock or the server), so that the
    page's log tells who left and who plays for them; ``None`` for any other entry."""
    match entry:
        case Resign(seat, level):
            return {"seq": seq, "seat": seat, "change": "resign", "level": level, "by": by}
        case Abort(None, None):
            if by is None:
                return None  # a moderator's: the status line says so
            return {"seq": seq, "seat": by, "change": "abort", "level": None, "by": by}
        case Abort(seat, why):  # a seat gave up in a rated opening
            assert seat is not None and why is not None
            note: SeatNote = {"seq": seq, "seat": seat, "change": "abort", "level": None, "by": by}
            note["why"] = why
            return note
        case HandOver(seat, level, timeout, fallback):
            what = "timeout" if timeout else "fallback" if fallback else "bot"
            return {"seq": seq, "seat": seat, "change": what, "level": level, "by": by}
        case TakeBack(seat):
            return {"seq": seq, "seat": seat, "change": "human", "level": None, "by": by}
    return None
