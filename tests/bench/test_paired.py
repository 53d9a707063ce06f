"""``bench/paired.py``: comparing two tournaments deal by deal, the measure that can tell two
versions of a bot apart when a plain win rate cannot."""

from __future__ import annotations

from typing import Any

import pytest

from paired import compare, follow, pooled, sign_test


def _run(bot: str, games: list[tuple[list[int], list[int]]]) -> dict[str, Any]:
    """A tournament summary with the followed bot in seat 0 of each game."""
    results = [
        {
            "index": i,
            "seed": 1000 + i,
            "seats": [bot, "greedy", "greedy", "greedy"],
            "scores": scores,
            "ranks": ranks,
        }
        for i, (scores, ranks) in enumerate(games)
    ]
    return {"seed": 7, "players": 4, "bots": [bot, "greedy"], "results": results}


def test_a_shared_first_place_is_a_fraction_and_the_margin_is_over_the_best_other() -> None:
    r = {"seats": ["hard", "greedy", "greedy"], "scores": [6, 6, 4], "ranks": [1, 1, 3]}
    assert follow(r, "hard") == (0.5, 0)
    r = {"seats": ["greedy", "hard", "greedy"], "scores": [7, 5, 6], "ranks": [1, 3, 2]}
    assert follow(r, "hard") == (0.0, -2)


def test_deals_won_by_one_version_only_are_counted() -> None:
    a = _run("hard:x=1", [([7, 5, 4, 3], [1, 2, 3, 4]), ([5, 6, 4, 3], [2, 1, 3, 4])] * 3)
    b = _run("hard", [([5, 6, 4, 3], [2, 1, 3, 4]), ([5, 6, 4, 3], [2, 1, 3, 4])] * 3)
    out = compare(a, b, "hard:x=1", "hard")
    assert out["games"] == 6
    assert (out["wins_a"], out["wins_b"]) == (3.0, 0.0)
    assert (out["only_a"], out["only_b"]) == (3, 0)
    assert out["margin_diff"] == pytest.approx(1.5)  # +2 on half the deals, 0 on the rest
    assert out["same_margin"] == 3


def test_runs_on_different_deals_are_refused() -> None:
    a = _run("hard", [([7, 5, 4, 3], [1, 2, 3, 4])])
    b = dict(a, seed=8)
    with pytest.raises(SystemExit, match="deals"):
        compare(a, b, "hard", "hard")


def test_the_sign_test_is_two_sided_and_exact() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(3, 3) == 1.0
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(0, 5) == sign_test(5, 0)


def test_several_pairs_of_runs_are_pooled() -> None:
    a = _run("hard:x=1", [([7, 5, 4, 3], [1, 2, 3, 4]), ([5, 6, 4, 3], [2, 1, 3, 4])])
    b = _run("hard", [([5, 6, 4, 3], [2, 1, 3, 4]), ([5, 6, 4, 3], [2, 1, 3, 4])])
    one = compare(a, b, "hard:x=1", "hard")
    other = compare(b, a, "hard", "hard:x=1")
    both = pooled([one, other])
    assert both["games"] == 4
    assert (both["only_a"], both["only_b"]) == (1, 1)
    assert both["margin_diff"] == pytest.approx(0.0)
    assert both["sign_p"] == 1.0
