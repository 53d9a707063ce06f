"""``tne admin``: moderation from the command line, on the server's database.

tne admin grant NAME                 NAME becomes an admin (the web API's /api/admin/…)
tne admin ban NAME                   NAME cannot sign in; its seats go to bots
tne admin hide GAME N                chat line N of GAME disappears for everybody
tne admin reports                    the open reports
tne admin puzzles                    the puzzles of the games analysed earlier

Every command works on the database the server uses: ``--database-url`` (or
``TNE_DATABASE_URL``), else the SQLite database in ``--data-dir``. It imports the server
(the ``web`` extra) only when it runs, like ``tne serve``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from ..store import Account, Store

admin = typer.Typer(
    help="Moderation: admins, bans, mutes, hidden chat lines, aborted games, reports; the "
    "puzzles of games analysed earlier (on the server's database; see docs/web.md, "
    "Moderation and Puzzles).",
    no_args_is_help=True,
)
console = Console()

DataDir = Annotated[
    Path,
    typer.Option(
        "--data-dir", envvar="TNE_DATA_DIR", help="Folder of the embedded SQLite database."
    ),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="TNE_DATABASE_URL",
        help="The server's database instead, e.g. postgresql://user@host/db.",
    ),
]
TablePrefix = Annotated[
    str,
    typer.Option(
        "--table-prefix", envvar="TNE_TABLE_PREFIX", help="The prefix of the server's tables."
    ),
]
Name = Annotated[str, typer.Argument(help="the account's name (any case)")]
GameId = Annotated[str, typer.Argument(help="the game's id (as in /game/ID)")]
Line = Annotated[int, typer.Argument(min=1, help="the chat line's number (n)")]


def fail(message: str) -> typer.Exit:
    console.print(f"[red]{message}[/red]")
    return typer.Exit(1)


@contextmanager
def opened(data_dir: Path, database_url: str | None, prefix: str) -> Iterator[Store]:
    """The server's store (made or upgraded if need be)."""
    from ..store import Store, database_url_for

    store = Store(database_url_for(data_dir, database_url), prefix)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def live_changes(store: Store) -> Iterator[None]:
    """A change the running servers must hear (a ban's hand-overs, a hidden line, an
    abort): on SQLite no server may run meanwhile (it would not hear it); PostgreSQL
    announces it to them."""
    from ..store import ServerLock, StoreInUse

    lock = ServerLock(store.url)
    try:
        lock.acquire()
    except StoreInUse:
        raise fail(
            "a server is running on this SQLite database and would not hear of this change: "
            "do it through the web API (POST /api/admin/…, signed in as an admin), or stop "
            "the server first"
        ) from None
    try:
        yield
    finally:
        lock.release()


def account_of(store: Store, name: str) -> Account:
    account = store.accounts.by_name(name)
    if account is None:
        raise fail(f"there is no account named {name!r}")
    return account


def _flag(name: str, data_dir: Path, database_url: str | None, prefix: str, what: str) -> None:
    """Grant, revoke, mute, unmute or unban ``name``."""
    with opened(data_dir, database_url, prefix) as store:
        account = account_of(store, name)
        standing = store.moderation.standing(account.id)
        if what == "mute" and standing.admin:
            raise fail(f"{account.name} is an admin: revoke the role first")
        change: dict[str, Callable[[], None]] = {
            "grant": lambda: store.moderation.set_admin(account.id, True),
            "revoke": lambda: store.moderation.set_admin(account.id, False),
            "mute": lambda: store.moderation.set_muted(account.id, True),
            "unmute": lambda: store.moderation.set_muted(account.id, False),
            "unban": lambda: store.moderation.set_banned(account.id, False),
        }
        change[what]()
    done = {
        "grant": "is an admin now",
        "revoke": "is no longer an admin",
        "mute": "is muted: it writes in no table chat",
        "unmute": "may write in the table chats again",
        "unban": "may sign in again (its seats stay with the bots)",
    }
    console.print(f"{account.name} {done[what]}")


@admin.command()
def grant(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Make the account an admin.

    Signed in, it may then ban, mute, hide chat lines, abort games and read the reports
    through the web API (/api/admin/…)."""
    _flag(name, data_dir, database_url, table_prefix, "grant")


@admin.command()
def revoke(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """The account is no longer an admin."""
    _flag(name, data_dir, database_url, table_prefix, "revoke")


@admin.command()
def ban(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Ban the account: no sign-in, its seats go to bots.

    Its sessions end, its seats can no longer be opened or taken back, and a bot takes each
    of its seats in its unfinished games (the others play on). On SQLite, only while no
    server runs on the database (else use the web API); on PostgreSQL the servers hear it
    at once."""
    from ..server.offline import Offline, Refused

    with opened(data_dir, database_url, table_prefix) as store:
        account = account_of(store, name)
        if store.moderation.standing(account.id).admin:
            raise fail(f"{account.name} is an admin: revoke the role first")
        with live_changes(store):
            try:
                handed = Offline(store).ban(account.id)
            except Refused as exc:
                raise fail(str(exc)) from None
    console.print(f"{account.name} is banned")
    for game_id, seat in handed:
        console.print(f"  game {game_id}: a bot plays seat {seat} now")


@admin.command()
def unban(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Lift the ban: the account may sign in again (its seats stay with the bots)."""
    _flag(name, data_dir, database_url, table_prefix, "unban")


@admin.command()
def mute(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Mute the account: it writes in no table chat (signed in, or from its seats)."""
    _flag(name, data_dir, database_url, table_prefix, "mute")


@admin.command()
def unmute(
    name: Name,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """The account may write in the table chats again."""
    _flag(name, data_dir, database_url, table_prefix, "unmute")


def _hide(game_id: str, n: int, data_dir: Path, url: str | None, prefix: str, hidden: bool) -> None:
    from ..server.offline import Offline, Refused

    with opened(data_dir, url, prefix) as store, live_changes(store):
        try:
            Offline(store).hide(game_id, n, hidden)
        except Refused as exc:
            raise fail(str(exc)) from None
    console.print(f"chat line {n} of game {game_id} is {'hidden' if hidden else 'shown'}")


@admin.command()
def hide(
    game_id: GameId,
    n: Line,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Hide a chat line from everybody.

    Nobody is sent it again; the open pages drop it at once. On SQLite, only while no
    server runs on the database (else use the web API)."""
    _hide(game_id, n, data_dir, database_url, table_prefix, True)


@admin.command()
def unhide(
    game_id: GameId,
    n: Line,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Show a hidden chat line again."""
    _hide(game_id, n, data_dir, database_url, table_prefix, False)


@admin.command()
def abort(
    game_id: GameId,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Stop a game: unrated, nobody moves again.

    Its log ends with "abort" and its status is "aborted"; its result never changes a
    rating. On SQLite, only while no server runs on the database (else use the web API)."""
    from ..server.offline import Offline, Refused
    from ..store import UnknownGame

    with opened(data_dir, database_url, table_prefix) as store, live_changes(store):
        try:
            Offline(store).abort(game_id)
        except UnknownGame:
            raise fail(f"there is no game {game_id!r}") from None
        except Refused as exc:
            raise fail(str(exc)) from None
    console.print(f"game {game_id} is aborted")


def _when(t: float | None) -> str:
    if t is None:
        return ""
    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _what(r: Any) -> str:
    if r.kind == "account":
        return f"account {r.account}"
    said = r.line["text"] if r.line else "(no such line)"
    hidden = " [hidden]" if r.line and r.line["hidden"] else ""
    by = f" by {r.account}" if r.account else f" by {r.line['name']}" if r.line else ""
    return f"game {r.game} line {r.n}{by}{hidden}: {said}"


@admin.command()
def reports(
    state: Annotated[str, typer.Option(help="open, resolved, dismissed or all")] = "open",
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """The players' reports, newest first.

    Who reported what (a chat line with its text, or an account), when, why, and its
    state."""
    from ..store import REPORT_STATES

    if state != "all" and state not in REPORT_STATES:
        raise typer.BadParameter(f"one of {', '.join(REPORT_STATES)}, all", param_hint="--state")
    with opened(data_dir, database_url, table_prefix) as store:
        found = store.moderation.reports(None if state == "all" else state)
    table = Table(title=f"reports ({state})")
    for column in ("id", "when", "reporter", "what", "reason", "state"):
        table.add_column(column)
    for r in found:
        closed = f" ({r.closed_by}, {_when(r.closed)})" if r.closed_by else ""
        table.add_row(str(r.id), _when(r.created), r.reporter, _what(r), r.reason, r.state + closed)
    console.print(table)


@admin.command()
def close(
    report_id: Annotated[int, typer.Argument(help="the report's id (tne admin reports)")],
    state: Annotated[str, typer.Option(help="resolved, dismissed, or open again")] = "resolved",
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Close a report as resolved or dismissed (or open it again)."""
    from ..store import REPORT_STATES

    if state not in REPORT_STATES:
        raise typer.BadParameter(f"one of {', '.join(REPORT_STATES)}", param_hint="--state")
    with opened(data_dir, database_url, table_prefix) as store:
        if not store.moderation.close_report(report_id, state, "cli"):
            raise fail(f"there is no report {report_id}")
    console.print(f"report {report_id} is {state}")


@admin.command("list")
def list_flagged(
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """The admins, and the banned and muted accounts."""
    with opened(data_dir, database_url, table_prefix) as store:
        found = store.moderation.flagged()
    table = Table(title="accounts with a flag")
    for column in ("name", "admin", "banned since", "muted since"):
        table.add_column(column)
    for s in found:
        table.add_row(s.name, "yes" if s.admin else "", _when(s.banned), _when(s.muted))
    console.print(table)


@admin.command("puzzles")
def make_puzzles(
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    table_prefix: TablePrefix = "",
) -> None:
    """Make the puzzles of every game analysed earlier whose players consent now.

    Every finished analysis stored is read; a game whose seats all consent (bots always,
    accounts that said so, guests never) gets the puzzles its analysis makes, each stored
    once: running it again adds nothing. It runs beside a running server."""
    import time

    from ..server.puzzles import harvest_stored

    with opened(data_dir, database_url, table_prefix) as store:
        report = harvest_stored(store, time.time())
    for game_id, why in report.failed.items():
        console.print(f"[yellow]game {game_id}: no puzzles made ({why})[/yellow]")
    console.print(
        f"{report.added} new puzzles from {report.games} games whose players consent "
        f"({report.analyses} finished analyses read)"
    )
