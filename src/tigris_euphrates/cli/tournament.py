"""``tne tournament``: bots against bots, in parallel, with win rates, ratings and a plot;
``tne ratings``: one rating scale over the games of several tournament summaries.

Registered in ``cli/__init__.py`` as ``app.command("tournament")(tournament)`` and
``app.command("ratings")(ratings)``. The options of ``tne tournament`` are declared once
below, each an ``Annotated`` type carrying its flag's help.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..ai import Budget, split_specs
from ..botproto.faults import RESTARTS
from ..tournament import parse_options, pooled_ratings, run_tournament, write_outputs

#: Where ``tne tournament`` and ``tne selfplay`` write unless told otherwise (the summary, its
#: plot, the programs' standard error): one folder, ignored by git, never the current one.
OUTPUT = Path("tne-out")
#: The exit status of a tournament in which a program forfeited a game.
FORFEITED = 3


Bots = Annotated[
    str,
    typer.Option(
        help="Comma-separated bot levels (random, easy, greedy, medium, hard, expert). Every "
        "combination of PLAYERS of them is a lineup; list one per seat for a fixed lineup, "
        "e.g. hard,greedy,greedy,greedy with --players 4. A search level may take "
        "its budget: hard:iterations=400 (fixed work, no time cap: the same games on any "
        "machine), hard:iterations=400:seconds=2, expert:seconds=none. A program speaking "
        "tne-bot/1 is cmd:COMMAND, e.g. 'cmd:./mybot --fast',hard (10 s a decision "
        "unless --seconds says otherwise)."
    ),
]
Players = Annotated[int, typer.Option(help="Players per game (2-4).")]
Games = Annotated[
    int, typer.Option(help="Games per lineup (seats rotate: use a multiple of PLAYERS).")
]
Seed = Annotated[int, typer.Option(help="Tournament seed (game and bot seeds derive).")]
GameOptions = Annotated[
    str,
    typer.Option(
        help="Game options: key=value,... or the shortcuts advanced, english, open, "
        "wonder, buildings, galaxy (e.g. 'advanced,wonder', 'galaxy,open', "
        "'board=advanced,english_variant=true'), or a JSON object."
    ),
]
Seconds = Annotated[
    float | None,
    typer.Option(help="Time budget per decision (default: each level's; 10 s for cmd: programs)."),
]
Iterations = Annotated[
    int | None, typer.Option(help="Search iterations per decision (default: each level's).")
]
Jobs = Annotated[int | None, typer.Option(help="Processes (default: all cores).")]
Out = Annotated[Path, typer.Option(help="Where to write the JSON summary.")]
Plot = Annotated[Path | None, typer.Option(help="PNG of the ratings (default: OUT with .png).")]
Records = Annotated[
    Path | None, typer.Option(help="Save every game's record (JSON) in this directory.")
]
Ladder = Annotated[
    bool,
    typer.Option(
        help="Only neighbours in BOTS meet (list the levels weakest first): rates a "
        "ladder of levels without playing every pairing."
    ),
]
JournalFile = Annotated[
    Path | None,
    typer.Option(
        help="Keep every finished game in this file (JSON lines) and skip the games it "
        "already holds: run the same command again to resume a stopped tournament."
    ),
]
Fallback = Annotated[
    str | None,
    typer.Option(
        help="The level that takes over the seat of a program that answers late, answers "
        "an illegal action, writes garbage or crashes (default: that seat loses the game)."
    ),
]
Restarts = Annotated[
    int,
    typer.Option(
        min=0,
        help="How many times a program that fails is started again in one game (counted "
        "over the game); at its next fault --fallback takes the seat, or it loses.",
    ),
]
BotLogs = Annotated[
    Path, typer.Option(help="The folder for the programs' standard error (one file a seat).")
]
Ray = Annotated[
    str | None,
    typer.Option(
        help="Run the games on the Ray cluster at this address (auto: a local instance, or "
        "the cluster this machine runs; local: always a new local instance; needs the "
        "'cluster' extra); --jobs is then the games in flight at once."
    ),
]


def tournament(
    bots: Bots = "random,greedy,hard",
    players: Players = 2,
    games: Games = 20,
    seed: Seed = 0,
    options: GameOptions = "",
    seconds: Seconds = None,
    iterations: Iterations = None,
    jobs: Jobs = None,
    out: Out = OUTPUT / "tournament.json",
    plot: Plot = None,
    records: Records = None,
    ladder: Ladder = False,
    journal: JournalFile = None,
    fallback: Fallback = None,
    restarts: Restarts = RESTARTS,
    bot_logs: BotLogs = OUTPUT / "bot-logs",
    ray: Ray = None,
) -> None:
    """Play seat-balanced games between bots and report win rates, scores and ratings.
    Exit status 0 when every game was played to its end; 3 when a program forfeited a game
    (it failed after its restarts and no --fallback took its seat): the outputs are written
    either way."""
    console = Console()
    names = split_specs(bots)
    try:
        opts = parse_options(options, players)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e
    budget = None if seconds is None and iterations is None else Budget(seconds, iterations)
    can_plot = importlib.util.find_spec("matplotlib") is not None
    if plot is not None and not can_plot:
        raise typer.BadParameter(
            "the ratings plot needs the 'plots' extra: pip install 'tigris-euphrates[plots]'"
        )
    play = functools.partial(
        run_tournament,
        names,
        players=players,
        games=games,
        seed=seed,
        options=opts,
        budget=budget,
        jobs=jobs,
        records=records is not None,
        ladder=ladder,
        journal=journal,
        fallback=fallback,
        logs=bot_logs,
        ray=ray,
        restarts=restarts,
    )
    summary = _with_progress(console, play)
    plot_path = plot if plot is not None else out.with_suffix(".png") if can_plot else None
    _write(console, summary, out, plot_path, records, can_plot)
    forfeited = [r["index"] for r in summary["results"] if r["end"] == "forfeit"]
    if forfeited:
        console.print(f"{len(forfeited)} game(s) forfeited by a program's fault: exit status 3")
        raise typer.Exit(FORFEITED)


def _with_progress(console: Console, play: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The summary of ``play`` (``run_tournament`` waiting for its ``progress``), the games
    counted on a progress bar; a bad argument it finds is the command's."""
    with Progress(
        TextColumn("[bold]tournament"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task("games", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            return play(progress=advance)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from e


def _write(
    console: Console,
    summary: dict[str, Any],
    out: Path,
    plot_path: Path | None,
    records: Path | None,
    can_plot: bool,
) -> None:
    """Write the summary, its plot and the records, then print the tables and where they
    went."""
    for path in (out, plot_path):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    write_outputs(summary, out, plot_path, records)
    _print(console, summary)
    wrote = f"wrote {out}" + (f" and {plot_path}" if plot_path else "")
    if records:
        wrote += f"; records in {records}"
    if not can_plot:
        wrote += " (no ratings plot: the 'plots' extra is not installed)"
    console.print(wrote)


def _print(console: Console, summary: dict[str, Any]) -> None:
    table = Table(title=f"{summary['games']} games, {summary['players']} players")
    for col in ("lineup", "bot", "win rate", "95% CI", "mean score", "mean rank", "turns"):
        table.add_column(col)
    for p in summary["pairings"]:
        lineup = " vs ".join(p["lineup"])
        for name, b in p["bots"].items():
            lo, hi = b["ci95"]
            label = name if b["seats"] == 1 else f"{name} (x{b['seats']})"
            table.add_row(
                lineup,
                label,
                f"{100 * b['win_rate']:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                f"{b['mean_score']:.2f}",
                f"{b['mean_rank']:.2f}",
                f"{p['length']['mean_turns']:.1f}",
            )
    console.print(table)
    rt = Table(title="ratings (openskill Plackett-Luce)")
    for col in ("bot", "mu", "sigma", "ordinal", "median s", "p99 s", "max s"):
        rt.add_column(col)
    for name, r in sorted(summary["ratings"].items(), key=lambda kv: -kv[1]["mu"]):
        t = summary["decision_seconds"][name]
        rt.add_row(
            name,
            f"{r['mu']:.2f}",
            f"{r['sigma']:.2f}",
            f"{r['ordinal']:.2f}",
            f"{t['median']:.3f}",
            f"{t['p99']:.3f}",
            f"{t['max']:.3f}",
        )
    console.print(rt)
    for f in summary.get("faults", []):
        console.print(
            f"game {f['index']}: {f['bot']} (seat {f['seat']}) {f['fault']} at ply {f['ply']}"
            f" ({f['detail']}), then {f['then']}"
        )


def ratings(
    summaries: Annotated[
        list[Path], typer.Argument(help="JSON summaries written by tne tournament --out.")
    ],
    out: Annotated[Path | None, typer.Option(help="Also write the ratings here as JSON.")] = None,
) -> None:
    """Rate the bots over every game of several tournaments (openskill Plackett–Luce), so
    that levels that never met in one run (a ladder, separate head-to-heads) share a scale."""
    loaded = []
    for path in summaries:
        try:
            summary = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            raise typer.BadParameter(f"{path}: {e}") from e
        if not summary.get("results"):
            raise typer.BadParameter(f"{path} holds no game results")
        loaded.append(summary)
    players = {s["players"] for s in loaded}
    if len(players) > 1:
        raise typer.BadParameter(f"summaries mix player counts {sorted(players)}")
    pooled = pooled_ratings(loaded)
    table = Table(title=f"ratings over {len(loaded)} tournaments (openskill Plackett-Luce)")
    for col in ("bot", "games", "mu", "sigma", "ordinal"):
        table.add_column(col)
    for name, r in sorted(pooled.items(), key=lambda kv: -kv[1]["mu"]):
        table.add_row(
            name, str(r["games"]), f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"
        )
    Console().print(table)
    if out is not None:
        out.write_text(
            json.dumps({"sources": [str(p) for p in summaries], "ratings": pooled}, indent=1) + "\n"
        )
