"""``tne selfplay``: bots play complete games; wins per seat, game lengths, ends and mean
scores.

Registered in ``cli/__init__.py`` as ``app.command("selfplay")(selfplay)``. Its options are
declared once below, each an ``Annotated`` type carrying its flag's help.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from .. import DEFAULT_RULESET, RULESETS, spectator_view
from ..ai import split_specs
from ..botproto import check_fallback, check_spec, make_player
from ..display import game_panel
from ..tournament import play_game
from .options import game_options
from .tournament import OUTPUT

console = Console()

Players = Annotated[int, typer.Option(min=2, max=4, help="2, 3 or 4 seats")]
Games = Annotated[int, typer.Option(min=1, help="how many games")]
Seed = Annotated[int, typer.Option(help="seed of the first game (then +1, +2, …)")]
Bots = Annotated[
    str,
    typer.Option(
        help="bot per seat, comma-separated (one name: all seats); a level or "
        "cmd:COMMAND, a program speaking tne-bot/1"
    ),
]
Fallback = Annotated[
    str | None,
    typer.Option(
        help="level taking over, for the rest of the game, the seat of a program that "
        "fails again after being started again once (default: it loses)"
    ),
]
BotLogs = Annotated[Path, typer.Option(help="folder for the programs' standard error")]
Board = Annotated[str, typer.Option(help="standard or advanced")]
English = Annotated[bool, typer.Option(help="English variant (support limits)")]
OpenScoring = Annotated[bool, typer.Option(help="open scoring")]
Wonder = Annotated[bool, typer.Option(help="the wonder variant")]
Buildings = Annotated[bool, typer.Option(help="the civilization buildings variant")]
Ruleset = Annotated[str, typer.Option(help=" or ".join(RULESETS))]
OptionsText = Annotated[
    str | None,
    typer.Option(
        "--options",
        help="options as key=value,... or advanced, english, open, wonder, buildings, "
        'galaxy (as tne tournament takes them), or JSON: \'{"ruleset": "galaxy"}\'',
    ),
]
Save = Annotated[Path | None, typer.Option(help="folder for the game records")]
Show = Annotated[bool, typer.Option(help="draw the final board of each game")]


def selfplay(
    players: Players = 2,
    games: Games = 10,
    seed: Seed = 1,
    bots: Bots = "random",
    fallback: Fallback = None,
    bot_logs: BotLogs = OUTPUT / "bot-logs",
    board: Board = "standard",
    english: English = False,
    open_scoring: OpenScoring = False,
    wonder: Wonder = False,
    buildings: Buildings = False,
    ruleset: Ruleset = DEFAULT_RULESET,
    options_json: OptionsText = None,
    save: Save = None,
    show: Show = False,
) -> None:
    """Bots play complete games; prints wins per seat, game length, ends and mean scores."""
    names = _bot_names(bots, fallback, players)
    options = game_options(
        players, board, english, open_scoring, wonder, buildings, ruleset, options_json
    )
    players = options["players"]
    if len(names) != players:
        raise typer.BadParameter(f"give one bot or {players} bots, not {len(names)}")
    if save:
        save.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    tally = Tally()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playing", total=games)
        for g in range(games):
            final, record = play_bot_game(options, seed + g, names, fallback, bot_logs)
            tally.add(record)
            for f in record.get("faults", []):
                progress.console.print(
                    f"game {seed + g}: seat {f['seat']} {f['fault']} at ply {f['ply']} "
                    f"({f['detail']}), then {f['then']}"
                )
            if save:
                (save / f"game-{seed + g}.json").write_text(json.dumps(record, indent=1))
            if show:
                progress.console.print(game_panel(final, f"game {g + 1} (seed {seed + g})"))
            progress.advance(task)
    _report(tally, names, games, time.perf_counter() - started)


def _bot_names(bots: str, fallback: str | None, players: int) -> list[str]:
    """The bot of each seat of ``--bots`` (one name: every seat), each spec and
    ``--fallback`` checked."""
    names = split_specs(bots)
    try:
        for name in names:
            check_spec(name)
        check_fallback(fallback)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise typer.BadParameter(f"give one bot or {players} bots, not {len(names)}")
    return names


def play_bot_game(
    options: dict[str, Any],
    seed: int,
    bots: list[str],
    fallback: str | None = None,
    logs: Path | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One game between bots (one per seat, each at its level's own budget; ``cmd:`` a
    program speaking tne-bot/1, its standard error in ``logs``) that see only their views,
    played by the referee; returns (final spectator view, record)."""
    players = [make_player(name, seed * 101 + seat, logs) for seat, name in enumerate(bots)]
    outcome = play_game(players, options, seed, names=bots, fallback=fallback)
    assert outcome.final is not None
    return spectator_view(outcome.final), outcome.record()


@dataclass
class Tally:
    """What the games played so far say: the wins of each seat (a shared first place counts
    for each), how the games ended, their lengths and each seat's final scores."""

    wins: Counter[int] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    totals: list[list[list[int]]] = field(default_factory=list)

    def add(self, record: dict[str, Any]) -> None:
        """Count the game of ``record``."""
        res = record["result"]
        first = res["ranking"][0]
        for s in first if isinstance(first, list) else [first]:
            self.wins[s] += 1
        self.ends[res["end"]] += 1
        self.lengths.append(len(record["actions"]))
        self.totals.append(res["scores"])


def _report(tally: Tally, names: list[str], games: int, elapsed: float) -> None:
    """The table of the seats' wins and mean scores, then the games' lengths, ends and
    time."""
    players = len(names)
    wins, totals, lengths = tally.wins, tally.totals, tally.lengths
    table = Table(title=f"{games} game(s), {players} players, bots {', '.join(names)}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins (shared included)")
    table.add_column("mean lowest colour")
    table.add_column("mean totals (ascending)")
    for s in range(players):
        mean = [statistics.fmean(t[s][i] for t in totals) for i in range(4)]
        table.add_row(
            str(s),
            names[s],
            f"{wins[s]} ({100 * wins[s] / games:.0f}%)",
            f"{mean[0]:.2f}",
            " ".join(f"{m:.1f}" for m in mean),
        )
    console.print(table)
    console.print(
        f"decisions per game: mean {statistics.fmean(lengths):.0f}, "
        f"min {min(lengths)}, max {max(lengths)}   "
        f"ends: {dict(tally.ends)}   time: {elapsed:.1f}s"
    )
