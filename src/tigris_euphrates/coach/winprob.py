"""A calibrated win probability: how likely a seat is to finish first, from what it may see.

The model is a conditional logit over the seats: each seat gets a linear score of its
features (``FEATURES``: its colour totals after treasures, lowest first, the static
evaluation of its position, leaders on the board, catastrophes left, each also weighted by
how near the end the game is) and the probability that seat ``p`` finishes first is the
softmax of the scores. With two players that is a logistic model of the feature
differences. The weights (one set per player count, and per kind of game where one was
fitted: the galaxy ruleset, the advanced game's wonder and buildings) are a small JSON file
beside this module, fitted offline by ``bench/winprob.py`` on games between the bots, the
search levels among them, and measured there on games it never saw (docs/ai.md, "Win
probability").

Every feature is public but the score rows: the board, the leaders, the catastrophes, the
hand *sizes* and the bag's size. During a game a seat knows its own score row and, under
hidden scoring, the others' from the public ``points_scored`` / ``treasure_taken`` events it
heard (``ai.ScoreTally``); ``win_probability(view, scores)`` takes exactly that and never
anything hidden. After the game the whole record is open and ``state_probabilities`` reads
the true state (whose public features are the same). A finished game is certain: the winner
gets 1, the others 0 (a first place shared by k seats: 1/k each).

Standard library only, like the engine and the bots: the hints of a live game and the
post-game analysis both call it.
"""

from __future__ import annotations

import json
import math
import random
from functools import cache
from pathlib import Path
from typing import Any, Final

from .. import DEFAULT_RULESET, RULESETS, State, final_totals
from ..ai.determinize import Determinizer
from ..ai.evaluate import FULL, seat_values

FORMAT: Final = "tne-winprob/1"
MODEL_FILE: Final = Path(__file__).resolve().parent / "winprob.json"

#: The per-seat quantities, each used as is and weighted by the game's progress (``_PHASES``).
BASE: Final = ("lowest", "second", "third", "highest", "value", "leaders", "catastrophes")
_PHASES: Final = ("", "*late", "*end")
#: The feature names, in the order of the weights in the model file.
FEATURES: Final = tuple(f"{b}{p}" for p in _PHASES for b in BASE)


def progress(state: State) -> float:
    """How near the end the game is, from near 0 towards 1: 5 / (5 + own turns left), the
    turns estimated from the bag's public size as the evaluation does (about 2.2 tiles a
    turn); a half when five own turns are left."""
    turns = state.bag_left / (2.2 * state.options.players)
    return 5.0 / (5.0 + turns)


def seat_features(state: State) -> list[list[float]]:
    """Each seat's feature vector (``FEATURES``), from the public part of ``state`` and its
    score rows only (the evaluation reads hands by their size)."""
    n = state.options.players
    values = seat_values(state, FULL)
    late = progress(state)
    end = late**3
    out = []
    for p in range(n):
        *row, treasures = state.score(p)
        totals = final_totals(list(row), treasures)
        base = [
            float(totals[0]),
            float(totals[1]),
            float(totals[2]),
            float(totals[3]),
            values[p],
            float(sum(1 for cell in state.leaders_of(p) if cell >= 0)),
            float(state.cats[p]),
        ]
        out.append(base + [x * late for x in base] + [x * end for x in base])
    return out


def softmax(scores: list[float]) -> list[float]:
    """The softmax of ``scores`` (shifted by their maximum, so it never overflows)."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def final_shares(state: State) -> list[float]:
    """A finished game's outcome: 1 for the winner, 0 for the others; a first place shared
    by k seats gives 1/k to each."""
    n = state.options.players
    keys = []
    for p in range(n):
        *row, treasures = state.score(p)
        keys.append(final_totals(list(row), treasures))
    best = max(keys)
    first = [p for p in range(n) if keys[p] == best]
    return [1.0 / len(first) if p in first else 0.0 for p in range(n)]


@cache
def load_model(path: Path = MODEL_FILE) -> dict[str, Any]:
    """The shipped model (``tne-winprob/1``): weights per player-count group."""
    model: dict[str, Any] = json.loads(path.read_text())
    if model.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} model")
    if tuple(model["features"]) != FEATURES:
        raise ValueError(f"{path}: its features are not this module's")
    return model


def kind_of(state: State) -> str:
    """What sort of game it is for the model: its ruleset's family when not the default
    ruleset's (``galaxy``), else ``advanced`` (the wonder or the civilization buildings) or
    ``""`` (the classic game)."""
    options = state.options
    family = RULESETS[options.ruleset].family
    if family != RULESETS[DEFAULT_RULESET].family:
        return family
    return "advanced" if options.wonder or options.buildings else ""


def group(players: int, kind: str = "") -> str:
    """The name of the weights for a game of ``players`` of ``kind``: ``2p``, ``3p``,
    ``4p``, with ``/galaxy`` or ``/advanced`` for those games."""
    return f"{players}p/{kind}" if kind else f"{players}p"


def reliability(state: State, model: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """How well the model's probabilities held on games it never saw, for games like
    ``state``'s (``bench/winprob.py`` writes it beside the weights): the group, the
    held-out games and the expected calibration error (the worst of the group's sets and
    thirds of a game); ``None`` when it was not measured for such games."""
    measured: dict[str, Any] = (model or load_model()).get("reliability", {})
    players, kind = state.options.players, kind_of(state)
    for key in (group(players, kind), group(players)):
        if key in measured:
            return {"group": key, **measured[key]}
    return None


def weights_for(model: dict[str, Any], players: int, kind: str = "") -> list[float]:
    """The model's weights for such a game: its own group's, else its player count's, else
    (a model of the first format's groups) ``two`` or ``more``."""
    models: dict[str, list[float]] = model["models"]
    for key in (group(players, kind), group(players), "two" if players <= 2 else "more"):
        if key in models:
            return models[key]
    raise ValueError(f"the model has no weights for {players} players")


def state_probabilities(state: State, model: dict[str, Any] | None = None) -> list[float]:
    """Each seat's probability of finishing first, read from ``state``'s public part and
    score rows (a finished game: its outcome, ``final_shares``)."""
    if state.over:
        return final_shares(state)
    weights = weights_for(model or load_model(), state.options.players, kind_of(state))
    scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in seat_features(state)]
    return softmax(scores)


def view_state(view: dict[str, Any], scores: list[list[int]] | None = None) -> State:
    """A state with the view's public facts and the given score rows: the hidden tiles are
    dealt once with a fixed seed, only to give every hand its public size (no feature reads
    a hand's colours). ``scores``: each seat's row (red, blue, green, black, treasures) as
    the seat heard them; None under hidden scoring counts the others as the seat itself."""
    return Determinizer(view, scores).sample(random.Random(0))


def view_probabilities(view: dict[str, Any], scores: list[list[int]] | None = None) -> list[float]:
    """Every seat's probability of finishing first as the view's seat can judge it."""
    if view.get("over"):
        return _result_shares(view)
    return state_probabilities(view_state(view, scores))


def win_probability(view: dict[str, Any], scores: list[list[int]] | None = None) -> float:
    """The probability that the view's seat finishes first (two players: that it wins),
    from its view and the score rows it heard (see ``view_state``); never from a hidden
    tile. A finished game's view gives 1 to the winner and 0 to the others."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no seat to judge")
    return float(view_probabilities(view, scores)[seat])


def _result_shares(view: dict[str, Any]) -> list[float]:
    """A finished game's outcome from its view's ``result`` (ranking best first)."""
    n = len(view["players"])
    first = view["result"]["ranking"][0]
    seats = first if isinstance(first, list) else [first]
    return [1.0 / len(seats) if p in seats else 0.0 for p in range(n)]
