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
from collections.abc import Sequence
from typing import Any, TypeVar

from ..engine import State, from_position
from ..engine.board import COLOURS, RED
from ..engine.state import HAND_SIZE

T = TypeVar("T")


class Determinizer:
    """Samples states from one view. Build once per decision, call ``sample`` per world."""

    def __init__(
        self,
        view: dict[str, Any],
        scores: list[list[int]] | None = None,
        bounds: dict[int, list[int]] | None = None,
        trust: float = 0.9,
        restraint: dict[int, list[list[int]]] | None = None,
        keep_red: float = 1.0,
        red_odds: dict[int, list[float]] | None = None,
        hand_weights: tuple[float, float, float, float] | None = None,
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
        #: Per other seat, its hand as groups ``(tiles, actions)``, oldest first: how many
        #: turn actions without a red tile each group's tiles were held through
        #: (``RedRestraint``); a world is kept with chance ``keep_red`` to the power of the
        #: actions the dealt hand held red through. Empty: hands dealt uniformly.
        self.restraint: list[tuple[int, list[tuple[int, int]]]] = []
        if keep_red < 1.0:
            for p, groups in sorted((restraint or {}).items()):
                k = self.hand_sizes[p] if 0 <= p < n and p != seat else 0
                fitted = fit_groups(groups, k, 0)
                if fitted and fitted[0][1] > 0:
                    self.restraint.append((p, fitted))
        self.keep_red = keep_red
        #: Per other seat, the chance that its hand holds 0, 1, 2 ... red tiles
        #: (``RedEvidence.posterior``): each world deals the seat a red count drawn from it,
        #: the rest of its hand from the other colours. Empty: hands dealt uniformly.
        self.red_odds: list[tuple[int, list[float]]] = [
            (p, odds)
            for p, odds in sorted((red_odds or {}).items())
            if 0 <= p < n and p != seat and self.hand_sizes[p] == len(odds) - 1
        ]

        #: How much likelier a tile of each colour (red, blue, green, black) is to be in
        #: another seat's hand than in the bag: hands are drawn tile by tile, each colour
        #: with chance proportional to its weight times its tiles left. None: uniform.
        self.hand_weights = (
            None if hand_weights is None or len(set(hand_weights)) == 1 else tuple(hand_weights)
        )

    def sample(self, rng: random.Random) -> State:
        """One full state consistent with the view: drawn uniformly, or, with bounds, in
        ``trust`` of the calls with the bounded hands dealt within them."""
        pool = self.pool[:]
        rng.shuffle(pool)
        s = self.base.copy()
        dealt: set[int] = set()
        if self.bounds and rng.random() < self.trust:
            pool = self._deal_bounded(s, pool, dealt)
        if self.restraint:
            pool = self._deal_restrained(s, pool, dealt, rng)
        if self.red_odds:
            pool = self._deal_red(s, pool, dealt, rng)
        if self.hand_weights is not None:
            pool = self._deal_weighted(s, pool, dealt, rng)
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

    def _deal_restrained(
        self, s: State, pool: list[int], dealt: set[int], rng: random.Random
    ) -> list[int]:
        """Deal the hands of the seats with red evidence: a hand is drawn at random from
        ``pool`` and kept with chance ``keep_red ** m``, where ``m`` is the number of turn
        actions its oldest group holding a red tile was held through without a red tile
        being played (a few tries; the last draw is kept). Returns the tiles left."""
        q = self.keep_red
        for p, groups in self.restraint:
            if p in dealt:
                continue
            k = self.hand_sizes[p]
            if k > len(pool):
                break
            for _ in range(8):
                picks = rng.sample(range(len(pool)), k)
                m = 0
                pos = 0
                for size, actions in groups:
                    if any(pool[i] == RED for i in picks[pos : pos + size]):
                        m = actions
                        break
                    pos += size
                if m == 0 or rng.random() < q**m:
                    break
            chosen = set(picks)
            for i in picks:
                s.hands[p * 4 + pool[i]] += 1
            pool = [c for i, c in enumerate(pool) if i not in chosen]
            dealt.add(p)
        return pool

    def _deal_red(
        self, s: State, pool: list[int], dealt: set[int], rng: random.Random
    ) -> list[int]:
        """Deal the hands of the seats with red odds: a red count drawn from the seat's odds,
        then the first tiles of the shuffled ``pool`` of the right colours (as many red
        tiles as are left, if fewer). Returns the tiles left, in their shuffled order."""
        for p, odds in self.red_odds:
            if p in dealt:
                continue
            k = self.hand_sizes[p]
            x = rng.random()
            r = 0
            while r < k and x >= odds[r]:
                x -= odds[r]
                r += 1
            reds = min(r, sum(1 for c in pool if c == RED))
            others = k - reds
            left: list[int] = []
            for c in pool:
                if c == RED and reds:
                    reds -= 1
                    s.hands[p * 4 + c] += 1
                elif c != RED and others:
                    others -= 1
                    s.hands[p * 4 + c] += 1
                else:
                    left.append(c)
            if others:  # too few tiles of the other colours: red makes up the hand
                for _ in range(others):
                    left.remove(RED)
                    s.hands[p * 4 + RED] += 1
            pool = left
            dealt.add(p)
        return pool

    def _deal_weighted(
        self, s: State, pool: list[int], dealt: set[int], rng: random.Random
    ) -> list[int]:
        """Deal the hands not yet dealt tile by tile, colour ``c`` with chance proportional
        to ``hand_weights[c]`` times its tiles left in ``pool``. Returns the tiles left, in
        their shuffled order (the first tiles of each colour taken out)."""
        weights = self.hand_weights
        assert weights is not None
        left = [0, 0, 0, 0]
        for c in pool:
            left[c] += 1
        take = [0, 0, 0, 0]
        for p in range(self.n):
            k = self.hand_sizes[p]
            if not k or p in dealt:
                continue
            for _ in range(k):
                x = rng.random() * sum(weights[c] * left[c] for c in range(4))
                c = -1
                for d in range(4):
                    if left[d]:
                        c = d
                        x -= weights[d] * left[d]
                        if x < 0:
                            break
                left[c] -= 1
                take[c] += 1
                s.hands[p * 4 + c] += 1
            dealt.add(p)
        rest: list[int] = []
        for c in pool:
            if take[c]:
                take[c] -= 1
            else:
                rest.append(c)
        return rest


def fit_groups(groups: Sequence[Sequence[Any]], k: int, empty: T) -> list[tuple[int, T]]:
    """``groups`` (oldest first, each ``(size, evidence)``) fitted to a hand of ``k`` tiles:
    tiles the tracker missed are taken to be the newest, with ``empty`` evidence; tiles it
    has too many of leave the oldest. Shared by ``RedRestraint`` and ``RedEvidence``."""
    out: list[tuple[int, T]] = [(size, ev) for size, ev in groups if size > 0]
    total = sum(size for size, _ in out)
    while total > k and out:
        size, ev = out[0]
        drop = min(size, total - k)
        total -= drop
        out = ([(size - drop, ev)] if size > drop else []) + out[1:]
    if total < k:
        out.append((k - total, empty))
    return out


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


class RedRestraint:
    """What the other seats' turn actions say of the red tiles they hold.

    A player holding red plays a red tile in most turn actions where it can (a temple
    beside its leaders, a point for its king, support to come): in greedy four-player play
    a seat holding red placed none in 76–85 % of its turn actions, a seat without red in
    all of them. So each turn action without a red tile makes the hands that held red
    through it a little less likely. Per seat the hand is kept as groups of tiles, oldest
    first, each with the number of red-less turn actions it was held through: drawn tiles
    start a new group, tiles that leave come off the oldest group, and a red tile played,
    committed or swapped away (the rest of the hand is then unknown again) resets the seat.
    Only public events are read."""

    def __init__(self) -> None:
        self.groups: dict[int, list[list[int]]] = {}
        self.sizes: dict[int, int] = {}  # each seat's hand size, as the events tell it

    def observe(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            kind = e.get("type")
            seat = e.get("seat")
            if seat is None:
                continue
            if kind == "tile_placed":
                self._remove(seat, 1)
                if e["colour"] == "red":
                    self._reset(seat)
                else:
                    self._action(seat)
            elif kind in ("leader_placed", "catastrophe_placed", "passed") or (
                kind == "leader_withdrawn" and e.get("reason") == "withdrawn"
            ):
                self._action(seat)
            elif kind == "support_committed" and e["count"]:
                self._remove(seat, e["count"])
                if e["colour"] == "red":
                    self._reset(seat)
            elif kind == "tiles_swapped":
                self._remove(seat, e["count"])
                self._reset(seat)
            elif kind == "tiles_drawn":
                self._hand(seat).append([e["count"], 0])
                self.sizes[seat] = self.sizes.get(seat, HAND_SIZE) + e["count"]

    def _hand(self, seat: int) -> list[list[int]]:
        return self.groups.setdefault(seat, [[self.sizes.setdefault(seat, HAND_SIZE), 0]])

    def _action(self, seat: int) -> None:
        for g in self._hand(seat):
            g[1] += 1

    def _remove(self, seat: int, n: int) -> None:
        groups = self._hand(seat)
        self.sizes[seat] = max(0, self.sizes.get(seat, HAND_SIZE) - n)
        while n and groups:
            take = min(n, groups[0][0])
            groups[0][0] -= take
            n -= take
            if groups[0][0] == 0:
                groups.pop(0)

    def _reset(self, seat: int) -> None:
        self.groups[seat] = [[self.sizes.get(seat, HAND_SIZE), 0]]

    def reset(self) -> None:
        self.groups = {}
        self.sizes = {}


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
