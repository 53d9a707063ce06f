"""The work of a hint ("Suggest a move", ``hints.py``): the move and the sentence of why.

A hint is computed from the asking seat's view alone (``player_view``), never from the
state: a search bot of ``HINT_LEVEL`` chooses from that view, seeded by a digest of the
view itself, so the same view gives the same hint whatever the hidden tiles and the bag
hold. Its reason is read from what the move really does: the move is applied to one
determinization of the view (a full state whose hidden tiles are dealt at random from
what the seat cannot see) and the events it makes are read (points scored, a conflict
started or won, a monument built…). The events the reason reads never depend on the hidden
tiles (the only ones that do are the tiles drawn at a turn's end, which it never reads; a
conflict it reports won is decided by support already shown), and the deal too is seeded
by the view, so the reason tells nothing the seat could not know.

``suggest`` runs in a bot worker (``aiseats.BotRunner.suggest``: a process, so it takes only
picklable plain data), with a fixed amount of work (``Limits.hint_iterations``,
no wall-clock cap); ``hints.HintDesk`` checks who may ask and counts the seat's hints.
"""

from __future__ import annotations

import hashlib
import random

import orjson

from .. import COLOURS, apply
from ..ai import Budget, make_bot
from ..ai.determinize import Determinizer
from ..store.jsontypes import JsonDict, int_at, list_at, text_at, texts_at
from .frames import HintReason, Suggestion

#: The level whose search suggests the moves (the server's default bot level).
HINT_LEVEL = "hard"


def view_seed(view: JsonDict) -> int:
    """A seed made of the view alone (64 bits of its SHA-256)."""
    text = orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def suggest(view: JsonDict, budget: Budget) -> Suggestion:
    """The move a search suggests from ``view`` (a seat's view, its decision) within
    ``budget``, and why: ``{"action": notation, "reason": {"key": ..., fields}}``."""
    seed = view_seed(view)
    legal = texts_at(view, "legal_actions")
    if not legal:
        raise ValueError("the view offers no legal action: it is not this seat's decision")
    action = legal[0] if len(legal) == 1 else make_bot(HINT_LEVEL, seed).choose(view, budget)
    return {"action": action, "reason": explain(view, action, seed)}


def explain(view: JsonDict, action: str, seed: int = 0) -> HintReason:
    """Why ``action`` is worth playing, read from the events it makes on a determinization
    of ``view``: a catalogue key (``hint_why_*``) and the fields its text names."""
    seat = int_at(view, "seat")
    state = Determinizer(view).sample(random.Random(seed))
    _, events = apply(state, action)
    dicts = [e.to_dict() for e in events]
    for reason in (_conflict_won(dicts, seat), _points(dicts, seat, view)):
        if reason is not None:
            return reason
    return _deed(dicts, seat, action)


def _conflict_won(events: list[JsonDict], seat: int) -> HintReason | None:
    for e in events:
        if e["type"] == "conflict_resolved" and e["winner"] == seat:
            # the winner has the larger total (a tie goes to the defender)
            totals = (int_at(e, "attacker_total"), int_at(e, "defender_total"))
            mine, theirs = max(totals), min(totals)
            key = f"hint_why_win_{e['kind']}"
            return {"key": key, "colour": text_at(e, "colour"), "mine": mine, "theirs": theirs}
    return None


def _points(events: list[JsonDict], seat: int, view: JsonDict) -> HintReason | None:
    won = dict.fromkeys(COLOURS, 0)
    for e in events:
        if e["type"] == "points_scored" and e["seat"] == seat:
            won[text_at(e, "colour")] += int_at(e, "points")
    if not any(won.values()):
        return None
    colour = max(COLOURS, key=lambda c: won[c])
    score = _score(view, seat)
    weakest = score is not None and score[colour] == min(score[c] for c in COLOURS)
    key = "hint_why_point" if won[colour] == 1 else "hint_why_points"
    key += "_weakest" if weakest else ""
    return {"key": key, "colour": colour, "n": won[colour]}


def _score(view: JsonDict, seat: int) -> dict[str, int] | None:
    """The colour totals of ``seat`` in ``view`` (``None``: hidden from this seat)."""
    player = list_at(view, "players")[seat]
    score = player.get("score") if isinstance(player, dict) else None
    if not isinstance(score, dict):
        return None
    return {c: int_at(score, c) for c in COLOURS}


def _deed(events: list[JsonDict], seat: int, action: str) -> HintReason:
    """What the action does when it scores nothing at once, the weightiest deed first."""
    for kind in _DEEDS:
        for e in events:
            if e["type"] == kind:
                reason = _deed_reason(e, seat)
                if reason is not None:
                    return reason
    word = action.split(" ")[0]
    if word in ("swap", "pass", "withdraw", "decline"):
        return {"key": f"hint_why_{word}"}
    return {"key": "hint_why_best"}


#: The events that say what a move does, weightiest first.
_DEEDS = (
    "monument_built",
    "treasure_taken",
    "conflict_started",
    "leader_withdrawn",
    "support_committed",
    "catastrophe_placed",
    "leader_placed",
    "tile_placed",
)


def _deed_reason(e: JsonDict, seat: int) -> HintReason | None:
    kind = e["type"]
    if kind == "monument_built":
        return {"key": "hint_why_monument", "monument": text_at(e, "monument")}
    if kind == "conflict_started":
        if e["attacker"] != seat:
            return None
        mine, theirs = int_at(e, "attacker_base"), int_at(e, "defender_base")
        return {
            "key": f"hint_why_start_{e['kind']}",
            "colour": text_at(e, "colour"),
            "mine": mine,
            "theirs": theirs,
        }
    if kind == "leader_withdrawn":
        # another seat's leader driven off (a catastrophe left it without a temple)
        return (
            {"key": "hint_why_drive_out", "colour": text_at(e, "colour")}
            if e["seat"] != seat
            else None
        )
    if kind == "catastrophe_placed":
        removed = e["removed"]
        return (
            {"key": "hint_why_catastrophe", "colour": removed}
            if isinstance(removed, str) and removed
            else None
        )
    if e.get("seat") != seat:
        return None
    if kind == "treasure_taken":
        return {"key": "hint_why_treasure"}
    if kind == "support_committed":
        return (
            {"key": "hint_why_support", "colour": text_at(e, "colour"), "n": int_at(e, "count")}
            if e["count"]
            else None
        )
    key = "hint_why_leader" if kind == "leader_placed" else "hint_why_tile"
    return {"key": key, "colour": text_at(e, "colour")}
