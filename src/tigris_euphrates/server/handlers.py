"""How a refusal becomes an HTTP answer, for every route: ``{"error": code, "message":
words}`` with the status of the refusal (``GameError.status``, 400 for the engine's
``InvalidAction``, 422 for a request that does not parse, the status of an HTTP error).
An unknown address outside ``API_PREFIXES`` answers 404 with the page, which says so. When
the database cannot be reached (refused, cut, its pool exhausted) a request answers 503
``database-unavailable`` with ``Retry-After``, not the server's 500."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import InvalidAction
from .deps import get_hub
from .errors import GameError
from .inputs import error_message
from .responses import SafeJSONResponse, page

#: Paths whose unknown addresses answer JSON; any other unknown address gets the page,
#: which shows "not found" with a link to the lobby (status 404).
API_PREFIXES = ("/api/", "/ws/", "/static/")
#: The error code of each HTTP status an HTTP error may have (any other: ``bad-request``).
HTTP_CODES = {404: "not-found", 405: "bad-method", 409: "conflict", 413: "too-large"}
#: When a client may try again after the database did not answer (seconds).
DATABASE_RETRY_SECONDS = 5
#: The errors of a database that cannot be reached: refused or cut connections (and
#: SQLite's "database is locked"), and the pool waiting in vain for a free connection.
DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeout)

log = logging.getLogger("tigris_euphrates.server")


def count(request: Request, code: str, limit: str | None = None) -> None:
    """A refusal in the server's figures (``/metrics``)."""
    get_hub(request).metrics.refused(code, limit)


async def game_error(request: Request, exc: GameError) -> Response:
    count(request, exc.code, exc.limit)
    headers = None
    if exc.retry_after is not None:
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))}
    return SafeJSONResponse(
        {"error": exc.code, "message": exc.message}, status_code=exc.status, headers=headers
    )


async def invalid_action(request: Request, exc: InvalidAction) -> Response:
    count(request, exc.code)
    return SafeJSONResponse({"error": exc.code, "message": exc.message}, status_code=400)


async def refused(request: Request, exc: RequestValidationError) -> Response:
    count(request, "bad-request")
    return SafeJSONResponse(
        {"error": "bad-request", "message": error_message(list(exc.errors()))},
        status_code=422,
    )


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404 and not request.url.path.startswith(API_PREFIXES):
        return page(404)
    return SafeJSONResponse(
        {"error": HTTP_CODES.get(exc.status_code, "bad-request"), "message": str(exc.detail)},
        status_code=exc.status_code,
        headers=exc.headers,
    )


async def database_unavailable(request: Request, exc: Exception) -> Response:
    count(request, "database-unavailable")
    cause = getattr(exc, "orig", None) or exc
    first = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    log.warning("the database cannot be reached (%s: %s)", type(cause).__name__, first)
    return SafeJSONResponse(
        {
            "error": "database-unavailable",
            "message": "the database cannot be reached; try again in a moment",
        },
        status_code=503,
        headers={"Retry-After": str(DATABASE_RETRY_SECONDS)},
    )


def add_handlers(app: FastAPI) -> None:
    """Give ``app`` the handlers above."""
    app.exception_handler(GameError)(game_error)
    app.exception_handler(InvalidAction)(invalid_action)
    app.exception_handler(RequestValidationError)(refused)
    app.exception_handler(StarletteHTTPException)(http_error)
    for error in DATABASE_DOWN:
        app.exception_handler(error)(database_unavailable)
