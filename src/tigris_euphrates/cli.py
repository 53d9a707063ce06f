"""``tne``: the command line (Typer + Rich).

tne selfplay --players 4 --games 10      bots play; wins, lengths, ends, mean scores
tne show RECORD.json --ply 40            the board at any point of a record
tne legal POSITION.json                  the legal actions of a position
tne analyse RECORD.json                  a finished game's analysis: mistakes and better moves
tne export BACKUP.jsonl                  the server's games, accounts and ratings (import: back)
tne admin grant NAME                     moderation on the server's database (admin_cli.py)
tne bot connect --server URL -- ./mybot  a tne-bot/1 program plays on a server (bot_cli.py)
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from . import (
    DEFAULT_RULESET,
    RULESETS,
    EngineError,
    Options,
    catalogues,
    from_position,
    legal_actions,
    player_view,
    redact_event,
    replay,
    replay_steps,
    result,
    spectator_view,
    to_position,
)
from .admin_cli import admin
from .ai import split_specs
from .analyse_cli import analyse_command
from .backup_cli import export, import_, set_password
from .bot_cli import bot
from .botproto import check_fallback, check_spec, make_player
from .display import game_panel
from .serve_cli import serve
from .tournament import play_game
from .tournament_cli import ratings, tournament

app = typer.Typer(help="Tigris & Euphrates: rules engine, bots and tools.", no_args_is_help=True)
console = Console()


def _options(
    players: int,
    board: str,
    english: bool,
    open_scoring: bool,
    wonder: bool = False,
    buildings: bool = False,
    ruleset: str = DEFAULT_RULESET,
    extra: str | None = None,
) -> dict[str, Any]:
    """The game options of the flags, then those of ``--options`` (a JSON object, as in a
    record's ``options``), validated by the engine."""
    options: dict[str, Any] = {
        "players": players,
        "board": board,
        "english_variant": english,
        "open_scoring": open_scoring,
        "wonder": wonder,
        "buildings": buildings,
        "ruleset": ruleset,
    }
    if extra:
        try:
            more = json.loads(extra)
        except ValueError as e:
            raise typer.BadParameter(f"--options is not JSON: {e}") from e
        if not isinstance(more, dict):
            raise typer.BadParameter('--options is a JSON object, e.g. \'{"ruleset": "galaxy"}\'')
        options.update(more)
    try:
        Options.from_dict(options)
    except EngineError as e:
        raise typer.BadParameter(str(e)) from e
    return options


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


@app.command()
def selfplay(
    players: Annotated[int, typer.Option(min=2, max=4, help="2, 3 or 4 seats")] = 2,
    games: Annotated[int, typer.Option(min=1, help="how many games")] = 10,
    seed: Annotated[int, typer.Option(help="seed of the first game (then +1, +2, …)")] = 1,
    bots: Annotated[
        str,
        typer.Option(
            help="bot per seat, comma-separated (one name: all seats); a level or "
            "cmd:COMMAND, a program speaking tne-bot/1"
        ),
    ] = "random",
    fallback: Annotated[
        str | None,
        typer.Option(help="level taking over a failed program's seat (default: it loses)"),
    ] = None,
    bot_logs: Annotated[Path, typer.Option(help="folder for the programs' standard error")] = Path(
        "bot-logs"
    ),
    board: Annotated[str, typer.Option(help="standard or advanced")] = "standard",
    english: Annotated[bool, typer.Option(help="English variant (support limits)")] = False,
    open_scoring: Annotated[bool, typer.Option(help="open scoring")] = False,
    wonder: Annotated[bool, typer.Option(help="the wonder variant")] = False,
    buildings: Annotated[bool, typer.Option(help="the civilization buildings variant")] = False,
    ruleset: Annotated[str, typer.Option(help=" or ".join(RULESETS))] = DEFAULT_RULESET,
    options_json: Annotated[
        str | None,
        typer.Option("--options", help='options as JSON, e.g. \'{"ruleset": "galaxy"}\''),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="folder for the game records")] = None,
    show: Annotated[bool, typer.Option(help="draw the final board of each game")] = False,
) -> None:
    """Bots play complete games; prints wins per seat, game length, ends and mean scores."""
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
    options = _options(
        players, board, english, open_scoring, wonder, buildings, ruleset, options_json
    )
    players = options["players"]
    if len(names) != players:
        raise typer.BadParameter(f"give one bot or {players} bots, not {len(names)}")
    wins: Counter[int] = Counter()
    ends: Counter[str] = Counter()
    lengths: list[int] = []
    totals: list[list[list[int]]] = []
    if save:
        save.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playing", total=games)
        for g in range(games):
            final, record = play_bot_game(options, seed + g, names, fallback, bot_logs)
            res = record["result"]
            first = res["ranking"][0]
            for s in first if isinstance(first, list) else [first]:
                wins[s] += 1
            ends[res["end"]] += 1
            for f in record.get("faults", []):
                progress.console.print(
                    f"game {seed + g}: seat {f['seat']} {f['fault']} at ply {f['ply']} "
                    f"({f['detail']}), then {f['then']}"
                )
            lengths.append(len(record["actions"]))
            totals.append(res["scores"])
            if save:
                (save / f"game-{seed + g}.json").write_text(json.dumps(record, indent=1))
            if show:
                progress.console.print(game_panel(final, f"game {g + 1} (seed {seed + g})"))
            progress.advance(task)
    elapsed = time.perf_counter() - started
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
        f"ends: {dict(ends)}   time: {elapsed:.1f}s"
    )


@app.command()
def show(
    record: Annotated[Path, typer.Argument(help="a tne-record/1 JSON file")],
    ply: Annotated[
        int | None, typer.Option(help="after this many actions (default: the end)")
    ] = None,
    seat: Annotated[int | None, typer.Option(help="draw the view of this seat")] = None,
    language: Annotated[
        str, typer.Option(help=f"the words' language: {', '.join(catalogues.languages())}")
    ] = catalogues.BASE_LANGUAGE,
) -> None:
    """Draw the board of a game record at any point."""
    if language not in catalogues.languages():
        console.print(f"[red]no language {language!r}: {', '.join(catalogues.languages())}[/red]")
        raise typer.Exit(2)
    data = json.loads(record.read_text())
    try:
        state = replay(data, ply)
    except EngineError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(1) from None
    actions = data.get("actions", [])
    done = min(ply if ply is not None else len(actions), len(actions))
    game = player_view(state, seat) if seat is not None else to_position(state)
    if seat is None:
        game["result"] = result(state)
    cat = catalogues.for_options(game.get("options"), language)
    title = catalogues.text(cat, "cli_title", record=record.name, done=done, total=len(actions))
    if done:
        title += "   " + catalogues.text(
            cat, "cli_last", action=catalogues.action_text(cat, actions[done - 1])
        )
    console.print(game_panel(game, title, language))


@app.command()
def legal(
    position: Annotated[Path, typer.Argument(help="a tne-position/1 JSON file")],
) -> None:
    """Print the legal actions of a position, one per line."""
    try:
        state = from_position(json.loads(position.read_text()))
    except EngineError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(1) from None
    for action in legal_actions(state):
        print(action)


@app.command()
def events(
    record: Annotated[Path, typer.Argument(help="a tne-record/1 JSON file")],
    seat: Annotated[int | None, typer.Option(help="redact for this seat")] = None,
) -> None:
    """Print the game log of a record, one action and its events per line."""
    data = json.loads(record.read_text())
    for ply, (_, text, _, evs) in enumerate(replay_steps(data), start=1):
        shown = [redact_event(e, seat) if seat is not None else e.to_dict() for e in evs]
        console.print(f"[bold]{ply:>4} {text}[/bold]  " + "; ".join(json.dumps(e) for e in shown))


app.command("analyse")(analyse_command)
app.command("serve")(serve)
app.command("tournament")(tournament)
app.command("ratings")(ratings)
app.command("export")(export)
app.command("import")(import_)
app.command("set-password")(set_password)
app.add_typer(admin, name="admin")
app.add_typer(bot, name="bot")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
