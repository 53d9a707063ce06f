"""The full-information minimax of ``bench/minimax.py``, the yardstick our search is measured
against: it plays legal moves, and it does use what only a cheater can know."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from minimax import Cheater, Guesser, _shown, _Truth
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.engine import State, apply, legal_actions, new_game, player_view, to_act
from tigris_euphrates.engine.board import RED
from tigris_euphrates.engine.state import CONFLICT, REVOLT


def test_cheater_plays_legal_actions() -> None:
    cheater = Cheater(depth=2, widths=(4,))
    greedy = make_bot("greedy", 1)
    s = new_game({"players": 2}, 31)
    while s.ply < 40 and not s.over:
        seat = to_act(s)
        choice = cheater.choose(s) if seat == 0 else greedy.choose(player_view(s, seat))
        assert choice in [str(a) for a in legal_actions(s)]
        s, _ = apply(s, choice)  # validated


def _attack_with_red_in_hand() -> State:
    """A revolt in which the attacker must commit and holds red tiles that win it against
    a defender without red, and lose it against one with six."""
    for seed in range(200):
        rng = random.Random(seed)
        s = new_game({"players": 2}, seed)
        while not s.over and s.ply < 150:
            c = s.conflict
            if s.stage == CONFLICT and c is not None and c[6] < 0 and c[0] == REVOLT:
                reds = s.hands[c[2] * 4 + RED]  # the attacker's
                if reds and c[5] < c[4] + reds <= c[5] + 6:
                    return s
            s, _ = apply(s, rng.choice(legal_actions(s)))
    raise AssertionError("no revolt found")


def test_cheater_commits_by_the_defenders_hidden_hand() -> None:
    """Knowing the defender's hand, the attacker commits nothing to a revolt it cannot win
    (committed tiles are lost either way) and enough to win one it can: a player who sees
    only its view could not tell the two apart."""
    s = _attack_with_red_in_hand()
    c = s.conflict
    assert c is not None
    defender = c[3]
    strong, weak = s.copy(), s.copy()
    strong.hands[defender * 4 : defender * 4 + 4] = [6, 0, 0, 0]
    weak.hands[defender * 4 : defender * 4 + 4] = [0, 2, 2, 2]
    assert player_view(strong, c[2]) == player_view(weak, c[2])  # the attacker's view
    cheater = Cheater(depth=2, widths=(8,))
    assert cheater.choose(strong) == "commit 0"
    assert cheater.choose(weak) != "commit 0"


def test_the_control_sees_only_its_view() -> None:
    """The control (the same minimax on one world dealt from its view) decides the same
    whatever the defender really holds: the difference the cheater makes is the hand."""
    s = _attack_with_red_in_hand()
    c = s.conflict
    assert c is not None
    defender = c[3]
    choices = set()
    for hand in ([6, 0, 0, 0], [0, 2, 2, 2]):
        world = s.copy()
        world.hands[defender * 4 : defender * 4 + 4] = hand
        choices.add(Guesser(5, 2, (8,)).choose(player_view(world, c[2])))
    assert len(choices) == 1


def test_the_full_information_control_shows_our_search_the_hands() -> None:
    """``--ours-sees state``: our search dealt the true state in every world knows, before
    committing, whether the revolt can be won (the defender holds no red) or not (six), as
    the cheater does, so the control really compares two searches that both see
    everything. Through its view alone the two positions are the same to it."""
    s = _attack_with_red_in_hand()
    c = s.conflict
    assert c is not None
    best: list[float] = []
    for hand in ([6, 0, 0, 0], [0, 2, 2, 2]):
        world = s.copy()
        world.hands[c[3] * 4 : c[3] * 4 + 4] = hand
        bot = make_bot("hard", 3)
        bot.determinizer = lambda view, w=world: _Truth(w, view["seat"])  # type: ignore[attr-defined]
        bot.choose(player_view(world, c[2]), Budget(iterations=200))
        root = bot.last_root  # type: ignore[attr-defined]
        best.append(max(ch.wins / ch.visits for ch in root.children.values() if ch.visits))
    assert best[1] - best[0] > 1.0  # a revolt won against one lost: a leader and a point


def test_the_recorded_command_names_the_output_file_given() -> None:
    """A run's JSON says how to play it again: a file kept elsewhere in the project is named
    by its own path (it used to become ``bench/<name>``), one outside by its absolute path."""
    root = Path(__file__).resolve().parents[2]
    kept = root / "bench" / "paired_runs" / "x.json"
    assert _shown(str(kept)) == "bench/paired_runs/x.json"
    assert _shown("/tmp/elsewhere/x.json") == "/tmp/elsewhere/x.json"


def _quick_task(index: int, seed: int, bot: str, ours_sees: str) -> dict[str, Any]:
    """A game for ``minimax.play`` against a cheater one decision deep (fast): ``bot``
    shown ``ours_sees``, in seat ``index % 2``."""
    return {
        "index": index,
        "seed": seed,
        "bot": bot,
        "depth": 1,
        "widths": [4],
        "sees": "state",
        "ours_sees": ours_sees,
    }


def test_a_bot_that_reads_play_is_shown_the_board_before_the_minimaxs_turn_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``red_reading`` reads the other seat's turn actions from the board it saw before each
    (``watch``), as the tournament referee shows it: the benchmark must show it too, its
    own view only, or the option would be measured doing nothing."""
    import minimax

    seen: list[dict[str, Any]] = []
    readings: list[int] = []

    def recording(name: str, seed: int) -> Any:
        bot = make_bot(name, seed)
        original = bot.watch  # type: ignore[attr-defined]

        def watch(view: dict[str, Any]) -> None:
            seen.append(view)
            original(view)

        bot.watch = watch  # type: ignore[attr-defined]
        filed = bot.red_seen.read  # type: ignore[attr-defined]

        def read(seat: int, likelihood: tuple[float, ...]) -> None:
            readings.append(seat)
            filed(seat, likelihood)

        bot.red_seen.read = read  # type: ignore[attr-defined]
        return bot

    monkeypatch.setattr(minimax, "make_bot", recording)
    out = minimax.play(_quick_task(1, 7, "greedy:red_reading=true", "view"))
    assert out["seat"] == 1 and seen
    assert all(v["seat"] == 1 and v["turn"]["player"] == 0 for v in seen)
    assert readings and set(readings) == {0}  # the minimax's actions were read


def test_the_red_count_control_shows_our_search_that_count_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--ours-sees red``: every world our search deals holds the other hand's true red
    count, its other tiles and the bag dealt again; our own hand is never touched."""
    import minimax

    worlds: list[tuple[State, State]] = []

    def recording(name: str, seed: int) -> Any:
        bot = make_bot(name, seed)
        choose = bot.choose

        def watched(view: dict[str, Any], budget: Budget | None = None) -> str:
            det = bot.determinizer(view)  # type: ignore[attr-defined]
            rng = random.Random(len(worlds))
            worlds.extend((det.s, det.sample(rng)) for _ in range(3))
            return choose(view, budget)

        bot.choose = watched  # type: ignore[method-assign]
        return bot

    monkeypatch.setattr(minimax, "make_bot", recording)
    minimax.play(_quick_task(0, 9, "greedy", "red"))
    assert worlds
    moved = 0
    for truth, world in worlds:
        assert world.hands[0:4] == truth.hands[0:4]  # ours (seat 0 at an even index)
        assert world.hands[4 + RED] == truth.hands[4 + RED]
        assert sum(world.hands[4:8]) == sum(truth.hands[4:8])
        moved += world.hands[4:8] != truth.hands[4:8] or world.bag != truth.bag
    assert moved  # the rest is dealt again, not shown
