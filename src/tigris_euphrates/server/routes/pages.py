"""The page's addresses: the lobby, a game, a replay, the account pages (with the pages of
the password-reset and address-change links), a player's page, the leaderboard, the
tutorial and its lessons, the admins' page (which reads the admin API), the live events
(their list and each event's page) and the puzzles (and each puzzle's own address) are all
``static/index.html``, which reads its address and draws the rest.

An unknown game or puzzle answers 404 with the same page, which then says "not found" (so
does any unknown address outside ``API_PREFIXES``: ``app.py``'s handler of HTTP errors).

Where the page goes after signing in (``/account?next=…``) is resolved here too
(``GET /api/next``): only to one of these pages, never elsewhere.
"""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import quote, unquote

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse

from ..answers.errors import refusals
from ..answers.meta import NextPage
from ..deps import HubDep, StoreDep
from ..inputs import GAME_ID_PATTERN, MAX_NAME, check_text
from ..responses import page
from .tutorial import lessons

router = APIRouter()

#: the pages without a part of their own in the address
PLAIN_PAGES = frozenset(
    {"/", "/account", "/me", "/leaderboard", "/admin", "/tutorial", "/events", "/puzzles"}
)
#: a game's page and its replay: the id as the game routes accept it (ASCII only)
GAME_PAGE = re.compile(r"/(game|replay)/([0-9A-Za-z_-]{1,32})")
#: an event's id (an arena, a Swiss tournament): 12 lowercase hex digits, like a game's
EVENT_ID = re.compile(r"[0-9a-f]{12}")
#: an event's page
EVENT_PAGE = re.compile(r"/events/([0-9a-f]{12})")
#: a puzzle's id (``coach.puzzles.puzzle_id``) and its own page
PUZZLE_ID = re.compile(r"[0-9a-f]{12}")
PUZZLE_PAGE = re.compile(r"/puzzles/([0-9a-f]{12})")
#: a player's page: one segment of the address, percent-encoded as the page writes it
PLAYER_PAGE = re.compile(r"/players/([0-9A-Za-z_.~%-]{1,400})")
#: a player's name once decoded: word characters, inner spaces, ``.`` and ``-``
PLAYER_NAME = re.compile(r"\w(?:[\w .-]{0,38}\w)?")
#: the longest ``next`` looked at
MAX_NEXT = 500


def local_page(next_path: str | None) -> str:
    """The page of this server that ``next_path`` names, written anew from its parts:
    ``/``, ``/account``, ``/me``, ``/leaderboard``, ``/admin``, ``/tutorial``, ``/events``,
    ``/puzzles``, ``/game/{id}``, ``/replay/{id}``, ``/events/{id}``, ``/puzzles/{id}`` or
    ``/players/{name}``; anything else (another host, a scheme, a backslash, a control
    character, an encoded one, a query…) gives ``/``. What it returns starts with one
    ``/`` followed by a letter or nothing, and holds only ASCII letters, digits and
    ``/_.~%-``: the browser reads it as a path of this origin, whatever it does with odd
    characters."""
    if not next_path or len(next_path) > MAX_NEXT:
        return "/"
    if next_path in PLAIN_PAGES:
        return next_path
    game = GAME_PAGE.fullmatch(next_path)
    if game is not None:
        return f"/{game[1]}/{game[2]}"
    event = EVENT_PAGE.fullmatch(next_path)
    if event is not None:
        return f"/events/{event[1]}"
    puzzle = PUZZLE_PAGE.fullmatch(next_path)
    if puzzle is not None:
        return f"/puzzles/{puzzle[1]}"
    player = PLAYER_PAGE.fullmatch(next_path)
    if player is not None:
        try:
            name = unquote(player[1], errors="strict")
        except UnicodeDecodeError:
            return "/"
        if PLAYER_NAME.fullmatch(name):
            return "/players/" + quote(name, safe="")
    return "/"


@router.get("/", include_in_schema=False)
@router.get("/game/{game_id}", include_in_schema=False)
@router.get("/replay/{game_id}", include_in_schema=False)
@router.get("/account", include_in_schema=False)
@router.get("/me", include_in_schema=False)
@router.get("/leaderboard", include_in_schema=False)
@router.get("/admin", include_in_schema=False)
@router.get("/reset-password", include_in_schema=False)
@router.get("/change-email", include_in_schema=False)
@router.get("/tutorial", include_in_schema=False)
@router.get("/tutorial/{lesson}", include_in_schema=False)
@router.get("/players/{name}", include_in_schema=False)
@router.get("/events", include_in_schema=False)
@router.get("/events/{event_id}", include_in_schema=False)
@router.get("/puzzles", include_in_schema=False)
@router.get("/puzzles/{puzzle_id}", include_in_schema=False)
async def index(
    hub: HubDep,
    store: StoreDep,
    game_id: str | None = None,
    name: str | None = None,
    lesson: str | None = None,
    event_id: str | None = None,
    puzzle_id: str | None = None,
) -> FileResponse:
    """The page; 404 (the same page, which then says so) for a game, a player, a lesson or
    a puzzle that does not exist, and for an event's address that is no event id (an event
    that does not exist the page learns from the events API: a private one is not told
    apart)."""
    if lesson is not None and lesson not in lessons():
        return page(404)
    if puzzle_id is not None and (
        PUZZLE_ID.fullmatch(puzzle_id) is None or await hub.db(store.puzzles.get, puzzle_id) is None
    ):
        return page(404)
    if event_id is not None and EVENT_ID.fullmatch(event_id) is None:
        return page(404)
    if game_id is not None:
        known = game_id in hub.games or (
            re.fullmatch(GAME_ID_PATTERN, game_id) is not None
            and await hub.db(store.games.exists, game_id)
        )
        if not known:
            return page(404)
    if name is not None:
        try:
            clean = check_text(name, MAX_NAME)
        except ValueError:
            return page(404)
        if await hub.db(store.accounts.by_name, clean) is None:
            return page(404)
    return page()


@router.get("/api/next", responses=refusals())
async def next_page(
    next_path: Annotated[str | None, Query(alias="next")] = None,
) -> NextPage:
    """Where the page goes after signing in: the page of this server that ``next`` names,
    else the lobby (``local_page``). The page navigates only to what this returns."""
    return {"next": local_page(next_path)}
