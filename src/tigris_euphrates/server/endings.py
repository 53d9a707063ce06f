"""How a game ends other than by its rules: a player resigns, or the players abort it.

A resignation is the game's next log entry, ``resign SEAT LEVEL`` (``store/fairplay.py``),
written by the resigning seat. The seat ranks last whatever its score (below every seat
that did not resign; of two that resigned, the one who resigned first is last). When one
seat is left, the game is over there (``end`` is ``"resign"``); while two or more play on, a
bot of ``LEVEL`` plays the resigned seat out and the rules end the game. A rated game counts
it: a resigned seat forfeits (``fairplay.SeatPlay.forfeits``).

An abort (the log entry ``abort`` written by a seat) stops a game unrated while a player has
not made a move yet: the table did not start, nobody lost anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import State, player_view, ranking, result, seat_totals
from ..store.fairplay import parse_resign, parse_seat_change
from .frames import SeatNote

#: The log entry of a stopped game (by a moderator, or a seat's player before all moved).
ABORT = "abort"
#: Why a game ended when every seat but one resigned (the record's rules know ``treasures``
#: and ``bag``; a resigned game's record has no ``result``: the rules did not end it).
RESIGN_END = "resign"


def conceded(players: int, resigned: Sequence[int]) -> bool:
    """Whether every seat but one resigned: the game is over."""
    return len(resigned) >= players - 1 > 0


def final_result(state: State, resigned: Sequence[int]) -> dict[str, Any] | None:
    """The game's result (``None`` while it goes on): the engine's, with the resigned seats
    moved below the others, the first to resign last."""
    players = state.options.players
    if state.over:
        base = result(state)
        assert base is not None
    elif conceded(players, resigned):
        totals = seat_totals(state)
        base = {"scores": totals, "ranking": ranking(totals), "end": RESIGN_END}
    else:
        return None
    out = dict(base)
    kept: list[int | list[int]] = []
    for group in base["ranking"]:
        seats = [s for s in (group if isinstance(group, list) else [group]) if s not in resigned]
        if seats:
            kept.append(seats[0] if len(seats) == 1 else seats)
    out["ranking"] = kept + list(reversed(list(resigned)))
    return out


def ended_view(state: State, seat: int | None, resigned: Sequence[int]) -> dict[str, Any]:
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


def may_abort(players: int, movers: set[int | None]) -> bool:
    """Whether the game may still be aborted: some seat has made no move of its own yet
    (``movers``: the seats of the game's kept entries)."""
    return any(seat not in movers for seat in range(players))


def seat_note(seq: int, by: int | None, action: str) -> SeatNote | None:
    """The log's line of a seat change, a resignation or a player's abort (entry ``seq``,
    written by seat ``by``; ``None``: the creator, the clock or the server), so that the
    page's log tells who left and who plays for them; ``None`` for any other entry."""
    resigned = parse_resign(action)
    if resigned is not None:
        return {"seq": seq, "seat": resigned[0], "change": "resign", "level": resigned[1], "by": by}
    if action == ABORT:
        if by is None:
            return None  # a moderator's: the status line says so
        return {"seq": seq, "seat": by, "change": "abort", "level": None, "by": by}
    change = parse_seat_change(action)
    if change is None:
        return None
    seat, kind, level, timeout = change
    what = "timeout" if timeout else kind
    return {"seq": seq, "seat": seat, "change": what, "level": level, "by": by}
