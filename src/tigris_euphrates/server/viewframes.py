"""The frames a live game sends: each seat's view with the log as that seat may read it, and
the game's summary.

Everything a frame holds is built from ``player_view`` and ``redact_event`` for the seat it
goes to; a frame is built once per version of the game and shared by the connections that
see the same thing (``view_text``, with the audience's ``FrameCache``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import player_view, redact_event, shared_view
from ..store.jsontypes import json_value
from ..store.logentry import Move
from .answers.games import GameSummary
from .conn import Conn
from .endings import ended_view
from .frames import LogLine, SeatInfo, ViewFrame, encode
from .seatinfo import public_seats

if TYPE_CHECKING:
    from .live import LiveGame


def seats_shown(game: LiveGame) -> list[SeatInfo]:
    """Each seat as everybody may see it (``seatinfo.public_seats``)."""
    table = game.table
    return public_seats(
        table.seats, table.people, game.audience.online(), table.away_since, game.log.resigned
    )


def log_for(game: LiveGame, seat: int | None, start: int = 0) -> list[LogLine]:
    """The log from entry ``start`` on as ``seat`` may read it. Each entry's events are
    written out (``to_dict``) once per version of the game, for every seat's frame, and
    redacted for each seat from that (``redact_event`` copies it)."""
    lines: list[LogLine] = []
    entries, wires = game.log.entries, game.audience.frames.wire
    for i in range(start, len(entries)):
        e = entries[i]
        wire = wires.get(i)
        if wire is None:
            wire = wires[i] = [ev.to_dict() for ev in e.events]
        lines.append(
            {
                "seq": e.seq,
                "seat": e.seat,
                "action": Move(e.action).shown_to(seat, e.seat),
                "events": [redact_event(ev, seat) for ev in wire],
            }
        )
    return lines


def view_text(game: LiveGame, conn: Conn) -> str:
    """The view frame due to ``conn``, as JSON text, and the connection marked as sent.

    Each distinct frame — a seat's view with the log from a given entry — is built once
    per version of the game (``Audience.touch``) and shared: the spectators that saw the
    last step all get the same text, whatever their number.
    """
    log = game.log
    start = 0 if conn.full_log or conn.last_log > len(log.entries) else conn.last_log
    conn.full_log = conn.view_due = False
    conn.last_log = len(log.entries)
    cache = game.audience.frames
    cache.fresh((game.audience.version, log.seq))
    key = (conn.seat, start)
    text = cache.texts.get(key)
    if text is None:
        text = cache.texts[key] = encode(frame(game, conn.seat, start))
    if log.clock is not None:
        # the server's time when the frame leaves, from which the page counts the
        # clocks down (a shared frame may be sent long after it was built)
        return f'{text[:-1]},"now":{log.now():.3f}}}'
    return text


def message(game: LiveGame, seat: int | None, start: int = 0) -> ViewFrame:
    """The view frame of ``seat`` with the log from entry ``start`` on."""
    log, cache = game.log, game.audience.frames
    view = cache.views.get(seat)
    if view is None and not log.state.over and log.over:
        view = cache.views[seat] = ended_view(log.state, seat, log.resigned)
    elif view is None:
        if cache.shared is None:
            cache.shared = shared_view(log.state)
        view = cache.views[seat] = player_view(log.state, seat, cache.shared)
        if log.resigned and log.over:
            view["result"] = json_value(log.result())
    if cache.seats is None:
        cache.seats = seats_shown(game)
    settings = game.table.settings
    return {
        "type": "view",
        "game": game.id,
        "seq": log.seq,
        "seat": seat,
        "view": view,
        "seats": cache.seats,
        "can_undo": log.can_undo(seat),
        "chat": settings.get("chat", "players"),
        "rematch": settings.get("rematch"),
        "clock": None if log.clock is None else log.clock.public(),
        "timeouts": log.timeouts,
        "seat_log": log.seat_log,
        "log_reset": start == 0,
        "log": log_for(game, seat, start),
        "stats": log.stats() if log.over else None,
    }


def frame(game: LiveGame, seat: int | None, start: int = 0) -> ViewFrame:
    """``message``, marked ``aborted`` when the game was stopped (the key is there only
    then: the frames of other games stay as they were)."""
    out = message(game, seat, start)
    log = game.log
    if log.aborted:
        out["aborted"] = True
        if log.aborted_by is not None:
            out["aborted_by"] = log.aborted_by
        if log.aborted_why is not None:
            out["aborted_why"] = log.aborted_why
    return out


def summary(game: LiveGame) -> GameSummary:
    """The game as the lists of games show it."""
    log, table = game.log, game.table
    return {
        "id": game.id,
        "created": table.created,
        "options": log.options,
        "seats": seats_shown(game),
        "status": "over" if log.over else "aborted" if log.aborted else "active",
        "seq": log.seq,
        "to_act": log.actor(),
        "result": log.result(),
        "listed": table.listed,
        "rated": log.rated_now(),
        "clock": None if log.clock is None else log.clock.public(),
        "timeouts": log.timeouts,
    }
