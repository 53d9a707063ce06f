"""``tne``: the command line (Typer + Rich), one module of this package a command or group
(``selfplay``, ``serve``, ``admin``, ``backup``, ``bot`` and its bridge ``botconnect``,
``tournament``, ``analyse``); the small commands on records and positions are here.

tne selfplay --players 4 --games 10      bots play; wins, lengths, ends, mean scores
tne new --seed 42 > position.json        the position a new game starts from
tne show RECORD.json --ply 40            the board at any point of a record
tne legal POSITION.json                  the legal actions of a position (or a record's end)
tne analyse RECORD.json                  a finished game's analysis: mistakes and better moves
tne export BACKUP.jsonl                  the server's games, accounts and ratings (import: back)
tne admin grant NAME                     moderation on the server's database (admin.py)
tne bot connect --server URL -- ./mybot  a tne-bot/1 program plays on a server (bot.py)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from .. import (
    EngineError,
    catalogues,
    from_position,
    legal_actions,
    new_game,
    player_view,
    redact_event,
    replay,
    replay_steps,
    result,
    to_position,
)
from ..display import game_panel
from .admin import admin
from .analyse import analyse_command
from .backup import export, import_, set_password
from .bot import bot
from .options import game_options
from .quietpipe import QuietPipeGroup
from .selfplay import selfplay
from .serve import serve
from .tournament import ratings, tournament

app = typer.Typer(
    cls=QuietPipeGroup,
    help="Tigris & Euphrates: rules engine, bots and tools.",
    no_args_is_help=True,
)
console = Console()
app.command("selfplay")(selfplay)


def _read_json(path: Path, what: str) -> Any:
    """The JSON of ``path``, or a one-line error and exit status 2 (no such file, not
    readable, not JSON)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        console.print(f"[red]no such file: {path} (a {what} JSON file)[/red]", soft_wrap=True)
    except OSError as e:
        console.print(f"[red]cannot read {path}: {e.strerror}[/red]", soft_wrap=True)
    except ValueError as e:
        console.print(f"[red]{path} is not JSON: {e}[/red]", soft_wrap=True)
    raise typer.Exit(2)


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
    data = _read_json(record, "tne-record/1")
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
def new(
    players: Annotated[int, typer.Option(min=2, max=4, help="2, 3 or 4 seats")] = 2,
    seed: Annotated[int, typer.Option(help="the game's seed (the bag's order)")] = 1,
    options_json: Annotated[
        str | None,
        typer.Option(
            "--options",
            help="options as key=value,... or advanced, english, open, wonder, buildings, "
            'galaxy, or JSON: \'{"board": "advanced"}\'',
        ),
    ] = None,
) -> None:
    """Print the position a new game starts from (tne-position/1): `tne new --seed 42 >
    position.json`, then `tne legal position.json`."""
    options = game_options(players, "standard", False, False, extra=options_json)
    print(json.dumps(to_position(new_game(options, seed)), indent=1))


@app.command()
def legal(
    game: Annotated[
        Path, typer.Argument(help="a tne-position/1 JSON file (tne new writes one) or a record")
    ],
    ply: Annotated[
        int | None, typer.Option(help="a record: after this many actions (default: the end)")
    ] = None,
) -> None:
    """Print the legal actions of a position, or of a record at its end (or at --ply), one
    per line."""
    data = _read_json(game, "tne-position/1")
    if not isinstance(data, dict):
        console.print(f"[red]{game} holds no position: a JSON object is expected[/red]")
        raise typer.Exit(1)
    try:
        is_record = data.get("format") == "tne-record/1"
        state = replay(data, ply) if is_record else from_position(data)
    except EngineError as e:
        console.print(f"[red]{e}[/red]", highlight=False)
        raise typer.Exit(1) from None
    if state.over:
        console.print(f"the game of {game} is over: no legal action", highlight=False)
    for action in legal_actions(state):
        print(action)


@app.command()
def events(
    record: Annotated[Path, typer.Argument(help="a tne-record/1 JSON file")],
    seat: Annotated[int | None, typer.Option(help="redact for this seat")] = None,
) -> None:
    """Print the game log of a record, one action and its events per line."""
    data = _read_json(record, "tne-record/1")
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
