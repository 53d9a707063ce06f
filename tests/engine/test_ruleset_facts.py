"""A ruleset is its facts: every registered ruleset rebuilt from ``Ruleset.facts`` (what the
page is told) answers every hook as the registered one does, so a ruleset's facts and its
play cannot disagree (RULES.md §11 for the galaxy's)."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from tigris_euphrates import State, apply, legal_actions, new_game
from tigris_euphrates.engine import RULESETS, Ruleset
from tigris_euphrates.engine.words import cells_of, inter, to_words

#: The hooks ``legal`` and ``play`` ask a ruleset, each checked below.
HOOKS = {
    "leader_blocked",
    "catastrophe_targets",
    "war_losses",
    "war_orphans",
    "building_offer",
    "monument_offer",
    "treasure_pick",
    "wonder_point",
    "monument_points",
    "harvest",
    "game_end",
}


def _states(name: str, seed: int, every: int = 3) -> list[State]:
    """States of a random game of ruleset ``name`` (two players), one every few steps."""
    rng = random.Random(seed)
    s = new_game({"players": 2, "ruleset": name}, seed)
    out = []
    for step in range(600):
        if s.over:
            break
        if step % every == 0:
            out.append(s)
        s, _ = apply(s, rng.choice(legal_actions(s)))
    return out


def _answers(rules: Ruleset, s: State) -> dict[str, list[Any]]:
    """What every hook says of state ``s``, asked about its tiles, leaders and kingdoms."""
    occupied = s.occupied()
    out: dict[str, list[Any]] = {
        "leader_blocked": [
            rules.leader_blocked(occupied, inter(occupied, to_words(0x5555_5555)), s.lmask)
        ],
        "catastrophe_targets": [rules.catastrophe_targets(s)],
        "war_orphans": [rules.war_orphans(s)],
        "treasure_pick": [rules.treasure_pick(s)],
        "wonder_point": [rules.wonder_point(s)],
        "monument_points": [rules.monument_points(s)],
        "harvest": [rules.harvest(s)],
        "game_end": [rules.game_end(s)],
        "building_offer": [],
        "monument_offer": [],
        "war_losses": [],
    }
    for colour in range(4):
        for cell in cells_of(s.tiles[colour])[:4]:
            out["building_offer"].append(rules.building_offer(s, cell, colour))
            out["monument_offer"].append(rules.monument_offer(s, cell, colour))
        for loser in cells_of(s.lmask)[:2]:
            out["war_losses"].append(rules.war_losses(s, colour, occupied, loser))
    return out


def test_the_hooks_checked_are_every_hook() -> None:
    """A new hook of ``Ruleset`` is added to ``HOOKS`` and to what this test asks."""
    public = {n for n, _ in inspect.getmembers(Ruleset, callable) if not n.startswith("_")}
    methods = public - {"facts"}
    assert methods == HOOKS


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_ruleset_rebuilt_from_its_facts_answers_every_hook_alike(name: str) -> None:
    rules = RULESETS[name]
    # no ruleset overrides a hook: what differs is declared as a fact
    assert type(rules) is Ruleset
    facts = rules.facts()
    rebuilt = Ruleset(**facts)  # type: ignore[arg-type]
    assert rebuilt.facts() == facts
    assert (rebuilt.needs_regions, rebuilt.blocked_code, rebuilt.blocked_words) == (
        rules.needs_regions,
        rules.blocked_code,
        rules.blocked_words,
    )
    states = _states(name, seed=11)
    assert len(states) > 20
    for s in states:
        assert s.options.rules is rules
        assert _answers(rebuilt, s) == _answers(rules, s)


@pytest.mark.parametrize(
    "fact, hooks",
    [
        ("total_war", {"war_losses", "war_orphans"}),
        ("harvest_treasures", {"treasure_pick", "harvest"}),
        ("catastrophes_anywhere", {"catastrophe_targets"}),
        ("leaders_link_regions", {"leader_blocked"}),
    ],
)
def test_each_rule_fact_is_the_switch_of_its_hooks(fact: str, hooks: set[str]) -> None:
    """Turning one fact of the classic game on changes what its hooks answer on some state
    of a galaxy game (where the fact's rule is met), and what no other hook answers."""
    classic = Ruleset()
    switched = Ruleset(**{fact: True})  # type: ignore[arg-type]
    changed: set[str] = set()
    for s in _states("galaxy", seed=5, every=2):
        a, b = _answers(classic, s), _answers(switched, s)
        changed |= {n for n in HOOKS if a[n] != b[n]}
    # (a leader left without a temple returns at once: no state of a game shows one, so
    # ``war_orphans`` may answer alike on all of them)
    assert changed and changed <= hooks
