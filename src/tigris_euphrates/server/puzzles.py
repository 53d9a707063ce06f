"""Puzzles from real mistakes on the server: where they come from, and what a solver is
shown and told (``routes/puzzles.py`` serves them).

When a finished game's analysis is stored (``analyses.Analyst``), its puzzles are made
(``coach.puzzles.extract``) and stored (``store.puzzles``), if every seat consents: a seat
played by a bot (the server's or a bot account) always does, a person's account does once
its owner turned on "my games may become puzzles" (off by default), a guest never does (no
one could ask them). An aborted or unfinished game makes none. The games analysed before
(before the puzzles existed, or before their players said yes) are made puzzles of by
``harvest_stored`` (``tne admin puzzles``).

A puzzle is shown as a view frame of its decider's seat, like a lesson's (``frame_of``):
the stored view (``player_view`` of the position, nothing else), the seats without their
names, no log. The game it came from, its solution, the move played there and the reason
are told only with the answer to an attempt (``result_of``): the game's replay and
analysis are public, so its id would give the solution away.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import EngineError, apply
from ..ai.determinize import Determinizer
from ..coach.puzzles import answer, extract, puzzle_id
from ..store import Store
from ..store.jsontypes import JsonDict
from ..store.puzzles import Attempt, PuzzleRow, shown
from .answers.meta import LessonFrame, LessonSeat
from .answers.puzzles import PuzzleResult, PuzzleShown, RatingMove
from .dbthread import DatabaseThread
from .errors import GameError
from .limits import ClientRates, Limits
from .live import LiveGame

log = logging.getLogger("tigris_euphrates.server")


def consenting(store: Store, game_id: str) -> bool:
    """Whether every seat of the finished game ``game_id`` lets it become puzzles (see the
    module): its bots, and its people's accounts that said so; never a guest's seat."""
    row = store.games.load(game_id)
    if row.status != "over":
        return False
    bound = store.accounts.seats_of_game(game_id)
    if any(s not in bound and seat.get("kind") != "bot" for s, seat in enumerate(row.seats)):
        return False  # a guest's seat
    accounts = sorted(set(bound.values()))
    bots = store.bots.bot_ids(accounts)
    people = [a for a in accounts if a not in bots]
    said = store.puzzles.consents(people)
    return all(said.get(a, False) for a in people)


class PuzzleDesk:
    """Makes the puzzles of each analysed game (``harvest``, called by the analyst), and
    keeps the guests' answers within ``Limits.puzzle_attempts_per_minute`` (``guest``)."""

    def __init__(
        self, db: DatabaseThread, store: Store, clock: Callable[[], float], limits: Limits
    ) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.per_minute = limits.puzzle_attempts_per_minute
        self.guest_rates = ClientRates(self.per_minute, max(1, int(self.per_minute)))

    def guest(self, client: str) -> None:
        """Count a guest's answer from ``client`` before it is judged; beyond the limit
        raise ``GameError`` (``rate-limited``, 429 with ``Retry-After``)."""
        if not self.guest_rates.take(client):
            raise GameError(
                "rate-limited",
                f"at most {self.per_minute:g} answers to puzzles a minute from one address "
                "without an account: sign in, or try again in a moment",
                retry_after=60 / max(self.per_minute, 1e-9),
                limit="puzzle_attempts_per_minute",
            )

    async def harvest(self, game_id: str, record: JsonDict, analysis: JsonDict) -> int:
        """Store the puzzles of ``game_id``'s record and analysis if its seats consent;
        how many were new. A failure is logged: the analysis stands whatever happens."""
        try:
            if not await self.db(consenting, self.store, game_id):
                return 0
            made = await asyncio.to_thread(extract, record, analysis)
            rows = [(puzzle_id(game_id, int(p["ply"])), p) for p in made]
            return int(await self.db(self.store.puzzles.add, game_id, rows, self.clock()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the puzzles of %s were not made", game_id, extra={"game": game_id})
            return 0


@dataclass
class Harvest:
    """What ``harvest_stored`` did: the finished analyses it read, the games among them
    whose seats consent, the puzzles that were new, and the games it could not make
    puzzles of (game id -> why)."""

    analyses: int = 0
    games: int = 0
    added: int = 0
    failed: dict[str, str] = field(default_factory=dict)


def harvest_stored(store: Store, now: float, page: int = 100) -> Harvest:
    """Make the puzzles of every finished analysis the store holds whose game's seats
    consent now (``consenting``), as ``PuzzleDesk.harvest`` does when an analysis is
    stored: for the games analysed before the puzzles existed, or before their players
    said yes (``tne admin puzzles``). A game's puzzles are stored once (``Puzzles.add``):
    run again, it adds nothing. A game whose puzzles cannot be made is reported; the
    others go on."""
    report = Harvest()
    after: str | None = None
    while analyses := store.analyses.done(after, page):
        for game_id, analysis in analyses:
            report.analyses += 1
            try:
                if not consenting(store, game_id):
                    continue
                report.games += 1
                record = LiveGame(store.games.load(game_id)).record()
                rows = [(puzzle_id(game_id, int(p["ply"])), p) for p in extract(record, analysis)]
                report.added += store.puzzles.add(game_id, rows, now)
            except Exception as exc:  # a game the engine or the analysis refuses
                report.failed[game_id] = f"{type(exc).__name__}: {exc}"
        after = analyses[-1][0]
    return report


def frame_of(row: PuzzleRow) -> LessonFrame:
    """The solver's frame: the decider's view, shaped as a game's view frame."""
    data = row.data
    seat = int(data["seat"])
    seats: list[LessonSeat] = [
        {
            "seat": s,
            "kind": "human",
            "level": None,
            "name": "",
            "online": True,
            "away": False,
            "offline_since": None,
        }
        for s in range(row.players)
    ]
    return {
        "type": "view",
        "game": f"puzzle-{row.id}",
        "seq": 0,
        "seat": seat,
        "view": data["view"],
        "seats": seats,
        "can_undo": False,
        "chat": "off",
        "rematch": None,
        "clock": None,
        "timeouts": [],
        "log_reset": True,
        "log": [],
        "stats": None,
    }


def shown_puzzle(row: PuzzleRow, tried: bool) -> PuzzleShown:
    """What a solver sees of a puzzle before answering it: never its solution."""
    return {
        "id": row.id,
        "seat": int(row.data["seat"]),
        "family": row.family,
        "options": row.data["options"],
        "rating": shown(row.mu),
        "attempts": row.attempts,
        "solved": row.solved,
        "tried": tried,
        "frame": frame_of(row),
    }


def judge(row: PuzzleRow, action: str) -> tuple[str, bool]:
    """An attempt's action in notation and whether it solves the puzzle; an action that
    is none, or is not legal in the puzzle's position, is refused saying why."""
    try:
        canonical, legal, correct = answer(row.data, action)
    except EngineError as err:
        raise GameError("bad-action", f"{action!r} is not an action: {err}") from None
    if not legal:
        raise GameError(
            "illegal-action", f"{canonical} is not legal here: {why_illegal(row, canonical)}"
        )
    return canonical, correct


def why_illegal(row: PuzzleRow, action: str) -> str:
    """Why ``action`` is not legal in the puzzle's position, in the engine's words: it is
    tried on one deal of the tiles the decider cannot see (legality never depends on them)."""
    state = Determinizer(row.data["view"]).sample(random.Random(0))
    try:
        apply(state, action)
    except EngineError as err:
        return str(err)
    return "it is not one of the position's legal actions"


def rating_move(before: float, after: float) -> RatingMove:
    """A rating's move, as shown."""
    return {"before": shown(before), "after": shown(after), "change": shown(after) - shown(before)}


def result_of(row: PuzzleRow, action: str, correct: bool, attempt: Attempt | None) -> PuzzleResult:
    """The answer to an attempt: right or wrong, the solution, the move played in the game,
    the reason, the chance lost, where it came from, and the ratings' moves (``attempt``:
    the account's stored attempt; None: a guest's, rated for nobody)."""
    data = row.data
    reason = data.get("reason")
    return {
        "id": row.id,
        "action": action,
        "correct": correct,
        "solution": str(data["solution"]),
        "accepted": [str(a) for a in data["accepted"]],
        "played": str(data["played"]),
        "reason": reason if isinstance(reason, dict) else None,
        "loss": float(data["loss"]),
        "game": row.game_id,
        "ply": row.ply,
        "rated": attempt is not None and attempt.first,
        "rating": None if attempt is None else rating_move(attempt.mu_before, attempt.mu),
        "puzzle_rating": shown(row.mu),
    }
