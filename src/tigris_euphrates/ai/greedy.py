"""The greedy player: one-step look-ahead with the static evaluation.

For every legal action it plays the action on a state built from its view, lets the decisions
inside that action (support, war order, monument, treasure) run with the fixed policies of
``evaluate.settle``, and scores the result with ``evaluate.value_for``. When the outcome
depends on hidden tiles (a conflict: the opponent's support; a swap: the draw) it averages
over several determinizations, so it attacks in conflicts it can expect to win.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..engine import State, apply_unchecked, parse_action
from ..engine.actions import Action
from ..engine.state import ACTION
from .base import Budget
from .determinize import Determinizer, HandBounds, RedRestraint, ScoreTally
from .evaluate import BASIC, Weights, settle, value_for
from .red_evidence import RedEvidence
from .red_reading import READING, read_action, turn_action

_PARSED: dict[str, Action] = {}


def parse(text: str) -> Action:
    a = _PARSED.get(text)
    if a is None:
        a = _PARSED[text] = parse_action(text)
    return a


def rank_actions(
    state: State,
    seat: int,
    actions: list[Action],
    worlds: list[State] | None = None,
    wt: Weights = BASIC,
) -> list[tuple[float, Action]]:
    """(value for ``seat``, action) for each action, best first (stable for equal values).

    ``state`` is one world; ``worlds`` (optional, each of which must allow the actions) are
    used to average the actions whose outcome depends on hidden tiles.
    """
    scored: list[tuple[float, int, Action]] = []
    for i, a in enumerate(actions):
        s2 = apply_unchecked(state, a)
        # Only decisions inside the action (support!) depend much on hidden tiles; a swap's
        # draw changes nothing the evaluation looks at but the hand size, so one world will do.
        if worlds and s2.stage != ACTION:
            total = 0.0
            for w in worlds:
                total += value_for(settle(apply_unchecked(w, a)), seat, wt)
            v = total / len(worlds)
        else:
            v = value_for(settle(s2), seat, wt)
        scored.append((v, i, a))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(v, a) for v, _, a in scored]


class ViewBot:
    """Shared plumbing: a seeded RNG, the score tally, what conflicts told of the other
    hands, determinizers from views."""

    name = "view"
    #: Deal the other hands within what their lost defences showed (``HandBounds``); off,
    #: every world is dealt uniformly from the unseen tiles.
    infer_hands = False
    #: The chance that a seat holding red plays no red tile in a turn action
    #: (``RedRestraint``); 1: turn actions say nothing of the other hands.
    keep_red = 1.0
    #: Deal each other seat's red tiles by what its turn actions said of them, read with
    #: the greedy player's frequencies (``RedEvidence``); off, red is dealt uniformly.
    red_evidence = False
    #: Deal the other hands with these colour weights (red, blue, green, black): how much
    #: likelier a tile of the colour is to be held than to lie in the bag. None: uniform.
    hand_weights: tuple[float, float, float, float] | None = None
    #: Deal each other seat's red tiles by what its turn actions said of them, read in each
    #: position (``red_reading``: would a one-step player holding that many red tiles have
    #: placed one, or started a revolt, rather than what it did?), with the revolts and what
    #: was kept after red read by kind (``RedEvidence``). Needs the referee to show the bot
    #: the board before the others' turn actions (``reads_play``, ``watch``).
    red_reading = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.tally = ScoreTally()
        self.hand_bounds = HandBounds()
        self.red = RedRestraint()
        self.red_seen = RedEvidence(READING if self.red_reading else None)
        self._last_ply = -1
        self._watched: dict[str, Any] | None = None
        #: Its own RNG, so that reading the others' play leaves the decisions' draws alone.
        self._reading_rng = random.Random(seed + 7919)

    @property
    def reads_play(self) -> bool:
        """Whether this bot wants its view before every other seat's turn action."""
        return self.red_reading

    def watch(self, view: dict[str, Any]) -> None:
        """The board as this seat sees it before another seat's turn action."""
        self._watched = view

    def observe(self, events: list[dict[str, Any]]) -> None:
        watched, self._watched = self._watched, None
        if watched is not None and watched.get("seat") is not None:
            actor = watched["turn"]["player"]
            action = turn_action(events, actor)
            if action is not None and actor != watched["seat"]:
                det = Determinizer(watched, self.tally.scores(watched))
                vec = read_action(det, actor, action, self._reading_rng)
                if vec is not None:
                    self.red_seen.read(actor, vec)
        self.tally.observe(events)
        self.hand_bounds.observe(events)
        self.red.observe(events)
        self.red_seen.observe(events)

    def determinizer(self, view: dict[str, Any]) -> Determinizer:
        ply = view.get("ply", 0)
        if ply < self._last_ply:  # a new game with the same bot
            self.tally.reset()
            self.hand_bounds.reset()
            self.red.reset()
            self.red_seen.reset()
        self._last_ply = ply
        bounds = self.hand_bounds.bounds if self.infer_hands else None
        odds = self._red_odds(view) if self.red_evidence or self.red_reading else None
        return Determinizer(
            view,
            self.tally.scores(view),
            bounds,
            restraint=self.red.groups,
            keep_red=self.keep_red,
            red_odds=odds,
            hand_weights=self.hand_weights,
        )

    def _red_odds(self, view: dict[str, Any]) -> dict[int, list[float]]:
        """Each other seat's red-count posterior, its hand drawn from the unseen tiles."""
        unseen = view["unseen"]
        pool = sum(unseen.values())
        red = unseen["red"]
        return {
            p: self.red_seen.posterior(p, entry["hand_size"], red, pool)
            for p, entry in enumerate(view["players"])
            if p != view["seat"]
        }

    @staticmethod
    def legal(view: dict[str, Any]) -> list[str]:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("the view offers no legal action: it is not this seat's decision")
        return list(legal)


class GreedyBot(ViewBot):
    """One-step look-ahead with the static evaluation (see module docstring)."""

    name = "greedy"
    worlds = 8
    temperature = 0.0
    weights: Weights = BASIC

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        det = self.determinizer(view)
        worlds = [det.sample(self.rng) for _ in range(self.worlds)]
        actions = [parse(t) for t in legal]
        ranked = rank_actions(worlds[0], det.seat, actions, worlds, self.weights)
        if self.temperature <= 0:
            return str(ranked[0][1])
        best = ranked[0][0]
        weights = [math.exp((v - best) / self.temperature) for v, _ in ranked]
        pick = self.rng.random() * sum(weights)
        for w, (_, a) in zip(weights, ranked, strict=True):
            pick -= w
            if pick <= 0:
                return str(a)
        return str(ranked[-1][1])


class EasyBot(GreedyBot):
    """The greedy look-ahead, but it picks among good actions at random (softmax, T = 1)."""

    name = "easy"
    worlds = 3
    temperature = 1.0
