"""tne-bot/1: the example bots play complete games, a failing program is handled as
docs/formats.md says and the record tells, and a program hears byte for byte what a
built-in bot is handed (no hidden information)."""

from __future__ import annotations

import ast
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tigris_euphrates import RULESETS, replay, result
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.botproto import (
    DEFAULT_SECONDS,
    BotFault,
    ProtocolBot,
    ProtocolError,
    check_spec,
    encode,
    make_player,
    messages,
    read_action,
    read_hello,
)
from tigris_euphrates.cli import app
from tigris_euphrates.tournament import play_game, run_tournament

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYBOT = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples/bots/pybot.py'))}"
NODEBOT = f"cmd:node {shlex.quote(str(ROOT / 'examples/bots/nodebot.mjs'))}"


def faulty(mode: str, after: int = 0, file: Path | None = None) -> str:
    """The spec of the test program ``faulty_bot.py`` misbehaving as ``mode``."""
    words = [sys.executable, str(HERE / "faulty_bot.py"), mode, str(after)]
    if file is not None:
        words.append(str(file))
    return "cmd:" + shlex.join(words)


def check_record(record: dict[str, Any]) -> None:
    """The record replays: every action legal, and a finished game's result is the engine's."""
    state = replay(record)
    if record["result"]["end"] != "forfeit":
        assert state.over
        assert result(state) == record["result"]
    else:
        assert not state.over


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_example_bots_play_complete_games(tmp_path: Path, ruleset: str, players: int) -> None:
    specs = [PYBOT, NODEBOT] * 2
    bots = [make_player(specs[s], 100 + s, tmp_path) for s in range(players)]
    out = play_game(bots, {"players": players, "ruleset": ruleset}, seed=7, names=specs[:players])
    record = out.record()
    assert out.faults == [] and "faults" not in record
    assert record["result"]["end"] in ("treasures", "bag")
    check_record(record)
    # Each program's standard error is in its own file: both said how the game ended.
    for s in range(players):
        log = (tmp_path / f"bot-{100 + s}.stderr").read_text()
        assert "game over" in log, log
    # The same seeds play the same game again (the bots draw from the seed they are sent).
    again = [make_player(specs[s], 100 + s, tmp_path) for s in range(players)]
    assert play_game(again, {"players": players, "ruleset": ruleset}, seed=7).actions == out.actions


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("late", "late"),
        ("illegal", "illegal"),
        ("garbage", "garbage"),
        ("shape", "garbage"),
        ("crash", "crash"),
        ("hello", "garbage"),
    ],
)
def test_a_failing_program_loses_the_game_and_the_record_says_so(
    tmp_path: Path, mode: str, kind: str
) -> None:
    bot = make_player(faulty(mode, after=3), 21, tmp_path)
    assert isinstance(bot, ProtocolBot)
    budgets = [None, Budget(seconds=0.5)]
    out = play_game(
        [make_bot("random", 20), bot], {"players": 2}, 3, budgets, names=["random", "faulty"]
    )
    record = out.record()
    # started again once, told the game so far; at its next fault the seat loses
    first, fault = record["faults"]
    assert first["seat"] == 1 and first["fault"] == kind and first["then"] == "restart"
    assert fault["seat"] == 1 and fault["fault"] == kind and fault["then"] == "forfeit"
    assert fault["ply"] == (0 if mode == "hello" else len(record["actions"]))
    assert first["ply"] <= fault["ply"]
    assert record["result"]["end"] == "forfeit" and record["result"]["forfeit"] == 1
    assert record["result"]["ranking"] == [0, 1]
    check_record(record)
    assert bot.process is None  # the program was stopped
    if mode != "hello":
        assert "misbehaving" in bot.stderr_path.read_text()


@pytest.mark.parametrize("mode", ["late", "illegal", "crash"])
def test_a_fallback_level_takes_over_a_failing_program(tmp_path: Path, mode: str) -> None:
    spec = faulty(mode, after=5)
    bots = [make_player(spec, 31, tmp_path), make_bot("random", 32)]
    budgets = [Budget(seconds=0.5), None]
    out = play_game(bots, {"players": 2}, 4, budgets, names=[spec, "random"], fallback="random")
    record = out.record()
    assert [f["fault"] for f in record["faults"]] == [mode, mode], record["faults"]
    assert [f["then"] for f in record["faults"]] == ["restart", "fallback random"]
    assert record["players"] == [spec, "random"]
    check_record(record)  # the game went on to its end


def test_a_tournament_records_faults_and_scores_them_as_losses(tmp_path: Path) -> None:
    crash = faulty("crash", after=2)
    summary = run_tournament(
        [crash, "random"], games=2, seed=5, jobs=1, records=True, logs=tmp_path
    )
    assert [f["fault"] for f in summary["faults"]] == ["crash"] * 4
    assert {f["bot"] for f in summary["faults"]} == {crash}
    (pairing,) = summary["pairings"]
    assert pairing["bots"]["random"]["wins"] == 2
    assert pairing["length"]["ended_by"]["forfeit"] == 2
    thens = [[f["then"] for f in r["faults"]] for r in summary["_records"]]
    assert thens == [["restart", "forfeit"]] * 2
    kept = run_tournament(
        [crash, "random"], games=2, seed=5, jobs=1, records=True, logs=tmp_path, fallback="easy"
    )
    assert all(r["result"]["end"] != "forfeit" for r in kept["_records"])
    thens = [[f["then"] for f in r["faults"]] for r in kept["_records"]]
    assert thens == [["restart", "fallback easy"]] * 2


class Recorder:
    """An in-process bot playing the first legal action that keeps, as protocol lines, the
    views and events it is handed."""

    name = "recorder"

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        decision = sum(1 for line in self.lines if line.startswith(b'{"type":"decide"')) + 1
        self.lines.append(encode(messages.decide(view, DEFAULT_SECONDS, decision)))
        return str(view["legal_actions"][0])

    def observe(self, events: list[dict[str, Any]]) -> None:
        self.lines.append(encode(messages.events(events)))

    def default_budget(self, players: int) -> Budget:
        return Budget()


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {"ruleset": "galaxy"})])
def test_a_program_hears_exactly_what_a_built_in_bot_is_handed(
    tmp_path: Path, players: int, options: dict[str, Any]
) -> None:
    heard = tmp_path / "heard.jsonl"
    opts = {"players": players, **options}
    program = make_player(faulty("record", file=heard), 77, tmp_path)
    others = [Recorder() for _ in range(players - 1)]
    out = play_game([program, *others], opts, seed=11)
    inside = Recorder()
    again = play_game([inside, *[Recorder() for _ in range(players - 1)]], opts, seed=11)
    assert again.actions == out.actions
    lines = heard.read_bytes().splitlines(keepends=True)
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[:2] == ["hello", "new_game"] and kinds[-2:] == ["end", "quit"]
    assert lines[2:-2] == inside.lines  # byte for byte
    new = json.loads(lines[1])
    # The program gets its own seed, never the game's (which would tell the bag's order).
    assert new["seed"] == 77 and new["seat"] == 0 and new["players"] == players
    assert json.loads(lines[-2])["result"] == out.result


def test_the_example_bots_are_small_and_stand_alone() -> None:
    """Each example is under 150 lines; the Python one imports the standard library only
    (not this package), the JavaScript one only Node's own modules."""
    pybot = ROOT / "examples/bots/pybot.py"
    nodebot = ROOT / "examples/bots/nodebot.mjs"
    for path in (pybot, nodebot):
        assert len(path.read_text().splitlines()) < 150, path
    tree = ast.parse(pybot.read_text())
    imported = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    imported |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert imported and imported <= set(sys.stdlib_module_names), imported
    sources = re.findall(r'from "([^"]+)"', nodebot.read_text())
    assert sources and all(s.startswith("node:") for s in sources), sources


def test_a_level_served_over_the_protocol_plays_as_in_process(tmp_path: Path) -> None:
    hosted = f"cmd:{shlex.quote(sys.executable)} -m tigris_euphrates.botproto random"
    bots = [make_player(hosted, 40 + s, tmp_path) for s in range(3)]
    over = play_game(bots, {"players": 3}, seed=2)
    inside = play_game([make_bot("random", 40 + s) for s in range(3)], {"players": 3}, seed=2)
    assert over.actions == inside.actions and over.result == inside.result
    assert isinstance(bots[0], ProtocolBot) and bots[0].hello is not None
    assert bots[0].hello.name == "random"


def test_messages_refuse_what_the_protocol_does_not_say() -> None:
    hello = read_hello('{"type": "hello", "protocol": "tne-bot/1", "name": "x", "author": "a"}')
    assert (hello.name, hello.author, hello.options) == ("x", "a", {})
    for bad in (
        "nope",
        "[1]",
        '{"type": "action"}',
        '{"type": "hello", "protocol": "tne-bot/2", "name": "x"}',
        '{"type": "hello", "protocol": "tne-bot/1"}',
    ):
        with pytest.raises(ProtocolError):
            read_hello(bad)
    assert read_action(b'{"type": "action", "action": "pass"}\n') == "pass"
    with pytest.raises(ProtocolError):
        read_action('{"type": "action", "action": 3}')
    for spec in ("cmd:", "cmd:'unclosed", "nobody"):
        with pytest.raises(ValueError):
            check_spec(spec)
    with pytest.raises(BotFault) as fault:
        ProtocolBot(["/nonexistent/bot"], 1).begin({"players": 2}, 0)
    assert fault.value.kind == "crash"


def test_selfplay_and_tournament_take_programs(tmp_path: Path) -> None:
    runner = CliRunner()
    logs = tmp_path / "logs"
    done = runner.invoke(
        app,
        ["selfplay", "--bots", f"{PYBOT},random", "--games", "1", "--bot-logs", str(logs)],
    )
    assert done.exit_code == 0, done.output
    assert "1 game(s), 2 players" in done.output
    assert list(logs.glob("*.stderr"))
    out = tmp_path / "t.json"
    done = runner.invoke(
        app,
        [
            *("tournament", "--bots", f"{NODEBOT},random", "--games", "2", "--jobs", "1"),
            *("--out", str(out), "--bot-logs", str(logs), "--fallback", "easy"),
        ],
    )
    assert done.exit_code == 0, done.output
    summary = json.loads(out.read_text())
    assert summary["bots"] == [NODEBOT, "random"] and summary["games"] == 2
    assert summary["faults"] == []
    refused = runner.invoke(app, ["tournament", "--bots", "cmd:,random", "--out", str(out)])
    assert refused.exit_code != 0 and "names no program" in refused.output
    refused = runner.invoke(
        app, ["selfplay", "--bots", "random", "--fallback", f"{PYBOT}", "--games", "1"]
    )
    assert refused.exit_code != 0 and "a fallback is a level" in refused.output
