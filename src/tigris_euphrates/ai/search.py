"""The search player: single-observer information-set MCTS over determinizations.

Each iteration deals the tiles this seat cannot see at random, consistently with its view
(``Determinizer.sample``: other hands, other seats' swapped tiles, bag order), and walks one
tree shared by all those worlds. A node is reached by the sequence of actions from the root;
its children are the candidate actions of the player to act there. In a given world only the
children that are legal there are *available*; selection is UCB1 over available children
with availability counts (Cowling, Powley & Whitehouse 2012), so a child that is often
impossible (it needs a tile an opponent may not hold) is not over-rated.

Branching is large (a turn action has 100–400 choices), so children are not all actions:
the greedy one-step look-ahead (``rank.rank_actions``) ranks the actions and only the best
``root_k`` (at the root, averaged over several worlds) or ``node_k`` (deeper; ranked on a
sample of ``node_sample`` legal actions, the hot ones of ``triage`` first) become children.
Other players' nodes rank from *their* point of view, with the hands this world dealt them.
A leaf is not rolled out to the end: the decisions inside the current action are settled
with the fixed policies and the position is scored by the full static evaluation (an
evaluation cut-off), giving a utility per seat that is backed up to every node for the seat
that chose there.

The search stops early once the most visited root child cannot be overtaken (the decision
is unchanged), and keeps the subtree under its choice for its next decision when that comes
at the position the choice leads to (the second action of a turn).

How much a level searches, and how it differs with three or four players, is its
``SearchConfig`` (``levels``).

Decisions are reproducible: all randomness comes from the bot's seeded RNG, and an
iteration budget (``Budget.iterations``) fixes the amount of work; a time budget stops
earlier on a slow machine.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import Commit, Support, apply_unchecked
from .base import Budget, View, ViewBot, legal_of, parse
from .evaluate import useful_commits
from .levels import SearchLevel
from .rank import rank_actions
from .tree import Node, TreeSearch, public_key


class SearchBot(ViewBot):
    """ISMCTS with greedy-ranked candidates and an evaluation cut-off, as configured by its
    level (``SearchLevel``: one ``SearchConfig`` for two players, one for three or four)."""

    def __init__(self, seed: int, level: SearchLevel, name: str = "search") -> None:
        super().__init__(seed, name)
        self.level = level
        self.last_iterations = 0  # iterations run for the last decision
        self.last_reused = 0  # root visits carried over from the previous decision's tree
        #: The last decision's root: its candidates with their visits and summed utilities
        #: (for analysis: which moves the search weighed and how it judged them).
        self.last_root: Node | None = None
        #: Stop once no other root candidate can catch up with the most visited one (the
        #: decision is then the one the whole budget would make; tests turn it off to
        #: check exactly that).
        self._early_stop = True
        self._seat = -1
        self._cfg = level.two  # the configuration of the current decision
        # The subtree under the action this bot chose last, and the public position it leads
        # to: when the next decision is again this seat's, in that position, the search goes
        # on from there instead of from nothing.
        self._kept: tuple[tuple[object, ...], Node] | None = None

    def __repr__(self) -> str:
        """The call that makes this bot afresh (its RNG at the start, no tree kept)."""
        return f"SearchBot({self.seed}, {self.level!r}, name={self.name!r})"

    def __getstate__(self) -> dict[str, Any]:
        """What a copy of the bot (e.g. sent to a worker process) carries: everything but
        ``last_root``, the last decision's whole tree kept for analysis (the subtree the next
        decision goes on from is kept apart, in ``_kept``)."""
        state = self.__dict__.copy()
        state["last_root"] = None
        return state

    def default_budget(self, players: int = 2) -> Budget:
        """The level's own budget for a game of ``players``."""
        cfg = self.level.config(players)
        return Budget(seconds=cfg.seconds, iterations=cfg.iterations)

    def choose(self, view: View, budget: Budget | None = None) -> str:
        legal = legal_of(view)
        self.last_iterations = self.last_reused = 0
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        players = len(view["players"])
        if budget is None or (budget.seconds is None and budget.iterations is None):
            budget = self.default_budget(players)
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        max_iter = budget.iterations if budget.iterations is not None else 10**9
        det = self.determinizer(view)
        seat = det.seat
        self._seat = seat
        cfg = self._cfg = self.level.config(players)
        rng = self.rng
        actions = [parse(t) for t in legal]
        worlds = [det.sample(rng) for _ in range(cfg.root_worlds)]
        if cfg.prune_commits and isinstance(worlds[0].decision, Support):
            # the conflict and this seat's hand: what the view shows
            actions = [Commit(n) for n in useful_commits(worlds[0])]
        ranked = rank_actions(worlds[0], seat, actions, worlds, cfg.weights)
        root = Node()
        root.order = [a for _, a in ranked[: cfg.root_k]]
        kept = self._kept
        self._kept = None
        old = kept[1].children if kept is not None and kept[0] == public_key(worlds[0]) else None
        kids = {a: (old.get(a) if old else None) or Node() for a in root.order}
        root.children = kids
        if len(root.order) == 1:
            return str(root.order[0])
        children = list(kids.values())
        tree = TreeSearch(cfg, seat, rng)
        root.visits = self.last_reused = sum(ch.visits for ch in children)
        it = min(root.visits, max_iter // 2)  # the search so far counts, up to half the budget
        first = it
        with collector_paused():
            while it < max_iter:
                if deadline is not None and it > first and time.perf_counter() >= deadline:
                    break  # (at least one iteration: the root ranking may use a tiny budget)
                it += 1
                tree.iterate(root, det.sample(rng))
                if self._early_stop and it % 16 == 0 and max_iter < 10**9:
                    visits = sorted(ch.visits for ch in children)
                    if visits[-1] - visits[-2] > max_iter - it:
                        break  # the most visited candidate can no longer be overtaken
        self.last_iterations = it - first
        self.last_root = root
        best = max(
            enumerate(root.order), key=lambda ia: (kids[ia[1]].visits, kids[ia[1]].wins, -ia[0])
        )[1]
        self._kept = (public_key(apply_unchecked(worlds[0], best)), kids[best])
        return str(best)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs, on again after (if it was on):
    its passes walked the tree again and again, about a tenth of
    a decision's time. What the search allocates is freed by reference counting as before;
    the collector's next pass after the search finds any cycle it left."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
