"""What a player at the table learns of the other hands from their conflicts (``HandBounds``),
and worlds dealt within it: bounds that hold on the real hands (a defender may decline a
defence it could win, so mostly, not always), read from public events only, and respected
by the determinizer."""

from __future__ import annotations

import random
from math import comb
from typing import Any

import pytest

from tigris_euphrates.ai import make_bot
from tigris_euphrates.ai.determinize import Determinizer, HandBounds, RedRestraint
from tigris_euphrates.ai.red_evidence import RedEvidence
from tigris_euphrates.engine import State, apply, new_game, player_view, redact_event, to_act
from tigris_euphrates.engine.board import RED


def _events(kind: str, /, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


def _lost_revolt_defence() -> list[dict[str, Any]]:
    """Seat 1 defends a revolt on base 1 against 2 + 3 and commits 1 red tile: it loses, so
    it held at most 3 red (4 would have tied, and ties go to the defender)."""
    return [
        _events(
            "conflict_started",
            kind="revolt",
            colour="blue",
            support="red",
            attacker=0,
            defender=1,
            attacker_base=2,
            defender_base=1,
        ),
        _events("support_committed", seat=0, role="attacker", colour="red", count=3),
        _events("support_committed", seat=1, role="defender", colour="red", count=1),
        _events(
            "conflict_resolved",
            kind="revolt",
            colour="blue",
            winner=0,
            loser=1,
            attacker_total=5,
            defender_total=2,
        ),
    ]


def test_a_lost_defence_bounds_what_the_defender_kept() -> None:
    hb = HandBounds()
    hb.observe(_lost_revolt_defence())
    # needed 5 - 1 = 4, had at most 3 before committing 1: at most 2 red left
    assert hb.bounds == {1: [2, 99, 99, 99]}
    hb.observe([_events("tile_placed", seat=1, colour="red", cell="a1")])
    assert hb.bounds[1][RED] == 1
    hb.observe([_events("tiles_drawn", seat=1, count=2)])  # two unseen tiles: maybe red
    assert hb.bounds[1][RED] == 3
    hb.observe([_events("tiles_drawn", seat=1, count=3)])  # could be a whole hand of red
    assert hb.bounds == {}


def test_a_won_defence_or_a_lost_attack_says_nothing() -> None:
    hb = HandBounds()
    events = _lost_revolt_defence()
    events[-1] = {**events[-1], "winner": 1, "loser": 0}
    hb.observe(events)
    assert hb.bounds == {}


def _greedy_game(players: int, seed: int):  # type: ignore[no-untyped-def]
    """Greedy players (rational defenders) with one observer's bounds checked at every ply
    against the true hands; yields (state, bounds) along the way."""
    s = new_game({"players": players}, seed)
    bots = [make_bot("greedy", seed * 10 + p) for p in range(players)]
    seen = HandBounds()
    full = HandBounds()
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        seen.observe([redact_event(e, 0) for e in events])
        full.observe(events)
        yield s, seen.bounds, full.bounds


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 5)])
def test_bounds_mostly_hold_on_the_true_hands_and_need_only_public_events(
    players: int, seed: int
) -> None:
    """A defender may decline a defence it could win (greedy does, when the leader is worth
    less than the tiles), so a bound is a belief, not a fact: it holds on the true hand at
    nine plies in ten or more (and the determinizer trusts it in nine worlds in ten)."""
    binding = held = 0
    for s, bounds, full in _greedy_game(players, seed):
        # what seat 0 heard (others' draws as counts only) says exactly what everything says
        assert bounds == full
        for p, row in bounds.items():
            for c in range(4):
                if row[c] < sum(s.hands[p * 4 : p * 4 + 4]):
                    binding += 1
                    held += s.hands[p * 4 + c] <= row[c]
    assert binding > 0  # the games did produce bounds that narrow the deals
    assert held >= 0.9 * binding, (held, binding)


def _position_after(plies: int, players: int, seed: int) -> State:
    s = new_game({"players": players}, seed)
    bots = [make_bot("random", seed * 10 + p) for p in range(players)]
    while s.ply < plies:
        seat = to_act(s)
        assert seat is not None
        s, _ = apply(s, bots[seat].choose(player_view(s, seat)))
    return s


def _view_after(plies: int, players: int, seed: int) -> tuple[int, dict[str, Any], int]:
    """The seat to act after ``plies`` random plies, its view, and the next seat."""
    s = _position_after(plies, players, seed)
    seat = to_act(s)
    assert seat is not None
    return seat, player_view(s, seat), (seat + 1) % players


def test_worlds_respect_the_bounds_and_still_match_the_view() -> None:
    seat, view, other = _view_after(20, 3, 8)
    det = Determinizer(view, bounds={other: [0, 99, 1, 99]}, trust=1.0)
    rng = random.Random(1)
    plain = Determinizer(view)
    reds = 0
    for _ in range(40):
        w = det.sample(rng)
        assert w.hands[other * 4 + RED] == 0
        assert w.hands[other * 4 + 2] <= 1
        assert player_view(w, seat)["unseen"] == view["unseen"]
        assert sum(w.hands[other * 4 : other * 4 + 4]) == view["players"][other]["hand_size"]
        reds += plain.sample(rng).hands[other * 4 + RED]
    assert reds > 0  # without the bound red is dealt to that hand


def test_bounds_that_cannot_be_met_give_a_uniform_world() -> None:
    seat, view, other = _view_after(20, 2, 9)
    det = Determinizer(view, bounds={other: [0, 0, 0, 0]}, trust=1.0)
    w = det.sample(random.Random(2))
    assert sum(w.hands[other * 4 : other * 4 + 4]) == view["players"][other]["hand_size"]
    assert player_view(w, seat)["unseen"] == view["unseen"]


# --- what turn actions without a red tile say (RedRestraint) ----------------------------------


def test_red_less_turn_actions_are_counted_per_group_of_tiles_held() -> None:
    red = RedRestraint()
    red.observe([_events("tile_placed", seat=1, colour="blue", cell="a1")])
    red.observe([_events("leader_placed", seat=1, colour="black", cell="b2", origin=None)])
    red.observe([_events("tiles_drawn", seat=1, count=1)])  # redacted: no colours
    red.observe([_events("catastrophe_placed", seat=1, cell="c3", removed=None)])
    # five tiles held through three red-less actions, the one drawn since through one
    assert red.groups[1] == [[5, 3], [1, 1]]
    red.observe([_events("tile_placed", seat=1, colour="red", cell="d4")])
    assert red.groups[1] == [[5, 0]]  # it held red: what it kept is unknown again
    red.observe([_events("tiles_swapped", seat=2, count=2)])
    assert red.groups[2] == [[4, 0]]


def test_a_seat_that_plays_no_red_is_dealt_less_red_and_the_worlds_match_the_view() -> None:
    seat, view, other = _view_after(20, 4, 8)
    size = view["players"][other]["hand_size"]
    held = {other: [[size, 6]]}  # the whole hand held through six red-less actions
    det = Determinizer(view, restraint=held, keep_red=0.6)
    plain = Determinizer(view, restraint=held)  # keep_red 1: uniform
    rng = random.Random(3)
    restrained = uniform = 0
    for _ in range(300):
        w = det.sample(rng)
        assert player_view(w, seat)["unseen"] == view["unseen"]
        assert sum(w.hands[other * 4 : other * 4 + 4]) == size
        restrained += w.hands[other * 4 + RED]
        uniform += plain.sample(rng).hands[other * 4 + RED]
    assert restrained < 0.8 * uniform  # (a few tries a world: the last draw is kept)


def _observe_greedy(
    redacted: Any, full: Any, players: int, seed: int, bots_seed: int, plies: int
) -> State:
    """Greedy play for ``plies`` plies; ``redacted`` hears seat 0's events, ``full`` all."""
    s = new_game({"players": players}, seed)
    bots = [make_bot("greedy", bots_seed + p) for p in range(players)]
    while s.ply < plies and not s.over:
        seat = to_act(s)
        assert seat is not None
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        redacted.observe([redact_event(e, 0) for e in events])
        full.observe(events)
    return s


def test_red_evidence_comes_from_public_events_only() -> None:
    """Tracked from the events a seat receives (redacted, as a server sends them), the
    groups are the same as from the full events: the colours the others drew or swapped
    never enter them."""
    redacted, full = RedRestraint(), RedRestraint()
    s = _observe_greedy(redacted, full, 3, 12, 20, 60)
    assert redacted.groups == full.groups
    assert any(n > 0 for g in redacted.groups.values() for _, n in g)
    assert redacted.sizes[1] == sum(s.hands[4:8]) and redacted.sizes[2] == sum(s.hands[8:12])


# --- what the kind of each turn action says (RedEvidence) ------------------------------------


def test_turn_actions_are_filed_with_the_tiles_held_then() -> None:
    ev = RedEvidence()
    ev.observe([_events("tile_placed", seat=1, colour="blue", cell="a1")])
    ev.observe([_events("tiles_drawn", seat=1, count=1)])  # redacted: no colours
    ev.observe([_events("leader_placed", seat=1, colour="black", cell="b2", origin=None)])
    # the first tile came off the oldest group; the leader was placed with the new tile held
    assert ev.groups[1] == [(5, ["tile"]), (1, ["leader"])]
    ev.observe(
        [
            _events("leader_placed", seat=1, colour="red", cell="c3", origin=None),
            _events(
                "conflict_started",
                kind="revolt",
                colour="red",
                support="red",
                attacker=1,
                defender=0,
                attacker_base=1,
                defender_base=0,
            ),
        ]
    )
    assert ev.groups[1][-1] == (1, ["leader", "revolt"])  # that leader started a revolt
    ev.observe([_events("support_committed", seat=1, role="attacker", colour="red", count=2)])
    # it held red and spent it: what it kept is filed anew, as kept after spending red
    assert ev.groups[1] == [(4, ["after_red_support"])]
    ev.observe([_events("tile_placed", seat=1, colour="red", cell="d4")])
    assert ev.groups[1] == [(3, ["after_red_tile"])]


def test_the_posterior_follows_the_kinds_of_action() -> None:
    """With the pool a third red, a hand held through three plain tile placements most
    likely holds no red; one that started a revolt (backed by none: the revolt is taken
    back) says nothing; with no events the posterior is the hypergeometric prior."""
    ev = RedEvidence()
    prior = ev.posterior(1, 6, 30, 90)
    assert abs(sum(prior) - 1) < 1e-9
    assert abs(prior[0] - comb(60, 6) / comb(90, 6)) < 1e-9
    for cell in ("a1", "a2", "a3"):
        ev.observe([_events("tile_placed", seat=1, colour="black", cell=cell)])
    ev.observe([_events("tiles_drawn", seat=1, count=3)])
    post = ev.posterior(1, 6, 30, 90)
    mean = sum(r * p for r, p in enumerate(post))
    assert post[0] > 2 * prior[0] and mean < sum(r * p for r, p in enumerate(prior)) - 0.5
    assert ev.posterior(2, 6, 30, 90) == prior  # another seat: nothing seen


def test_red_odds_deal_each_seat_its_red_count_and_the_worlds_match_the_view() -> None:
    seat, view, other = _view_after(20, 4, 8)
    size = view["players"][other]["hand_size"]
    odds = [0.0] * (size + 1)
    odds[0] = 0.5
    odds[2] = 0.5
    det = Determinizer(view, red_odds={other: odds})
    rng = random.Random(4)
    seen = set()
    for _ in range(100):
        w = det.sample(rng)
        assert player_view(w, seat)["unseen"] == view["unseen"]
        assert sum(w.hands[other * 4 : other * 4 + 4]) == size
        seen.add(w.hands[other * 4 + RED])
    assert seen == {0, 2}


def test_hand_weights_deal_less_of_a_colour_and_the_worlds_match_the_view() -> None:
    seat, view, other = _view_after(20, 4, 8)
    weighted = Determinizer(view, hand_weights=(0.3, 1.2, 1.2, 1.2))
    plain = Determinizer(view)
    rng = random.Random(5)
    reds = [0, 0]
    for _ in range(300):
        for i, det in enumerate((weighted, plain)):
            w = det.sample(rng)
            assert player_view(w, seat)["unseen"] == view["unseen"]
            for p, entry in enumerate(view["players"]):
                if p != seat:
                    assert sum(w.hands[p * 4 : p * 4 + 4]) == entry["hand_size"]
            reds[i] += w.hands[other * 4 + RED]
    assert reds[0] < 0.6 * reds[1]


def test_red_evidence_is_read_from_public_events_only() -> None:
    redacted, full = RedEvidence(), RedEvidence()
    _observe_greedy(redacted, full, 4, 13, 30, 80)
    assert redacted.groups == full.groups
    assert any(kinds for g in redacted.groups.values() for _, kinds in g)
