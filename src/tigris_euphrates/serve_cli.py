"""``tne serve``: the web server (lobby, play against bots or friends, replays)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def serve(
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
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes sharing the port (more than one needs PostgreSQL).",
        ),
    ] = 1,
) -> None:
    """Start the web server: play in the browser against the AI, hotseat or online."""
    import uvicorn

    from .server import create_app
    from .server.app import ENV_SETTINGS, check_alone, uvicorn_options
    from .server.limits import Limits
    from .store import database_url_for

    try:
        limits = Limits.parse(limit or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from None
    url = database_url_for(data_dir, database_url)
    where = database_url.split("@")[-1] if database_url else str(data_dir / "tne.sqlite3")
    if workers > 1:
        if url.startswith("sqlite"):
            raise typer.BadParameter(
                "several processes need PostgreSQL (--database-url postgresql://...): "
                "SQLite serves one process",
                param_hint="--workers",
            )
        # each worker process builds its app from these (server.app.app_from_env)
        os.environ.update(
            {
                ENV_SETTINGS["database_url"]: url,
                ENV_SETTINGS["bot_seconds"]: str(bot_seconds),
                ENV_SETTINGS["bot_delay"]: str(bot_delay),
                ENV_SETTINGS["limits"]: ",".join(limit or []),
            }
        )
        typer.echo(
            f"Tigris & Euphrates: open http://{host}:{port}/ in your browser  "
            f"({workers} processes, games in {where})"
        )
        uvicorn.run(
            "tigris_euphrates.server.app:app_from_env",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level="warning",
            **uvicorn_options(limits),
        )
        return
    check_alone(url)
    app = create_app(
        database_url=database_url,
        data_dir=data_dir,
        bot_seconds=bot_seconds,
        bot_delay=bot_delay,
        tune_gc=True,
        limits=limits,
    )
    typer.echo(
        f"Tigris & Euphrates: open http://{host}:{port}/ in your browser  (games in {where})"
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", **uvicorn_options(limits))
