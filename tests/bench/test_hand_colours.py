"""``bench/hand_colours.py``, which measures the colour weights ``hand_weights`` deals with:
its uniform reference must be the deal a searching bot would make, and what it reports as
held must be the true hand."""

from __future__ import annotations

import pytest

from hand_colours import held_and_uniform, play
from tigris_euphrates.engine import new_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_uniform_reference_is_the_hand_dealt_from_what_the_next_seat_cannot_see(
    players: int,
) -> None:
    s = new_game({"players": players}, 5)
    for seat in range(players):
        hand, uniform = held_and_uniform(s, seat)
        assert hand == s.hands[seat * 4 : seat * 4 + 4]
        assert sum(uniform) == pytest.approx(sum(hand))
        observer = (seat + 1) % players
        pool = [
            sum(1 for t in s.bag[s.bag_pos :] if t == c)
            + sum(s.hands[p * 4 + c] for p in range(players) if p != observer)
            for c in range(4)
        ]
        for c in range(4):
            assert uniform[c] == pytest.approx(sum(hand) * pool[c] / sum(pool))


def test_a_game_records_every_seat_at_every_turn_action() -> None:
    rows = play({"index": 1, "seed": 3, "bots": ["greedy", "greedy"]})
    assert rows and len(rows) % 2 == 0
    assert all(sum(h) <= 6 and sum(u) == pytest.approx(sum(h)) for h, u in rows)
