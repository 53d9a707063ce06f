"""Hidden information: a view never depends on what its seat cannot see, and events are
redacted per seat."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from playout import check_views
from tigris_euphrates import (
    apply,
    legal_actions,
    new_game,
    player_view,
    redact_event,
    shared_view,
)
from tigris_euphrates.engine import TilesDrawn, TilesSwapped
from tigris_euphrates.engine.state import State


def states_of_a_game(
    seed: int, players: int, open_scoring: bool = False, **variants: Any
) -> list[State]:
    rng = random.Random(seed)
    state = new_game({"players": players, "open_scoring": open_scoring, **variants}, seed)
    out = [state]
    while not state.over:
        state, _ = apply(state, rng.choice(legal_actions(state)))
        out.append(state)
    return out


VARIANTS: list[dict[str, Any]] = [
    {},
    {"wonder": True, "buildings": True},
    {"ruleset": "galaxy"},
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_view_independent_of_hidden_tiles(seed: int, players: int, variant: int) -> None:
    """Also with the wonder, the buildings and in the galaxy: their pieces and decisions are
    public, and nothing of them depends on the hidden tiles. Uniformly random play (swaps
    included) every five steps; the playout checker (``play_random_game``) does the same at
    a few states of every game over every option set."""
    rng = random.Random(seed)
    for state in states_of_a_game(seed, players, **VARIANTS[variant])[::5]:
        if not state.over:
            check_views(state, rng)


def test_view_shows_own_hand_only_and_hides_scores() -> None:
    state = states_of_a_game(4, 3)[40]
    view = player_view(state, 1)
    text = json.dumps(view)
    assert "bag" not in {k for k in view if k != "bag_size"}
    for p in view["players"]:
        assert ("hand" in p) == (p["seat"] == 1)
        assert ("score" in p) == (p["seat"] == 1)
        assert "hand_size" in p
    assert view["legal_actions"] == [] or view["to_act"] == 1
    assert '"bag"' not in text


def test_open_scoring_shows_every_score() -> None:
    state = states_of_a_game(4, 3, open_scoring=True)[40]
    view = player_view(state, 1)
    assert all("score" in p for p in view["players"])
    assert sum("hand" in p for p in view["players"]) == 1


def test_everything_revealed_at_the_end() -> None:
    final = states_of_a_game(5, 2)[-1]
    view = player_view(final, 0)
    assert all("hand" in p and "score" in p for p in view["players"])
    assert view["result"]["end"] in ("treasures", "bag")


def test_events_redacted_for_other_seats() -> None:
    rng = random.Random(2)
    state = new_game({"players": 3}, 2)
    seen_draw = seen_swap = False
    while not state.over:
        legal = legal_actions(state)
        swaps = [a for a in legal if a.kind == "swap"]
        a = rng.choice(swaps) if swaps and rng.random() < 0.2 else rng.choice(legal)
        state, events = apply(state, a)
        for e in events:
            for seat in range(3):
                r = redact_event(e, seat)
                if isinstance(e, TilesDrawn | TilesSwapped):
                    seen_draw |= isinstance(e, TilesDrawn)
                    seen_swap |= isinstance(e, TilesSwapped)
                    assert ("tiles" in r) == (e.seat == seat)
                    assert r["count"] == e.count
                else:
                    assert r == e.to_dict()
    assert seen_draw and seen_swap


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_views_from_one_shared_part_are_each_seats_view(variant: int) -> None:
    """A seat's view built from ``shared_view`` (what the server builds once per step for
    every seat) is that seat's own view, key for key and in the same order, at every state
    of a game up to its end; the shared part holds no hand, score row or legal action."""
    for state in states_of_a_game(4, 3, **VARIANTS[variant]):
        shared = shared_view(state)
        assert not {"players", "unseen", "legal_actions", "seat"} & shared.keys()
        for seat in (None, 0, 1, 2):
            alone = player_view(state, seat)
            both = player_view(state, seat, shared)
            assert json.dumps(both) == json.dumps(alone)
