"""Bot accounts' API tokens: how one is made, what the store keeps of it, and how a request
carries it (``Authorization: Bearer <token>``).

A token is shown once, when it is made; the store keeps only its SHA-256. A request that
carries the header is the token's bot account and nothing else of it counts (no cookie, no
CSRF token): another site's page cannot set that header on a request to this server.
Tokens are never written to a log: uvicorn's access log names the path, never a header.
"""

from __future__ import annotations

import hashlib
import secrets

from starlette.requests import HTTPConnection

#: Every API token starts so (secret scanners and people recognise one), then 32 random
#: bytes in URL-safe base64.
TOKEN_PREFIX = "tneb_"
TOKEN_PATTERN = r"^tneb_[A-Za-z0-9_-]{43}$"


def new_token() -> str:
    """A new API token's secret."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a token is 256 random bits, so no
    slow hash is needed to make a copy of the table useless)."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(conn: HTTPConnection) -> str | None:
    """The token of the request's ``Authorization`` header (``""``: a header that is not a
    bearer token; ``None``: no such header)."""
    header = conn.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return ""
    return token.strip()
