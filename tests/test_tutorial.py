"""The tutorial's lessons: each file loads, its position is a legal position of its
ruleset, its solution reaches its goal as the engine judges it, a wrong play fails (the
goal is judged from what happened, not from the actions typed), its texts exist in every
language, and what the learner is sent holds only what the learner's seat may see."""

from __future__ import annotations

from typing import Any

import pytest

from tigris_euphrates import player_view
from tigris_euphrates.tutorial import (
    LANGUAGES,
    MAX_ACTIONS,
    TEXTS,
    LessonError,
    load_lessons,
    play,
)

LESSONS = load_lessons()
#: What the issue asks the tutorial to teach, each by one lesson at least.
TOPICS = {
    "tiles",
    "leaders",
    "revolt",
    "war",
    "monuments",
    "treasures",
    "catastrophes",
    "end",
    "galaxy",
}


def test_every_topic_has_a_lesson_and_the_galaxy_one_is_a_galaxy_game() -> None:
    assert set(LESSONS) >= TOPICS
    assert LESSONS["galaxy"].start().options.ruleset == "galaxy"
    assert [lesson.order for lesson in LESSONS.values()] == sorted(
        lesson.order for lesson in LESSONS.values()
    )


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_the_solution_reaches_the_goal(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    start = play(lesson, [])
    assert start.status == "playing" and start.frame(lesson)["view"]["legal_actions"]
    for n in range(1, len(lesson.solution)):
        assert play(lesson, list(lesson.solution[:n])).status == "playing"
    done = play(lesson, list(lesson.solution))
    assert done.status == "done"
    assert not done.frame(lesson)["view"]["legal_actions"]  # nothing more to play
    with pytest.raises(LessonError) as err:
        play(lesson, [*lesson.solution, "pass"])
    assert err.value.code == "lesson-over"


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_passing_the_turn_fails_the_lesson(lesson_id: str) -> None:
    """Two passes end the learner's turn without the goal: the lesson says it failed."""
    lesson = LESSONS[lesson_id]
    assert play(lesson, ["pass", "pass"]).status == "failed"


def test_the_goal_is_judged_from_what_happened() -> None:
    """The tile placed elsewhere scores nothing: no green point, the lesson is not done;
    the revolt's leader placed but no support committed: the defender wins the tie; the
    end of the game is won only with points in the weakest colour."""
    assert play(LESSONS["tiles"], ["tile green e5", "tile green e6"]).status == "failed"
    lost = play(LESSONS["revolt"], ["leader red j7", "commit 0"])
    assert any(e["type"] == "conflict_resolved" and e["winner"] == 1 for e in lost.steps[-1][2])
    # the learner's leader is back in hand and one action is left: another try, then none
    assert lost.status == "playing"
    assert play(LESSONS["revolt"], ["leader red j7", "commit 0", "pass"]).status == "failed"
    # the end: points in a strong colour lose the game, in the weakest one win it
    assert play(LESSONS["end"], ["tile red k8", "tile red j8"]).status == "failed"
    assert play(LESSONS["end"], ["tile green g7", "tile red j8"]).status == "done"


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_texts_in_every_language(lesson_id: str) -> None:
    texts = LESSONS[lesson_id].texts
    for lang in LANGUAGES:
        assert all(texts[lang][t].strip() for t in TEXTS)
    assert len({texts[lang]["title"] for lang in LANGUAGES}) >= 2  # translated, not copied


def test_a_refused_action_says_why() -> None:
    with pytest.raises(LessonError) as err:
        play(LESSONS["tiles"], ["tile blue h5"])  # a blue tile goes on a river only
    assert err.value.code and err.value.message
    with pytest.raises(LessonError):
        play(LESSONS["tiles"], ["pass"] * (MAX_ACTIONS + 1))


def keys(data: Any) -> set[str]:
    """Every key of a JSON document, at any depth."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys(v)}
    return set()


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_the_learner_sees_only_the_learners_view(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    played = play(lesson, list(lesson.solution))
    frame = played.frame(lesson)
    assert frame["view"] == {**player_view(played.state, lesson.seat), "legal_actions": []}
    assert "bag" not in keys(frame) and "solution" not in keys(frame)  # no draw order
    other = 1 - lesson.seat
    if not played.state.over:  # a finished game shows every hand, as the game's views do
        assert "hand" not in frame["view"]["players"][other]
    for line in frame["log"]:
        for event in line["events"]:
            if event["type"] in ("tiles_drawn", "tiles_swapped") and event["seat"] != lesson.seat:
                assert "tiles" not in event
