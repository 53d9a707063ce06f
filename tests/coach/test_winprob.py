"""The win probability: certain at the end of a game, a distribution over the seats, read
from what a seat may see only (the hidden tiles dealt again, the same probability), and the
same from the view with the scores the seat heard as from the true state."""

from __future__ import annotations

import random

import pytest

from tigris_euphrates import Options, State, apply, legal_actions, new_game, player_view
from tigris_euphrates.ai.determinize import Determinizer
from tigris_euphrates.coach import state_probabilities, view_probabilities, win_probability
from tigris_euphrates.coach.winprob import (
    FEATURES,
    final_shares,
    kind_of,
    load_model,
    reliability,
    weights_for,
)


def play(players: int, seed: int, plies: int | None = None) -> State:
    """A random game, to its end or for ``plies`` actions."""
    rng = random.Random(seed)
    s = new_game({"players": players}, seed)
    done = 0
    while not s.over and (plies is None or done < plies):
        s, _ = apply(s, rng.choice(legal_actions(s)))
        done += 1
    return s


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_a_finished_game_is_one_for_the_winner_and_zero_for_the_others(
    players: int, seed: int
) -> None:
    final = play(players, seed)
    assert final.over
    first = final_shares(final)
    ranking = player_view(final, None)["result"]["ranking"][0]
    winners = ranking if isinstance(ranking, list) else [ranking]
    assert first == [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]
    assert state_probabilities(final) == first
    for seat in range(players):
        assert win_probability(player_view(final, seat)) == first[seat]


@pytest.mark.parametrize("players,seed,plies", [(2, 5, 40), (2, 6, 120), (4, 7, 90)])
def test_probabilities_are_a_distribution_over_the_seats(
    players: int, seed: int, plies: int
) -> None:
    state = play(players, seed, plies)
    probs = state_probabilities(state)
    assert len(probs) == players and abs(sum(probs) - 1.0) < 1e-9
    assert all(0.0 < p < 1.0 for p in probs)


@pytest.mark.parametrize("players,seed,plies", [(2, 8, 60), (3, 9, 70), (4, 10, 80)])
def test_the_probability_never_depends_on_hidden_tiles(players: int, seed: int, plies: int) -> None:
    """The other hands, their swaps and the bag dealt again: the seat's view is the same,
    and so is its probability; with the scores it heard, it is the true state's."""
    state = play(players, seed, plies)
    rows = [list(state.score(p)) for p in range(players)]
    rng = random.Random(seed)
    for seat in range(players):
        view = player_view(state, seat)
        judged = win_probability(view, rows)
        assert judged == pytest.approx(state_probabilities(state)[seat], abs=1e-12)
        for _ in range(3):
            alt = Determinizer(view, rows).sample(rng)
            assert player_view(alt, seat) == view
            assert win_probability(player_view(alt, seat), rows) == judged
        assert view_probabilities(view, rows) == pytest.approx(state_probabilities(state))


def test_the_shipped_model_reads_these_features() -> None:
    model = load_model()
    assert model["features"] == list(FEATURES)
    assert {"2p", "3p", "4p"} <= set(model["models"])
    assert all(len(w) == len(FEATURES) for w in model["models"].values())


def test_each_kind_of_game_reads_its_own_weights_else_its_player_counts() -> None:
    n = len(FEATURES)
    model = {"models": {"2p": [1.0] * n, "2p/galaxy": [2.0] * n, "more": [3.0] * n}}
    assert weights_for(model, 2, "galaxy") == [2.0] * n
    assert weights_for(model, 2, "advanced") == [1.0] * n  # none of its own: its count's
    assert weights_for(model, 4) == [3.0] * n  # a model of the first format's groups
    galaxy = new_game(Options(players=2, ruleset="galaxy"), seed=1)
    advanced = new_game(Options(players=3, wonder=True), seed=1)
    assert (kind_of(galaxy), kind_of(advanced), kind_of(new_game(Options(), seed=1))) == (
        "galaxy",
        "advanced",
        "",
    )


def test_the_shipped_model_says_how_well_it_held_for_each_kind_of_game() -> None:
    for options in (Options(players=2), Options(players=3), Options(players=4, wonder=True)):
        measured = reliability(new_game(options, seed=1))
        assert measured is not None and measured["games"] > 0
        assert 0 <= measured["ece"] < 1 and 0 <= measured["worst_third"] < 1
    galaxy = reliability(new_game(Options(players=2, ruleset="galaxy"), seed=1))
    assert galaxy is not None and galaxy["group"] == "2p/galaxy"
    assert reliability(new_game(Options(), seed=1), {"models": {}}) is None
