"""The re-created evaluation of the open-source engine 0b01/tigris-and-euphrates
(``support/reference.py``): it scores a position term by term as that engine does, and the
cheating minimax can use it."""

from __future__ import annotations

import random

import pytest

from diagram import state
from support import reference
from support.minimax import Cheater
from tigris_euphrates import State, apply, legal_actions, new_game

BOARD = """
r T g k
"""


def _position(leaders: str) -> State:
    return state(
        BOARD,
        leaders=leaders,
        hands=[{"red": 5, "green": 2, "black": 1}, {}],
        scores=[{"red": 2, "blue": 3, "green": 1, "black": 4, "treasure": 1}, {}],
        catastrophes=[1, 2],
        bag=["blue"] * 3 + ["red"] * 12,
    )


def test_every_term_of_the_evaluation() -> None:
    """Seat 0: final score 2 (the treasure lifts green), colours 1..4, a green leader at a2
    beside one temple in a kingdom with one green tile and one treasure, 15 tiles left in
    the bag (none green or black)."""
    s = _position("0 green a2")
    assert reference.bag_counts(s) == [12, 3, 0, 0]
    expected = (
        100 * 2  # final score
        - 8 * (4 - 1)  # highest colour minus lowest
        + 25 * 1  # treasure
        + (12 + 15)  # a leader, of the lowest colour
        + 8 * 4  # red in hand, at most four
        + 4 * 2  # green in hand for the green leader
        + 6 * 1  # temple beside the leader
        + 3 * 1  # green tiles in its kingdom
        + 15 * 1  # treasures in the green leader's kingdom
        + 5 * 1  # catastrophe left
        + 2 * 10  # all colours together
        + (2 * 10 + 1 * 10)  # green and black in hand, none left in the bag
        - 3 * 5  # the lowest colour (green) has none left in the bag
        + 20 * 2  # fewer than 20 tiles in the bag: the final score again
    )
    assert reference.seat_eval(s, 0) == expected == 372
    # seat 1 has nothing but its two catastrophes; every colour is its lowest, and blue,
    # green and black have fewer than five left
    assert reference.seat_eval(s, 1) == 10 - 3 * 2 - 3 * 5 - 3 * 5
    assert reference.value(s, 0) == 372 - (-26)
    assert reference.value(s, 1) == -398


def test_only_the_first_leader_of_a_kingdom_counts_its_tiles() -> None:
    """A black leader at b2 joins the green leader's kingdom, which holds a black tile (d1):
    as in the other engine, the kingdom was already counted for the green leader, so the
    black one adds its presence, its hand support and its temple, not the tile."""
    one = reference.seat_eval(_position("0 green a2"), 0)
    two = reference.seat_eval(_position("0 green a2, 0 black b2"), 0)
    assert two - one == 12 + 4 * 1 + 6 * 1


def test_the_bag_counts_follow_the_draws() -> None:
    s = new_game({"players": 2}, 3)
    rng = random.Random(1)
    for _ in range(60):
        s, _ = apply(s, rng.choice(legal_actions(s)))
        counts = [0, 0, 0, 0]
        for c in s.bag[s.bag_pos :]:
            counts[c] += 1
        assert reference.bag_counts(s) == counts


def test_the_minimax_plays_with_the_reference_evaluation() -> None:
    s = new_game({"players": 2}, 11)
    cheater = Cheater(depth=2, widths=(4,), evaluation="reference")
    for _ in range(6):
        choice = cheater.choose_from_state(s)
        assert choice in [str(a) for a in legal_actions(s)]
        s, _ = apply(s, choice)
    with pytest.raises(ValueError, match="evaluation must be one of"):
        Cheater(evaluation="mine")
