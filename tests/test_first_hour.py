"""The first commands a new user types, from the README: a position to ask about, the
legal actions of a position or a record (read as far as a reader wants), a clear one-line
error for a missing file, the same options shorthand in ``selfplay`` as in ``tournament``,
and a tournament that writes into its own folder, not the current one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tigris_euphrates import legal_actions, new_game
from tigris_euphrates.cli import app

runner = CliRunner()


def test_new_writes_a_position_that_legal_reads(tmp_path: Path) -> None:
    made = runner.invoke(app, ["new", "--seed", "42", "--players", "3", "--options", "advanced"])
    assert made.exit_code == 0, made.output
    position = tmp_path / "position.json"
    position.write_text(made.stdout)
    assert json.loads(made.stdout)["options"]["board"] == "advanced"
    listed = runner.invoke(app, ["legal", str(position)])
    assert listed.exit_code == 0, listed.output
    state = new_game({"players": 3, "board": "advanced"}, seed=42)
    assert listed.stdout.split("\n")[:-1] == [str(a) for a in legal_actions(state)]


def test_a_reader_that_stops_early_is_not_an_error(tmp_path: Path) -> None:
    """``tne legal position.json | head -5`` in a script run with ``set -o pipefail``."""
    tne = Path(sys.executable).parent / "tne"
    script = f"{tne} new --seed 42 --players 3 > p.json && {tne} legal p.json | head -2"
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "tile red a1\ntile red b1\n", "")


@pytest.mark.parametrize("command", ["legal", "show", "events"])
def test_a_missing_file_is_one_line_not_a_traceback(tmp_path: Path, command: str) -> None:
    out = runner.invoke(app, [command, str(tmp_path / "nowhere.json")])
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        f"no such file: {tmp_path / 'nowhere.json'}"
        f" (a {'tne-position/1' if command == 'legal' else 'tne-record/1'} JSON file)"
    ]
    assert "Traceback" not in out.output


def test_selfplay_takes_the_tournaments_shorthand_and_legal_takes_its_records(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    out = runner.invoke(
        app, ["selfplay", "--games", "1", "--options", "galaxy", "--save", str(games)]
    )
    assert out.exit_code == 0, out.output
    record = json.loads((games / "game-1.json").read_text())
    assert record["options"]["ruleset"] == "galaxy"
    third = runner.invoke(app, ["legal", str(games / "game-1.json"), "--ply", "3"])
    assert third.exit_code == 0 and third.stdout.strip()
    end = runner.invoke(app, ["legal", str(games / "game-1.json")])
    assert end.exit_code == 0 and "is over" in end.output


def test_a_tournament_writes_into_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(
        app, ["tournament", "--bots", "random,random", "--games", "2", "--jobs", "1"]
    )
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tne-out"]
    assert (tmp_path / "tne-out" / "tournament.json").exists()
    ignored = (Path(__file__).resolve().parents[1] / ".gitignore").read_text().split()
    assert "tne-out/" in ignored
