"""``bench/oracle.py`` shows a bot more than its view to measure what information is worth:
each kind of world must hold exactly the truth it claims to, and deal the rest again."""

from __future__ import annotations

import random
from collections import Counter

from oracle import _Hands, _Red, play
from tigris_euphrates.ai import make_bot
from tigris_euphrates.engine import State, apply, new_game, player_view, to_act


def _midgame() -> State:
    s = new_game({"players": 4}, 5)
    bots = [make_bot("greedy", p) for p in range(4)]
    while s.ply < 40:
        seat = to_act(s)
        assert seat is not None
        s, _ = apply(s, bots[seat].choose(player_view(s, seat)))
    return s


def _hidden(s: State, seat: int) -> Counter[int]:
    tiles: Counter[int] = Counter(s.bag[s.bag_pos :])
    for p in range(4):
        if p != seat:
            for c in range(4):
                tiles[c] += s.hands[p * 4 + c]
    return tiles


def test_red_worlds_keep_the_red_counts_and_deal_the_rest_again() -> None:
    s = _midgame()
    seat = 0
    rng = random.Random(1)
    changed = False
    for _ in range(20):
        w = _Red(s, seat).sample(rng)
        assert w.hands[:4] == s.hands[:4]  # its own hand
        for p in range(1, 4):
            assert w.hands[p * 4] == s.hands[p * 4]  # red: the truth
            assert sum(w.hands[p * 4 : p * 4 + 4]) == sum(s.hands[p * 4 : p * 4 + 4])
        assert _hidden(w, seat) == _hidden(s, seat)
        assert len(w.bag) - w.bag_pos == len(s.bag) - s.bag_pos
        changed |= w.hands != s.hands
    assert changed  # the other colours are dealt again


def test_hand_worlds_keep_the_hands_and_shuffle_the_bag() -> None:
    s = _midgame()
    w = _Hands(s, 0).sample(random.Random(2))
    assert w.hands == s.hands
    assert sorted(w.bag[w.bag_pos :]) == sorted(s.bag[s.bag_pos :])
    assert w.bag[w.bag_pos :] != s.bag[s.bag_pos :]


def test_a_game_shown_the_view_is_the_tournaments_game() -> None:
    """``--shown view`` plays the tournament's deal with its seats and bot seeds."""
    r = play("greedy:worlds=2", 3, 9, 1, 10, "view")
    assert r["seats"] == ["greedy", "greedy", "greedy:worlds=2"]
    assert r["seed"] == 9 * 1_000_003 + 1
    assert sorted(r["ranks"])[0] == 1


def test_guessed_worlds_come_from_the_view_not_the_state() -> None:
    """``--shown guess-red`` (a control) fixes each decision's red counts from one world the
    bot's own determinizer dealt from its view, and plays the deal through."""
    r = play("hard:iterations=8", 4, 9, 0, 8, "guess-red")
    assert len(r["seats"]) == 4 and sorted(r["ranks"])[0] == 1
