"""``tne bot check PROGRAM``: the conformance kit passes the example bots (Python and Node)
through every variant and player count, and names what a faulty program got wrong, with a
failing exit status."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from tigris_euphrates.botproto.conformance import PLAYERS, VARIANTS
from tigris_euphrates.cli import app

ROOT = Path(__file__).resolve().parents[2]
GAMES = len(VARIANTS) * len(PLAYERS)


def check(tmp_path: Path, *program: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["bot", "check", "--logs", str(tmp_path), *program])
    return done.exit_code, done.output


def test_the_example_bots_pass_the_check(tmp_path: Path) -> None:
    for program in ("examples/bots/pybot.py", "examples/bots/nodebot.mjs"):
        code, out = check(tmp_path, str(ROOT / program))
        assert code == 0, out
        assert f"passed: {GAMES} games without a fault" in out
        assert out.count("\nok   ") == GAMES and "warning" not in out
        for name, _ in VARIANTS:
            assert f"ok   {name}, 4 players" in out
        assert "conflict" in out and "treasure" in out  # the decisions it met, by kind


def test_a_faulty_program_is_told_what_it_got_wrong(tmp_path: Path) -> None:
    faulty = [sys.executable, str(ROOT / "tests/tournament/faulty_bot.py")]
    code, out = check(tmp_path, *faulty, "illegal", "20")
    assert code == 1, out
    assert "FAIL classic, 2 players" in out
    assert "illegal: 'tile red z99' is not a legal action" in out
    assert "problem(s) in 21 games" in out
    code, out = check(tmp_path, *faulty, "twice", "0")
    assert code == 1 and "answer(s) nobody asked for" in out, out
    # a bot that names no decision id is accepted, with a warning
    code, out = check(tmp_path, *faulty, "record", "0", str(tmp_path / "heard"))
    assert code == 0 and "warning" in out and "named no decision id" in out, out
