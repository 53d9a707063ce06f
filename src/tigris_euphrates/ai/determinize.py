"""Determinization: turn a seat's view into full game states consistent with that view.

A view hides the other seats' hands, the colours they swapped away and the bag order; it
shows how many tiles of each colour this seat cannot see (``unseen``). A determinization
deals exactly that multiset at random into the other hands (of their public sizes), their
swapped piles (of their public sizes) and the bag (of its public size), then builds a state.
Nothing else is invented: the board, leaders, pending decision, own hand and own swaps
come straight from the view.

Under hidden scoring the other seats' scores are not in the view. The caller passes what
it knows (a tally of the public ``points_scored`` / ``treasure_taken`` events it observed,
``ScoreTally``) or nothing, in which case each other seat is assumed to have this seat's own
score row.
"""

from __future__ import annotations

import random
from typing import Any

from .. import COLOURS, State, from_position


class Determinizer:
    """Samples states from one view. Build once per decision, call ``sample`` per world."""

    def __init__(self, view: dict[str, Any], scores: list[list[int]] | None = None) -> None:
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
        if view.get("buildings"):
            position["buildings"] = view["buildings"]
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

    def sample(self, rng: random.Random) -> State:
        """One full state consistent with the view, its hidden tiles dealt uniformly."""
        pool = self.pool[:]
        shuffle(pool, rng)
        s = self.base.copy()
        pos = 0
        for p in range(self.n):
            k = self.hand_sizes[p]
            if k:
                for c in pool[pos : pos + k]:
                    s.add_to_hand(p, c)
                pos += k
            k = self.swap_sizes[p]
            if k:
                for c in pool[pos : pos + k]:
                    s.add_swapped(p, c)
                pos += k
        s.bag = tuple(pool[pos:])
        s.bag_pos = 0
        return s


def shuffle(items: list[int], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (the same draws,
    the same order: Fisher–Yates, each index below ``n`` drawn as ``n.bit_length()`` random
    bits until one is below ``n``), here so that it compiles (``random`` is interpreted
    Python, and the deals are a search's largest use of it). A subclass of ``Random``
    may draw otherwise: it shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


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
