"""The answers of the games' routes (``routes/games.py``, ``routes/analysis.py``): the
lobby's pages, a new game, a game's summary, a seat's view, the replay and the move list of
a finished game, a rematch, an analysis (``store.analyses.AnalysisState``)."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from ...store.analyses import AnalysisState
from ...store.jsontypes import JsonDict
from ...store.rows import GameResult, PaceData, SentOptions
from ..clocks import ClockData
from ..frames import LogLine, SeatInfo, SeatNote, TimeoutNote

__all__ = [
    "AnalysisState",
    "GameSummary",
    "GamesPage",
    "LobbyGame",
    "LobbySeat",
    "MoveList",
    "NewGame",
    "NewSeat",
    "Ranking",
    "RematchAnswer",
    "ReplayStep",
    "SeatView",
]

#: A result's ranking, best first: a seat, or a list of seats sharing a place.
Ranking = list[int | list[int]]


class LobbySeat(TypedDict):
    """A seat as the lobby lists it (``kind``: ``human`` or ``bot``; ``level``: the bot's)."""

    seat: int
    kind: str | None
    level: str | None
    name: str
    named: bool


class LobbyGame(TypedDict):
    """A game as the lobby lists it: a few hundred bytes whatever its length."""

    id: str
    created: float
    status: str
    options: SentOptions
    seats: list[LobbySeat]
    ranking: Ranking | None
    rated: bool
    #: the game's pace (``None``: no clock)
    pace: NotRequired[PaceData | None]


class GamesPage(TypedDict):
    """A page of the lobby, newest first, and the cursor of the next page (``?before=``)."""

    games: list[LobbyGame]
    next: str | None


class NewSeat(TypedDict):
    """A seat of a new game: its secret token and link (``None`` for a bot's seat)."""

    seat: int
    kind: str
    token: str | None
    link: str | None


class NewGame(TypedDict):
    """A new game: its seats' tokens, the spectators' link and the creator's token."""

    id: str
    seats: list[NewSeat]
    spectator_link: str
    creator_token: str | None
    rated: bool


class GameSummary(TypedDict):
    """A game as everybody may see it (``status``: ``active``, ``over`` or ``aborted``)."""

    id: str
    created: float
    options: SentOptions
    seats: list[SeatInfo]
    status: Literal["active", "over", "aborted"]
    seq: int
    to_act: int | None
    result: GameResult | None
    listed: bool
    rated: bool
    clock: ClockData | None
    timeouts: list[TimeoutNote]


class SeatView(TypedDict):
    """What a seat (``None``: a spectator) sees of the game at step ``seq``."""

    seq: int
    seat: int | None
    view: JsonDict


class ReplayStep(TypedDict):
    """Step ``step`` of ``total`` of a finished game: the action played, by whom, and the
    public view after it (every hand shown)."""

    id: str
    step: int
    total: int
    action: str | None
    actor: int | None
    seats: list[SeatInfo]
    view: JsonDict


class MoveList(TypedDict):
    """The move list of a finished game, nothing hidden, its seat notes and statistics."""

    id: str
    seats: list[SeatInfo]
    log: list[LogLine]
    seat_log: list[SeatNote]
    stats: JsonDict
    aborted: bool


class RematchAnswer(TypedDict):
    """The rematch's game and page."""

    id: str
    link: str
