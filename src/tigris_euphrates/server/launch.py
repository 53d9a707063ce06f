"""Running the server: what ``tne serve`` and ``python -m tigris_euphrates.server`` share
once each has built its ``Settings`` (uvicorn's options, one process or several)."""

from __future__ import annotations

import os
from typing import Any

import uvicorn

from ..store import ServerLock, StoreInUse, database_url_for
from .app import create_app
from .limits import Limits
from .settings import Settings

#: Why ``workers`` over 1 is refused on SQLite.
SQLITE_ALONE = (
    "several processes need PostgreSQL (--database-url postgresql://...): SQLite serves one process"
)


def uvicorn_options(limits: Limits | None = None, forwarded_allow_ips: str = "") -> dict[str, Any]:
    """uvicorn settings every way of serving the app shares: the websocket layer refuses a
    message over ``Limits.ws_max_bytes`` (close 1009) before reading it whole, and no
    per-message compression (it cost 13 % of the server's CPU per action). The forwarded
    headers are read only from the proxies ``forwarded_allow_ips`` names (``Settings``);
    without any, never (uvicorn's own default believes loopback's)."""
    limits = limits or Limits()
    return {
        "ws_max_size": limits.ws_max_bytes,
        "ws_per_message_deflate": False,
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


def prepare(settings: Settings) -> None:
    """The checks before serving: several processes need PostgreSQL (raises ``ValueError``),
    and a SQLite database is served by one process only (exits with one line)."""
    check_workers(settings)
    if settings.workers == 1:
        check_alone(database_url(settings))


def serve(settings: Settings) -> None:
    """Serve until stopped (after ``prepare``): in this process, or in ``settings.workers``
    processes sharing the port (PostgreSQL; each builds its app from the environment that
    this one sets: ``app_from_env``)."""
    options = uvicorn_options(settings.limits, settings.forwarded_allow_ips)
    if settings.workers > 1:
        os.environ.update(settings.replace(database_url=database_url(settings)).to_env())
        uvicorn.run(
            "tigris_euphrates.server.app:app_from_env",
            factory=True,
            workers=settings.workers,
            host=settings.host,
            port=settings.port,
            log_level="warning",
            **options,
        )
        return
    app = create_app(settings)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", **options)
