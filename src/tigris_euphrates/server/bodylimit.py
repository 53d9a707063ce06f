"""The request-body limit, as ASGI middleware: a body over ``Limits.body_bytes`` is refused
with a JSON 413 before any route reads it."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .metrics import Metrics
from .responses import SafeJSONResponse


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with a JSON 413, before the app sees it:
    a declared ``Content-Length`` over the limit at once, a body without one when it grows
    over the limit (the body is read here, at most ``limit`` bytes, then handed on)."""

    def __init__(self, app: ASGIApp, limit: int, metrics: Metrics | None = None) -> None:
        self.app = app
        self.limit = limit
        self.metrics = metrics or Metrics()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(scope, receive, send)
                return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], then=receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request bodies are at most {self.limit} bytes"
        self.metrics.refused("too-large", "body_bytes")
        response = SafeJSONResponse({"error": "too-large", "message": message}, status_code=413)
        await response(scope, receive, send)


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` that gives ``messages`` first, then waits on ``then``."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive
