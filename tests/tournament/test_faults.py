"""A program's faults are counted per game: it is started again at most ``restarts`` times
in a game (not once per decision), then the fallback plays its seat to the end; each answer
names its decision, so an answer written twice is never taken for the next decision; and
``tne tournament`` says by its exit status whether a program forfeited a game."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from typer.testing import CliRunner

from tigris_euphrates import replay
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.botproto import ProtocolBot, make_player, read_answer
from tigris_euphrates.cli import app
from tigris_euphrates.tournament import play_game

HERE = Path(__file__).resolve().parent


def faulty(mode: str, after: int = 0) -> str:
    """The spec of the test program ``faulty_bot.py`` misbehaving as ``mode``."""
    return "cmd:" + shlex.join([sys.executable, str(HERE / "faulty_bot.py"), mode, str(after)])


def test_a_program_failing_every_few_decisions_is_handed_to_the_fallback(tmp_path: Path) -> None:
    """It fails at its fourth decision of every run: started again once in the game, then
    the fallback plays the seat to the end, however many decisions are left."""
    spec = faulty("illegal", after=3)
    bots = [make_player(spec, 41, tmp_path), make_bot("random", 42)]
    out = play_game(bots, {"players": 2}, 6, [Budget(seconds=5), None], fallback="random")
    record = out.record()
    assert [f["then"] for f in record["faults"]] == ["restart", "fallback random"]
    assert all(f["seat"] == 0 and f["fault"] == "illegal" for f in record["faults"])
    assert record["result"]["end"] in ("treasures", "bag")
    assert replay(record).over
    # the restarted program's standard error follows the first run's
    assert bots[0].stderr_path.read_text().count("misbehaving") == 2


def test_the_organiser_sets_the_number_of_restarts(tmp_path: Path) -> None:
    spec = faulty("crash", after=2)
    for restarts, thens in (
        (0, ["forfeit"]),
        (3, ["restart", "restart", "restart", "forfeit"]),
    ):
        bots = [make_player(spec, 51, tmp_path), make_bot("random", 52)]
        out = play_game(bots, {"players": 2}, 7, restarts=restarts)
        assert [f["then"] for f in out.faults] == thens
        assert out.result["end"] == "forfeit" and out.result["forfeit"] == 0


def test_an_answer_written_twice_is_not_taken_for_the_next_decision(tmp_path: Path) -> None:
    """The program answers every decision twice; the copy names a decision already
    answered and is dropped, so the game is the one a well-behaved program plays."""
    twice = make_player(faulty("twice", after=0), 61, tmp_path)
    out = play_game([twice, make_bot("random", 62)], {"players": 2}, 8)
    assert out.faults == []
    assert isinstance(twice, ProtocolBot) and twice.stale > 0 and twice.unnamed == 0
    once = make_player(faulty("illegal", after=10_000), 61, tmp_path)
    again = play_game([once, make_bot("random", 62)], {"players": 2}, 8)
    assert again.actions == out.actions


def test_an_old_bot_that_names_no_decision_is_matched_by_order(tmp_path: Path) -> None:
    old = make_player(faulty("record", after=0) + " " + str(tmp_path / "heard"), 71, tmp_path)
    out = play_game([old, make_bot("random", 72)], {"players": 2}, 9)
    assert out.faults == [] and out.result["end"] in ("treasures", "bag")
    assert isinstance(old, ProtocolBot) and old.unnamed > 0 and old.stale == 0
    decides = [
        json.loads(line)
        for line in (tmp_path / "heard").read_text().splitlines()
        if '"type":"decide"' in line
    ]
    assert [d["id"] for d in decides] == list(range(1, len(decides) + 1))
    assert read_answer('{"type": "action", "action": "pass"}') == ("pass", None)
    assert read_answer('{"type": "action", "id": 4, "action": "pass"}') == ("pass", 4)


def test_the_tournament_exit_status_says_a_game_was_forfeited(tmp_path: Path) -> None:
    runner = CliRunner()
    common = [
        *("tournament", "--games", "1", "--jobs", "1", "--bot-logs", str(tmp_path)),
        *("--out", str(tmp_path / "t.json")),
    ]
    bots = f"{faulty('crash', after=1)},random"
    lost = runner.invoke(app, [*common, "--bots", bots])
    assert lost.exit_code == 3, lost.output
    assert "forfeited" in lost.output
    assert json.loads((tmp_path / "t.json").read_text())["games"] == 1  # written all the same
    kept = runner.invoke(app, [*common, "--bots", bots, "--fallback", "random"])
    assert kept.exit_code == 0, kept.output
    helped = runner.invoke(app, ["tournament", "--help"], terminal_width=200)
    for word in ("wonder", "buildings", "galaxy", "10 s", "--restarts"):
        assert word in helped.output, word
