"""Determinization: turn a seat's view into full game states consistent with that view.

A view hides the other seats' hands, the colours they swapped away and the bag order; it
shows how many tiles of each colour this seat cannot see (``unseen``). A determinization
deals exactly that multiset at random into the other hands (of their public sizes), their
swapped piles (of their public sizes) and the bag (of its public size), then builds a state.
Nothing else is invented: the board, leaders, pending decision, own hand and own swaps
come straight from the view.

A player at the table also remembers what the other seats' conflicts showed: a defender who
lost did not hold the tiles that would have won (``HandBounds``). A determinizer given such
bounds deals hands that respect them (in most worlds: a player may also decline a defence
it could have won).

Under hidden scoring the other seats' scores are not in the view. The caller passes what
it knows (a tally of the public ``points_scored`` / ``treasure_taken`` events it observed)
or nothing, in which case each other seat is assumed to have this seat's own score row.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import State, from_position
from ..engine.board import COLOURS
from ..engine.state import HAND_SIZE


class Determinizer:
    """Samples states from one view. Build once per decision, call ``sample`` per world."""

    def __init__(
        self,
        view: dict[str, Any],
        scores: list[list[int]] | None = None,
        bounds: dict[int, list[int]] | None = None,
        trust: float = 0.9,
    ) -> None:
        seat = view["seat"]
        if seat is None:
            raise ValueError("a spectator's view cannot be determinized")
        self.seat: int = seat
        players = view["players"]
        n = len(players)
        self.n = n
        own = players[seat]
        own_score = own.get("score") or dict.fromkeys((*COLOURS, "treasure"), 0)
        rows: list[dict[str, int]] = []
        for p, entry in enumerate(players):
            if "score" in entry:
                rows.append(entry["score"])
            elif scores is not None:
                row = scores[p]
                rows.append({**{COLOURS[c]: row[c] for c in range(4)}, "treasure": row[4]})
            else:
                rows.append(dict(own_score))
        swapped = []
        for p, entry in enumerate(players):
            if p == seat:
                swapped.append(dict(entry.get("swapped_tiles") or dict.fromkeys(COLOURS, 0)))
            else:
                swapped.append(dict.fromkeys(COLOURS, 0))
        position = {
            "format": "tne-position/1",
            "options": view["options"],
            "cells": view["cells"],
            "monuments": view["monuments"],
            "leaders": view["leaders"],
            "players": [
                {
                    "dynasty": entry["dynasty"],
                    "hand": entry["hand"] if p == seat else dict.fromkeys(COLOURS, 0),
                    "catastrophes": entry["catastrophes"],
                    "score": rows[p],
                }
                for p, entry in enumerate(players)
            ],
            "bag": [],
            "turn": view["turn"],
            "over": view["over"],
            "out": {"public": view["removed"], "swapped": swapped},
            "ply": view.get("ply", 0),
        }
        if view.get("pending") is not None:
            position["pending"] = view["pending"]
        self.base: State = from_position(position)
        unseen = view["unseen"]
        self.pool: list[int] = [c for c in range(4) for _ in range(unseen[COLOURS[c]])]
        self.hand_sizes = [0 if p == seat else players[p]["hand_size"] for p in range(n)]
        self.swap_sizes = [0 if p == seat else players[p]["swapped"] for p in range(n)]
        self.bag_size: int = view["bag_size"]
        hidden = sum(self.hand_sizes) + sum(self.swap_sizes) + self.bag_size
        if hidden != len(self.pool):
            raise ValueError(
                f"inconsistent view: {len(self.pool)} unseen tiles for {hidden} hidden places"
            )
        #: Per other seat, the most tiles of each colour its hand may hold (bounds that cannot
        #: bind, at or above the hand's size, are left out); applied in ``trust`` of the worlds.
        self.bounds: list[tuple[int, list[int]]] = []
        for p, row in sorted((bounds or {}).items()):
            k = self.hand_sizes[p] if 0 <= p < n and p != seat else 0
            if k and any(b < k for b in row):
                self.bounds.append((p, list(row)))
        self.trust = trust

    def sample(self, rng: random.Random) -> State:
        """One full state consistent with the view: drawn uniformly, or, with bounds, in
        ``trust`` of the calls with the bounded hands dealt within them."""
        pool = self.pool[:]
        rng.shuffle(pool)
        s = self.base.copy()
        dealt: set[int] = set()
        if self.bounds and rng.random() < self.trust:
            pool = self._deal_bounded(s, pool, dealt)
        pos = 0
        for p in range(self.n):
            k = self.hand_sizes[p]
            if k and p not in dealt:
                for c in pool[pos : pos + k]:
                    s.hands[p * 4 + c] += 1
                pos += k
            k = self.swap_sizes[p]
            if k:
                for c in pool[pos : pos + k]:
                    s.swapped[p * 4 + c] += 1
                pos += k
        s.bag = tuple(pool[pos:])
        s.bag_pos = 0
        return s

    def _deal_bounded(self, s: State, pool: list[int], dealt: set[int]) -> list[int]:
        """Deal the hands that have bounds from the shuffled ``pool``: each takes the first
        tiles whose colour it may still hold. Returns the tiles left, in their shuffled
        order. Where the bounds cannot all be met (a seat that declined a defence it could
        have won), nothing is dealt and the world is uniform."""
        rest = pool
        hands: list[tuple[int, list[int]]] = []
        for p, row in self.bounds:
            k = self.hand_sizes[p]
            have = [0, 0, 0, 0]
            taken = 0
            left: list[int] = []
            for c in rest:
                if taken < k and have[c] < row[c]:
                    have[c] += 1
                    taken += 1
                else:
                    left.append(c)
            if taken < k:
                return pool
            hands.append((p, have))
            rest = left
        for p, have in hands:
            for c in range(4):
                s.hands[p * 4 + c] += have[c]
            dealt.add(p)
        return rest


_NONE = 99  # no bound on a colour


class HandBounds:
    """What the public events say about the other seats' hands: upper bounds per colour.

    A defender who loses a conflict did not hold what would have won it: the defence needed
    ``attacker total - defender base`` tiles of the support colour and it committed ``k``, so
    what it kept is at most ``need - k - 1`` (a player may decline a defence it could win;
    the determinizer trusts the bounds in most worlds only). The bound then follows the hand:
    each tile of the colour it plays or commits lowers it, each tile it draws (any colour,
    unseen) raises it, and once it reaches the hand's size it says nothing. Only public
    events are read (committed counts, totals, tiles placed, how many tiles were drawn)."""

    def __init__(self) -> None:
        self.bounds: dict[int, list[int]] = {}
        self._conflict: tuple[int, int, int, int] | None = None  # (defender, colour, dbase, k)

    def observe(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            kind = e.get("type")
            if kind == "conflict_started":
                support = COLOURS.index(e["support"])
                self._conflict = (e["defender"], support, e["defender_base"], 0)
            elif kind == "support_committed":
                self._spend(e["seat"], COLOURS.index(e["colour"]), e["count"])
                if e["role"] == "defender" and self._conflict is not None:
                    dfn, colour, dbase, _ = self._conflict
                    self._conflict = (dfn, colour, dbase, e["count"])
            elif kind == "conflict_resolved":
                if self._conflict is not None and e["loser"] == self._conflict[0]:
                    dfn, colour, dbase, k = self._conflict
                    kept = max(0, e["attacker_total"] - dbase - k - 1)
                    row = self.bounds.setdefault(dfn, [_NONE] * 4)
                    row[colour] = min(row[colour], kept)
                self._conflict = None
            elif kind == "tile_placed" and "seat" in e:
                self._spend(e["seat"], COLOURS.index(e["colour"]), 1)
            elif kind == "tiles_drawn":
                row = self.bounds.get(e["seat"])
                if row is not None:
                    for c in range(4):
                        row[c] = _NONE if row[c] + e["count"] >= HAND_SIZE else row[c] + e["count"]
                    if min(row) == _NONE:
                        del self.bounds[e["seat"]]

    def _spend(self, seat: int, colour: int, n: int) -> None:
        row = self.bounds.get(seat)
        if row is not None and n and row[colour] != _NONE:
            row[colour] = max(0, row[colour] - n)

    def reset(self) -> None:
        self.bounds = {}
        self._conflict = None


class ScoreTally:
    """Every seat's score row rebuilt from the public events a seat observed."""

    def __init__(self) -> None:
        self.rows: list[list[int]] = []
        self.seen = False

    def observe(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            kind = e.get("type")
            if kind == "points_scored":
                self._row(e["seat"])[COLOURS.index(e["colour"])] += e["points"]
                self.seen = True
            elif kind == "treasure_taken":
                self._row(e["seat"])[4] += 1
                self.seen = True

    def _row(self, seat: int) -> list[int]:
        while len(self.rows) <= seat:
            self.rows.append([0, 0, 0, 0, 0])
        return self.rows[seat]

    def scores(self, view: dict[str, Any]) -> list[list[int]] | None:
        """The tally for this view's seats, or None if nothing was observed in a started game."""
        n = len(view["players"])
        if not self.seen and view.get("ply", 0) > 0:
            return None
        self._row(n - 1)
        return [row[:] for row in self.rows[:n]]

    def reset(self) -> None:
        self.rows = []
        self.seen = False
