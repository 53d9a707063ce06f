"""The answers of the puzzle routes (``routes/puzzles.py``): a puzzle as a solver sees it
before answering (never its solution), the next one, the answer to an attempt, the
account's puzzle rating and its setting "my games may become puzzles"."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.jsontypes import JsonDict
from ...store.rows import SentOptions
from .meta import LessonFrame


class PuzzleShown(TypedDict):
    """A puzzle before an answer: its decider's seat, the game's options, its shown
    rating, the rated attempts at it and how many solved it, whether the signed-in account
    tried it already, and the decider's view as a game's view frame."""

    id: str
    seat: int
    family: str
    options: SentOptions
    rating: int
    attempts: int
    solved: int
    tried: bool
    frame: LessonFrame


class PuzzleRating(TypedDict):
    """The signed-in account's puzzle rating (shown), its rated attempts and how many it
    solved."""

    rating: int
    attempts: int
    solved: int


class PuzzleNext(TypedDict):
    """The next puzzle (``None``: none left to try) and the account's puzzle rating
    (``None``: a guest, whose attempts are not rated)."""

    puzzle: PuzzleShown | None
    rating: PuzzleRating | None


class RatingMove(TypedDict):
    """A shown rating before and after an attempt."""

    before: int
    after: int
    change: int


class PuzzleResult(TypedDict):
    """The answer to an attempt: the action (in notation), whether it solves the puzzle,
    the solution (and every action accepted), the move played in the game, the analysis's
    reason (``{"code", "args"}``, or ``None``), the chance of winning that move lost, the
    game and ply it came from, whether this attempt was rated (an account's first), the
    account's rating move by its rated attempt (``None``: a guest) and the puzzle's rating."""

    id: str
    action: str
    correct: bool
    solution: str
    accepted: list[str]
    played: str
    reason: JsonDict | None
    loss: float
    game: str
    ply: int
    rated: bool
    rating: RatingMove | None
    puzzle_rating: int


class PuzzleConsent(TypedDict):
    """The account setting "my games may become puzzles" (off until turned on)."""

    share: bool
