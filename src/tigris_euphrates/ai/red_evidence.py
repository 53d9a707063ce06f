"""What the other seats' turn actions say of how many red tiles they hold: a posterior.

Red tiles decide revolts, and revolts decide which leaders survive; a search told how many
red tiles each other hand holds wins far more four-player games than one that deals them
uniformly (``bench/oracle.py``). A player at the table can read some of this from play:
in greedy four-player games a seat without red placed a tile of another colour in 57 % of
its turn actions and one holding a single red tile in 27 %, while a seat holding three or
more red tiles started a revolt in about a third of them. ``RedEvidence`` turns those
frequencies into a likelihood and each other seat's observed actions into a posterior over
its red count; the determinizer then deals each world's red tiles by that posterior.

The hand is followed as groups of tiles, oldest first, as ``RedRestraint`` does: drawn
tiles start a new group, tiles that leave come off the oldest group, and a red tile played,
committed or swapped away resets the seat (the rest of the hand is unknown again). Each
turn action is filed with the newest group at the time, so it speaks of the red tiles in
that group and every older one. A red tile placed or red support committed also says
something of what the seat kept: greedy attackers commit all their red, so after red
support the seat most often holds none (kinds ``after_red_tile``, ``after_red_support``,
filed with the tiles kept). Only public events are read.

The frequencies are those of the greedy player (``LIKELIHOOD``): this is a model of how
an opponent plays, not knowledge, which is why the option is off by default.
"""

from __future__ import annotations

from itertools import product
from math import comb
from typing import Any

from ..engine.state import HAND_SIZE
from .determinize import fit_groups

#: How often a greedy player holding 0, 1, 2, 3 or 4+ red tiles took each kind of turn
#: action that is not a red tile (a red tile resets the seat), and, after a red tile or red
#: support, how much likelier each count of red kept is than a uniform deal makes it (1 at
#: none): 90 greedy four-player games, 11,528 turn actions (``python bench/red_evidence.py
#: --games 90 --seed 2``, ``bench/red_evidence.json``). Kinds not listed say nothing.
LIKELIHOOD: dict[str, tuple[float, ...]] = {
    "tile": (0.553, 0.278, 0.225, 0.141, 0.066),
    "leader": (0.356, 0.385, 0.405, 0.397, 0.465),
    "revolt": (0.011, 0.035, 0.106, 0.234, 0.292),
    "catastrophe": (0.072, 0.044, 0.041, 0.025, 0.026),
    "after_red_tile": (1.0, 0.251, 0.102, 0.06, 0.024),
    "after_red_support": (1.0, 0.103, 0.03, 0.02, 0.01),
}

#: What a group of a hand is filed with: a kind of ``LIKELIHOOD``, or a likelihood per red
#: count read from one action (``red_reading``).
Kind = str | tuple[float, ...]

#: The highest red count told apart; a hand with more counts as this many.
TOP = 4


class RedEvidence:
    """Per other seat, its hand as groups ``[size, kinds]`` (oldest first): ``kinds`` are the
    turn actions taken while the group was the newest, each a key of ``LIKELIHOOD``."""

    def __init__(self, likelihood: dict[str, tuple[float, ...]] | None = None) -> None:
        self.likelihood = LIKELIHOOD if likelihood is None else likelihood
        self.groups: dict[int, list[tuple[int, list[Kind]]]] = {}
        self.sizes: dict[int, int] = {}
        self._leader: tuple[int, list[Kind]] | None = None  # the kinds list of a leader move
        self._revolt = False  # the conflict being decided is a revolt

    def observe(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            kind = e.get("type")
            if kind == "conflict_started":
                # The leader just placed started a revolt: file it as one.
                self._revolt = e["kind"] == "revolt"
                if self._revolt and self._leader is not None:
                    seat, kinds = self._leader
                    if seat == e["attacker"] and kinds and kinds[-1] == "leader":
                        kinds[-1] = "revolt"
                self._leader = None
                continue
            seat = e.get("seat")
            if seat is None:
                continue
            self._leader = None
            if kind == "tile_placed":
                if e["colour"] == "red":
                    self._remove(seat, 1)
                    self._reset(seat)
                    self._file(seat, "after_red_tile")
                else:
                    self._file(seat, "tile")
                    self._remove(seat, 1)
            elif kind == "leader_placed":
                kinds = self._file(seat, "leader")
                self._leader = (seat, kinds)
            elif kind == "catastrophe_placed":
                self._file(seat, "catastrophe")
            elif kind == "support_committed" and e["count"]:
                self._remove(seat, e["count"])
                if e["colour"] == "red":
                    self._reset(seat)
                    self._file(seat, "after_red_support")
            elif kind == "support_committed" and e.get("role") == "attacker" and self._revolt:
                # A revolt started and backed by no red tile: the hand is not what the
                # revolt's frequencies describe; take the revolt back.
                self._unfile(seat, "revolt")
            elif kind == "tiles_swapped":
                self._remove(seat, e["count"])
                self._reset(seat)
            elif kind == "tiles_drawn":
                self._hand(seat).append((e["count"], []))
                self.sizes[seat] = self.sizes.get(seat, HAND_SIZE) + e["count"]

    def read(self, seat: int, likelihood: tuple[float, ...]) -> None:
        """File a likelihood per red count (0 … ``TOP``) read from one turn action of
        ``seat`` (``red_reading.read_action``), before the events of that action."""
        self._file(seat, likelihood)

    def _hand(self, seat: int) -> list[tuple[int, list[Kind]]]:
        return self.groups.setdefault(seat, [(self.sizes.setdefault(seat, HAND_SIZE), [])])

    def _file(self, seat: int, kind: Kind) -> list[Kind]:
        groups = self._hand(seat)
        if not groups:  # none of the tiles held then is still held: nothing to say
            return []
        kinds = groups[-1][1]
        kinds.append(kind)
        return kinds

    def _unfile(self, seat: int, kind: str) -> None:
        groups = self._hand(seat)
        kinds = groups[-1][1] if groups else []
        if kinds and kinds[-1] == kind:
            kinds.pop()

    def _remove(self, seat: int, n: int) -> None:
        groups = self._hand(seat)
        self.sizes[seat] = max(0, self.sizes.get(seat, HAND_SIZE) - n)
        while n and groups:
            size, kinds = groups[0]
            take = min(n, size)
            n -= take
            if take == size:
                # Its tiles are gone, and they held no red: what its actions said of them
                # is the same for every hand now.
                groups.pop(0)
            else:
                groups[0] = (size - take, kinds)

    def _reset(self, seat: int) -> None:
        self.groups[seat] = [(self.sizes.get(seat, HAND_SIZE), [])]

    def reset(self) -> None:
        self.groups = {}
        self.sizes = {}
        self._leader = None
        self._revolt = False

    def posterior(
        self, seat: int, k: int, red: int, pool: int, red_weight: float = 1.0
    ) -> list[float]:
        """P(the hand of ``k`` tiles holds r red tiles), r = 0..k, for a hand drawn from
        ``pool`` unseen tiles of which ``red`` are red, given the seat's filed actions. With
        ``red_weight`` a red tile is that much likelier to be held than another unseen tile
        (Fisher's noncentral hypergeometric prior: players keep fewer red tiles than the
        bag holds, as they play them as temples)."""
        groups = fit_groups(self.groups.get(seat, []), k, [])
        out = [0.0] * (k + 1)
        if k == 0:
            return [1.0]
        prior = [
            comb(red, r) * comb(pool - red, k - r) * red_weight**r if r <= red else 0.0
            for r in range(k + 1)
        ]
        norm = sum(prior)
        prior = [w / norm for w in prior] if norm > 0 else [1.0] + [0.0] * k
        like = self.likelihood
        for reds in product(*(range(size + 1) for size, _ in groups)):
            r = sum(reds)
            if prior[r] == 0.0:
                continue
            # Given r red tiles among the k places, each placement of them is equally likely.
            w = prior[r] / comb(k, r)
            seen = 0
            for (size, kinds), ri in zip(groups, reds, strict=True):
                w *= comb(size, ri)
                seen += ri
                for kind in kinds:
                    row = kind if isinstance(kind, tuple) else like.get(kind)
                    if row is not None:
                        w *= row[min(seen, TOP)]
            out[r] += w
        total = sum(out)
        if total <= 0.0:
            return prior
        return [w / total for w in out]
