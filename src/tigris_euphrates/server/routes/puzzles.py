"""Puzzles from real mistakes over HTTP (``server/puzzles.py`` says where they come from and
what a solver is told):

- ``GET /api/puzzles/next``: the next puzzle for the signed-in account, the nearest to its
  puzzle rating among those it never tried, and its rating; a guest gets one too (the
  nearest to the default rating, past the ones its page lists in ``skip``), unrated;
- ``GET /api/puzzles/{id}``: a puzzle as its solver sees it, never its solution;
- ``POST /api/puzzles/{id}/attempt`` ``{"action"}``: right or wrong, the solution, the move
  played in the game, the reason, and the ratings' moves. An account's first attempt at a
  puzzle is rated, once (``store.puzzles``); a later one is answered without rating
  anything. An action that is none, or not legal in the position, is refused saying why;
  a guest's answers are limited per client (``Limits.puzzle_attempts_per_minute``);
- ``GET`` and ``POST /api/account/puzzles`` ``{"share"}``: the account setting "my games may
  become puzzles" (off until turned on).

Posts from a signed-in browser carry the CSRF token; a guest's attempt changes nothing.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam

from ...store.puzzles import PuzzleRow, shown
from ..answers import puzzles as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, Client, CurrentAccount, HubDep, SignedIn, StoreDep
from ..errors import GameError
from ..hub import Hub
from ..inputs import ActionText, Strict
from ..puzzles import judge, result_of, shown_puzzle

router = APIRouter()

#: A puzzle's id: 12 hex digits.
PUZZLE_ID_PATTERN = r"^[0-9a-f]{12}$"
PuzzleId = Annotated[str, PathParam(pattern=PUZZLE_ID_PATTERN)]
#: The puzzles a guest's page saw last (at most 50 ids, by commas).
Skip = Annotated[str | None, Query(max_length=650, pattern=r"^[0-9a-f]{12}(,[0-9a-f]{12}){0,49}$")]


class PuzzleAnswer(Strict):
    """``POST /api/puzzles/{id}/attempt``: the action, in notation."""

    action: ActionText


class ConsentChange(Strict):
    """``POST /api/account/puzzles``: whether the account's games may become puzzles."""

    share: bool


async def _puzzle(hub: Hub, puzzle_id: str) -> PuzzleRow:
    row: PuzzleRow | None = await hub.db(hub.store.puzzles.get, puzzle_id)
    if row is None:
        raise GameError("no-puzzle", f"there is no puzzle {puzzle_id}")
    return row


@router.get("/api/puzzles/next", responses=refusals())
async def next_puzzle(
    account: CurrentAccount, hub: HubDep, store: StoreDep, skip: Skip = None
) -> answers.PuzzleNext:
    """The next puzzle to try (``None``: none left) and the account's puzzle rating."""
    me = None if account is None else account.id
    row = await hub.db(store.puzzles.next_for, me, skip.split(",") if skip else [])
    rating: answers.PuzzleRating | None = None
    if me is not None:
        mine = await hub.db(store.puzzles.rating_of, me)
        rating = {"rating": shown(mine.mu), "attempts": mine.attempts, "solved": mine.solved}
    return {"puzzle": None if row is None else shown_puzzle(row, False), "rating": rating}


@router.get("/api/puzzles/{puzzle_id}", responses=refusals("no-puzzle"))
async def one_puzzle(
    puzzle_id: PuzzleId, account: CurrentAccount, hub: HubDep, store: StoreDep
) -> answers.PuzzleShown:
    """A puzzle before an answer: the decider's view, never the solution."""
    row = await _puzzle(hub, puzzle_id)
    tried = account is not None and (
        await hub.db(store.puzzles.attempt_of, puzzle_id, account.id) is not None
    )
    return shown_puzzle(row, tried)


@router.post(
    "/api/puzzles/{puzzle_id}/attempt",
    responses=refusals("csrf", "rate-limited", "no-puzzle", "bad-action", "illegal-action"),
)
async def attempt(
    puzzle_id: PuzzleId,
    body: PuzzleAnswer,
    request: Request,
    service: AccountsDep,
    hub: HubDep,
    store: StoreDep,
    client: Client,
) -> answers.PuzzleResult:
    """An answer: judged, rated once for an account (its first attempt), never for a
    guest (whose answers a minute are limited); the solution and what the game's player
    did."""
    account = await service.current(request)
    if account is not None:
        service.check_csrf(request)
    else:
        hub.puzzles.guest(client)  # counted before the work, whatever the answer
    row = await _puzzle(hub, puzzle_id)
    action, correct = judge(row, body.action)
    if account is None:
        return result_of(row, action, correct, None)
    stored = await hub.db(store.puzzles.attempt, puzzle_id, account.id, action, correct)
    row = await _puzzle(hub, puzzle_id)  # its rating after the attempt
    return result_of(row, action, correct, stored)


@router.get("/api/account/puzzles", responses=refusals("sign-in"))
async def get_consent(account: SignedIn, hub: HubDep, store: StoreDep) -> answers.PuzzleConsent:
    """Whether the account's games may become puzzles."""
    return {"share": bool(await hub.db(store.puzzles.consent, account.id))}


@router.post("/api/account/puzzles", responses=refusals("csrf", "sign-in"))
async def set_consent(
    body: ConsentChange, request: Request, service: AccountsDep, hub: HubDep, store: StoreDep
) -> answers.PuzzleConsent:
    """Let the account's games become puzzles, or not (games analysed from now on)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    await hub.db(store.puzzles.set_consent, account.id, body.share, hub.clock())
    return {"share": body.share}
