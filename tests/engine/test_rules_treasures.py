"""RULES.md §7 (treasures) and §13.3, §13.7."""

from __future__ import annotations

from diagram import assert_illegal, legal, of_type, pending, play, position, score, st
from tigris_euphrates import State, from_position, to_act, to_position


def treasures(s: State) -> set[str]:
    return {c for c, v in to_position(s)["cells"].items() if v.get("treasure")}


SPARES = {"l11", "n11", "p11"}


def test_another_players_trader_picks_and_two_ordinary_treasures_are_a_choice() -> None:
    s = st("T . T\n. . .", leaders="1 green a2", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b1")
    assert of_type(events, "points_scored") == []
    assert to_act(s) == 1
    assert pending(s) == {
        "stage": "treasure",
        "union": None,
        "treasure": {"seat": 1, "cells": ["a1", "c1"]},
    }
    assert legal(s) == {"treasure a1", "treasure c1"}
    assert_illegal(s, "pass", "wrong-decision", "treasure pick")
    assert_illegal(s, "treasure b1", "not-takeable", "choose one of a1, c1")
    s, events = play(s, "treasure c1")
    assert of_type(events, "treasure_taken") == [
        {"type": "treasure_taken", "seat": 1, "cell": "c1", "forced": False}
    ]
    assert score(s, 1)["treasure"] == 1 and score(s, 0)["treasure"] == 0
    assert treasures(s) == {"a1"} | SPARES
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1


def test_a_forced_pick_is_automatic_and_special_treasures_come_first() -> None:
    s = st("C . T\n. . .", leaders="1 green a2", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b1")
    assert of_type(events, "treasure_taken") == [
        {"type": "treasure_taken", "seat": 1, "cell": "a1", "forced": True}
    ]
    assert treasures(s) == {"c1"} | SPARES
    assert pending(s) is None and to_act(s) == 0


def test_all_treasures_but_one_are_taken() -> None:
    s = st("T . T T\n. . . .", leaders="1 green a2", hands=[{"red": 1}, {}])
    s, _ = play(s, "tile red b1")
    assert legal(s) == {"treasure a1", "treasure c1", "treasure d1"}
    s, _ = play(s, "treasure c1")
    assert to_act(s) == 1 and legal(s) == {"treasure a1", "treasure d1"}
    s, _ = play(s, "treasure a1")
    assert score(s, 1)["treasure"] == 2
    assert treasures(s) == {"d1"} | SPARES
    assert to_act(s) == 0 and to_position(s)["turn"]["actions_left"] == 1


def test_special_forced_then_a_choice_among_the_ordinary_ones() -> None:
    s = st("C . T T\n. . . .", leaders="1 green a2", hands=[{"red": 1}, {}])
    s, events = play(s, "tile red b1")
    assert of_type(events, "treasure_taken")[0]["cell"] == "a1"
    assert legal(s) == {"treasure c1", "treasure d1"}


def test_two_specials_are_a_choice_and_ordinary_ones_must_wait() -> None:
    s = st("C . C T\n. . . .", leaders="1 green a2", hands=[{"red": 1}, {}])
    s, _ = play(s, "tile red b1")
    assert legal(s) == {"treasure a1", "treasure c1"}
    assert_illegal(s, "treasure d1", "special-first", "special treasures")
    s, events = play(s, "treasure c1")
    taken = of_type(events, "treasure_taken")
    assert [(e["cell"], e["forced"]) for e in taken] == [("c1", False), ("a1", True)]
    assert treasures(s) == {"d1"} | SPARES and score(s, 1)["treasure"] == 2


def test_several_kingdoms_in_order_from_the_turn_player_clockwise() -> None:
    # Three kingdoms already holding two treasures each (as after a position was set up):
    # the rule runs after seat 1's action, seat 1's trader first, then seats 2 and 0.
    s = st(
        "T T . . T T . . T T\n. . . . . . . . . .",
        players=3,
        turn=1,
        leaders="0 green a2, 2 green e2, 1 green i2",
    )
    s, _ = play(s, "pass")
    assert to_act(s) == 1 and legal(s) == {"treasure i1", "treasure j1"}
    s, _ = play(s, "treasure j1")
    assert to_act(s) == 2 and legal(s) == {"treasure e1", "treasure f1"}
    s, _ = play(s, "treasure e1")
    assert to_act(s) == 0 and legal(s) == {"treasure a1", "treasure b1"}
    s, _ = play(s, "treasure b1")
    assert [score(s, i)["treasure"] for i in range(3)] == [1, 1, 1]
    assert to_act(s) == 1 and to_position(s)["turn"]["actions_left"] == 1


def test_treasures_on_face_down_tiles_count_and_can_be_taken() -> None:
    pos = position("R . T\n. . .", leaders="1 green c2", hands=[{"red": 1}, {}], spare_treasures=3)
    pos["cells"]["a1"]["treasure"] = True
    s = from_position(pos)
    s, _ = play(s, "tile red b1")
    assert legal(s) == {"treasure a1", "treasure c1"}
    s, _ = play(s, "treasure a1")
    assert score(s, 1)["treasure"] == 1


def test_the_treasure_rule_waits_for_the_monument_decision() -> None:
    s = st("T r .\nr . T\n. . .", leaders="1 green c3", hands=[{"red": 1}, {}])
    s, _ = play(s, "tile red b2")
    assert pending(s)["stage"] == "monument" and to_act(s) == 0  # type: ignore[index]
    s, _ = play(s, "monument red-blue a1")
    # a1 is face down now, its treasure still there and still takeable
    assert to_act(s) == 1 and legal(s) == {"treasure a1", "treasure c2"}


def test_the_treasure_rule_runs_after_the_wars_of_a_union() -> None:
    s = st(
        "T . T\n. . .",
        leaders="1 green a2, 0 black c2",
        hands=[{"black": 1}, {}],
    )
    # a2-a1 (seat 1's trader) and c1-c2 (seat 0's king): no war, then the trader picks
    s, _ = play(s, "tile black b1")
    assert to_act(s) == 1 and legal(s) == {"treasure a1", "treasure c1"}


def test_the_treasure_rule_runs_after_a_revolt_for_its_winner() -> None:
    # Seat 0's trader on c2 joins seat 1's kingdom (trader b1, treasure a1) and brings the
    # leaderless d1-d2 (treasure d1): a revolt first, then the winner's trader picks.
    s = st("T . . T\nr r . r", leaders="1 green b1", hands=[{"red": 1}, {}])
    s, events = play(s, "leader green c2")
    started = of_type(events, "conflict_started")[0]
    assert (started["attacker_base"], started["defender_base"]) == (2, 2)
    assert of_type(events, "treasure_taken") == [] and pending(s)["stage"] == "conflict"  # type: ignore[index]
    s, _ = play(s, "commit 1", "commit 0")  # 3 against 2
    assert to_act(s) == 0 and legal(s) == {"treasure a1", "treasure d1"}
