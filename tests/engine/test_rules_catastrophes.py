"""RULES.md §5.3 (catastrophes) and §13.11 (the leader orphan check)."""

from __future__ import annotations

from diagram import (
    assert_illegal,
    cells,
    leaders_on_board,
    legal,
    of_type,
    play,
    st,
)
from tigris_euphrates import to_position

TARGETS = """
    r k T ~ .
    . . R x .
"""


def test_catastrophe_on_an_empty_cell_land_or_river() -> None:
    s = st(TARGETS, leaders="1 red a2")
    assert {"catastrophe d1", "catastrophe e1", "catastrophe e2"} <= legal(s)
    s, events = play(s, "catastrophe d1")
    assert cells(s)["d1"] == {"catastrophe": True}
    assert of_type(events, "catastrophe_placed")[0]["removed"] is None
    assert to_position(s)["players"][0]["catastrophes"] == 1
    s, _ = play(s, "catastrophe e1")
    assert cells(s)["e1"] == {"catastrophe": True}
    assert to_position(s)["players"][0]["catastrophes"] == 0


def test_catastrophe_on_a_tile_removes_it_from_the_game() -> None:
    s = st(TARGETS, leaders="1 red a2")
    out = to_position(s)["out"]["public"]["black"]
    s, events = play(s, "catastrophe b1")
    assert cells(s)["b1"] == {"catastrophe": True}
    assert of_type(events, "catastrophe_placed")[0]["removed"] == "black"
    assert to_position(s)["out"]["public"]["black"] == out + 1


def test_catastrophe_restrictions() -> None:
    s = st(TARGETS, leaders="1 red a2")
    assert_illegal(s, "catastrophe a2", "catastrophe-on-leader", "leader")
    assert_illegal(s, "catastrophe c1", "catastrophe-on-treasure", "treasure")
    assert_illegal(s, "catastrophe c2", "catastrophe-on-monument", "monument")
    assert_illegal(s, "catastrophe d2", "catastrophe-on-catastrophe", "another catastrophe")


def test_no_catastrophe_left() -> None:
    s = st(TARGETS, catastrophes=[0, 2])
    assert_illegal(s, "catastrophe e1", "no-catastrophe", "no catastrophe")
    assert not any(a.startswith("catastrophe") for a in legal(s))


def test_catastrophe_on_a_temple_returns_a_leader_left_without_a_temple() -> None:
    s = st(
        """
        r . r .
        . . r .
        """,
        leaders="1 red a2, 0 black b1",
    )
    # a2 has only a1; b1 has a1 and c1
    s, events = play(s, "catastrophe a1")
    assert leaders_on_board(s) == {(0, "black", "b1")}
    withdrawn = of_type(events, "leader_withdrawn")
    assert withdrawn == [
        {
            "type": "leader_withdrawn",
            "seat": 1,
            "colour": "red",
            "cell": "a2",
            "reason": "no temple",
        }
    ]


def test_the_dead_cell_splits_the_kingdom() -> None:
    s = st(
        "r k k k r\n. . . . .",
        leaders="0 red a2",
        turn=1,
    )
    # before: a priest next to e1 would start a revolt
    _, events = play(s, "leader red e2")
    assert of_type(events, "conflict_started")
    # after a catastrophe on c1, e1 is in a leaderless region: no revolt
    s, _ = play(s, "catastrophe c1")
    s, events = play(s, "leader red e2")
    assert of_type(events, "conflict_started") == []
    assert leaders_on_board(s) == {(0, "red", "a2"), (1, "red", "e2")}


def test_the_dead_cell_stays_dead() -> None:
    s = st(". x .", hands=[{"red": 1}, {}])
    assert_illegal(s, "tile red b1", "occupied", "catastrophe")
    assert "catastrophe b1" not in legal(s)
