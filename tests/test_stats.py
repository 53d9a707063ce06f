"""Game statistics (``tigris_euphrates.stats``): counted from the events, they agree with the
engine's own score rows on real played games and name each point's source in small
diagram positions."""

from __future__ import annotations

from typing import Any

import pytest

from diagram import play, st
from tigris_euphrates import State, apply, new_game, redact_event
from tigris_euphrates.ai import make_bot
from tigris_euphrates.engine import DEFAULT_RULESET, RULESETS
from tigris_euphrates.stats import SOURCES, game_stats, record_stats
from tigris_euphrates.tournament.referee import play_game

BLACK_WAR = """
    . . . . . .
    r k k . k r
    r . . . . .
"""


def steps(s: State, *actions: str) -> tuple[State, list[list[dict[str, Any]]]]:
    """Apply ``actions`` one by one: the final state and each step's events (wire form)."""
    out = []
    for action in actions:
        s, events = apply(s, action)
        out.append([e.to_dict() for e in events])
    return s, out


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 2}, 3),
        ({"players": 3, "wonder": True}, 5),
        ({"players": 4, "buildings": True}, 7),
        ({"players": 2, "ruleset": "galaxy"}, 11),
    ],
)
def test_a_played_game_adds_up_to_its_final_score_rows(options: dict[str, Any], seed: int) -> None:
    n = options["players"]
    outcome = play_game([make_bot("easy", seed + p) for p in range(n)], options, seed=seed)
    stats = record_stats(outcome.record())
    final = outcome.final
    assert final is not None and stats["over"] and stats["end"] == final.end
    assert stats["steps"] == len(outcome.actions) and stats["turns"] == outcome.turns
    colours = ("red", "blue", "green", "black")
    for seat, row in enumerate(stats["seats"]):
        scores = final.scores[seat * 5 : seat * 5 + 5]
        assert [row["colours"][c] for c in colours] == list(scores[:4])
        assert row["treasures"] == scores[4]
        assert row["points"]["treasure"] + row["points"]["harvest"] == scores[4]
        assert row["total"] == sum(scores) == sum(row["points"].values())
        assert set(row["points"]) == set(SOURCES)
        assert row["score"] == outcome.result["scores"][seat]
        assert row["catastrophes"] == 2 - final.cats[seat]
    # every conflict has one winner and one loser
    for kind in ("revolts", "wars"):
        won = sum(r[kind]["won"] for r in stats["seats"])
        assert won == sum(r[kind]["lost"] for r in stats["seats"]) == stats[kind]
    top = outcome.result["ranking"][0]
    assert stats["winners"] == (top if isinstance(top, list) else [top])
    if RULESETS[options.get("ruleset") or DEFAULT_RULESET].harvest_treasures:
        assert all(r["points"]["treasure"] == 0 for r in stats["seats"])
    else:
        assert all(r["points"]["harvest"] == 0 for r in stats["seats"])


def test_the_events_as_any_seat_saw_them_give_the_same_figures() -> None:
    """Only public fields are read: a seat's redacted events count the same."""
    outcome = play_game([make_bot("random", 1), make_bot("random", 2)], {"players": 2}, seed=9)
    s = new_game({"players": 2}, 9)
    full, seen = [], []
    for action in outcome.actions:
        s, events = apply(s, action)
        full.append(events)
        seen.append([redact_event(e, None) for e in events])
    assert game_stats(2, full) == game_stats(2, seen)
    stats = game_stats(2, full)
    swaps = sum(1 for a in outcome.actions if a.startswith("swap"))
    assert sum(r["swaps"] for r in stats["seats"]) == swaps


def test_a_war_counts_for_both_sides_with_its_points_as_war_points() -> None:
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 3}, {"black": 1}])
    s, log = steps(s, "tile black d2", "commit 2", "commit 1")
    stats = game_stats(2, log)
    attacker, defender = stats["seats"]
    assert stats["wars"] == 1 and stats["revolts"] == 0
    assert attacker["wars"] == {"won": 1, "lost": 0, "attacked": 1, "defended": 0}
    assert defender["wars"] == {"won": 0, "lost": 1, "attacked": 0, "defended": 1}
    # the loser's leader and its one black tile: 2 black points for the war
    assert attacker["points"]["war"] == 2 and attacker["colours"]["black"] == 2
    assert attacker["support"] == 2 and defender["support"] == 1
    assert defender["leaders_lost"]["war"] == 1
    assert attacker["tiles_placed"] == 1
    assert not stats["over"] and stats["winners"] == []


def test_a_revolt_and_a_catastrophe() -> None:
    s = st(
        "r r r\n. . .\n. . k",
        leaders="0 red a2",
        hands=[{"red": 2}, {"red": 1}],
    )
    s, log = steps(s, "leader red b2")
    _, more = steps(s, "catastrophe c3")
    stats = game_stats(2, log + more)
    assert stats["seats"][0]["leaders_moved"] == 1
    assert stats["seats"][0]["catastrophes"] == 1
    assert stats["seats"][1]["catastrophes"] == 0


def test_a_revolt_is_won_and_lost() -> None:
    s = st("r r r\n. . .", leaders="0 black a2", hands=[{"red": 2}, {"red": 0}])
    s, log = steps(s, "pass", "pass")
    s, more = steps(s, "leader black c2")
    s, most = steps(s, "commit 0", "commit 0")
    stats = game_stats(2, log + more + most)
    assert stats["revolts"] == 1
    winner = stats["seats"][0]
    loser = stats["seats"][1]
    assert winner["revolts"]["defended"] == 1 and winner["revolts"]["won"] == 1
    assert loser["revolts"] == {"won": 0, "lost": 1, "attacked": 1, "defended": 0}
    assert winner["points"]["revolt"] == 1 and winner["colours"]["red"] == 1
    assert winner["passes"] == 2 and stats["turns"] == 2
    assert stats["seats"][1]["turns"] == 1


def test_monument_points_and_a_galaxy_harvest() -> None:
    s = st(
        "R R . .\nR R . .",
        leaders="0 black c2",
        monuments={"red-black": "a1"},
    )
    s, log = steps(s, "pass", "pass")
    stats = game_stats(2, log)
    assert stats["seats"][0]["points"]["monument"] == 1
    assert stats["seats"][0]["colours"]["black"] == 1
    g = st("T r T\n. . .", leaders="0 green a2", ruleset="galaxy")
    g, glog = steps(g, "pass", "pass", "treasure c1")
    gstats = game_stats(2, glog)
    assert gstats["seats"][0]["points"]["harvest"] == 1
    assert gstats["seats"][0]["points"]["treasure"] == 0
    assert gstats["seats"][0]["treasures"] == 1


def test_a_treasure_taken_by_the_treasure_rule_is_a_treasure_point() -> None:
    # a green tile joins the trader's kingdom to a second treasure: one must go
    s = st("T g . T\n. . . .", leaders="0 green b2", hands=[{"green": 1}, {}])
    s, log = steps(s, "tile green c1", "treasure a1")
    stats = game_stats(2, log)
    assert stats["seats"][0]["points"]["treasure"] == 1
    assert stats["seats"][0]["points"]["harvest"] == 0


def test_play_helper_events_are_accepted() -> None:
    """The wire form the diagram helper returns (one flat list) counts as one step."""
    s = st(BLACK_WAR, leaders="0 black a1, 1 black f1", hands=[{"black": 3}, {"black": 1}])
    _, events = play(s, "tile black d2", "commit 2", "commit 1")
    assert game_stats(2, [events])["seats"][0]["wars"]["won"] == 1
