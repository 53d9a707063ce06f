"""The refusals of the server: one exception for every request or message refused.

A ``GameError`` carries a stable code (the page and bots read it), words for people, and
sometimes when the same request may succeed. It is raised by every area of the server (the
games, accounts, chat, rematches, limits) and turned into an answer in one place each: an
HTTP error with the status of ``STATUS`` (``routes``), or an error frame to the sender only
(the websocket). It imports nothing of the server, so any module may raise it.
"""

from __future__ import annotations

#: The HTTP status of each refusal (any other code: 400).
STATUS = {
    "no-game": 404,
    "bad-token": 403,
    "spectator": 403,
    "not-your-seat": 403,
    "seat-online": 409,
    "seat-away-briefly": 409,
    "game-over": 409,
    "stale": 409,
    "rate-limited": 429,
    "too-many-games": 429,
    "too-many-bot-games": 429,
    "not-over": 409,
    "csrf": 403,
    "sign-in": 401,
    "sign-in-failed": 401,
    "name-taken": 409,
    "no-player": 404,
    "one-seat": 409,
    "not-admin": 403,
    "banned": 403,
    "muted": 403,
    "game-aborted": 409,
    "already-reported": 409,
    "no-report": 404,
    "no-line": 404,
    "is-admin": 409,
    "mail-failed": 503,
    "mail-off": 409,
    "wrong-password": 403,
    "email-change": 409,
    "no-lesson": 404,
    "no-catalogue": 404,
    "lesson-over": 409,
    "rated": 403,
    "busy": 503,
    "bot-rated": 403,
    "not-a-bot": 403,
    "rated-person": 409,
    "playing-person": 409,
    "no-bot": 404,
    "no-token": 404,
    "too-many-tokens": 429,
    "no-challenge": 404,
    "not-challenged": 403,
    "challenge-closed": 409,
    "too-many-challenges": 429,
    # meeting people (meeting.py, routes/meet.py, routes/social.py)
    "no-table": 404,
    "in-game": 409,
    "table-full": 409,
    "seat-taken": 409,
    "table-closed": 409,
    "already-seated": 409,
    "rating-range": 403,
    "blocked": 403,
    "not-creator": 403,
    "no-bots": 409,
    "no-bot-accounts": 409,
    "bot-quick-match": 403,
    "no-account": 404,
    "no-invite": 404,
    "too-many-invites": 429,
    # direct challenges between people (direct.py, routes/direct.py)
    "not-invited": 403,
    "bot-account": 403,
    "resigned": 409,
    "clock-decides": 409,
    "too-late-to-abort": 409,
    "named-by-account": 409,
    # live events (liveevents.py, routes/events.py)
    "no-event": 404,
    "event-closed": 409,
    "bot-not-allowed": 403,
    "bad-event": 400,
    "admin-only": 403,
    "too-many-events": 429,
    # puzzles (puzzles.py, routes/puzzles.py)
    "no-puzzle": 404,
}


class GameError(Exception):
    """A move or request refused: sent as an error frame to the sender only
    (``retry_after``: seconds after which the same request may succeed; ``limit``: the limit
    of ``limits.Limits`` that refused it, counted in the server's figures)."""

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float | None = None,
        *,
        limit: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.limit = limit

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r}, retry_after={self.retry_after!r})"

    @property
    def status(self) -> int:
        """The HTTP status of this refusal."""
        return STATUS.get(self.code, 400)
