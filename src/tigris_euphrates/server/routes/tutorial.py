"""The tutorial's lessons (``tigris_euphrates.tutorial``): ``GET /api/lessons`` lists them,
``GET /api/lessons/{id}`` is one lesson's texts, goal and starting frame, and
``POST /api/lessons/{id}/play`` replays it with the learner's actions so far and says
whether the goal is reached (``status``: ``playing``, ``done`` or ``failed``).

The server keeps nothing between requests: the page sends every action of the attempt
again. What it answers is what the learner's seat may see (the seat's view and the events as
that seat heard them, as in a game's view frame), never the lesson's hands or bag, nor its
solution. An action the lesson does not take is refused (400, its engine code) and changes
nothing. The routes that replay are plain functions, which FastAPI runs on its worker threads:
the event loop never waits on a replay (the other seats' decisions are a greedy bot's, a
few milliseconds each; a play holds at most ``tutorial.MAX_ACTIONS`` actions).
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, cast

from fastapi import APIRouter
from fastapi import Path as PathParam

from ...tutorial import Lesson, LessonError, Played, load_lessons, play
from ..answers import meta as answers
from ..answers.errors import refusals
from ..errors import GameError
from ..inputs import LessonPlay

#: A lesson's id (its file's name).
LessonId = Annotated[str, PathParam(pattern=r"^[a-z0-9_-]{1,32}$")]

router = APIRouter()


@cache
def lessons() -> dict[str, Lesson]:
    """The lessons, read once."""
    return load_lessons()


def lesson_of(lesson_id: str) -> Lesson:
    lesson = lessons().get(lesson_id)
    if lesson is None:
        raise GameError("no-lesson", f"there is no lesson {lesson_id!r}")
    return lesson


def summary_of(lesson: Lesson) -> answers.LessonSummary:
    """What the list shows of a lesson (``Lesson.summary`` builds it)."""
    return cast(answers.LessonSummary, lesson.summary())


def frame_of(played: Played, lesson: Lesson) -> answers.LessonFrame:
    """The learner's frame (``Played.frame`` builds it)."""
    return cast(answers.LessonFrame, played.frame(lesson))


@router.get("/api/lessons")
async def lesson_list() -> answers.Lessons:
    """Every lesson in order: id, ruleset, options and title in each language."""
    return {"lessons": [summary_of(lesson) for lesson in lessons().values()]}


@router.get("/api/lessons/{lesson_id}", responses=refusals("no-lesson"))
def lesson_start(lesson_id: LessonId) -> answers.Lesson:
    """A lesson's texts (every language) and the frame it starts from."""
    lesson = lesson_of(lesson_id)
    played = play(lesson, [])
    return {**summary_of(lesson), "texts": lesson.texts, "frame": frame_of(played, lesson)}


@router.post(
    "/api/lessons/{lesson_id}/play", responses=refusals("no-lesson", "lesson-over", "too-many")
)
def lesson_play(lesson_id: LessonId, body: LessonPlay) -> answers.LessonPlayed:
    """The lesson replayed with ``body.actions``: its status and the learner's frame."""
    lesson = lesson_of(lesson_id)
    try:
        played = play(lesson, list(body.actions))
    except LessonError as err:
        raise GameError(err.code, err.message) from None
    return {"status": played.status, "frame": frame_of(played, lesson)}
