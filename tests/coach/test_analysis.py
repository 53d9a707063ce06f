"""The post-game analysis: reproducible (the same record and budget, the same JSON), a
curve for every position ending on the result, every decision with a choice judged with a
suggestion where it lost, marks by the thresholds, and an unfinished game refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tigris_euphrates import (
    InvalidAction,
    apply,
    apply_unchecked,
    legal_actions,
    make_record,
    new_game,
    player_view,
    replay,
    to_act,
    to_position,
)
from tigris_euphrates.ai import make_bot
from tigris_euphrates.ai.evaluate import settle
from tigris_euphrates.cli import app
from tigris_euphrates.coach.analysis import (
    THRESHOLDS,
    AnalysisBudget,
    accuracy,
    analyse,
    judge,
    mark,
)
from tigris_euphrates.coach.winprob import final_shares, state_probabilities

#: The reasons a mark may give (docs/formats.md).
CODES = {
    "loses-leader",
    "gives-points",
    "misses-monument",
    "misses-treasure",
    "weakest-colour",
    "misses-points",
    "position",
}

#: The actions of the short game: the end of a random game, from the position before them.
LAST = 24


def short_record(seed: int = 3, players: int = 2, last: int = LAST) -> dict:
    """The last ``last`` actions of a random game, as a record from the position before
    them (``start``): short, and finished."""
    rng = random.Random(seed)
    s = new_game({"players": players}, seed)
    states, actions = [s], []
    while not s.over:
        a = rng.choice(legal_actions(s))
        s, _ = apply(s, a)
        states.append(s)
        actions.append(a)
    start = states[-last - 1]
    return make_record(start.options, actions[-last:], start=start, final=s)


def test_the_analysis_is_reproducible_and_complete() -> None:
    record = short_record()
    budget = AnalysisBudget(iterations=24, worlds=3, seed=5)
    first = analyse(record, budget)
    again = analyse(json.loads(json.dumps(record)), budget)
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert first["format"] == "tne-analysis/1" and first["plies"] == LAST
    assert first["budget"] == {"iterations": 24, "worlds": 3, "seed": 5}
    assert len(first["curve"]) == LAST + 1
    final = first["curve"][-1]
    assert final in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    assert all(abs(sum(point) - 1.0) < 1e-3 for point in first["curve"])
    assert first["decisions"], "a random game's end has decisions with a choice"
    for d in first["decisions"]:
        assert d["choices"] >= 2 and d["loss"] >= 0
        assert d["loss"] == pytest.approx(d["best"] - d["played"], abs=2e-4)
        assert d["mark"] == mark(d["loss"])
        assert (d["suggestion"] is None) == (d["loss"] == 0 and d["best"] == d["played"])
    summary = {e["seat"]: e for e in first["summary"]}
    for seat in (0, 1):
        mine = [d for d in first["decisions"] if d["seat"] == seat]
        assert summary[seat]["decisions"] == len(mine)
        assert summary[seat]["blunder"] == sum(d["mark"] == "blunder" for d in mine)


def test_random_play_is_marked() -> None:
    """Random moves lose: the analysis finds better ones and marks some of them."""
    record = short_record(seed=11, last=30)
    result = analyse(record, AnalysisBudget(iterations=24, worlds=2))
    assert any(d["mark"] for d in result["decisions"])
    assert any(d["suggestion"] for d in result["decisions"])


def test_marks_follow_the_thresholds() -> None:
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]
    assert mark(0.0) is None and mark(0.049) is None
    assert mark(0.05) == "inaccuracy" and mark(0.1) == "mistake" and mark(0.35) == "blunder"


def test_an_unfinished_game_is_refused() -> None:
    s = new_game({"players": 2}, 1)
    record = make_record(s.options, [str(legal_actions(s)[0])], seed=1)
    with pytest.raises(InvalidAction, match="finished"):
        analyse(record)
    with pytest.raises(InvalidAction):
        analyse(make_record(s.options, [], start=s))


def test_a_game_ended_by_resignation_is_analysed_up_to_where_it_stopped() -> None:
    rng = random.Random(8)
    s = new_game({"players": 2}, 8)
    actions = []
    for _ in range(10):
        a = rng.choice(legal_actions(s))
        s, _ = apply(s, a)
        actions.append(str(a))
    unfinished = make_record(s.options, actions, seed=8)
    with pytest.raises(InvalidAction, match="finished"):
        analyse(unfinished)
    resigned = {**unfinished, "result": {"scores": [], "ranking": [1, 0], "end": "resign"}}
    result = analyse(resigned, AnalysisBudget(iterations=16, worlds=1))
    assert result["plies"] == 10 and len(result["curve"]) == 11
    assert result["curve"][-1] not in ([1.0, 0.0], [0.0, 1.0])  # the position, not the result
    # resigned before any move: nothing to judge, one point
    none = {**make_record(s.options, [], seed=8), "result": resigned["result"]}
    assert analyse(none)["curve"] and analyse(none)["decisions"] == []


def test_the_final_point_is_the_result() -> None:
    record = short_record(seed=4, players=3, last=12)
    result = analyse(record, AnalysisBudget(iterations=16, worlds=1))
    assert result["curve"][-1] == final_shares(replay(record))
    assert to_position(replay(record))["over"]


def test_tne_analyse_writes_the_json_and_prints_a_summary(tmp_path: Path) -> None:
    record = short_record(seed=6, last=16)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = CliRunner().invoke(app, ["analyse", str(path), "--iterations", "16", "--worlds", "2"])
    assert out.exit_code == 0, out.output
    written = json.loads((tmp_path / "game.analysis.json").read_text())
    assert written == analyse(record, AnalysisBudget(iterations=16, worlds=2))
    assert "analysis of 16 actions" in out.output and "mean loss" in out.output
    # what the curve is worth for such games, as measured on games the model never saw
    assert written["reliability"]["group"] == "2p"
    assert "held-out games like this one (2p)" in " ".join(out.output.split())
    # an unfinished game: a clear error, nothing written
    s = new_game({"players": 2}, 1)
    path.write_text(json.dumps(make_record(s.options, [str(legal_actions(s)[0])], seed=1)))
    (tmp_path / "game.analysis.json").unlink()
    out = CliRunner().invoke(app, ["analyse", str(path)])
    assert out.exit_code == 1 and "finished" in out.output
    assert not (tmp_path / "game.analysis.json").exists()


def open_positions(seed: int, count: int) -> list[tuple[int, Any]]:
    """Positions of a game between greedy bots where the decider has five choices at least
    and the game is not decided yet (its win probability 0.2 to 0.8)."""
    s = new_game({"players": 2}, seed)
    bots = [make_bot("greedy", seed * 10 + p) for p in range(2)]
    found: list[tuple[int, Any]] = []
    ply = 0
    while not s.over and len(found) < count:
        seat = to_act(s)
        assert seat is not None
        if (
            len(legal_actions(s)) >= 5
            and 0.2 <= state_probabilities(s)[seat] <= 0.8
            and ply % 7 == 3
        ):
            found.append((ply, s))
        s, _ = apply(s, bots[seat].choose(player_view(s, seat)))
        ply += 1
    return found


def worst_action(s: Any) -> str:
    """The action after which the decider's chance, one action ahead, is lowest."""
    seat = to_act(s)
    scored = [
        (state_probabilities(settle(apply_unchecked(s, a)))[seat], str(a)) for a in legal_actions(s)
    ]
    return min(scored)[1]


def test_a_planted_blunder_is_marked_with_a_better_move_and_a_reason() -> None:
    """In open positions the action that throws the most away is marked, the search's
    choice suggested and the mark explained; the suggestion itself, played, is not marked."""
    budget = AnalysisBudget(iterations=64, worlds=4)
    positions = open_positions(21, 5)
    marked = 0
    for ply, s in positions:
        judged = judge(s, worst_action(s), ply, budget)
        assert judged is not None
        if judged["mark"]:
            marked += 1
            assert judged["suggestion"] and judged["reason"]["code"] in CODES
            again = judge(s, judged["suggestion"], ply, budget)
            assert again is not None and again["mark"] is None and again["suggestion"] is None
            assert again["loss"] == 0 and again["accuracy"] == 100.0
    assert len(positions) == 5 and marked >= 4


def test_accuracy_follows_the_loss() -> None:
    assert accuracy(0.0) == 100.0 and accuracy(1.0) == 0.0
    assert accuracy(0.05) == pytest.approx(79.8, abs=0.1)
    assert accuracy(0.2) == pytest.approx(40.0, abs=0.1)
