"""The answers the page reads before it draws anything (``routes/meta.py``,
``routes/catalogues.py``, ``routes/pages.py``, ``routes/tutorial.py``): the server's facts,
the message catalogues, where to go after signing in, the tutorial's lessons; and the
health checks (``routes/health.py``)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from ...store.jsontypes import JsonDict
from ...store.rows import SentOptions
from ..frames import LogLine, TimeoutNote


class Meta(TypedDict):
    """The bot levels (weakest first), the rulesets and their facts (``Ruleset.facts``),
    and the settings the page follows."""

    bot_levels: list[str]
    default_level: str
    timeout_level: str
    default_ruleset: str
    rulesets: list[JsonDict]
    seat_absence_seconds: int | float
    chat_max: int
    confirm_seconds: int | float


class Catalogues(TypedDict):
    """The languages (and each one's name in itself) and themes with a catalogue."""

    languages: list[str]
    themes: list[str]
    default_language: str
    names: dict[str, str]


class NextPage(TypedDict):
    """The page of this server to go to after signing in."""

    next: str


class LessonSummary(TypedDict):
    """A lesson as the list shows it: its ruleset, options and title in each language."""

    id: str
    ruleset: str
    options: SentOptions
    title: dict[str, str]


class Lessons(TypedDict):
    lessons: list[LessonSummary]


class LessonSeat(TypedDict):
    seat: int
    kind: str
    level: str | None
    name: str
    online: bool
    away: bool
    offline_since: None


class LessonFrame(TypedDict):
    """The learner's side of a lesson, shaped as a game's view frame (``ViewFrame``)."""

    type: Literal["view"]
    game: str
    seq: int
    seat: int
    view: JsonDict
    seats: list[LessonSeat]
    can_undo: bool
    chat: str
    rematch: None
    clock: None
    timeouts: list[TimeoutNote]
    log_reset: bool
    log: list[LogLine]
    stats: None


class Lesson(LessonSummary):
    """A lesson's texts (every language) and the frame it starts from."""

    texts: dict[str, dict[str, str]]
    frame: LessonFrame


class LessonPlayed(TypedDict):
    """The lesson replayed with the learner's actions: ``playing``, ``done`` or
    ``failed``, and the learner's frame."""

    status: str
    frame: LessonFrame


class Alive(TypedDict):
    alive: bool
