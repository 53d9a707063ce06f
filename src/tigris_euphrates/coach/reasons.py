"""Why a marked decision was worse: what the better action's outcomes had that the played
action's did not, read from the positions both lead to in the same deals.

A reason is a code and its arguments (``{"code": "gives-points", "args": {"seat": 1,
"points": 4}}``); the page and ``tne analyse`` make the sentence in the reader's language.
The first of these that holds in at least half the deals (or on average, for points) is
the reason, in this order, the most telling first:

* ``loses-leader`` {colour}: a leader of the decider's that was on the board is gone
  after the action played (a war or revolt lost, or a leader left without a temple) and
  not after the better one;
* ``gives-points`` {seat, points}: an opponent scores at least ``POINTS`` more;
* ``misses-monument`` {}: the better action builds a monument the played one does not;
* ``misses-treasure`` {}: the better action takes a treasure;
* ``weakest-colour`` {colour}: the better action scores most in the decider's weakest
  colour, the one below all the others (a final score is the weakest colour);
* ``misses-points`` {points, colour}: the better action scores at least ``POINTS`` more;
* ``position`` {}: none of these: the better action keeps more of the chances the
  model reads from the whole position (kingdoms, leaders' strength, tiles in hand).
"""

from __future__ import annotations

from typing import Any, Final

from typing_extensions import TypedDict

from .. import COLOURS, State

#: The least difference in points, on average over the deals, that is a reason.
POINTS: Final = 2.0


class Reason(TypedDict):
    """Why a decision was marked: a code and its arguments (see the module)."""

    code: str
    args: dict[str, Any]


def _reason(code: str, **args: Any) -> Reason:
    return {"code": code, "args": args}


def reason_for(before: State, seat: int, played: list[State], better: list[State]) -> Reason:
    """Why ``better`` (the outcomes of the better action, deal by deal) beat ``played``
    (the action played's, in the same deals) for ``seat``, deciding at ``before``."""
    pairs = list(zip(played, better, strict=True))
    half = len(pairs) / 2
    on_board = [c for c, cell in enumerate(before.leaders_of(seat)) if cell >= 0]
    for c in on_board:
        lost = sum(1 for p, b in pairs if p.leader(seat, c) < 0 <= b.leader(seat, c))
        if lost >= half and lost > 0:
            return _reason("loses-leader", colour=COLOURS[c])
    for other in range(before.options.players):
        if other == seat:
            continue
        more = _mean(sum(p.score(other)) - sum(b.score(other)) for p, b in pairs)
        if more >= POINTS:
            return _reason("gives-points", seat=other, points=round(more))
    if _mean(_built(b) - _built(p) for p, b in pairs) >= 0.5:
        return _reason("misses-monument")
    if _mean(b.score(seat)[4] - p.score(seat)[4] for p, b in pairs) >= 0.5:
        return _reason("misses-treasure")
    gains = [_mean(b.score(seat)[c] - p.score(seat)[c] for p, b in pairs) for c in range(4)]
    own = before.score(seat)
    order = sorted(range(4), key=lambda c: (own[c], c))
    weakest = order[0]
    alone = own[weakest] < own[order[1]]  # (all tied at the start: no weakest colour)
    if alone and gains[weakest] >= 0.5 and gains[weakest] == max(gains):
        return _reason("weakest-colour", colour=COLOURS[weakest])
    if sum(gains) >= POINTS:
        top = max(range(4), key=lambda c: (gains[c], -c))
        return _reason("misses-points", points=round(sum(gains)), colour=COLOURS[top])
    return _reason("position")


def _built(s: State) -> int:
    """The monuments on the board."""
    return sum(1 for cell in s.monuments if cell >= 0)


def _mean(values: Any) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0
