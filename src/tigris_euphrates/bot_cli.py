"""``tne bot``: a ``tne-bot/1`` program on a server, as a bot account.

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
from typing import Annotated

import typer

from .ai import level_config
from .botproto import DEFAULT_SECONDS, default_logs

bot = typer.Typer(
    help="Bots from anywhere: a tne-bot/1 program plays on a server as a bot account "
    "(see docs/web.md, Bot accounts).",
    no_args_is_help=True,
)


@bot.command("connect")
def connect(
    command: Annotated[list[str], typer.Argument(help="the program and its arguments, after --")],
    server: Annotated[str, typer.Option("--server", help="the server, e.g. https://example.org")],
    token: Annotated[
        str,
        typer.Option(
            "--token",
            envvar="TNE_BOT_TOKEN",
            help="the bot account's API token (better: the TNE_BOT_TOKEN variable)",
            show_default=False,
        ),
    ],
    games: Annotated[int, typer.Option(min=1, max=50, help="games played at once")] = 1,
    accept: Annotated[
        str, typer.Option(help="the challenges accepted: all, bots or people")
    ] = "all",
    rated: Annotated[bool, typer.Option(help="accept rated challenges")] = True,
    seconds: Annotated[
        float, typer.Option(min=0.05, help="the seconds the program has for a decision")
    ] = DEFAULT_SECONDS,
    logs: Annotated[
        Path | None, typer.Option(help="the folder of the programs' standard error")
    ] = None,
    fallback: Annotated[
        str | None,
        typer.Option(help="the server's level that takes a seat whose program fails twice"),
    ] = None,
    challenge: Annotated[
        str | None, typer.Option(help="challenge this bot account on connecting")
    ] = None,
    challenge_rated: Annotated[
        bool, typer.Option("--challenge-rated", help="the challenge is rated")
    ] = False,
    options: Annotated[
        str, typer.Option(help='the challenge\'s game options, as JSON: {"ruleset": "classic"}')
    ] = "{}",
    stop_after: Annotated[
        int | None, typer.Option(min=1, help="stop once this many games are over")
    ] = None,
) -> None:
    """Connect a tne-bot/1 program to a server as a bot account: accept challenges, play
    the games, reconnect after a drop without losing a game."""
    from .botconnect import Bridge, BridgeSettings, TokenRefused

    if accept not in ("all", "bots", "people"):
        raise typer.BadParameter("all, bots or people", param_hint="--accept")
    if fallback is not None:
        level_config(fallback)
    try:
        challenge_options = json.loads(options)
    except ValueError:
        raise typer.BadParameter("not JSON", param_hint="--options") from None
    if not isinstance(challenge_options, dict):
        raise typer.BadParameter("a JSON object", param_hint="--options")
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
