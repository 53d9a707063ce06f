"""RULES.md §11 Galaxy ruleset (seeds/004), with §12 (one artifact) and §13.11–12.

The classic game re-themed, with these differences: no monuments; a weapon ship (catastrophe)
may destroy any system, one with a leader (which returns to its owner) or an artifact (which
is lost) too; a leader may not touch two or more separate regions; a lost war vacates every
system of the leader's colour in its former region (no exceptions), and orphaned leaders
return after each war; artifacts (treasures) are not taken after actions but harvested, one,
at the end of the turn player's turn after the refills, from the region of their merchant
leader (trader) if it holds two or more (compulsory). The game ends at the end of a turn with
two or fewer artifacts, or when the pool of colonists (the bag) cannot refill a fleet.
"""

from __future__ import annotations

import pytest

from diagram import (
    ZERO,
    assert_illegal,
    assert_refused,
    cells,
    hand,
    leaders_on_board,
    legal,
    of_type,
    pending,
    play,
    position,
    score,
    st,
)
from tigris_euphrates import (
    InvalidAction,
    State,
    from_position,
    new_game,
    to_act,
    to_position,
)

GALAXY = {"ruleset": "galaxy"}
SPARES = {"l11", "n11", "p11"}  # the three spare artifacts of ``st``


def stage(s: State) -> str | None:
    p = pending(s)
    return None if p is None else p["stage"]


def artifacts(s: State) -> set[str]:
    return {c for c, v in to_position(s)["cells"].items() if v.get("treasure")}


def test_a_new_galaxy_game() -> None:
    s = new_game({"players": 3, **GALAXY}, seed=7)
    pos = to_position(s)
    assert pos["options"]["ruleset"] == "galaxy"
    assert len(artifacts(s)) == 10 and pos["monuments"] == {}


def test_the_galaxy_ruleset_refuses_the_wonder_and_the_buildings() -> None:
    # ruling: (made by the variants' implementer) no monuments in the galaxy and the wonder is
    # a monument-like piece; the buildings variant is refused with it.
    for variant in ("wonder", "buildings"):
        with pytest.raises(InvalidAction) as info:
            new_game({"players": 2, variant: True, **GALAXY}, seed=1)
        assert info.value.code in ("bad-option", "unsupported-option")
    with pytest.raises(InvalidAction):
        from_position(position(". r", wonder=True, **GALAXY))
    with pytest.raises(InvalidAction):
        from_position(position(". r", buildings={}, **GALAXY))


# --- no monuments -------------------------------------------------------------------------------


def test_no_monument_is_ever_offered() -> None:
    s = st("T r .\nr . .\n. . .", leaders="0 black a3", hands=[{"red": 1}, {}], **GALAXY)
    s, events = play(s, "tile red b2")  # completes the block a1
    assert score(s, 0)["red"] == 1  # the tile still scores
    assert pending(s) is None and to_act(s) == 0
    assert to_position(s)["turn"]["actions_left"] == 1
    assert not any(a.startswith("monument") for a in legal(s))
    assert_refused(s, "monument red-blue a1")
    assert of_type(events, "monument_built") == [] and to_position(s)["monuments"] == {}


# --- weapon ships -------------------------------------------------------------------------------


def test_a_weapon_ship_may_destroy_a_system_with_a_leader_which_returns_to_its_owner() -> None:
    s = st("r . .\n. . .", leaders="1 green b1", **GALAXY)
    assert "catastrophe b1" in legal(s)
    s, events = play(s, "catastrophe b1")
    assert cells(s)["b1"] == {"catastrophe": True}
    assert leaders_on_board(s) == set()
    withdrawn = of_type(events, "leader_withdrawn")
    assert [(e["seat"], e["colour"], e["cell"]) for e in withdrawn] == [(1, "green", "b1")]
    assert to_position(s)["players"][0]["catastrophes"] == 1
    assert "leader green b1" not in legal(s)  # dead for good


def test_a_weapon_ship_may_destroy_a_system_with_an_artifact_which_is_lost() -> None:
    s = st("T r .\n. . .", **GALAXY)
    assert "catastrophe a1" in legal(s)
    s, events = play(s, "catastrophe a1")
    assert cells(s)["a1"] == {"catastrophe": True}
    assert artifacts(s) == SPARES
    assert [e["cell"] for e in of_type(events, "treasure_lost")] == ["a1"]
    assert score(s, 0) == ZERO and score(s, 1) == ZERO  # nobody gains it


def test_a_weapon_ship_may_destroy_an_empty_uninhabitable_system() -> None:
    s = st("~ r .\n. . .", **GALAXY)
    s, _ = play(s, "catastrophe a1")
    assert cells(s)["a1"] == {"catastrophe": True}


def test_a_destroyed_system_cannot_be_destroyed_again() -> None:
    s = st(". x .\n. . .", **GALAXY)
    assert_refused(s, "catastrophe b1")


# --- placing leaders ----------------------------------------------------------------------------


def test_a_leader_may_not_touch_two_separate_leaderless_regions() -> None:
    s = st("r . r\n. . .", **GALAXY)
    assert_refused(s, "leader black b1")  # touches a1 and c1 (legal in the classic game)
    assert "leader black a2" in legal(s)


def test_a_leader_may_not_touch_a_kingdom_and_a_leaderless_region() -> None:
    s = st("r . r\n. . .", leaders="1 red a2", **GALAXY)
    assert_refused(s, "leader black b1")  # the kingdom a1-a2 and the lone c1
    s, _ = play(s, "leader black c2")  # touches c1 only
    assert (0, "black", "c2") in leaders_on_board(s)


def test_a_leader_may_touch_several_pieces_of_one_region() -> None:
    s = st("r .\nr r", **GALAXY)
    s, _ = play(s, "leader black b1")  # a1 and b2, both of the region a1-a2-b2
    assert leaders_on_board(s) == {(0, "black", "b1")}


# Two regions a1-b1 and a3-b3, joined into one kingdom by seat 0's black leader on a2.
LIFTED = """
    r r
    . .
    r r
"""


def test_a_leader_may_not_move_to_link_two_regions() -> None:
    # moved from a2 to b2 it would touch b1 and b3, the two regions it no longer joins
    s = st(LIFTED, leaders="0 black a2", **GALAXY)
    assert_illegal(s, "leader black b2", "links-regions", "may not link two regions")
    assert "leader black b2" not in legal(s)
    # the same answer once legal_actions has filled the state's legality cache
    assert_illegal(s, "leader black b2", "links-regions", "may not link two regions")
    assert {"leader black c1", "leader black c3", "withdraw black"} <= legal(s)


def test_the_same_leader_move_is_legal_in_the_classic_game() -> None:
    # classic: b1 and b3 are two leaderless regions once the leader is lifted, and a leader
    # may touch any number of them
    s = st(LIFTED, leaders="0 black a2")
    assert "leader black b2" in legal(s)
    s, events = play(s, "leader black b2")
    assert leaders_on_board(s) == {(0, "black", "b2")}
    placed = of_type(events, "leader_placed")
    assert [(e["cell"], e["origin"]) for e in placed] == [("b2", "a2")]


# --- wars ---------------------------------------------------------------------------------------

# Kingdom A: artifact temple a1, temples b2 b3, black c2; seat 0's priest b1 and king c3 (whose
# only temple is b3). Kingdom B: black e2, temples f1 f2 g2; seat 1's priest g1. A black tile on
# d2 unites them: a red war.
RED_WAR = """
    T . . . . r .
    . r k . k r r
    . r . . . . .
"""


def test_a_lost_war_vacates_every_system_of_the_colour_and_returns_orphaned_leaders() -> None:
    s = st(RED_WAR, leaders="0 red b1, 0 black c3, 1 red g1", hands=[{"black": 1}, {}], **GALAXY)
    s, events = play(s, "tile black d2")
    started = of_type(events, "conflict_started")[0]
    assert started["colour"] == "red" and (started["attacker"], started["defender"]) == (0, 1)
    assert (started["attacker_base"], started["defender_base"]) == (3, 3)
    s, events = play(s, "commit 0", "commit 0")  # a tie: seat 1 wins
    board = cells(s)
    # every temple of A goes: a1 with its artifact, b2, and b3 beside seat 0's king
    assert not any(c in board for c in ("a1", "b2", "b3"))
    assert board["c2"] == {"tile": "black"} and board["d2"] == {"tile": "black"}
    assert artifacts(s) == SPARES
    assert [e["cell"] for e in of_type(events, "treasure_lost")] == ["a1"]
    assert score(s, 1) == {**ZERO, "red": 4}  # three vacated systems + the leader
    assert score(s, 0) == ZERO
    # seat 0's king lost its only temple: returned after the war
    assert leaders_on_board(s) == {(1, "red", "g1")}
    withdrawn = {(e["seat"], e["colour"]) for e in of_type(events, "leader_withdrawn")}
    assert withdrawn == {(0, "red"), (0, "black")}
    assert pending(s) is None and to_act(s) == 0
    assert to_position(s)["turn"]["actions_left"] == 1


def test_the_orphan_check_after_each_war_can_cancel_the_next_war() -> None:
    # as above, with seat 1's king f3: red and black conflict. After the red war seat 0's king
    # c3 still touches the union tile through c2, but has no temple left.
    s = st(
        RED_WAR,
        leaders="0 red b1, 0 black c3, 1 red g1, 1 black f3",
        hands=[{"black": 1}, {}],
        **GALAXY,
    )
    s, _ = play(s, "tile black d2")
    assert legal(s) == {"war red", "war black"}
    s, events = play(s, "war red", "commit 0", "commit 0")  # seat 1 wins the red war
    # seat 0's king is returned at once: no black war is left
    assert leaders_on_board(s) == {(1, "red", "g1"), (1, "black", "f3")}
    assert [e["colour"] for e in of_type(events, "conflict_started")] == ["red"]
    assert score(s, 1) == {**ZERO, "red": 4}
    assert pending(s) is None and to_act(s) == 0


def test_a_lost_war_vacates_artifact_systems_of_any_colour() -> None:
    s = st(
        ". . . . . .\nr $ g . g r",
        leaders="0 green a1, 1 green f1",
        hands=[{"black": 1}, {"green": 1}],
        **GALAXY,
    )
    s, events = play(s, "tile black d2", "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    board = cells(s)
    assert "b2" not in board and "c2" not in board  # the artifact system b2 too
    assert [e["cell"] for e in of_type(events, "treasure_lost")] == ["b2"]
    assert artifacts(s) == SPARES
    assert score(s, 1)["green"] == 3  # two vacated + the leader


def test_the_union_system_is_not_vacated() -> None:
    # ruling: during a war the joining tile belongs to no kingdom (§4), so it is not in the
    # loser's "former region" even when it is of the war's colour.
    s = st(
        ". . . . . .\nr k k . k r\nr . . . . .",
        leaders="0 black a1, 1 black f1",
        hands=[{"black": 1}, {"black": 1}],
        **GALAXY,
    )
    s, _ = play(s, "tile black d2", "commit 0", "commit 1")  # 2 against 2: seat 1 wins
    board = cells(s)
    assert "b2" not in board and "c2" not in board
    assert board["d2"] == {"tile": "black"} and board["e2"] == {"tile": "black"}
    assert score(s, 1)["black"] == 3


def test_the_war_attacker_is_chosen_as_in_the_classic_game() -> None:
    # seat 2 unites the kingdoms of seats 1 and 0: the first involved seat clockwise from the
    # placer attacks (not the placer, as the seed's text would have it)
    s = st(
        ". . . . . .\nr k k . k r\nr . . . . .",
        players=3,
        turn=2,
        leaders="1 black a1, 0 black f1",
        hands=[{}, {}, {"black": 1}],
        **GALAXY,
    )
    s, events = play(s, "tile black d2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker"], started["defender"]) == (0, 1)
    assert to_act(s) == 0


# --- artifacts ----------------------------------------------------------------------------------


def test_no_artifact_is_taken_after_an_action() -> None:
    for trader in ("0 green a2", "1 green a2"):
        s = st("T . T\n. . .", leaders=trader, hands=[{"red": 1}, {}], **GALAXY)
        s, events = play(s, "tile red b1")  # the trader's region now holds a1 and c1
        assert of_type(events, "treasure_taken") == []
        assert pending(s) is None and to_act(s) == 0
        assert to_position(s)["turn"]["actions_left"] == 1
        assert artifacts(s) == {"a1", "c1"} | SPARES


HARVEST = "T r T\n. . ."


def test_the_harvest_comes_at_the_end_of_the_turn_after_the_refills() -> None:
    s = st(HARVEST, leaders="0 green a2", **GALAXY)
    s, _ = play(s, "pass")
    assert pending(s) is None
    s, _ = play(s, "pass")
    assert stage(s) == "harvest" and to_act(s) == 0
    assert hand(s, 0)["black"] == 6 and hand(s, 1)["black"] == 6  # both refilled first
    # a choice between the two, and compulsory
    assert legal(s) == {"treasure a1", "treasure c1"}
    assert_refused(s, "decline")
    assert_refused(s, "pass")
    s, events = play(s, "treasure c1")
    assert score(s, 0) == {**ZERO, "treasure": 1}
    assert cells(s)["c1"] == {"tile": "red"}
    taken = of_type(events, "treasure_taken")
    assert [(e["seat"], e["cell"]) for e in taken] == [(0, "c1")]
    assert to_act(s) == 1 and pending(s) is None


def test_the_harvest_takes_one_artifact_only() -> None:
    s = st("T r T r T\n. . . . .", leaders="0 green a2", **GALAXY)
    s, _ = play(s, "pass", "pass")
    assert legal(s) == {"treasure a1", "treasure c1", "treasure e1"}
    s, _ = play(s, "treasure e1")
    assert artifacts(s) == {"a1", "c1"} | SPARES  # two stay in the merchant's region
    assert score(s, 0)["treasure"] == 1
    assert to_act(s) == 1 and pending(s) is None


def test_no_harvest_for_another_players_merchant_leader() -> None:
    s = st(HARVEST, leaders="1 green a2", **GALAXY)
    s, _ = play(s, "pass", "pass")
    assert pending(s) is None and to_act(s) == 1
    assert score(s, 1) == ZERO
    # on seat 1's own turn, seat 1 harvests
    s, _ = play(s, "pass", "pass")
    assert stage(s) == "harvest" and to_act(s) == 1
    assert legal(s) == {"treasure a1", "treasure c1"}


def test_no_harvest_without_two_artifacts_in_the_merchants_region() -> None:
    # one artifact in the merchant's region (a1), another elsewhere (e1), two with the king b5
    s = st(
        """
        T r . . T
        . . . . .
        . . . . .
        T r T . .
        """,
        leaders="0 green a2, 0 black b5",
        **GALAXY,
    )
    s, _ = play(s, "pass", "pass")
    assert pending(s) is None and to_act(s) == 1
    assert score(s, 0) == ZERO


def test_special_artifacts_have_no_priority_in_the_harvest() -> None:
    # ruling: §11 says "one artifact of their choice"; the special treasures of §7 (C cells)
    # do not restrict the harvest.
    s = st("C r T\n. . .", leaders="0 green a2", **GALAXY)
    s, _ = play(s, "pass", "pass")
    assert legal(s) == {"treasure a1", "treasure c1"}


# --- the end of the game ------------------------------------------------------------------------


def test_the_artifact_end_is_checked_after_the_harvest() -> None:
    # three artifacts: a1, c1 and one spare. Without a harvest the game goes on...
    s = st(HARVEST, leaders="1 green a2", spare_treasures=1, **GALAXY)
    s, _ = play(s, "pass", "pass")
    assert to_position(s)["over"] is False and to_act(s) == 1
    # ...with one, two artifacts are left at the end of the turn: the game ends
    s = st(HARVEST, leaders="0 green a2", spare_treasures=1, **GALAXY)
    s, _ = play(s, "pass", "pass")
    assert stage(s) == "harvest" and to_position(s)["over"] is False
    s, _ = play(s, "treasure a1")
    pos = to_position(s)
    assert pos["over"] is True and pos["end"] == "treasures"
    assert score(s, 0)["treasure"] == 1


def test_artifacts_lost_to_a_weapon_ship_count_for_the_end() -> None:
    s = st("T . .\n. . .", spare_treasures=2, **GALAXY)
    s, _ = play(s, "catastrophe a1")  # two left: the end waits for the end of the turn
    assert to_position(s)["over"] is False and to_act(s) == 0
    s, _ = play(s, "pass")
    assert to_position(s)["end"] == "treasures"


def test_the_game_ends_at_once_when_the_pool_cannot_refill_a_fleet_and_nobody_harvests() -> None:
    s = st(
        HARVEST,
        leaders="0 green a2",
        hands=[{"black": 5}, {"black": 6}],
        bag=[],
        **GALAXY,
    )
    s, events = play(s, "pass", "pass")  # seat 0 must draw 1 from an empty bag
    pos = to_position(s)
    assert pos["over"] is True and pos["end"] == "bag"
    assert of_type(events, "treasure_taken") == [] and score(s, 0) == ZERO
    assert pending(s) is None and to_act(s) is None
