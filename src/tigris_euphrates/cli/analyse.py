"""``tne analyse GAME.json``: the post-game analysis of a finished game's record.

Writes the analysis (``tne-analysis/1``, docs/formats.md) beside the record, or to
``--out``, and prints a summary: each seat's decisions, its inaccuracies, mistakes and
blunders and mean loss in win probability, then the worst decisions with the move the
analysis suggests instead.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from .. import EngineError
from ..coach.analysis import MARKS, THRESHOLDS, AnalysisBudget, analyse

console = Console()

#: How many of the worst decisions the summary lists.
WORST = 10
#: Each mark's sign, as chess annotations write them.
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def analyse_command(
    record: Annotated[Path, typer.Argument(help="a finished game's tne-record/1 JSON file")],
    out: Annotated[
        Path | None, typer.Option(help="where to write the JSON (default: RECORD.analysis.json)")
    ] = None,
    iterations: Annotated[
        int, typer.Option(min=8, max=20_000, help="the search's iterations at each decision")
    ] = AnalysisBudget.iterations,
    worlds: Annotated[
        int, typer.Option(min=1, max=64, help="deals of the hidden tiles per action played out")
    ] = AnalysisBudget.worlds,
    seed: Annotated[
        int, typer.Option(help="seed of the searches and the deals")
    ] = AnalysisBudget.seed,
) -> None:
    """Analyse a finished game: win-probability curve, each decision's loss, marks and
    suggestions (JSON), and a summary."""
    try:
        data = json.loads(record.read_text())
    except (OSError, ValueError) as e:
        console.print(f"[red]cannot read {record}: {e}[/red]")
        raise typer.Exit(1) from None
    started = time.process_time()
    try:
        result = analyse(data, AnalysisBudget(iterations, worlds, seed))
    except EngineError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(1) from None
    seconds = time.process_time() - started
    target = out or record.with_suffix(".analysis.json")
    target.write_text(json.dumps(result, indent=1) + "\n")
    print_summary(result, data)
    console.print(f"wrote {target} ({seconds:.1f} s of CPU)")


def print_summary(result: dict[str, Any], record: dict[str, Any]) -> None:
    """The per-seat table and the worst decisions."""
    names = record.get("players") or [f"seat {s}" for s in range(result["players"])]
    final = result["curve"][-1]
    least = dict(THRESHOLDS)
    caption = ", ".join(f"{SIGNS[m]} {m} (loss ≥ {least[m]:.2f})" for m in MARKS)
    table = Table(title=f"analysis of {result['plies']} actions", caption=caption)
    columns = ("seat", "player", "won", "judged", *(SIGNS[m] for m in MARKS), "mean loss")
    for column in (*columns, "accuracy"):
        table.add_column(column, no_wrap=True)
    for entry in result["summary"]:
        s = entry["seat"]
        table.add_row(
            str(s),
            str(names[s]) if s < len(names) else "",
            "yes" if final[s] > 0 else "",
            str(entry["decisions"]),
            *(str(entry[m]) for m in MARKS),
            f"{entry['mean_loss']:.3f}",
            f"{entry['accuracy']:.1f}" if "accuracy" in entry else "",
        )
    console.print(table)
    worst = sorted(
        (d for d in result["decisions"] if d["mark"]), key=lambda d: (-d["loss"], d["ply"])
    )[:WORST]
    if worst:
        listing = Table(title="worst decisions")
        for column in ("action #", "seat", "played", "mark", "loss", "suggested", "why"):
            listing.add_column(column)
        for d in worst:
            listing.add_row(
                str(d["ply"] + 1),
                str(d["seat"]),
                d["action"],
                d["mark"],
                f"{d['loss']:.3f}",
                d["suggestion"] or "",
                reason_text(d.get("reason"), names),
            )
        console.print(listing)
    console.print(reliability_line(result.get("reliability")))


#: Each reason's sentence (docs/formats.md lists the codes and their arguments).
REASONS = {
    "loses-leader": "loses your {colour} leader",
    "gives-points": "lets {name} score {points} more points",
    "misses-monument": "the suggestion builds a monument",
    "misses-treasure": "the suggestion takes a treasure",
    "weakest-colour": "the suggestion scores in {colour}, your weakest colour",
    "misses-points": "the suggestion scores {points} more points ({colour} most)",
    "position": "the suggestion keeps more of your chances",
}


def reason_text(reason: dict[str, Any] | None, names: list[Any]) -> str:
    """A mark's reason in words (empty for none or an unknown code)."""
    if not reason or reason.get("code") not in REASONS:
        return ""
    args = dict(reason.get("args") or {})
    seat = args.get("seat")
    if isinstance(seat, int):
        args["name"] = names[seat] if seat < len(names) else f"seat {seat}"
    try:
        return REASONS[reason["code"]].format(**args)
    except (KeyError, IndexError):
        return ""


def reliability_line(measured: dict[str, Any] | None) -> str:
    """What the win probability is worth for this kind of game, as measured."""
    if not measured:
        return (
            "the win probability was not measured on games like this one: "
            "read its curve and marks as rough"
        )
    return (
        f"the win probability on {measured['games']} held-out games like this one "
        f"({measured['group']}): expected calibration error {measured['ece']:.3f} "
        f"(worst third of a game {measured['worst_third']:.3f})"
    )
