"""Puzzles from real mistakes: only blunders with a better move in a real decision become
puzzles; a puzzle is its decider's view (no other hand, no bag order, no hidden score), its
solution (the suggestion, and what the analysis judged within 0.02 of the best when it says),
the move played, the reason and the chance lost; the same record and analysis give the same
puzzles; an unfinished game gives none."""

from __future__ import annotations

import json
from typing import Any

import pytest

from puzzling import analysed_game, bot_game, game_puzzles
from tigris_euphrates import (
    InvalidAction,
    legal_actions,
    make_record,
    player_view,
    replay_steps,
    to_act,
)
from tigris_euphrates.coach.puzzles import (
    DEFAULT_MU,
    FORMAT,
    SPREAD,
    answer,
    candidate,
    extract,
    puzzle_id,
    starting_mu,
)

GAMES = [
    pytest.param(7, {"players": 2}, ("random", "easy"), id="2p"),
    pytest.param(11, {"players": 3}, ("random", "easy", "random"), id="3p"),
    pytest.param(5, {"players": 2, "open_scoring": True}, ("random", "random"), id="open-scoring"),
]


@pytest.mark.parametrize("seed,options,levels", GAMES)
def test_the_puzzles_of_a_real_game_are_its_blunders_seen_by_their_decider(
    seed: int, options: dict[str, Any], levels: tuple[str, ...]
) -> None:
    record, analysis = analysed_game(seed, options=options, levels=levels)
    puzzles = extract(record, analysis)
    blunders = [
        d for d in analysis["decisions"] if d["mark"] == "blunder" and d["suggestion"] is not None
    ]
    assert puzzles, "bots this weak blunder"
    assert [p["ply"] for p in puzzles] == [d["ply"] for d in blunders]
    steps = list(replay_steps(record))
    for p, d in zip(puzzles, blunders, strict=True):
        before = steps[p["ply"]][0]
        assert p["format"] == FORMAT and p["seat"] == d["seat"] == to_act(before)
        assert p["view"] == player_view(before, p["seat"])
        assert p["solution"] == d["suggestion"] and p["accepted"] == [d["suggestion"]]
        assert p["played"] == d["action"] and p["played"] != p["solution"]
        assert p["loss"] == d["loss"] >= 0.2 and p["choices"] == len(legal_actions(before)) >= 2
        assert p["reason"] == d.get("reason") and p["options"] == record["options"]
        assert {p["solution"], p["played"]} <= set(p["view"]["legal_actions"])
        _hides_what_the_seat_cannot_see(p, open_scoring=bool(options.get("open_scoring")))
    # the same record and analysis, the same puzzles
    again = extract(json.loads(json.dumps(record)), json.loads(json.dumps(analysis)))
    assert json.dumps(again, sort_keys=True) == json.dumps(puzzles, sort_keys=True)


def _hides_what_the_seat_cannot_see(puzzle: dict[str, Any], open_scoring: bool) -> None:
    view, seat = puzzle["view"], puzzle["seat"]
    text = json.dumps(puzzle)
    assert '"bag"' not in text and '"state"' not in text  # no bag order, no true state
    for p in view["players"]:
        if p["seat"] == seat:
            assert "hand" in p and "score" in p
        else:
            assert "hand" not in p and "swapped_tiles" not in p  # only the hand's size
            assert ("score" in p) == open_scoring  # others' scores only when open


def test_the_first_puzzle_fits_its_game() -> None:
    (first, *_) = game_puzzles(7)
    assert puzzle_id("g1", first["ply"]) == puzzle_id("g1", first["ply"])
    assert len(puzzle_id("g1", 3)) == 12 and puzzle_id("g1", 3) != puzzle_id("g2", 3)
    assert first["family"] == "classic"
    assert abs(first["rating"]["mu"] - DEFAULT_MU) <= SPREAD


def _decision_at_first_puzzle() -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
    record, analysis = analysed_game(7)
    ply = game_puzzles(7)[0]["ply"]
    before, text, _, _ = list(replay_steps(record))[ply]
    decision = next(d for d in analysis["decisions"] if d["ply"] == ply)
    return before, text, decision, dict(record["options"])


def _other_legal(before: Any, *not_these: str) -> str:
    return next(str(a) for a in legal_actions(before) if str(a) not in not_these)


#: (what the analysis says of the decision, whether it is a puzzle): by the decision's
#: fields changed from a real blunder's
CASES: list[tuple[str, dict[str, Any], bool]] = [
    ("a blunder with a better move", {}, True),
    ("a mistake", {"mark": "mistake", "loss": 0.15}, False),
    ("an inaccuracy", {"mark": "inaccuracy", "loss": 0.06}, False),
    ("unmarked", {"mark": None, "loss": 0.0}, False),
    ("marked a blunder below its loss", {"loss": 0.19}, False),
    ("no suggestion", {"suggestion": None}, False),
    ("the suggestion is the move played", {"suggestion": "<played>"}, False),
    ("a suggestion that is not legal there", {"suggestion": "tile red z99"}, False),
    ("another seat's decision", {"seat": "<other>"}, False),
]


@pytest.mark.parametrize("name,change,is_puzzle", CASES, ids=[c[0] for c in CASES])
def test_only_a_blunder_with_a_better_move_is_a_puzzle(
    name: str, change: dict[str, Any], is_puzzle: bool
) -> None:
    before, text, decision, options = _decision_at_first_puzzle()
    changed = dict(decision)
    for key, value in change.items():
        if value == "<played>":
            value = decision["action"]
        elif value == "<other>":
            value = (decision["seat"] + 1) % before.options.players
        changed[key] = value
    if changed.get("suggestion") == "tile red z99":
        with pytest.raises(InvalidAction):
            candidate(before, text, changed, options)
        return
    made = candidate(before, text, changed, options)
    assert (made is not None) == is_puzzle, name


def test_a_forced_move_is_no_puzzle() -> None:
    states, actions = bot_game(7)
    forced = next(i for i, s in enumerate(states[:-1]) if len(legal_actions(s)) == 1)
    before = states[forced]
    decision = {
        "ply": forced,
        "seat": to_act(before),
        "action": actions[forced],
        "mark": "blunder",
        "loss": 0.5,
        "best": 0.9,
        "played": 0.4,
        "suggestion": actions[forced],
    }
    assert candidate(before, actions[forced], decision, {"players": 2}) is None


@pytest.mark.parametrize(
    "listing",
    [
        pytest.param("values", id="values"),
        pytest.param("candidates", id="candidates"),
        pytest.param(None, id="no-list"),
    ],
)
def test_actions_within_two_points_of_the_best_solve_it_when_the_analysis_lists_them(
    listing: str | None,
) -> None:
    before, text, decision, options = _decision_at_first_puzzle()
    best, played = decision["suggestion"], decision["action"]
    close = _other_legal(before, best, played)
    far = _other_legal(before, best, played, close)
    values = {best: decision["best"], close: decision["best"] - 0.015, far: decision["best"] - 0.05}
    values[played] = decision["played"]
    changed = dict(decision)
    if listing == "values":
        changed["values"] = values
    elif listing == "candidates":
        changed["candidates"] = [{"action": a, "value": v} for a, v in values.items()]
    made = candidate(before, text, changed, options)
    assert made is not None
    assert made["accepted"] == ([best, close] if listing else [best])
    assert answer(made, best)[2] and answer(made, close)[2] == bool(listing)
    assert not answer(made, far)[2] and not answer(made, played)[2]


def test_an_attempt_is_read_in_the_engines_notation() -> None:
    puzzle = game_puzzles(7)[0]
    assert answer(puzzle, puzzle["solution"]) == (puzzle["solution"], True, True)
    assert answer(puzzle, puzzle["played"]) == (puzzle["played"], True, False)
    illegal = "tile red a1" if "tile red a1" not in puzzle["view"]["legal_actions"] else "pass"
    assert answer(puzzle, illegal)[1:] == (False, False)
    for malformed in ("", "fly red a1", "tile purple a1", "tile red z99"):
        with pytest.raises(InvalidAction):
            answer(puzzle, malformed)


@pytest.mark.parametrize(
    "loss,choices,direction",
    [(0.2, 32, 0), (0.2, 512, 1), (0.2, 4, -1), (0.6, 32, -1), (0.99, 2, -1), (0.2, 10**9, 1)],
)
def test_a_puzzle_starts_harder_with_more_choices_and_easier_with_a_bigger_loss(
    loss: float, choices: int, direction: int
) -> None:
    mu = starting_mu(loss, choices)
    assert abs(mu - DEFAULT_MU) <= SPREAD
    assert (mu > DEFAULT_MU) - (mu < DEFAULT_MU) == direction


def test_an_unfinished_game_makes_no_puzzles() -> None:
    record, analysis = analysed_game(7)
    start = next(iter(replay_steps(record)))[0]
    unfinished = make_record(start.options, record["actions"][:-1], start=start)
    with pytest.raises(InvalidAction, match="finished"):
        extract(unfinished, analysis)
    with pytest.raises(InvalidAction, match="analysis"):
        extract(record, {**analysis, "plies": analysis["plies"] + 1})
