"""``tne export``, ``tne import`` and ``tne set-password``: the operator's backup of a
server's database and its restore (docs/deploy.md, *Backups*; the file's format in
docs/formats.md, ``tne-export/1``).

This module is imported by every ``tne`` command, so it imports the server (which needs the
``web`` extra) only when one of its commands runs.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from ..store import Store

DataDir = Annotated[
    Path, typer.Option("--data-dir", help="Folder of the embedded SQLite database.")
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="TNE_DATABASE_URL",
        help="Use this database instead, e.g. postgresql://user@host/db.",
    ),
]
TablePrefix = Annotated[
    str,
    typer.Option(
        "--table-prefix", envvar="TNE_TABLE_PREFIX", help="A prefix of the store's table names."
    ),
]


def _store(data_dir: Path, database_url: str | None, prefix: str, existing: bool) -> Store:
    """The server's database; ``existing``: refuse a SQLite file that is not there (rather
    than create an empty one)."""
    from ..store import Store, database_url_for

    if not database_url and existing and not (data_dir / "tne.sqlite3").exists():
        raise typer.BadParameter(f"there is no database in {data_dir}", param_hint="--data-dir")
    return Store(database_url_for(data_dir, database_url), prefix)


def _moment(text: str | None, flag: str) -> float | None:
    """A time given as seconds since the epoch or an ISO 8601 date (UTC unless it says)."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(
            "a date (2025-01-31, 2025-01-31T12:00:00+01:00) or seconds since 1970",
            param_hint=flag,
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


def export(
    file: Annotated[Path, typer.Argument(help="The export to write (tne-export/1, JSON lines).")],
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue an export that was cut short, after its last game."
        ),
    ] = False,
    since: Annotated[
        str | None, typer.Option(help="Only games created at or after this date or time.")
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Only games created before this date or time.")
    ] = None,
    game: Annotated[
        list[str] | None, typer.Option("--game", help="Only this game (repeatable).")
    ] = None,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Back up the server's database: every game (finished or not, with its seed, whole log,
    seats, clock and chat), the accounts without their passwords, the ratings, the puzzles
    and the live events. The file holds the secrets of the unfinished games: keep it like
    the database."""
    from ..server.backup import ExportError, Span
    from ..server.backup import export as write_export

    span = None
    if since or until or game:
        ids = tuple(game) if game else None
        span = Span(_moment(since, "--since"), _moment(until, "--until"), ids)
    store = _store(data_dir, database_url, table_prefix, existing=True)
    try:
        report = write_export(store, file, span, resume=resume)
    except ExportError as exc:
        typer.echo(f"tne export: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()
    if report.complete_already:
        typer.echo(f"{file} is complete already: nothing to do")
        return
    for game_id in report.unreadable:
        typer.echo(f"warning: game {game_id} does not replay: exported with its log only", err=True)
    kept = f" ({report.kept} kept from the interrupted export)" if report.kept else ""
    typer.echo(
        f"exported {report.games} games{kept}, {report.accounts} accounts and "
        f"{report.ratings} ratings, with {report.puzzles} puzzles and {report.events} live "
        f"events, to {file}"
    )


def import_(
    file: Annotated[Path, typer.Argument(help="An export written by tne export.")],
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Import the games that replay and report the others (default: stop).",
        ),
    ] = False,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Restore an export into an empty database, after replaying every game to check it.
    The accounts come back without passwords: set one with tne set-password."""
    from ..server.restore import RestoreError, restore
    from ..store import ServerLock, StoreInUse, database_url_for

    lock = ServerLock(database_url_for(data_dir, database_url))
    try:
        lock.acquire()
    except StoreInUse as exc:
        typer.echo(f"tne import: {exc}", err=True)
        raise typer.Exit(1) from None
    store = _store(data_dir, database_url, table_prefix, existing=False)
    try:
        report = restore(store, file, skip_bad=skip_bad)
    except RestoreError as exc:
        typer.echo(f"tne import: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()
        lock.release()
    for game_id, why in report.skipped.items():
        typer.echo(f"skipped game {game_id}: {why}", err=True)
    typer.echo(
        f"imported {report.games} games, {report.accounts} accounts and {report.ratings} "
        f"ratings, with {report.puzzles} puzzles and {report.events} live events; the accounts "
        "have no password until you set one (tne set-password NAME)"
    )


def set_password(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    stdin: Annotated[
        bool, typer.Option("--stdin", help="Read the password from the first line of stdin.")
    ] = False,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Set an account's password (an account restored by tne import has none) and sign it
    out everywhere."""
    from ..server.passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords

    if stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("New password", hide_input=True, confirmation_prompt=True)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        typer.echo(
            f"tne set-password: a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            err=True,
        )
        raise typer.Exit(1)
    store = _store(data_dir, database_url, table_prefix, existing=True)
    try:
        account = store.accounts.by_name(name)
        if account is None:
            typer.echo(f"tne set-password: there is no account {name!r}", err=True)
            raise typer.Exit(1)
        store.accounts.set_password_hash(account.id, Passwords().hash(password))
        store.accounts.next_generation(account.id)
    finally:
        store.close()
    typer.echo(f"the password of {account.name} is set")
