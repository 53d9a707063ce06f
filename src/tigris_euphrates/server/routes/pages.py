"""The page's addresses: the lobby, a game, a replay, the account pages, a player's page and
the leaderboard are all ``static/index.html``, which reads its address and draws the rest.

An unknown game answers 404 with the same page, which then says "not found" (so does any
unknown address outside ``API_PREFIXES``: ``app.py``'s handler of HTTP errors).
"""

from __future__ import annotations

import re

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..deps import HubDep, StoreDep
from ..inputs import GAME_ID_PATTERN
from ..responses import page

router = APIRouter()


@router.get("/", include_in_schema=False)
@router.get("/game/{game_id}", include_in_schema=False)
@router.get("/replay/{game_id}", include_in_schema=False)
@router.get("/account", include_in_schema=False)
@router.get("/me", include_in_schema=False)
@router.get("/leaderboard", include_in_schema=False)
@router.get("/players/{name}", include_in_schema=False)
async def index(
    hub: HubDep, store: StoreDep, game_id: str | None = None, name: str | None = None
) -> FileResponse:
    """The page; 404 (the same page, which then says so) for a game that does not exist."""
    if game_id is not None:
        known = game_id in hub.games or (
            re.fullmatch(GAME_ID_PATTERN, game_id) is not None
            and await hub.db(store.games.exists, game_id)
        )
        if not known:
            return page(404)
    return page()
