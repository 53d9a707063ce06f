"""The post-game analysis over REST: ask for a finished game's analysis (queued once, run by
whichever server process is free, ``server/analyses.py``) and read its progress and result,
the same for everyone who opens the replay. An unfinished game is refused: its analysis
would read hidden tiles."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam

from ..answers.errors import refusals
from ..answers.games import AnalysisState
from ..deps import HubDep, StoreDep
from ..errors import GameError
from ..inputs import GAME_ID_PATTERN

GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN)]

router = APIRouter()


@router.post("/api/games/{game_id}/analysis", responses=refusals("no-game", "not-over"))
async def ask_analysis(game_id: GameId, hub: HubDep, store: StoreDep) -> AnalysisState:
    """Queue the game's analysis (a finished game only); its state as it now stands."""
    game = await hub.get(game_id)
    if not game.over:
        raise GameError("not-over", "only a finished game can be analysed")
    row = await hub.db(store.analyses.request, game_id, hub.clock())
    hub.analyst.wake()
    return row.public()


@router.get("/api/games/{game_id}/analysis", responses=refusals("no-game", "not-over"))
async def read_analysis(game_id: GameId, hub: HubDep, store: StoreDep) -> AnalysisState:
    """The analysis's state (``none``: never asked for), progress and, once done, the
    analysis (``tne-analysis/1``)."""
    game = await hub.get(game_id)
    if not game.over:
        raise GameError("not-over", "only a finished game can be analysed")
    row = await hub.db(store.analyses.get, game_id)
    if row is None:
        return {"game_id": game_id, "state": "none", "done": 0, "total": 0}
    return row.public()
