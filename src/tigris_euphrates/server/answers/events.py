"""The answers of live events (``routes/events.py``): the list, an event's page (standings,
games, your own place), and its results as a tournament record."""

from __future__ import annotations

from typing_extensions import TypedDict

from ...store.rows import SentOptions


class EventPace(TypedDict):
    """An event's games' clock: real time, ``base`` seconds a player plus ``increment`` a
    turn."""

    kind: str
    base: float
    increment: float


class EventSummary(TypedDict):
    """An event as the list shows it. ``ends``: an arena's end; ``rounds`` and ``round``: a
    Swiss event's (0 before its start); ``options``: its games' (the ruleset among them when
    not the default; the players aside); ratings are displayed ratings; ``now``: the
    server's clock, for the countdowns."""

    id: str
    name: str
    kind: str
    state: str
    starts: float
    ends: float | None
    rounds: int | None
    round: int
    players: int
    ruleset: str
    options: SentOptions
    pace: EventPace
    rating_min: float | None
    rating_max: float | None
    bots: bool
    private: bool
    entrants: int
    maker: str
    repeat_minutes: int | None
    now: float


class Events(TypedDict):
    """The public events: to come and under way, then the newest finished."""

    events: list[EventSummary]


class StandingLine(TypedDict):
    """One line of an event's standings: ``points`` as shown (``2½``), ``score`` as a
    number; ``playing``: the entrant's game under way; ``on_fire``: an arena streak."""

    rank: int
    name: str
    bot: bool
    rating: float | None
    points: str
    score: float
    games: int
    wins: int
    playing: str | None
    state: str
    on_fire: bool


class EventGame(TypedDict):
    """A game of the event: its players in seat order, its Swiss round, and each seat's
    place (0 = first) once over."""

    id: str
    round: int | None
    seats: list[str]
    over: bool
    ranks: list[int] | None


class MyEntry(TypedDict):
    """The signed-in account's part in the event: entered or not, its state, its game
    under way, and whether it has a bye this Swiss round."""

    entered: bool
    state: str | None
    game: str | None
    bye: bool


class EventDetail(EventSummary):
    """An event's page: the scoring rule and tie-breaks (keys the page words), standings,
    games (under way first), your entry, the podium once finished and, for the maker of a
    private event, its invitation code."""

    scoring: str
    tiebreaks: list[str]
    standings: list[StandingLine]
    games: list[EventGame]
    me: MyEntry | None
    podium: list[str]
    invite: str | None


class EventResult(TypedDict):
    """One finished game as a tournament record holds it: names in seat order, places."""

    seats: list[str]
    ranks: list[int]


class EventRecord(TypedDict):
    """An event's results as a tournament summary ``tne ratings`` reads (``players``: a
    game's; ``bots``: every entrant's name; ``results``: the finished games in order)."""

    players: int
    bots: list[str]
    results: list[EventResult]
    event: EventSummary
