"""``tne bot``: check a ``tne-bot/1`` program, and play it on a server as a bot account.

tne bot check ./mybot --fast
tne bot connect --server URL --token T -- ./mybot --fast

The token is a bot account's API token (made on its account page); ``TNE_BOT_TOKEN`` gives it
without putting it on the command line, where other users of the machine could read it.
The bridge itself is ``botconnect.py``; it imports the websocket client (the ``web`` extra)
only when it runs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..ai import level_config
from ..botproto import DEFAULT_SECONDS, default_logs

bot = typer.Typer(
    help="Bots from anywhere: check a tne-bot/1 program (tne bot check PROGRAM, the first "
    "command for a bot's author), then play it on a server as a bot account (tne bot connect; "
    "see docs/web.md, Bot accounts).",
    no_args_is_help=True,
)


@bot.command("check", context_settings={"allow_interspersed_args": False})
def check(
    command: Annotated[list[str], typer.Argument(help="the program and its arguments")],
    seconds: Annotated[
        float, typer.Option(min=0.05, help="the seconds the program has for a decision")
    ] = DEFAULT_SECONDS,
    logs: Annotated[
        Path | None, typer.Option(help="the folder of the program's standard error")
    ] = None,
) -> None:
    """Play a tne-bot/1 program through every variant and player count against random
    players and say what it got wrong (exit status 1 if anything): faults, answers nobody
    asked for, not exiting on quit. Put options of this command before the program."""
    from ..botproto.conformance import PLAYERS, VARIANTS, check_program

    folder = logs if logs is not None else default_logs() / "check"
    games = len(VARIANTS) * len(PLAYERS)
    typer.echo(f"checking {' '.join(command)}: {games} games, its standard error in {folder}")
    report = check_program(command, folder, seconds, typer.echo)
    met = ", ".join(f"{kind} {n}" for kind, n in sorted(report.kinds.items()))
    typer.echo(f"decisions met: {met or 'none'}")
    if report.warnings:
        more = len(report.warnings) - 1
        typer.echo(f"warning: {report.warnings[0]}" + (f" (and {more} more)" if more else ""))
    if report.passed:
        typer.echo(f"passed: {report.games} games without a fault")
        return
    typer.echo(f"failed: {len(report.problems)} problem(s) in {report.games} games", err=True)
    raise typer.Exit(1)


Command = Annotated[list[str], typer.Argument(help="the program and its arguments, after --")]
Server = Annotated[str, typer.Option("--server", help="the server, e.g. https://example.org")]
Token = Annotated[
    str,
    typer.Option(
        "--token",
        envvar="TNE_BOT_TOKEN",
        help="the bot account's API token (better: the TNE_BOT_TOKEN variable)",
        show_default=False,
    ),
]
Games = Annotated[int, typer.Option(min=1, max=50, help="games played at once")]
Accept = Annotated[str, typer.Option(help="the challenges accepted: all, bots or people")]
Rated = Annotated[bool, typer.Option(help="accept rated challenges")]
Seconds = Annotated[
    float, typer.Option(min=0.05, help="the seconds the program has for a decision")
]
Logs = Annotated[Path | None, typer.Option(help="the folder of the programs' standard error")]
Fallback = Annotated[
    str | None,
    typer.Option(
        help="the server's level that takes the seat, for the rest of the game, of a "
        "program that fails again after its restarts (default: the bridge leaves the game)"
    ),
]
Restarts = Annotated[
    int,
    typer.Option(min=0, help="how many times a program that fails is started again in one game"),
]
Challenge = Annotated[str | None, typer.Option(help="challenge this bot account on connecting")]
ChallengeRated = Annotated[bool, typer.Option("--challenge-rated", help="the challenge is rated")]
ChallengeOptions = Annotated[
    str, typer.Option(help='the challenge\'s game options, as JSON: {"ruleset": "classic"}')
]
StopAfter = Annotated[int | None, typer.Option(min=1, help="stop once this many games are over")]


@bot.command("connect")
def connect(
    command: Command,
    server: Server,
    token: Token,
    games: Games = 1,
    accept: Accept = "all",
    rated: Rated = True,
    seconds: Seconds = DEFAULT_SECONDS,
    logs: Logs = None,
    fallback: Fallback = None,
    restarts: Restarts = 1,
    challenge: Challenge = None,
    challenge_rated: ChallengeRated = False,
    options: ChallengeOptions = "{}",
    stop_after: StopAfter = None,
) -> None:
    """Connect a tne-bot/1 program to a server as a bot account: accept challenges, play
    the games, reconnect after a drop without losing a game."""
    from .botconnect import Bridge, BridgeSettings, TokenRefused

    if accept not in ("all", "bots", "people"):
        raise typer.BadParameter("all, bots or people", param_hint="--accept")
    if fallback is not None:
        level_config(fallback)
    challenge_options = _challenge_options(options)
    settings = BridgeSettings(
        server=server,
        token=token,
        command=command,
        games=games,
        accept=accept,
        rated=rated,
        seconds=seconds,
        logs=logs if logs is not None else default_logs(),
        fallback=fallback,
        restarts=restarts,
        challenge=challenge,
        challenge_rated=challenge_rated,
        challenge_options=challenge_options,
        stop_after=stop_after,
    )
    try:
        asyncio.run(Bridge(settings).run())
    except TokenRefused as e:
        typer.echo(f"tne bot: the server refused the token: {e}", err=True)
        raise typer.Exit(3) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _challenge_options(options: str) -> dict[str, Any]:
    """The game options of ``--options``: a JSON object, else a bad parameter."""
    try:
        parsed = json.loads(options)
    except ValueError:
        raise typer.BadParameter("not JSON", param_hint="--options") from None
    if not isinstance(parsed, dict):
        raise typer.BadParameter("a JSON object", param_hint="--options")
    return parsed
