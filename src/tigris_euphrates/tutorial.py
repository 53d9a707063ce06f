"""The tutorial: lessons played on positions, each with a goal the engine judges.

A lesson is a data file in ``lessons/`` (``tne-lesson/1``, docs/web.md *Tutorial*): a
position (``tne-position/1``), the seat the learner plays, a goal, the texts (title,
introduction, goal, what happened when it is reached and when it is missed) in every
language of the page, and a solution (the learner's actions that reach the goal: the tests
play it). The other seats' decisions (a defender's support, say) are made by a seeded bot
from their own views, so a lesson always answers the same way to the same play.

``play`` replays a lesson from its position with the learner's actions so far, as the
learner's page sends them, and judges it: ``done`` once an event of the goal happened (or,
for a game's end, the learner won it), ``failed`` once the learner's turn is over (another
seat is to act, or the game ended) without it, else ``playing``. It is stateless: the page
sends every action again, and the server keeps nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from . import EngineError, State, apply, from_position, player_view, redact_event, result, to_act
from .ai import Budget, make_bot

FORMAT = "tne-lesson/1"
#: The languages every lesson's texts are written in (the page's languages).
LANGUAGES = ("en", "de", "fr")
#: The texts of a lesson, each in every language.
TEXTS = ("title", "intro", "goal", "done", "failed")
#: The level and seed of the bot that makes the other seats' decisions.
OPPONENT = "greedy"
#: The most actions a lesson's play may hold (a lesson is one turn and its decisions).
MAX_ACTIONS = 12


class LessonError(ValueError):
    """A lesson file that breaks the format, or a play the lesson refuses."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Lesson:
    """One lesson, as read from its file."""

    id: str
    order: int
    seat: int
    position: dict[str, Any]
    goal: dict[str, Any]
    solution: tuple[str, ...]
    texts: dict[str, dict[str, str]]

    def start(self) -> State:
        """The lesson's position, as the engine loads it."""
        return from_position(self.position)

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: the id, the ruleset and the titles."""
        return {
            "id": self.id,
            "ruleset": self.position["options"].get("ruleset", "classic"),
            "options": self.position["options"],
            "title": {lang: self.texts[lang]["title"] for lang in LANGUAGES},
        }


@dataclass
class Played:
    """A lesson replayed with the learner's actions: the state reached, every step's
    events as the learner heard them, and the verdict."""

    state: State
    steps: list[tuple[int | None, str, list[dict[str, Any]]]]
    status: str

    def frame(self, lesson: Lesson) -> dict[str, Any]:
        """The learner's side of it, shaped as the game's view frame (``frames.ViewFrame``)
        so that the page draws it as it draws a game: only what the learner's seat may
        see."""
        seat = lesson.seat
        seats = [
            {
                "seat": s,
                "kind": "human" if s == seat else "bot",
                "level": None if s == seat else OPPONENT,
                "name": "" if s == seat else f"{OPPONENT} {s + 1}",
                "online": True,
                "away": False,
                "offline_since": None,
            }
            for s in range(self.state.options.players)
        ]
        view = player_view(self.state, seat)
        if self.status != "playing":
            view["legal_actions"] = []
        log = [
            {"seq": n + 1, "seat": who, "action": action, "events": events}
            for n, (who, action, events) in enumerate(self.steps)
        ]
        return {
            "type": "view",
            "game": f"lesson-{lesson.id}",
            "seq": len(self.steps),
            "seat": seat,
            "view": view,
            "seats": seats,
            "can_undo": False,
            "chat": "off",
            "rematch": None,
            "clock": None,
            "timeouts": [],
            "log_reset": True,
            "log": log,
            "stats": None,
        }


def _check_lesson(data: dict[str, Any], name: str) -> None:
    if data.get("format") != FORMAT:
        raise LessonError("bad-lesson", f"{name}: format is not {FORMAT}")
    for lang in LANGUAGES:
        texts = data.get("texts", {}).get(lang, {})
        missing = [t for t in TEXTS if not texts.get(t)]
        if missing:
            raise LessonError("bad-lesson", f"{name}: no {lang} text for {', '.join(missing)}")
    goal = data.get("goal", {})
    if "event" not in goal and goal.get("win") is not True:
        raise LessonError("bad-lesson", f"{name}: a goal is an event to make or a game to win")


def load_lessons() -> dict[str, Lesson]:
    """Every lesson of the package, in their order."""
    found = []
    for entry in resources.files("tigris_euphrates.lessons").iterdir():
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text(encoding="utf-8"))
        _check_lesson(data, entry.name)
        found.append(
            Lesson(
                id=entry.name.removesuffix(".json"),
                order=int(data["order"]),
                seat=int(data["seat"]),
                position=data["position"],
                goal=data["goal"],
                solution=tuple(data["solution"]),
                texts=data["texts"],
            )
        )
    return {lesson.id: lesson for lesson in sorted(found, key=lambda x: x.order)}


def reached(lesson: Lesson, state: State, events: list[dict[str, Any]]) -> bool:
    """Whether ``events`` (one step's, or the game's end in ``state``) meet the goal."""
    goal = lesson.goal
    if goal.get("win"):
        outcome = result(state)
        return outcome is not None and outcome["ranking"][0] == lesson.seat
    wanted = {k: lesson.seat if v == "you" else v for k, v in goal.get("match", {}).items()}
    return any(
        e["type"] == goal["event"] and all(e.get(k) == v for k, v in wanted.items()) for e in events
    )


def play(lesson: Lesson, actions: list[str]) -> Played:
    """Replay ``lesson`` with the learner's ``actions`` (raises ``LessonError`` for one the
    lesson does not take: not the learner's decision, illegal, or played after its end)."""
    if len(actions) > MAX_ACTIONS:
        raise LessonError("too-many", f"a lesson takes at most {MAX_ACTIONS} actions")
    state = lesson.start()
    steps: list[tuple[int | None, str, list[dict[str, Any]]]] = []
    status = "playing"
    todo = list(actions)
    opponent = make_bot(OPPONENT, 0)
    while status == "playing":
        actor = to_act(state)
        if actor is None:
            break
        if actor != lesson.seat:
            action = opponent.choose(player_view(state, actor), Budget())
        elif todo:
            action = todo.pop(0)
        else:
            break
        try:
            state, events = apply(state, action)
        except EngineError as exc:
            raise LessonError(exc.code, exc.message) from None
        heard = [redact_event(e, lesson.seat) for e in events]
        steps.append((actor, str(action), heard))
        if reached(lesson, state, heard):
            status = "done"
        elif state.over or (to_act(state) != lesson.seat and state.decision is None):
            status = "failed"
    if todo:
        raise LessonError("lesson-over", "the lesson is over: start it again to play more")
    return Played(state, steps, status)
