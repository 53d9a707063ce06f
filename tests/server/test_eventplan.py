"""What an event does next (``server.eventplan.decide``), case by case from what its store
holds: an arena waits for its start, pairs its free entrants at once, never pairs the paused,
the busy elsewhere or those playing, lets someone who just played rest before meeting the
same opponent again, stops pairing at its end and finishes once its last games ended; a
Swiss event pairs round one at its start, waits while a game of the round is under way,
gives the odd one out a bye and the busy an absence, and ends after its last round."""

from __future__ import annotations

from typing import Any

import pytest

from tigris_euphrates.server.eventplan import ARENA_REST, decide
from tigris_euphrates.store.eventrows import (
    EntrantRow,
    EventBye,
    EventGameRow,
    EventRow,
    EventState,
    NewGame,
)
from tigris_euphrates.store.games import GameRow

START = 1000.0


def settings(**over: Any) -> Any:
    base = {
        "players": 2,
        "ruleset": "classic",
        "base": 600.0,
        "increment": 5.0,
        "rating_min": None,
        "rating_max": None,
        "bots": False,
        "private": False,
        "minutes": 60,
        "rounds": 3,
        "repeat_minutes": None,
    }
    return base | over


def event(kind: str, state: str = "running", round_: int = 0, **over: Any) -> EventRow:
    ends = START + 3600 if kind == "arena" else None
    return EventRow("e1", "Test", kind, 1, state, settings(**over), START, ends, round_, 7)


def entrants(n: int, paused: tuple[int, ...] = ()) -> list[EntrantRow]:
    return [
        EntrantRow(i, f"P{i}", "paused" if i in paused else "active", 1500.0 + i, False, 0.0)
        for i in range(1, n + 1)
    ]


def game(
    seats: list[int], state: str = "over", ranks: list[int] | None = None, **kw: Any
) -> EventGameRow:
    if state == "over" and ranks is None:
        ranks = list(range(len(seats)))
    return EventGameRow(f"g{seats}", kw.get("round"), seats, state, ranks, 0.0, kw.get("ended"))


def make(state: EventState, seats: list[int]) -> NewGame:
    row = GameRow(f"g{seats}", {"players": len(seats)}, 1, [], "active", 0.0)
    return NewGame(
        row, {"kind": "realtime", "base": 600.0, "increment": 5.0, "level": "greedy"}, seats
    )


def tables(step: Any) -> list[list[int]]:
    return sorted(sorted(g.seats) for g in step.games)


def test_an_arena_waits_for_its_start_then_pairs_everyone_free() -> None:
    before = EventState(event("arena", "scheduled"), entrants(4), [])
    assert decide(before, START - 1, make).games == []
    step = decide(before, START, make)
    assert step.state == "running" and len(step.games) == 2
    assert sorted(a for t in tables(step) for a in t) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("why", "state"),
    [
        ("paused", EventState(event("arena"), entrants(4, paused=(4,)), [])),
        ("busy elsewhere", EventState(event("arena"), entrants(4), [], busy={4})),
        ("playing", EventState(event("arena"), entrants(4), [game([3, 4], "playing")])),
    ],
)
def test_an_arena_pairs_only_the_free(why: str, state: EventState) -> None:
    step = decide(state, START + 5, make)
    assert all(4 not in t for t in tables(step)), why


def test_an_arena_lets_players_rest_before_meeting_their_last_opponent_again() -> None:
    played = [game([1, 2], ended=START + 100)]
    state = EventState(event("arena"), entrants(2), played)
    assert decide(state, START + 100 + ARENA_REST / 2, make).games == []
    assert tables(decide(state, START + 100 + ARENA_REST, make)) == [[1, 2]]
    # with a third free entrant, never the same opponent twice in a row
    three = EventState(event("arena"), entrants(3), [game([1, 2], ended=START)])
    assert tables(decide(three, START + 200, make)) in ([[1, 3]], [[2, 3]])


def test_an_arena_stops_pairing_at_its_end_and_finishes_when_its_games_did() -> None:
    end = START + 3600
    playing = EventState(event("arena"), entrants(4), [game([1, 2], "playing")])
    step = decide(playing, end, make)
    assert step.games == [] and step.state is None  # 3 and 4 are free, but it is over
    done = EventState(event("arena"), entrants(4), [game([1, 2])])
    assert decide(done, end, make).state == "finished"


def test_a_swiss_event_pairs_its_rounds_and_ends() -> None:
    first = decide(EventState(event("swiss", "scheduled"), entrants(5), []), START, make)
    assert first.round == 1 and len(first.games) == 2 and len(first.byes) == 1
    assert first.byes[0].points == 1.0
    under_way = EventState(
        event("swiss", round_=1),
        entrants(5),
        [game([1, 2], round=1), game([3, 4], "playing", round=1)],
        [EventBye(1, 5, 1.0)],
    )
    assert decide(under_way, START + 60, make).games == []
    last = EventState(event("swiss", round_=3), entrants(4), [game([1, 2], round=3)])
    assert decide(last, START + 60, make).state == "finished"


def test_a_swiss_entrant_busy_elsewhere_is_absent_for_the_round() -> None:
    state = EventState(event("swiss", "scheduled"), entrants(5), [], busy={5})
    step = decide(state, START, make)
    assert tables(step) and all(5 not in t for t in tables(step))
    assert [(b.account_id, b.points) for b in step.byes] == [(5, 0.0)]


def test_a_swiss_event_of_four_player_games_makes_tables_of_four_and_three() -> None:
    state = EventState(event("swiss", "scheduled", players=4), entrants(7), [])
    step = decide(state, START, make)
    assert sorted(len(g.seats) for g in step.games) == [3, 4] and step.byes == []
