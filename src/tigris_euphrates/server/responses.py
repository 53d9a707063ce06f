"""The answers every area of the server sends the same way: JSON that cannot fail to encode,
and the page (``static/index.html``), which also answers the unknown addresses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.responses import FileResponse, JSONResponse

STATIC = Path(__file__).parent / "static"
PAGE = STATIC / "index.html"


class SafeJSONResponse(JSONResponse):
    """JSON whose encoding cannot fail: a lone surrogate that slipped past the door is
    sent as a replacement character instead of turning the answer into a 500."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8", "replace")


def page(status: int = 200) -> FileResponse:
    """The page; with 404 it says "not found" with a link to the lobby."""
    return FileResponse(PAGE, status_code=status, headers={"Cache-Control": "no-cache"})
