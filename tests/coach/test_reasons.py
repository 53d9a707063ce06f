"""Why a mark: the reason the analysis gives is the difference a player would see between
where the action played led and where the better one did, the most telling first."""

from __future__ import annotations

import pytest

from diagram import st
from tigris_euphrates import State
from tigris_euphrates.coach.reasons import reason_for

# Seat 0's black king at a2 beside its temple at a1, seat 1's at f2 beside f1; a square of
# face-down red tiles at c1 (a monument's place).
BOARD = """
    r . R R . r
    . . R R . .
"""
BOTH = "0 black a2, 1 black f2"


def at(leaders: str = BOTH, scores: list[dict[str, int]] | None = None, **kw: object) -> State:
    made: State = st(BOARD, leaders=leaders, scores=scores, **kw)
    return made


def pts(**row: int) -> dict[str, int]:
    return {"red": 0, "blue": 0, "green": 0, "black": 0, "treasure": 0, **row}


# (what the action played left, what the better one left, the reason's code and arguments)
CASES = [
    ({"leaders": "1 black f2"}, {}, "loses-leader", {"colour": "black"}),
    (
        {"scores": [pts(), pts(black=5)]},
        {"scores": [pts(), pts(black=1)]},
        "gives-points",
        {"seat": 1, "points": 4},
    ),
    ({}, {"monuments": {"red-blue": "c1"}}, "misses-monument", {}),
    ({}, {"scores": [pts(treasure=1), pts()]}, "misses-treasure", {}),
    (
        {"scores": [pts(red=3, blue=3, black=3), pts()]},
        {"scores": [pts(red=3, blue=3, green=1, black=3), pts()]},
        "weakest-colour",
        {"colour": "green"},
    ),
    ({}, {"scores": [pts(red=3), pts()]}, "misses-points", {"points": 3, "colour": "red"}),
    ({}, {}, "position", {}),
]


@pytest.mark.parametrize(("played", "better", "code", "args"), CASES)
def test_the_reason_names_what_the_better_action_kept_or_won(
    played: dict[str, object], better: dict[str, object], code: str, args: dict[str, object]
) -> None:
    before = at(scores=played.get("scores"))  # type: ignore[arg-type]
    reason = reason_for(before, 0, [at(**played)], [at(**better)])  # type: ignore[arg-type]
    assert reason == {"code": code, "args": args}


def test_a_reason_must_hold_in_half_the_deals_at_least() -> None:
    """A leader lost in one deal of three is not the reason; in two of three it is."""
    before = at()
    kept, lost = at(), at(leaders="1 black f2")
    assert reason_for(before, 0, [lost, kept, kept], [kept] * 3)["code"] == "position"
    assert reason_for(before, 0, [lost, lost, kept], [kept] * 3)["code"] == "loses-leader"


def test_a_leader_that_was_not_on_the_board_cannot_be_lost() -> None:
    before = at(leaders="1 black f2")
    assert reason_for(before, 0, [before], [at()])["code"] == "position"
