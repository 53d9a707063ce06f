"""``tne bot check PROGRAM``: a bot author's first command. It plays the program through
every variant (the rulesets and each option of the classic one) at every player count,
against random players, with no fault forgiven, and says what the program got wrong.

Each game is a ``ProtocolBot`` seat (the referee of ``tne tournament``, decision ids and
all) in a seat that changes from game to game; the other seats play uniformly at random, so
that the program meets unusual positions. A fault (late, illegal, garbage, crash) is a
problem, named with its game, seat and ply; the game goes on with a random player in the
seat so that the other games still run. So is an answer written twice or to no decision,
and a program that does not exit on ``quit`` or exits with an error. Answers that name no
decision ``id`` are accepted (bots written before ids) and reported as a warning. The
decisions the program met are counted by kind (the view's ``pending`` stage, ``turn``
for a turn's action), so the author sees which paths of the game it went through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai import Budget, make_bot
from ..tournament.referee import play_game
from . import messages
from .client import DEFAULT_SECONDS, ProtocolBot

#: The variants a program is checked in: a name and the options it sets.
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {}),
    ("advanced board", {"board": "advanced"}),
    ("english variant", {"english_variant": True}),
    ("open scoring", {"open_scoring": True}),
    ("wonder", {"wonder": True}),
    ("buildings", {"buildings": True}),
    ("galaxy", {"ruleset": "galaxy"}),
)
#: The player counts every variant is played at.
PLAYERS = (2, 3, 4)


class CheckedBot(ProtocolBot):
    """A program's seat that also counts the kinds of decision it was asked."""

    def __init__(self, command: Sequence[str], seed: int, logs: Path) -> None:
        super().__init__(command, seed, name="checked", logs=logs)
        self.kinds: Counter[str] = Counter()
        self.exit_code: int | None = 0
        self.stopped = False

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        pending = view.get("pending")
        self.kinds[str(pending.get("stage")) if isinstance(pending, dict) else "turn"] += 1
        return super().choose(view, budget)

    def finish(self, result: dict[str, Any] | None) -> None:
        """As ``ProtocolBot.finish``, keeping how the program exited after ``quit``."""
        process = self.process
        if process is None:
            return
        self.process = None
        if result is not None:
            process.send(messages.end(result))
        process.send(messages.quit_())
        self.exit_code = process.close()
        self.stopped = True


@dataclass
class Report:
    """What the check found: the problems (the program is wrong), the warnings (accepted,
    but worth changing) and the decisions met, by kind."""

    games: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)

    @property
    def passed(self) -> bool:
        return not self.problems


def check_game(
    command: Sequence[str],
    name: str,
    options: dict[str, Any],
    index: int,
    seconds: float,
    logs: Path,
) -> tuple[list[str], list[str], CheckedBot]:
    """Play one game with the program in seat ``index % players``: its problems and
    warnings, and the program's seat."""
    players = int(options["players"])
    seat = index % players
    program = CheckedBot(command, 1000 + index, logs)
    bots: list[Any] = [make_bot("random", 2000 + index * 10 + s) for s in range(players)]
    bots[seat] = program
    budgets = [Budget(seconds=seconds) if s == seat else None for s in range(players)]
    out = play_game(bots, options, 100 + index, budgets, fallback="random", restarts=0)
    where = f"{name}, {players} players, seat {seat}"
    problems = [f"{where}, ply {f['ply']}: {f['fault']}: {f['detail']}" for f in out.faults]
    if program.stale:
        problems.append(
            f"{where}: {program.stale} answer(s) nobody asked for (written twice, or naming "
            "another decision's id): they were dropped"
        )
    if not out.faults and program.stopped and program.exit_code != 0:
        how = (
            "did not exit within 2 s of quit"
            if program.exit_code is None
            else (f"exited with code {program.exit_code} after quit")
        )
        problems.append(f"{where}: {how}")
    warnings = []
    if program.unnamed:
        warnings.append(
            f"{where}: {program.unnamed} answer(s) named no decision id (accepted as the answer "
            "to the decision asked; echo decide's id so that a doubled answer is never taken "
            "for the next one)"
        )
    return problems, warnings, program


def check_program(
    command: Sequence[str],
    logs: Path,
    seconds: float = DEFAULT_SECONDS,
    say: Callable[[str], None] = print,
) -> Report:
    """Play the program through every variant at every player count (see the module
    docstring), telling ``say`` each game's outcome; the report."""
    report = Report()
    index = 0
    for name, extra in VARIANTS:
        for players in PLAYERS:
            options = {"players": players, **extra}
            problems, warnings, program = check_game(command, name, options, index, seconds, logs)
            index += 1
            report.games += 1
            report.problems += problems
            report.warnings += warnings
            report.kinds.update(program.kinds)
            decisions = sum(program.kinds.values())
            verdict = "ok  " if not problems else "FAIL"
            say(f"{verdict} {name}, {players} players: {decisions} decisions")
            for line in problems:
                say(f"     {line}")
    return report
