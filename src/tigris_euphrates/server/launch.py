"""Running the server: what ``tne serve`` and ``python -m tigris_euphrates.server`` share
once each has built its ``Settings`` (uvicorn's options, the logs, one process or several,
and the graceful stop on SIGTERM: ``DrainingServer``)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
from typing import Any

import uvicorn
from sqlalchemy import create_engine
from typing_extensions import TypedDict

from ..store import ServerLock, StoreInUse, database_url_for, normalise_url
from ..store.database import CONNECT_SECONDS
from .app import create_app
from .hub import Hub
from .limits import Limits
from .logs import log_config
from .metrics import MULTIPROC_ENV
from .settings import Settings

#: Why ``workers`` over 1 is refused on SQLite.
SQLITE_ALONE = (
    "several processes need PostgreSQL (--database-url postgresql://...): SQLite serves one process"
)


class UvicornOptions(TypedDict, total=False):
    """The settings of uvicorn's ``Config`` (and ``run``) the server chooses."""

    ws_max_size: int
    ws_per_message_deflate: bool
    timeout_keep_alive: int
    h11_max_incomplete_event_size: int
    proxy_headers: bool
    forwarded_allow_ips: str | None
    host: str
    port: int
    log_level: str
    log_config: dict[str, Any]


def uvicorn_options(limits: Limits | None = None, forwarded_allow_ips: str = "") -> UvicornOptions:
    """uvicorn settings every way of serving the app shares: the websocket layer refuses a
    message over ``Limits.ws_max_bytes`` (close 1009) before reading it whole, and no
    per-message compression (it cost 13 % of the server's CPU per action); an idle
    connection stays open ``Limits.keep_alive_seconds``. The forwarded
    headers are read only from the proxies ``forwarded_allow_ips`` names (``Settings``);
    without any, never (uvicorn's own default believes loopback's)."""
    limits = limits or Limits()
    return {
        "ws_max_size": limits.ws_max_bytes,
        "ws_per_message_deflate": False,
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": 16 * 1024,
        "proxy_headers": bool(forwarded_allow_ips),
        "forwarded_allow_ips": forwarded_allow_ips or None,
    }


def check_alone(url: str) -> None:
    """Exit with one line when another server process already serves this SQLite
    database (the server itself refuses it too, with a traceback)."""
    lock = ServerLock(url)
    try:
        lock.acquire()
    except StoreInUse as exc:
        raise SystemExit(f"tne serve: {exc}") from None
    lock.release()


def database_url(settings: Settings) -> str:
    """The database the settings name (SQLite in ``data_dir`` unless a URL is given)."""
    return database_url_for(settings.data_dir, settings.database_url)


def check_workers(settings: Settings) -> None:
    """Raises ``ValueError`` when several processes are asked of a SQLite database."""
    if settings.workers > 1 and database_url(settings).startswith("sqlite"):
        raise ValueError(SQLITE_ALONE)


def without_password(text: str) -> str:
    """``text`` (a database URL, or words naming one) with any password in it masked."""
    text = re.sub(r"(://[^/@:\s]*:)[^/\s]*@", r"\1***@", text)
    return re.sub(r"(password=)[^&\s]*", r"\1***", text, flags=re.IGNORECASE)


def unreachable(exc: BaseException) -> str:
    """Why a connection failed, in a few words (``connection refused``): the driver's last
    reason, its first line."""
    cause = getattr(exc, "orig", None) or exc
    line = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    reason = line.rpartition("failed: ")[2].strip() or line
    reason = re.sub(r"^(FATAL|ERROR):\s*", "", reason)
    return reason[:1].lower() + reason[1:]


def check_database(url: str, shown: str | None = None) -> None:
    """Exit with one line when a database server (PostgreSQL) does not answer within
    ``CONNECT_SECONDS``, saying where (``shown``, the URL as given, else ``url``, without
    its password) and why."""
    if url.startswith("sqlite"):
        return
    try:
        engine = create_engine(
            normalise_url(url), connect_args={"connect_timeout": CONNECT_SECONDS}
        )
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except Exception as exc:
        why = without_password(unreachable(exc))
        raise SystemExit(
            f"tne serve: cannot reach the database at {without_password(shown or url)}: {why}"
        ) from None


def prepare(settings: Settings) -> None:
    """The checks before serving: several processes need PostgreSQL (raises ``ValueError``),
    a SQLite database is served by one process only, and a database server must answer
    (each of these two exits with one line)."""
    check_workers(settings)
    url = database_url(settings)
    if settings.workers == 1:
        check_alone(url)
    check_database(url, settings.database_url)


def hub_of(app: Any) -> Hub | None:
    """The hub of an app as uvicorn holds it (inside uvicorn's own middleware)."""
    for _ in range(16):
        hub = getattr(getattr(app, "state", None), "hub", None)
        if isinstance(hub, Hub):
            return hub
        app = getattr(app, "app", None)
        if app is None:
            return None
    return None


class DrainingServer(uvicorn.Server):
    """uvicorn's server, stopping gracefully on SIGTERM (or Ctrl-C): it stops accepting
    connections, then lets the hub finish the moves under way and send their views, tell
    its clients to connect again and let go of its games (``Hub.drain``) before uvicorn
    cuts what is left. (One process; uvicorn's workers use uvicorn's server.)"""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        hub = hub_of(self.config.loaded_app)
        if hub is not None and not self.force_exit:
            await hub.drain()
        await super().shutdown(sockets)


def serve(settings: Settings) -> None:
    """Serve until stopped (after ``prepare``): in this process, or in ``settings.workers``
    processes sharing the port (PostgreSQL; each builds its app from the environment that
    this one sets: ``app_from_env``, and shares its figures through a folder of its own:
    prometheus-client's multiprocess mode)."""
    options: UvicornOptions = {
        **uvicorn_options(settings.limits, settings.forwarded_allow_ips),
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": log_config(settings.log_format, settings.log_level),
    }
    if settings.workers > 1:
        os.environ.update(settings.replace(database_url=database_url(settings)).to_env())
        made = None
        if settings.metrics and not os.environ.get(MULTIPROC_ENV):
            made = os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="tne-metrics-")
        # uvicorn's own workers: on SIGTERM uvicorn closes the websockets itself (1012,
        # the pages connect again), waits for the moves under way, then the hub stops and
        # lets go of its games (``Hub.stop``)
        try:
            uvicorn.run(
                "tigris_euphrates.server.app:app_from_env",
                factory=True,
                workers=settings.workers,
                **options,
            )
        finally:
            if made is not None:
                shutil.rmtree(made, ignore_errors=True)
        return
    DrainingServer(uvicorn.Config(create_app(settings), **options)).run()
