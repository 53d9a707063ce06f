"""The clocks as pure functions of the steps' times: realtime banks with an increment,
turn-based moves, a timeout handing the seat to a bot, and taking it back."""

from __future__ import annotations

import pytest

from tigris_euphrates.server.clocks import (
    Pace,
    PaceError,
    advance,
    handed,
    pace_from_dict,
    returned,
    start,
    timed_out,
)

REALTIME = Pace("realtime", 600.0, 30.0, "easy")
TURN = Pace("turn", 86400.0, 0.0, "easy")


def test_realtime_charges_the_actor_and_adds_the_increment_when_the_turn_passes() -> None:
    clock = start(REALTIME, 2, 0, True, now=1000.0)
    assert clock.deadline == 1600.0 and clock.left(0, 1100.0) == 500.0
    # the same player's second action: the clock keeps running, no increment
    clock = advance(clock, 0, True, 1100.0)
    assert clock.banks[0] == 500.0 and clock.deadline == 1600.0
    # the turn passes: 40 s more used, then 30 s added
    clock = advance(clock, 1, True, 1140.0)
    assert clock.banks == (490.0, 600.0) and clock.actor == 1 and clock.deadline == 1740.0
    assert clock.left(0, 2000.0) == 490.0  # a waiting seat's time does not run
    assert clock.left(1, 1240.0) == 500.0


def test_turn_based_gives_each_move_the_whole_time() -> None:
    clock = start(TURN, 3, 0, True, now=0.0)
    clock = advance(clock, 1, True, 80000.0)
    assert clock.deadline == 80000.0 + 86400.0
    clock = advance(clock, 2, True, 90000.0)
    clock = advance(clock, 0, True, 100000.0)
    assert clock.deadline == 100000.0 + 86400.0 and clock.left(0, 100000.0) == 86400.0
    assert not clock.expired(186399.0) and clock.expired(186400.0)


def test_a_bot_uses_no_time() -> None:
    clock = start(REALTIME, 2, 0, True, now=0.0)
    clock = advance(clock, 1, False, 10.0)  # a bot is to act
    assert clock.deadline is None and not clock.running
    clock = advance(clock, 0, True, 500.0)
    assert clock.banks == (620.0, 600.0) and clock.deadline == 1120.0


def test_timeout_then_the_player_takes_the_seat_back() -> None:
    clock = start(REALTIME, 2, 0, True, now=0.0)
    assert clock.expired(600.0)
    clock = timed_out(clock, 0, 600.0)
    assert clock.banks[0] == 0.0 and clock.deadline is None
    # the bot plays; the turn passes and comes back to the bot: no clock runs for it
    clock = advance(clock, 1, True, 601.0)
    clock = advance(clock, 0, False, 650.0)
    assert clock.deadline is None and clock.banks[1] == 600.0 - 49.0 + 30.0
    # the player takes the seat back while it is to act: at least the grace time
    clock = returned(clock, 0, 700.0)
    assert clock.running and clock.banks[0] == REALTIME.grace == 60.0
    assert clock.deadline == 760.0


def test_handing_a_seat_over_keeps_its_time() -> None:
    clock = start(REALTIME, 2, 0, True, now=0.0)
    clock = handed(clock, 0, 100.0)
    assert clock.banks[0] == 500.0 and clock.deadline is None
    clock = returned(clock, 0, 200.0)
    assert clock.banks[0] == 500.0 and clock.deadline == 700.0


def test_turn_based_grace_is_a_whole_move() -> None:
    clock = timed_out(start(TURN, 2, 0, True, now=0.0), 0, 86400.0)
    clock = returned(clock, 0, 90000.0)
    assert clock.deadline == 90000.0 + 86400.0


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "blitz", "base": 60},
        {"kind": "realtime"},
        {"kind": "realtime", "base": 0},
        {"kind": "realtime", "base": True},
        {"kind": "realtime", "base": 60, "increment": -1},
        {"kind": "turn", "base": 86400, "increment": 30},
        {"kind": "turn", "base": 10**9},
    ],
)
def test_bad_paces_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(PaceError):
        pace_from_dict(data)


def test_a_pace_round_trips() -> None:
    assert pace_from_dict(REALTIME.to_dict()) == REALTIME
    assert pace_from_dict({"kind": "turn", "base": 259200}).level == "easy"
