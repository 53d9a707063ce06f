"""An event as its page and its record show it (``answers/events.py``), built from what the
store holds: the standings by the rules of ``pairings``, the games with their players'
names, the signed-in account's own entry."""

from __future__ import annotations

from ..pairings import ARENA_TIEBREAKS, SWISS_TIEBREAKS, format_points
from ..store.eventrows import EventRow, EventState, event_options
from .answers.events import (
    EventDetail,
    EventGame,
    EventRecord,
    EventSummary,
    MyEntry,
    StandingLine,
)
from .eventplan import finished_games, standings


def summary(event: EventRow, now: float) -> EventSummary:
    """The event as the list shows it."""
    s = event.settings
    return {
        "id": event.id,
        "name": event.name,
        "kind": event.kind,
        "state": event.state,
        "starts": event.starts,
        "ends": event.ends,
        "rounds": s["rounds"],
        "round": event.round,
        "players": s["players"],
        "ruleset": s["ruleset"],
        "options": event_options(event),
        "pace": {"kind": "realtime", "base": s["base"], "increment": s["increment"]},
        "rating_min": s["rating_min"],
        "rating_max": s["rating_max"],
        "bots": s["bots"],
        "private": s["private"],
        "entrants": event.entrants,
        "maker": event.maker_name,
        "repeat_minutes": s["repeat_minutes"],
        "now": now,
    }


def detail(state: EventState, now: float, account: int | None) -> EventDetail:
    """The event's page for ``account`` (``None``: a guest)."""
    event = state.event
    names = {e.account_id: e.name for e in state.entrants}
    playing = {a: g.game_id for g in state.games if g.state == "playing" for a in g.seats}
    by_id = {e.account_id: e for e in state.entrants}
    lines: list[StandingLine] = []
    for row in standings(state):
        entrant = by_id[row.entrant]
        lines.append(
            {
                "rank": row.rank,
                "name": entrant.name,
                "bot": entrant.bot,
                "rating": entrant.rating,
                "points": format_points(row.points),
                "score": float(row.points),
                "games": row.games,
                "wins": row.wins,
                "playing": playing.get(row.entrant),
                "state": entrant.state,
                "on_fire": row.on_fire,
            }
        )
    games: list[EventGame] = [
        {
            "id": g.game_id,
            "round": g.round,
            "seats": [names.get(a, "?") for a in g.seats],
            "over": g.state != "playing",
            "ranks": g.ranks,
        }
        for g in sorted(state.games, key=lambda g: (g.state != "playing", -g.created))
        if g.state != "aborted"
    ]
    me: MyEntry | None = None
    if account is not None:
        mine = by_id.get(account)
        bye = any(b.account_id == account and b.round == event.round for b in state.byes)
        me = {
            "entered": mine is not None and mine.state != "withdrawn",
            "state": None if mine is None else mine.state,
            "game": playing.get(account),
            "bye": bye and event.kind == "swiss",
        }
    swiss = event.kind == "swiss"
    return {
        **summary(event, now),
        "entrants": sum(1 for e in state.entrants if e.state != "withdrawn"),
        "scoring": event.kind,
        "tiebreaks": list(SWISS_TIEBREAKS if swiss else ARENA_TIEBREAKS),
        "standings": lines,
        "games": games,
        "me": me,
        "podium": [line["name"] for line in lines[:3]] if event.state == "finished" else [],
        "invite": event.invite if account == event.maker and event.settings["private"] else None,
    }


def record(state: EventState, now: float) -> EventRecord:
    """The event's finished games as a tournament summary (names for bots' names)."""
    names = {e.account_id: e.name for e in state.entrants}
    return {
        "players": state.event.settings["players"],
        "bots": [e.name for e in state.entrants],
        "results": [
            {"seats": [names[a] for a in g.seats], "ranks": list(g.ranks or ())}
            for g in finished_games(state)
        ],
        "event": summary(state.event, now),
    }
