"""The full-information minimax (``support/minimax.py``), the yardstick our search is measured
against: it plays legal moves, it does use what only a cheater can know, a game against it
is scored from our bot's side, and the benchmark keeps one run per command
(``support/runs.py``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from support.minimax import Cheater, play
from support.runs import keep, shown
from tigris_euphrates import (
    RED,
    REVOLT,
    State,
    Support,
    apply,
    legal_actions,
    new_game,
    player_view,
    to_act,
)
from tigris_euphrates.ai import make_bot


def test_cheater_plays_legal_actions() -> None:
    cheater = Cheater(depth=2, widths=(4,))
    greedy = make_bot("greedy", 1)
    s = new_game({"players": 2}, 31)
    while s.ply < 40 and not s.over:
        seat = to_act(s)
        choice = cheater.choose_from_state(s) if seat == 0 else greedy.choose(player_view(s, seat))
        assert choice in [str(a) for a in legal_actions(s)]
        s, _ = apply(s, choice)  # validated


def _attack_with_red_in_hand() -> State:
    """A revolt in which the attacker must commit and holds red tiles that win it against
    a defender without red, and lose it against one with six."""
    for seed in range(200):
        rng = random.Random(seed)
        s = new_game({"players": 2}, seed)
        while not s.over and s.ply < 150:
            c = s.decision
            if isinstance(c, Support) and c.attacker_commit < 0 and c.kind == REVOLT:
                reds = s.hand_count(c.attacker, RED)
                if reds and c.defender_base < c.attacker_base + reds <= c.defender_base + 6:
                    return s
            s, _ = apply(s, rng.choice(legal_actions(s)))
    raise AssertionError("no revolt found")


def test_cheater_commits_by_the_defenders_hidden_hand() -> None:
    """Knowing the defender's hand, the attacker commits nothing to a revolt it cannot win
    (committed tiles are lost either way) and enough to win one it can: a player who sees
    only its view could not tell the two apart."""
    s = _attack_with_red_in_hand()
    c = s.decision
    assert isinstance(c, Support)
    defender = c.defender
    strong, weak = s.copy(), s.copy()
    strong.clear_hand(defender)
    strong.add_to_hand(defender, RED, 6)
    weak.clear_hand(defender)
    for colour in (1, 2, 3):
        weak.add_to_hand(defender, colour, 2)
    assert player_view(strong, c.attacker) == player_view(weak, c.attacker)  # its view
    cheater = Cheater(depth=2, widths=(8,))
    assert cheater.choose_from_state(strong) == "commit 0"
    assert cheater.choose_from_state(weak) != "commit 0"


def test_the_recorded_command_names_the_output_file_given() -> None:
    """A run's JSON says how to play it again: a file kept elsewhere in the project is named
    by its own path, one outside by its absolute path."""
    root = Path(__file__).resolve().parents[2]
    kept = root / "bench" / "runs" / "x.json"
    assert shown(str(kept)) == "bench/runs/x.json"
    assert shown("/tmp/elsewhere/x.json") == "/tmp/elsewhere/x.json"


def test_a_game_against_the_minimax() -> None:
    """One whole game of the benchmark (the minimax one decision deep): our bot in the seat
    the game's index gives it, the result from its side."""
    out = play(
        {"index": 1, "seed": 7, "bot": "greedy", "depth": 1, "widths": [4], "evaluation": "ours"}
    )
    assert out["seat"] == 1
    assert out["win"] in (0.0, 0.5, 1.0)
    assert len(out["scores"]) == 2 and all(out["times"])


def test_a_run_replaces_the_run_of_the_same_command(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    keep(path, {"command": "a", "wins": 1})
    keep(path, {"command": "b", "wins": 2})
    keep(path, {"command": "a", "wins": 3})
    runs: list[dict[str, Any]] = json.loads(path.read_text())
    assert runs == [{"command": "a", "wins": 3}, {"command": "b", "wins": 2}]
