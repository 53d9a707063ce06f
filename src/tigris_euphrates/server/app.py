"""The ASGI app: ``create_app(settings)`` wires the parts together and holds no route.

The routes are in ``routes/`` (one module per area), what they reach of the running app in
``deps.py``, how a refusal becomes an answer in ``handlers.py``. ``create_app`` is a factory
with a lifespan: no store, hub or connection exists at import time; the lifespan opens the
store, starts the hub (the live games) and the account service, and puts them on
``app.state`` for ``deps.py``. Pages and JSON answers are compressed (br, else gzip) when
the browser accepts it.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from brotli_asgi import BrotliMiddleware
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..store import ServerLock, Store, database_url_for
from .accounts import start_accounts
from .apidoc import API_DESCRIPTION, add_asyncapi, operation_id
from .bodylimit import BodyLimit
from .conncount import Connections
from .handlers import add_handlers
from .hub import Hub
from .logs import quiet_client_mistakes
from .mail import Mailer, MailSettings
from .metrics import Metrics
from .responses import STATIC, SafeJSONResponse
from .routes import ROUTERS
from .settings import Settings

__all__ = ["STATIC", "app_from_env", "create_app"]


def create_app(
    settings: Settings,
    *,
    clock: Callable[[], float] = time.time,
    mail: MailSettings | None = None,
) -> FastAPI:
    """A server app built from ``settings``; its database is opened when it starts.

    Tests may inject ``clock``, the time the games' clocks read, and ``mail``, where the
    turn e-mails go instead of ``settings.mail``.
    """
    quiet_client_mistakes()
    metrics = Metrics()
    app = FastAPI(
        title="Tigris & Euphrates",
        version=__version__,
        description=API_DESCRIPTION,
        generate_unique_id_function=operation_id,
        lifespan=lifespan(settings, metrics, clock=clock, mail=mail or settings.mail),
        docs_url="/api/docs",
        redoc_url=None,
        default_response_class=SafeJSONResponse,
    )
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in ROUTERS:
        app.include_router(router)
    add_asyncapi(app)
    app.add_middleware(BodyLimit, limit=settings.limits.body_bytes, metrics=metrics)
    # br for the browsers that accept it (all current ones), gzip for the others
    app.add_middleware(BrotliMiddleware, quality=5, minimum_size=400, gzip_fallback=True)
    add_handlers(app)
    return app


def lifespan(
    settings: Settings,
    metrics: Metrics,
    *,
    clock: Callable[[], float],
    mail: MailSettings | None,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The life of an app: the store (SQLite: this process alone), the hub with the games
    and their bots, the account service; all stopped in the reverse order."""

    @asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        url = database_url_for(settings.data_dir, settings.database_url)
        alone = ServerLock(url)  # SQLite serves one process: a second one is refused
        alone.acquire()
        store = await asyncio.to_thread(Store, url, settings.table_prefix)
        mailer = Mailer(mail) if mail is not None else None
        hub = Hub(
            store,
            bot_seconds=settings.bot_seconds,
            bot_iterations=settings.bot_iterations,
            bot_delay=settings.bot_delay,
            bot_processes=settings.bot_processes,
            limits=settings.limits,
            client_seeds=settings.client_seeds,
            clock=clock,
            mailer=mailer,
            metrics=metrics,
            analysis_seconds=settings.analysis_seconds,
            analysis_budget=settings.analysis_budget,
        )
        hub.meeting.configure(
            settings.table_minutes * 60, settings.match_window, settings.match_widen
        )
        app.state.hub = hub
        # what the routes use besides the live games (``deps.py``)
        app.state.store = store
        app.state.mailer = mailer
        app.state.connections = Connections(settings.limits.connections_per_client)
        app.state.accounts = await start_accounts(hub)
        await hub.start()
        if settings.tune_gc:
            # Long-lived objects (modules, loaded games) leave the collector's generations and
            # young collections run less often: fewer pauses in the middle of a move.
            gc.freeze()
            gc.set_threshold(20_000, 20, 20)
        try:
            yield
        finally:
            await hub.stop()
            store.close()
            alone.release()

    return run


def app_from_env() -> FastAPI:
    """The app of one worker process (``uvicorn --factory
    tigris_euphrates.server.app:app_from_env --workers N``), built from the ``TNE_*``
    environment variables (``Settings.from_env``; ``tne serve --workers N`` sets them)."""
    return create_app(Settings.from_env())
