"""Session cookies, CSRF tokens and the cookie of the browsers an account signed in from.

- ``tne_session``: the signed-in account, signed by the server (itsdangerous, the key in
  the store's secrets table, shared by every process) with the account's session
  generation and the session's secret. The server keeps each open session (the SHA-256 of
  its secret, ``store.accounts.open_session``): signing out deletes it, so a copy of the
  cookie saved before opens nothing; "sign out everywhere" deletes them all and raises the
  generation. HttpOnly, SameSite=Lax, Secure when the page is served over https, 30 days.
- ``tne_known``: the names (their keys) that signed in from this browser, signed by the
  server, kept after signing out (a year): a sign-in for one of them from this browser is
  not slowed by the failures of other clients (``routes/accounts.py``).
- ``tne_csrf``: a random token signed by the server, readable by the page, which sends it
  back in the ``X-CSRF-Token`` header of every form post (double submit): another site can
  make a browser send the cookie but can neither read it nor set the header.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from itsdangerous import BadSignature, Signer, URLSafeTimedSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response

SESSION_COOKIE = "tne_session"
CSRF_COOKIE = "tne_csrf"
CSRF_HEADER = "x-csrf-token"
KNOWN_COOKIE = "tne_known"
SESSION_SECONDS = 30 * 24 * 3600
KNOWN_SECONDS = 365 * 24 * 3600
#: The names a browser's ``tne_known`` cookie remembers, the latest first.
KNOWN_NAMES = 5


@dataclass
class Session:
    account_id: int
    generation: int
    #: the session's secret: the server keeps its SHA-256 (``digest``) while it is open
    secret: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.secret.encode()).hexdigest()


def new_session(account_id: int, generation: int) -> Session:
    return Session(account_id, generation, secrets.token_urlsafe(32))


class Sessions:
    def __init__(self, key: str) -> None:
        self.serializer = URLSafeTimedSerializer(key, salt="tne-session")
        self.csrf_signer = Signer(key, salt="tne-csrf")
        self.known_serializer = URLSafeTimedSerializer(key, salt="tne-known")

    # --- the session ----------------------------------------------------------------------

    def read(self, conn: HTTPConnection) -> Session | None:
        """The session the request's cookie names (not yet checked against the account's
        generation), ``None`` without a valid one."""
        raw = conn.cookies.get(SESSION_COOKIE)
        if not raw:
            return None
        try:
            data = self.serializer.loads(raw, max_age=SESSION_SECONDS)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        account, generation, secret = data.get("a"), data.get("g"), data.get("s")
        if not isinstance(account, int) or not isinstance(generation, int):
            return None
        if not isinstance(secret, str):
            return None  # a cookie of the version before server-side sessions
        return Session(account, generation, secret)

    def sign_in(self, conn: HTTPConnection, response: Response, session: Session) -> None:
        value = self.serializer.dumps(
            {"a": session.account_id, "g": session.generation, "s": session.secret}
        )
        response.set_cookie(
            SESSION_COOKIE,
            value,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure(conn),
        )

    def sign_out(self, conn: HTTPConnection, response: Response) -> None:
        response.delete_cookie(
            SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure(conn)
        )

    # --- the browsers an account signed in from -----------------------------------------

    def known(self, conn: HTTPConnection) -> list[str]:
        """The name keys that signed in from this browser (its ``tne_known`` cookie)."""
        raw = conn.cookies.get(KNOWN_COOKIE)
        if not raw:
            return []
        try:
            data = self.known_serializer.loads(raw, max_age=KNOWN_SECONDS)
        except BadSignature:
            return []
        if not isinstance(data, list):
            return []
        return [k for k in data if isinstance(k, str)][:KNOWN_NAMES]

    def remember(self, conn: HTTPConnection, response: Response, key: str) -> None:
        """Add a name key to this browser's ``tne_known`` cookie (it signed in here)."""
        keys = [key] + [k for k in self.known(conn) if k != key]
        response.set_cookie(
            KNOWN_COOKIE,
            self.known_serializer.dumps(keys[:KNOWN_NAMES]),
            max_age=KNOWN_SECONDS,
            path="/api/account",
            httponly=True,
            samesite="lax",
            secure=secure(conn),
        )

    # --- CSRF -----------------------------------------------------------------------------

    def csrf_token(self, conn: HTTPConnection, response: Response) -> str:
        """The request's CSRF token if it has a valid one, else a new one set as a cookie."""
        have = conn.cookies.get(CSRF_COOKIE, "")
        if have and self._valid(have):
            return have
        token = self.csrf_signer.sign(secrets.token_urlsafe(24)).decode()
        response.set_cookie(
            CSRF_COOKIE,
            token,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=False,
            samesite="lax",
            secure=secure(conn),
        )
        return token

    def csrf_ok(self, conn: HTTPConnection) -> bool:
        """The header repeats the cookie, and the cookie is one this server made."""
        cookie = conn.cookies.get(CSRF_COOKIE, "")
        header = conn.headers.get(CSRF_HEADER, "")
        return bool(
            cookie
            and header
            and secrets.compare_digest(cookie.encode(), header.encode())
            and self._valid(cookie)
        )

    def _valid(self, token: str) -> bool:
        try:
            self.csrf_signer.unsign(token)
        except BadSignature:
            return False
        return True


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a browser's request comes from this server's own pages: its ``Origin`` (sent
    by browsers with every websocket handshake) names the host it was sent to. A websocket
    opened by another site's page is not given the account's seats."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True  # not a browser's cross-origin request (tests, tools)
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


def secure(conn: HTTPConnection) -> bool:
    """Cookies are Secure when the page is served over https (behind a proxy, name it in
    the setting ``forwarded_allow_ips`` so that its ``X-Forwarded-Proto`` is believed)."""
    return conn.url.scheme in ("https", "wss")
