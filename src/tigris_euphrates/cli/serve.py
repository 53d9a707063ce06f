"""``tne serve``: the web server (lobby, play against bots or friends, replays).

The server's settings are ``server.settings.Settings.from_env()`` with the flags given on the
command line replacing them. The defaults shown below are those of ``Settings`` (this module
is imported by every ``tne`` command, so it does not import the server, which needs the
``web`` extra; ``tests/server/test_settings.py`` checks that the two agree).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    data_dir: Annotated[
        Path, typer.Option("--data-dir", help="Folder of the embedded SQLite database.")
    ] = Path("data"),
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            envvar="TNE_DATABASE_URL",
            help="Use this database instead, e.g. postgresql://user@host/db.",
        ),
    ] = None,
    bot_seconds: Annotated[
        float,
        typer.Option(help="Longest thinking time per bot move (levels stop at their own budget)."),
    ] = 2.0,
    bot_delay: Annotated[
        float, typer.Option(help="Pause before each bot move so people can follow it.")
    ] = 0.4,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help="Change one limit of server/limits.py, e.g. games_per_client=50 (repeatable).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies whose X-Forwarded-For/-Proto are believed (addresses, comma-separated).",
        ),
    ] = "",
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes sharing the port (more than one needs PostgreSQL).",
        ),
    ] = 1,
) -> None:
    """Start the web server: play in the browser against the AI, hotseat or online."""
    from ..server import launch
    from ..server.limits import Limits
    from ..server.settings import Settings

    given: dict[str, Any] = {name: value for name, value in ctx.params.items() if _typed(ctx, name)}
    if "limit" in given:
        try:
            given["limits"] = Limits.parse(given.pop("limit") or [])
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--limit") from None
    settings = Settings.from_env().replace(**given)
    try:
        launch.prepare(settings)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--workers") from None
    where = (
        settings.database_url.split("@")[-1]
        if settings.database_url
        else str(settings.data_dir / "tne.sqlite3")
    )
    processes = f"{settings.workers} processes, " if settings.workers > 1 else ""
    typer.echo(
        f"Tigris & Euphrates: open http://{settings.host}:{settings.port}/ in your browser  "
        f"({processes}games in {where})"
    )
    launch.serve(settings)


def _typed(ctx: typer.Context, name: str) -> bool:
    """Whether the flag of parameter ``name`` was given on the command line."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"
