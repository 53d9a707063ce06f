"""Players in public: a player's page (ratings, recent games, statistics, rating history),
their finished games as CSV, and the leaderboards."""

from __future__ import annotations

import re
import time
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, Response
from fastapi import Path as PathParam
from pydantic import AfterValidator

from ...store.accounts import Account, AccountGame
from ...store.ratings import FAMILIES, SIZES, Rating, displayed
from ..accounts import AccountService, game_line, public_account
from ..answers import players as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, CurrentAccount, HubDep, StoreDep
from ..errors import GameError
from ..inputs import MAX_NAME, check_text
from ..player_stats import fill_stats, player_stats, stats_csv

#: a rating family in a query: one of the rulesets' families
FAMILY_PATTERN = "^(" + "|".join(re.escape(f) for f in FAMILIES) + ")$"
#: A player's name in a path: the character policy before any query (PostgreSQL refuses a
#: NUL in a text parameter; no account name holds a control character).
PlayerName = Annotated[
    str,
    PathParam(min_length=1, max_length=4 * MAX_NAME),
    AfterValidator(partial(check_text, limit=MAX_NAME)),
]

router = APIRouter()


async def _player(service: AccountService, name: str) -> Account:
    account: Account | None = await service.db(service.accounts.by_name, name)
    if account is None:
        raise GameError("no-player", "there is no player of that name")
    return account


@router.get("/api/players/{name}", responses=refusals("no-player"))
async def profile(
    name: PlayerName, service: AccountsDep, store: StoreDep, hub: HubDep
) -> answers.Profile:
    """A player's public page: name, ratings (with their rank), recent games, statistics
    and rating history. Unfinished games show no hidden information: only who plays."""
    account = await _player(service, name)
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id)
    await service.db(fill_stats, store, games)
    ratings = await service.db(service.ratings.of_account, account.id)
    history = await service.db(service.ratings.history, account.id)
    return {
        "account": public_account(account),
        "ratings": [
            {
                "family": r.family,
                "size": r.size,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "display": displayed(r.ordinal),
                "games": r.games,
                "rank": r.rank,
            }
            for r in ratings
        ],
        "history": history,
        "stats": player_stats(games),
        # the games held in memory know whose turn it is
        "games": [game_line(g, hub.games.get(g.id)) for g in games[:20]],
    }


@router.get(
    "/api/players/{name}/stats.csv",
    response_class=Response,
    responses={
        200: {
            "content": {"text/csv": {"schema": {"type": "string"}}},
            "description": "One line per finished game, newest first, under a header.",
        },
        **refusals("no-player"),
    },
)
async def profile_csv(name: PlayerName, service: AccountsDep, store: StoreDep) -> Response:
    """The player's finished games, one line each, as CSV."""
    account = await _player(service, name)
    games: list[AccountGame] = await service.db(service.accounts.games_of, account.id, 10_000)
    await service.db(fill_stats, store, games)
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", account.name)
    return Response(
        stats_csv(games),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="tne-{safe}-games.csv"'},
    )


@router.get("/api/leaderboard", responses=refusals())
async def leaderboard(
    service: AccountsDep,
    account: CurrentAccount,
    family: Annotated[str, Query(pattern=FAMILY_PATTERN)] = FAMILIES[0],
    size: Annotated[str, Query(pattern="^(2p|multi)$")] = "2p",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    bots: bool = False,
) -> answers.Leaderboard:
    """A page of the leaderboard (best first) and, for a signed-in player on it, their
    neighbourhood: the five above and the five below. ``bots``: the bot accounts' board
    (bots are rated only against bots, never on the people's)."""
    board = service.ratings.board
    top, total = await service.db(board, family, size, limit, offset, bots)
    around: list[Rating] = []
    if account is not None:
        at = await service.db(service.ratings.position, account.id, family, size, bots)
        if at is not None:
            around, _ = await service.db(board, family, size, 11, max(0, at - 5), bots)

    def line(r: Rating) -> answers.BoardLine:
        return {
            "rank": r.rank,
            "name": r.name,
            "ordinal": r.ordinal,
            "display": displayed(r.ordinal),
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "me": account is not None and r.account_id == account.id,
        }

    return {
        "family": family,
        "size": size,
        "bots": bots,
        "families": list(FAMILIES),
        "sizes": list(SIZES),
        "total": total,
        "offset": offset,
        "top": [line(r) for r in top],
        "around": [line(r) for r in around],
        "updated": time.time(),
    }
