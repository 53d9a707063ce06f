"""The refusal every route may answer, described for the OpenAPI document.

A refusal's body is flat: ``{"error": code, "message": words}`` (``handlers.py`` writes it,
the page and the bots read ``error``). ``refusals`` gives a route's ``responses=``: the
statuses of the codes it may refuse with (``errors.STATUS``), each described by
``ErrorAnswer`` and naming its codes, plus the refusals any route may give (422: a request
that does not parse; 503: the database cannot be reached).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..errors import STATUS
from ..handlers import HTTP_CODES

#: The status of each code an HTTP error answers (``handlers.HTTP_CODES``: ``conflict``…).
HTTP_STATUS = {code: status for status, code in HTTP_CODES.items()}


class ErrorAnswer(BaseModel):
    """A refused request: a stable code (read by programs) and words for people."""

    #: the refusal's code, e.g. ``no-game``, ``bad-token``, ``rate-limited``
    error: str
    #: what went wrong, in English
    message: str


#: The refusals any route may give, whatever it does.
ALWAYS = {
    422: "bad-request (the request does not parse: a field is missing, malformed or too long)",
    503: "database-unavailable (the database cannot be reached; the answer has Retry-After)",
}


def refusals(*codes: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may refuse with ``codes`` (and with ``ALWAYS``).
    A code not in ``STATUS`` (nor an HTTP error's, ``HTTP_STATUS``) answers 400; a route
    that needs an account (``sign-in``) also refuses an API token that opens none
    (``bad-token``)."""
    described: dict[int, list[str]] = {}
    if "sign-in" in codes and "bad-token" not in codes:  # a program's API token
        codes = (*codes, "bad-token")
    for code in codes:
        described.setdefault(STATUS.get(code, HTTP_STATUS.get(code, 400)), []).append(code)
    return {
        status: {"model": ErrorAnswer, "description": "Refused: " + _words(described, status)}
        for status in sorted({*described, *ALWAYS})
    }


def _words(described: dict[int, list[str]], status: int) -> str:
    return ", ".join([*described.get(status, []), *([ALWAYS[status]] if status in ALWAYS else [])])
