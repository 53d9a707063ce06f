"""RULES.md §11 Wonder variant, with §13.11 (the orphan check after a wonder).

One wonder piece. A placed tile (a union tile once its wars are over) that is the centre or
an arm of a plus of five face-up tiles of its colour offers the wonder, in the same decision
as any monument (`wonder CELL`, `monument C1-C2 CELL`, `decline`). At the end of their turn,
before monument points, a turn player whose king is in the wonder's kingdom takes 1 VP of a
colour of their choice (`point COLOUR`).
"""

from __future__ import annotations

from diagram import (
    ZERO,
    assert_refused,
    cells,
    hand,
    leaders_on_board,
    legal,
    of_type,
    pending,
    play,
    score,
    st,
)
from tigris_euphrates import State, player_view, to_act, to_position

PLUS = ("b1", "a2", "b2", "c2", "b3")  # the plus centred on b2
POINTS = {"point red", "point blue", "point green", "point black"}


def stage(s: State) -> str | None:
    p = pending(s)
    return None if p is None else p["stage"]


# --- the offer --------------------------------------------------------------------------------

CENTRE = """
    . k . .
    k . k .
    . k . .
"""


def test_the_placed_tile_as_the_centre_of_a_plus_offers_the_wonder() -> None:
    s = st(CENTRE, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black b2")
    assert stage(s) == "monument" and to_act(s) == 0
    # a plus holds no 2x2 block: the wonder is the only thing offered
    assert legal(s) == {"wonder b2", "decline"}
    assert_refused(s, "pass")
    s, events = play(s, "wonder b2")
    board = cells(s)
    assert all(board[c] == {"tile": "black", "face_down": True} for c in PLUS)
    assert to_position(s)["monuments"] == {"wonder": "b2"}
    built = of_type(events, "wonder_built")
    assert [(e["seat"], e["cell"]) for e in built] == [(0, "b2")]
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


ARM = """
    . k . .
    k k k .
    . . . .
"""


def test_the_placed_tile_as_an_arm_of_a_plus_offers_the_wonder() -> None:
    s = st(ARM, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black b3")  # the bottom arm of the plus centred on b2
    assert stage(s) == "monument" and to_act(s) == 0
    assert legal(s) == {"wonder b2", "decline"}
    assert_refused(s, "wonder b3")  # b3 is an arm, not a centre
    s, _ = play(s, "wonder b2")
    board = cells(s)
    assert all(board[c].get("face_down") for c in PLUS)
    assert to_position(s)["monuments"] == {"wonder": "b2"}


TWO_PLUSES = """
    . k . k .
    k k . k k
    . k . k .
"""


def test_the_placer_chooses_the_centre_when_there_are_several() -> None:
    s = st(TWO_PLUSES, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black c2")  # an arm of the plus on b2 and of the plus on d2
    assert legal(s) == {"wonder b2", "wonder d2", "decline"}
    assert_refused(s, "wonder c2")  # c1 and c3 are empty: c2 is no centre
    s, _ = play(s, "wonder d2")
    board = cells(s)
    assert all(board[c].get("face_down") for c in ("d1", "c2", "d2", "e2", "d3"))
    assert not any(board[c].get("face_down") for c in ("b1", "a2", "b2", "b3"))
    assert to_position(s)["monuments"] == {"wonder": "d2"}
    assert pending(s) is None  # one wonder, one decision


# b2 is the centre of a black plus and completes the block a1 (a1 b1 a2 b2).
PLUS_AND_BLOCK = """
    k k . .
    k . k .
    . k . .
"""


def test_the_wonder_and_the_monuments_are_offered_in_one_decision() -> None:
    s = st(PLUS_AND_BLOCK, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black b2")
    assert stage(s) == "monument" and to_act(s) == 0
    assert legal(s) == {
        "wonder b2",
        "monument red-black a1",
        "monument blue-black a1",
        "monument green-black a1",
        "decline",
    }


def test_building_the_monument_instead_of_the_wonder() -> None:
    s = st(PLUS_AND_BLOCK, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black b2", "monument blue-black a1")
    board = cells(s)
    assert all(board[c].get("face_down") for c in ("a1", "b1", "a2", "b2"))
    assert board["c2"] == {"tile": "black"} and board["b3"] == {"tile": "black"}
    assert to_position(s)["monuments"] == {"blue-black": "a1"}
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


def test_building_the_wonder_instead_of_the_monument() -> None:
    s = st(PLUS_AND_BLOCK, hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black b2", "wonder b2")
    board = cells(s)
    assert all(board[c].get("face_down") for c in PLUS)
    assert board["a1"] == {"tile": "black"}
    assert to_position(s)["monuments"] == {"wonder": "b2"}
    assert pending(s) is None and to_position(s)["turn"]["actions_left"] == 1


def test_declining_builds_nothing_and_the_wonder_stays_available() -> None:
    s = st(
        """
        k k . . . k .
        k . k . k . k
        . k . . . k .
        """,
        hands=[{"black": 2}, {}],
        wonder=True,
    )
    s, events = play(s, "tile black b2", "decline")
    assert pending(s) is None and to_position(s)["monuments"] == {}
    assert not any(v.get("face_down") for v in cells(s).values())
    assert of_type(events, "wonder_built") == []
    # the wonder is still unbuilt: a second plus is offered
    s, _ = play(s, "tile black f2")
    assert legal(s) == {"wonder f2", "decline"}


def test_only_the_wonder_is_offered_when_no_monument_of_the_colour_is_left() -> None:
    s = st(
        """
        k k . . K K . K K . K K
        k . k . K K . K K . K K
        . k . . . . . . . . . .
        """,
        monuments={"red-black": "e1", "blue-black": "h1", "green-black": "k1"},
        hands=[{"black": 1}, {}],
        wonder=True,
    )
    s, _ = play(s, "tile black b2")  # completes the block a1 too, but no black monument is left
    assert legal(s) == {"wonder b2", "decline"}


def test_a_plus_that_does_not_contain_the_placed_tile_is_not_offered() -> None:
    s = st(". k . . .\nk k k . .\n. k . . .", hands=[{"black": 1}, {}], wonder=True)
    s, _ = play(s, "tile black d2")  # beside the complete plus on b2, but no part of it
    assert pending(s) is None
    assert to_position(s)["turn"]["actions_left"] == 1


def test_face_down_tiles_make_no_plus() -> None:
    s = st(
        """
        K K k .
        K K . k
        . . k .
        """,
        monuments={"blue-black": "a1"},
        hands=[{"black": 1}, {}],
        wonder=True,
    )
    s, _ = play(s, "tile black c2")  # c1, d2, c3 face up, but b2 is face down
    assert pending(s) is None


# --- a union tile: the wonder check after its wars ----------------------------------------------

# Kingdom A (seat 0's king a4): the plus on b2 without its arm c2. Kingdom B (seat 1's king e2):
# black d2. A black tile on c2 unites them (a black war) and completes the plus.
UNION_PLUS = """
    . k . . r .
    k k . k . .
    r k . . . .
    . . . . . .
"""
UNION_LEADERS = "0 black a4, 1 black e2"


def test_the_wonder_check_runs_on_a_union_tile_after_its_wars() -> None:
    s = st(UNION_PLUS, leaders=UNION_LEADERS, hands=[{"black": 1}, {}], wonder=True)
    s, events = play(s, "tile black c2")
    assert stage(s) == "conflict"  # the war first: no offer yet
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (4, 1)  # b1 a2 b2 b3 / d2
    s, _ = play(s, "commit 0", "commit 0")  # 4 against 1: seat 0 wins, d2 is removed
    assert "d2" not in cells(s) and score(s, 0)["black"] == 2
    assert stage(s) == "monument" and to_act(s) == 0
    assert legal(s) == {"wonder b2", "decline"}


def test_no_wonder_when_the_war_broke_the_plus() -> None:
    s = st(UNION_PLUS, leaders=UNION_LEADERS, hands=[{"black": 1}, {"black": 3}], wonder=True)
    s, _ = play(s, "tile black c2", "commit 0", "commit 3")  # 4 against 4: seat 1 wins
    board = cells(s)
    assert not any(c in board for c in ("b1", "a2", "b2", "b3"))
    assert score(s, 1)["black"] == 5  # the leader + four removed tiles
    assert pending(s) is None and to_act(s) == 0


# --- what building the wonder does ----------------------------------------------------------------

# A red plus on b2 completed by its arm b3. b1 carries a treasure; seat 0's king a1 has only
# b1 and a2 for temples; seat 1's priest d1 has d2.
RED_PLUS = """
    . T . .
    r r r r
    . . . .
"""


def test_the_wonder_keeps_the_treasure_and_returns_orphaned_leaders() -> None:
    s = st(RED_PLUS, leaders="0 black a1, 1 red d1", hands=[{"red": 1}, {}], wonder=True)
    s, _ = play(s, "tile red b3")
    assert score(s, 1)["red"] == 1  # the tile's point (seat 1's priest) comes first
    assert legal(s) == {"wonder b2", "decline"}
    s, events = play(s, "wonder b2")
    board = cells(s)
    assert board["b1"] == {"tile": "red", "treasure": True, "face_down": True}
    assert all(board[c] == {"tile": "red", "face_down": True} for c in ("a2", "b2", "c2", "b3"))
    assert board["d2"] == {"tile": "red"}
    assert leaders_on_board(s) == {(1, "red", "d1")}
    withdrawn = of_type(events, "leader_withdrawn")
    assert [(e["seat"], e["colour"], e["cell"]) for e in withdrawn] == [(0, "black", "a1")]


def test_a_building_on_the_wonders_tiles_returns_off_the_board() -> None:
    s = st(
        RED_PLUS,
        leaders="0 black a1, 1 red d1",
        hands=[{"red": 1}, {}],
        buildings={"red": "c2"},
        wonder=True,
    )
    s, _ = play(s, "tile red b3")
    # the tile's point and the building bonus (building red is in the kingdom) for the priest
    assert score(s, 1)["red"] == 2
    # no building offer: T = 4 (c2's row run a2-d2) and no tile of b3's runs is longer than 4
    assert legal(s) == {"wonder b2", "decline"}
    s, events = play(s, "wonder b2")
    assert cells(s)["c2"] == {"tile": "red", "face_down": True}
    assert to_position(s).get("buildings", {}) == {}
    returned = of_type(events, "building_returned")
    assert [(e["colour"], e["cell"]) for e in returned] == [("red", "c2")]


# A black wonder on b2 in seat 0's kingdom (king d3, temple c3, face-up black d2); seat 1's
# kingdom f2 g2 (king g1). A black tile on e2 unites them: a black war.
WONDER_WAR = """
    . K . . . . .
    K K K k . k r
    . K r . . . .
    . . . . . . .
"""


def test_wonder_tiles_are_never_removed_by_a_war_and_never_support() -> None:
    s = st(
        WONDER_WAR,
        monuments={"wonder": "b2"},
        leaders="0 black d3, 1 black g1",
        hands=[{"black": 1}, {}],
        wonder=True,
    )
    s, events = play(s, "tile black e2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (1, 1)  # d2 / f2 only
    s, _ = play(s, "commit 0", "commit 0")  # a tie: seat 1 wins
    board = cells(s)
    assert "d2" not in board
    assert all(board[c] == {"tile": "black", "face_down": True} for c in PLUS)
    assert to_position(s)["monuments"] == {"wonder": "b2"}
    assert score(s, 1)["black"] == 2  # the leader + d2


WONDER = """
    . K . r
    K K K .
    . K . .
"""


def test_wonder_tiles_cannot_be_hit_by_a_catastrophe() -> None:
    s = st(WONDER, monuments={"wonder": "b2"}, wonder=True)
    for c in PLUS:
        assert_refused(s, f"catastrophe {c}")
    assert "catastrophe d2" in legal(s)


def test_only_one_wonder_per_game() -> None:
    # a second plus, which also completes the block e1: only the monuments are offered
    s = st(
        """
        . K . . k k .
        K K K . k . k
        . K . . . k .
        """,
        monuments={"wonder": "b2"},
        hands=[{"black": 1}, {}],
        wonder=True,
    )
    s, _ = play(s, "tile black f2")
    assert legal(s) == {
        "monument red-black e1",
        "monument blue-black e1",
        "monument green-black e1",
        "decline",
    }
    # a second plus alone: no offer at all
    s = st(
        """
        . K . . . k .
        K K K . k . k
        . K . . . k .
        """,
        monuments={"wonder": "b2"},
        hands=[{"black": 1}, {}],
        wonder=True,
    )
    s, _ = play(s, "tile black f2")
    assert pending(s) is None
    assert to_position(s)["turn"]["actions_left"] == 1


# --- the wonder point ---------------------------------------------------------------------------


def test_the_wonder_point_is_a_colour_of_the_turn_players_choice_at_the_end_of_the_turn() -> None:
    s = st(WONDER, monuments={"wonder": "b2"}, leaders="0 black d2", wonder=True)
    s, events = play(s, "pass")
    assert pending(s) is None and of_type(events, "points_scored") == []  # not after an action
    s, _ = play(s, "pass")
    assert stage(s) == "wonder_point" and to_act(s) == 0
    # ruling: the point is taken ("takes 1 VP"), not offered: the four colours, no decline
    assert legal(s) == POINTS
    assert_refused(s, "decline")
    assert sum(hand(s, 0).values()) == 0  # before the refills
    s, events = play(s, "point green")
    assert score(s, 0) == {**ZERO, "green": 1}
    scored = of_type(events, "points_scored")
    assert [(e["seat"], e["colour"], e["points"], e["reason"]) for e in scored] == [
        (0, "green", 1, "wonder")
    ]
    assert hand(s, 0)["black"] == 6  # refilled after the point
    assert to_act(s) == 1 and pending(s) is None


def test_each_colour_may_be_chosen_for_the_wonder_point() -> None:
    for colour in ("red", "blue", "green", "black"):
        s = st(WONDER, monuments={"wonder": "b2"}, leaders="0 black d2", wonder=True)
        s, _ = play(s, "pass", "pass", f"point {colour}")
        assert score(s, 0) == {**ZERO, colour: 1}


def test_the_wonder_point_comes_before_the_monument_points() -> None:
    s = st(
        """
        . K . r . R R r
        K K K . . R R .
        . K . . . . . .
        """,
        monuments={"wonder": "b2", "red-green": "f1"},
        leaders="0 black d2, 0 red h2",
        wonder=True,
    )
    s, _ = play(s, "pass", "pass")
    assert stage(s) == "wonder_point"
    assert score(s, 0) == ZERO  # the priest's monument point has not come yet
    s, events = play(s, "point blue")
    assert score(s, 0) == {**ZERO, "red": 1, "blue": 1}
    reasons = [e["reason"] for e in of_type(events, "points_scored")]
    assert reasons == ["wonder", "monument"]


def test_no_wonder_point_unless_the_turn_players_king_is_in_the_wonders_kingdom() -> None:
    # seat 0: a priest in the wonder's kingdom, the king elsewhere; seat 1: the king in it
    s = st(
        """
        . K . r . r
        K K K . . .
        r K . . . .
        . . . . . .
        """,
        monuments={"wonder": "b2"},
        leaders="1 black d2, 0 red a4, 0 black f2",
        wonder=True,
    )
    s, events = play(s, "pass", "pass")
    assert of_type(events, "points_scored") == []
    assert score(s, 0) == ZERO and to_act(s) == 1 and pending(s) is None
    s, _ = play(s, "pass", "pass")
    assert stage(s) == "wonder_point" and to_act(s) == 1
    assert legal(s) == POINTS
    s, _ = play(s, "point red")
    assert score(s, 1) == {**ZERO, "red": 1} and score(s, 0) == ZERO
    assert to_act(s) == 0


def test_no_wonder_point_while_the_wonder_is_unbuilt() -> None:
    s = st(". k . r\nk k k .\n. k . .", leaders="0 black d2", wonder=True)
    s, _ = play(s, "pass", "pass")
    assert pending(s) is None and to_act(s) == 1 and score(s, 0) == ZERO


# --- all the variants in one game -------------------------------------------------------------


def test_wonder_and_buildings_with_the_english_variant_and_open_scoring() -> None:
    s = st(
        UNION_PLUS,
        leaders=UNION_LEADERS,
        hands=[{"black": 3}, {"black": 3}],
        buildings={},
        wonder=True,
        english_variant=True,
        open_scoring=True,
    )
    options = to_position(s)["options"]
    assert options["wonder"] and options["buildings"]
    assert options["english_variant"] and options["open_scoring"]
    s, _ = play(s, "tile black c2")  # the black war: bases 4 and 1
    assert legal(s) == {"commit 0", "commit 1", "commit 2"}  # 4 + n > 1 for any n
    s, _ = play(s, "commit 0")
    assert legal(s) == {"commit 0", "commit 3"}  # the defender may only reach 4 exactly
    s, _ = play(s, "commit 0")  # seat 0 wins: d2 removed, 2 black
    # after the war: the building offer (c2's row run a2-b2-c2 is 3 long), then the wonder
    assert stage(s) == "building"
    assert legal(s) == {
        "building black a2",
        "building black b2",
        "building black c2",
        "decline",
    }
    s, _ = play(s, "building black a2")
    assert to_position(s)["buildings"] == {"black": "a2"}
    assert stage(s) == "monument" and legal(s) == {"wonder b2", "decline"}
    s, _ = play(s, "wonder b2")  # a2 goes face down: the building goes back off the board
    assert to_position(s).get("buildings", {}) == {}
    s, _ = play(s, "pass")  # the king a4 is in the wonder's kingdom (a3 touches a2)
    assert stage(s) == "wonder_point" and legal(s) == POINTS
    s, _ = play(s, "point red")
    assert score(s, 0) == {**ZERO, "red": 1, "black": 2}
    assert to_act(s) == 1
    # open scoring: seat 1 sees seat 0's points
    assert player_view(s, 1)["players"][0]["score"] == {**ZERO, "red": 1, "black": 2}
