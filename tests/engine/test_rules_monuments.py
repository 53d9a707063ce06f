"""RULES.md §8 (monuments) and §13.8 (one monument per placement)."""

from __future__ import annotations

from diagram import (
    ZERO,
    assert_illegal,
    cells,
    leaders_on_board,
    legal,
    of_type,
    pending,
    play,
    score,
    st,
)
from tigris_euphrates import to_act, to_position


def test_completing_a_block_offers_the_monuments_of_its_colour() -> None:
    s = st("T r .\nr . .\n. . .", leaders="0 black a3", hands=[{"red": 1}, {}])
    s, _ = play(s, "tile red b2")
    assert score(s, 0)["red"] == 1  # the tile's point comes first (the king takes it)
    assert pending(s) == {
        "stage": "monument",
        "union": None,
        "monument": {"colour": "red", "blocks": ["a1"]},
    }
    assert to_act(s) == 0
    assert legal(s) == {
        "monument red-blue a1",
        "monument red-green a1",
        "monument red-black a1",
        "decline",
    }
    assert_illegal(s, "pass", "wrong-decision", "monument decision")
    assert_illegal(s, "monument blue-green a1", "monument-colour", "no red part")


def test_building_turns_the_block_face_down_keeps_the_treasure_and_orphans_leaders() -> None:
    s = st("T r .\nr . .\n. . .", leaders="0 black a3", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b2", "monument red-black a1")
    board = cells(s)
    assert board["a1"] == {"tile": "red", "treasure": True, "face_down": True}
    for c in ("b1", "a2", "b2"):
        assert board[c] == {"tile": "red", "face_down": True}
    assert to_position(s)["monuments"] == {"red-black": "a1"}
    built = of_type(events, "monument_built")[0]
    assert (built["monument"], built["cell"]) == ("red-black", "a1")
    # the king at a3 had only a2 as a temple: it goes back to its owner
    assert leaders_on_board(s) == set()
    assert of_type(events, "leader_withdrawn")[0]["reason"] == "no temple"
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


SEVERAL = """
    k k k
    k . k
"""


def test_choice_among_several_completed_blocks() -> None:
    s = st(SEVERAL, hands=[{"black": 1}, {}])
    s, _ = play(s, "tile black b2")
    assert legal(s) == {
        f"monument {m} {c}"
        for m in ("red-black", "blue-black", "green-black")
        for c in ("a1", "b1")
    } | {"decline"}
    assert_illegal(s, "monument red-black c1", "no-such-block", "not the top-left cell")
    s, _ = play(s, "monument blue-black b1")
    board = cells(s)
    assert all(board[c].get("face_down") for c in ("b1", "c1", "b2", "c2"))
    assert not board["a1"].get("face_down") and not board["a2"].get("face_down")
    # one monument per placement: no second offer
    assert pending(s) is None and to_position(s)["monuments"] == {"blue-black": "b1"}


def test_declining_is_final_for_that_block() -> None:
    s = st(SEVERAL, hands=[{"black": 3}, {}])
    s, events = play(s, "tile black b2", "decline")
    assert of_type(events, "monument_declined")
    assert pending(s) is None and to_position(s)["monuments"] == {}
    assert not any(v.get("face_down") for v in cells(s).values())
    # a later tile completing another block is offered that block only
    s, _ = play(s, "tile black d1", "pass", "pass", "tile black d2")
    assert {a.split()[-1] for a in legal(s) if a != "decline"} == {"c1"}


def test_no_offer_when_no_monument_of_the_colour_is_left() -> None:
    s = st(
        """
        k k . K K . K K . K K
        k . . K K . K K . K K
        """,
        monuments={"red-black": "d1", "blue-black": "g1", "green-black": "j1"},
        hands=[{"black": 1, "red": 4}, {}],
    )
    s, events = play(s, "tile black b2")
    assert pending(s) is None
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1
    assert of_type(events, "monument_built") == []


MONUMENT_KINGDOM = """
    R R r . .
    R R r r .
    . . . . .
"""


def test_monument_points_go_to_the_turn_player_at_the_end_of_the_turn_without_a_king_wildcard() -> (
    None
):
    s = st(
        MONUMENT_KINGDOM,
        monuments={"red-blue": "a1"},
        leaders="0 red d1, 0 black e2, 1 blue c3",
        hands=[{"red": 6}, {"red": 6}],
    )
    s, events = play(s, "pass")
    assert of_type(events, "points_scored") == []  # not after an action
    s, events = play(s, "pass")
    # seat 0: red for its priest; no blue leader, and the king takes no other colour
    assert score(s, 0) == {**ZERO, "red": 1}
    assert score(s, 1) == ZERO  # not seat 1's turn
    assert of_type(events, "points_scored")[0]["reason"] == "monument"
    s, _ = play(s, "pass", "pass")
    assert score(s, 1) == {**ZERO, "blue": 1}
    assert score(s, 0) == {**ZERO, "red": 1}


def test_monument_points_need_the_leader_in_the_monuments_kingdom() -> None:
    s = st(
        MONUMENT_KINGDOM + ". . . . r\n",
        monuments={"red-blue": "a1"},
        leaders="0 red e5",
        hands=[{"red": 6}, {"red": 6}],
    )
    s, _ = play(s, "pass", "pass")
    assert score(s, 0) == ZERO


# Kingdom A (seat 0's king a1) holds black b1, c1, b2; a black tile on c2 completes the block
# b1 and unites A with kingdom B (seat 1's king e1, black d2).
UNION_BLOCK = """
    . k k . .
    r k . k r
"""


def test_the_monument_check_runs_on_the_union_tile_after_its_wars() -> None:
    s = st(UNION_BLOCK, leaders="0 black a1, 1 black e1", hands=[{"black": 1}, {}])
    s, _ = play(s, "tile black c2")
    assert pending(s)["stage"] == "conflict"  # type: ignore[index]
    s, _ = play(s, "commit 0", "commit 0")  # 3 against 1: seat 0 wins, d2 removed
    assert "d2" not in cells(s)
    assert pending(s) == {
        "stage": "monument",
        "union": None,
        "monument": {"colour": "black", "blocks": ["b1"]},
    }
    s, _ = play(s, "monument green-black b1")
    assert to_position(s)["monuments"] == {"green-black": "b1"}


def test_no_monument_when_the_war_broke_the_block() -> None:
    s = st(UNION_BLOCK, leaders="0 black a1, 1 black e1", hands=[{"black": 1}, {"black": 2}])
    s, _ = play(s, "tile black c2", "commit 0", "commit 2")  # 3 against 3: seat 1 wins
    board = cells(s)
    assert "b1" not in board and "c1" not in board and "b2" not in board
    assert pending(s) is None and to_act(s) == 0


def test_face_down_tiles_stay_in_the_region() -> None:
    # a1 and d1 are connected through the monument: a priest next to d1 meets seat 1's
    s = st("r R R r\n. R R .", monuments={"red-green": "b1"}, leaders="1 red a2")
    s, events = play(s, "leader red d2")
    assert of_type(events, "conflict_started")[0]["kind"] == "revolt"
