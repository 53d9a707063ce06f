"""A game's statistics, counted from its events: points by source, conflicts won and lost,
catastrophes played and the other figures a results table shows.

The figures are counted from the typed events ``apply`` returns (``engine/events.py``) or
their wire form (``event.to_dict()``, what a log entry carries), step by step, so the same
function serves the server (its live games), a record (``record_stats`` replays it) and any
log kept as JSON. Only public fields are read (never the colours of tiles drawn or
swapped), so the events as any seat saw them give the same figures. Under hidden scoring a
player may not see the others' totals during the game: callers publish these statistics
once the game is over (RULES.md §10), when everything is public.

Points by source: ``tile`` (a tile scoring in its kingdom), ``revolt``, ``war``,
``monument`` (end of turn), ``wonder`` (the wonder variant's point), ``building`` (the
buildings variant's extra point), ``treasure`` (a treasure taken by the treasure rule) and
``harvest`` (an artifact harvested at the end of a turn, galaxy ruleset). Treasures count
as points here; the final score (weakest colour, treasures placed where they help most)
is in ``score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import COLOURS, Event, replay_steps, result, start_of

FORMAT = "tne-stats/1"

#: Where points come from, in the order a table shows them.
SOURCES = ("tile", "revolt", "war", "monument", "wonder", "building", "treasure", "harvest")

#: The leader losses a seat can suffer, by the reason of ``leader_withdrawn``.
LOSSES = ("revolt", "war", "no temple", "catastrophe")


def _blank(seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "points": dict.fromkeys(SOURCES, 0),
        "colours": dict.fromkeys(COLOURS, 0),
        "total": 0,
        "score": None,
        "revolts": {"won": 0, "lost": 0, "attacked": 0, "defended": 0},
        "wars": {"won": 0, "lost": 0, "attacked": 0, "defended": 0},
        "support": 0,
        "catastrophes": 0,
        "tiles_placed": 0,
        "leaders_placed": 0,
        "leaders_moved": 0,
        "leaders_withdrawn": 0,
        "leaders_lost": dict.fromkeys(LOSSES, 0),
        "monuments": 0,
        "wonders": 0,
        "buildings": 0,
        "treasures": 0,
        "swaps": 0,
        "tiles_swapped": 0,
        "passes": 0,
        "turns": 0,
    }


def _wire(event: Event | Mapping[str, Any]) -> Mapping[str, Any]:
    return event.to_dict() if isinstance(event, Event) else event


def game_stats(
    players: int,
    steps: Iterable[Iterable[Event | Mapping[str, Any]]],
    first: int = 0,
) -> dict[str, Any]:
    """The statistics of a game of ``players`` seats from the events of each of its steps
    (typed events or their wire form), ``first`` the seat of the first turn (seat 0 in
    every game the engine starts). A running game gives its figures so far (``over``
    false, ``score`` and ``winners`` unset)."""
    seats = [_blank(p) for p in range(players)]
    seats[first]["turns"] = 1
    out: dict[str, Any] = {
        "format": FORMAT,
        "players": players,
        "steps": 0,
        "turns": 1,
        "revolts": 0,
        "wars": 0,
        "over": False,
        "end": None,
        "winners": [],
        "seats": seats,
    }
    choice_open = False  # a treasure pick was offered: the next treasure taken is its choice
    for events in steps:
        out["steps"] += 1
        for event in events:
            choice_open = _count(out, _wire(event), choice_open)
    return out


#: The events that count one for the seat that made them, by the figure they count.
COUNTED = {
    "catastrophe_placed": "catastrophes",
    "tile_placed": "tiles_placed",
    "monument_built": "monuments",
    "wonder_built": "wonders",
    "building_placed": "buildings",
    "passed": "passes",
}


def _count(out: dict[str, Any], ev: Mapping[str, Any], choice_open: bool) -> bool:
    """Count the event ``ev`` into the statistics ``out``; whether a treasure pick is open
    after it (``choice_open``: before it)."""
    kind = ev.get("type")
    seats = out["seats"]
    if kind in COUNTED:
        seats[ev["seat"]][COUNTED[kind]] += 1
    elif kind == "points_scored":
        row = seats[ev["seat"]]
        row["points"][ev["reason"]] = row["points"].get(ev["reason"], 0) + ev["points"]
        row["colours"][ev["colour"]] += ev["points"]
        row["total"] += ev["points"]
    elif kind == "treasure_choice":
        return True
    elif kind == "treasure_taken":
        row = seats[ev["seat"]]
        row["points"]["treasure" if ev["forced"] or choice_open else "harvest"] += 1
        row["treasures"] += 1
        row["total"] += 1
        return False
    elif kind in ("conflict_started", "conflict_resolved"):
        _count_conflict(out, ev)
    elif kind == "support_committed":
        seats[ev["seat"]]["support"] += ev["count"]
    elif kind in ("leader_placed", "leader_withdrawn"):
        _count_leader(seats[ev["seat"]], ev)
    elif kind == "tiles_swapped":
        seats[ev["seat"]]["swaps"] += 1
        seats[ev["seat"]]["tiles_swapped"] += ev["count"]
    elif kind == "turn_started":
        out["turns"] += 1
        seats[ev["seat"]]["turns"] += 1
    elif kind == "game_over":
        _finish(out, ev["reason"], ev["result"])
    return choice_open


def _count_conflict(out: dict[str, Any], ev: Mapping[str, Any]) -> None:
    """A revolt or war started (the game's count, who attacked and defended) or resolved
    (who won and lost)."""
    plural = "revolts" if ev["kind"] == "revolt" else "wars"
    seats = out["seats"]
    if ev["type"] == "conflict_started":
        out[plural] += 1
        seats[ev["attacker"]][plural]["attacked"] += 1
        seats[ev["defender"]][plural]["defended"] += 1
    else:
        seats[ev["winner"]][plural]["won"] += 1
        seats[ev["loser"]][plural]["lost"] += 1


def _count_leader(row: dict[str, Any], ev: Mapping[str, Any]) -> None:
    """A leader placed or moved, withdrawn by its player or lost (by the reason)."""
    if ev["type"] == "leader_placed":
        moved = ev.get("origin") is not None
        row["leaders_moved" if moved else "leaders_placed"] += 1
    elif ev["reason"] in row["leaders_lost"]:
        row["leaders_lost"][ev["reason"]] += 1
    else:
        row["leaders_withdrawn"] += 1


def _finish(out: dict[str, Any], reason: str, final: Mapping[str, Any]) -> None:
    """Write the end and the final scores (a ``tne-record`` result) into ``out``."""
    out["over"] = True
    out["end"] = reason
    ranking: Sequence[Any] = final.get("ranking") or []
    if ranking:
        top = ranking[0]
        out["winners"] = list(top) if isinstance(top, list | tuple) else [top]
    for row, score in zip(out["seats"], final.get("scores") or [], strict=False):
        row["score"] = list(score)


def record_stats(record: dict[str, Any]) -> dict[str, Any]:
    """The statistics of a game record (``tne-record/1``), replayed through the engine;
    a record that starts from a position counts from there."""
    start = start_of(record)
    state = start
    steps: list[list[Event]] = []
    for _, _, after, events in replay_steps(record):
        steps.append(events)
        state = after
    out = game_stats(state.options.players, steps, first=start.turn)
    if state.over and not out["over"]:
        final = result(state)
        assert final is not None
        _finish(out, state.end or "", final)
    return out
