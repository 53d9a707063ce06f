"""``bench/red_evidence.py`` counts what greedy players do by the red tiles they hold: the
table behind ``RedEvidence.LIKELIHOOD`` and its check on held-out games."""

from __future__ import annotations

import math

from red_evidence import AFTER, check, count


def test_every_turn_action_is_counted_once_with_the_actors_red() -> None:
    table, after = count(1, 7)
    actions = sum(sum(row.values()) for row in table.values())
    assert actions > 100  # a whole four-player game
    assert sum(table[0].values()) > 0 and table[0]["red"] == 0  # no red tile without red
    for k in AFTER:
        kept = [n for n, _ in after[k]]
        prior = [q for _, q in after[k]]
        assert all(n >= 0 for n in kept)
        assert math.isclose(sum(prior), sum(kept))  # one prior distribution per event


def test_the_check_scores_posterior_and_prior_on_the_same_positions() -> None:
    out = check(1, 8)
    assert out["positions"] > 50
    keys = ("posterior", "prior", "reading")
    for key in [f"log_loss_{k}" for k in keys] + [f"abs_error_{k}" for k in keys]:
        assert math.isfinite(out[key]) and out[key] >= 0
