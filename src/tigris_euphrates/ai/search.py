"""The search player: single-observer information-set MCTS over determinizations.

Each iteration deals the tiles this seat cannot see at random, consistently with its view
(``Determinizer.sample``: other hands, other seats' swapped tiles, bag order), and walks one
tree shared by all those worlds. A node is reached by the sequence of actions from the root;
its children are the candidate actions of the player to act there. In a given world only the
children that are legal there are *available*; selection is UCB1 over available children
with availability counts (Cowling, Powley & Whitehouse 2012), so a child that is often
impossible (it needs a tile an opponent may not hold) is not over-rated.

Branching is large (a turn action has 100–400 choices), so children are not all actions:
the greedy one-step look-ahead (``greedy.rank_actions``) ranks the actions and only the best
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

import math
import time
from typing import Any

from ..engine import (
    Action,
    Commit,
    IllegalAction,
    State,
    Support,
    Swap,
    apply_unchecked,
    check,
    legal_actions,
    to_act,
)
from .base import Budget, View, ViewBot, legal_of, parse
from .evaluate import commit_choice, settle, useful_commits, utilities
from .greedy import rank_actions
from .levels import SearchLevel
from .triage import triage


class Node:
    """A node of the search tree: the statistics of the action that leads to it, for the
    seat that chose it, and its candidate actions once expanded."""

    __slots__ = ("actor", "avail", "children", "order", "visits", "wins")

    def __init__(self) -> None:
        self.actor = -1  # the seat that decides at this node (known once expanded)
        self.visits = 0
        self.wins = 0.0  # sum of the utility for the seat that chose the action leading here
        self.avail = 0
        self.children: dict[Action, Node] | None = None
        self.order: list[Action] = []  # candidates, best prior first


def child_value(child: Node, actor: int, mixmax: float = 0.0) -> float:
    """A visited child's value for ``actor``, the seat that chooses it: its mean utility, or,
    when the next decision below it is again ``actor``'s (a turn's second action, one's own
    support after one's attack) and ``mixmax`` > 0, that mean moved by ``mixmax`` towards
    its best visited child's mean, so that a good first action is not judged by the poor
    second actions the search also tried."""
    q = child.wins / child.visits
    if mixmax > 0.0 and child.actor == actor and child.children:
        top = max((g.wins / g.visits for g in child.children.values() if g.visits), default=q)
        q += mixmax * (top - q)
    return q


def _public(s: State) -> tuple[object, ...]:
    """What identifies a position's public side for reusing a search tree: whose decision,
    which stage, the pieces on the board and the scores."""
    return (s.ply, s.turn, s.pending, s.actions_left, s.occupied(), s.lmask, *s.tiles, *s.scores)


def _legal_in(s: State, a: Action) -> bool:
    try:
        check(s, a)
    except IllegalAction:
        return False
    return True


def _ending_swap(s: State, a: Action) -> Action | None:
    """``a`` as played in world ``s`` when it is a swap of more tiles than the bag holds:
    such a swap ends the game at once, whichever tiles go, so it stands for every swap of
    its size, and in a world whose hand lacks its tiles the same number of the hand's own
    tiles go instead (None: not such a swap, or the hand is too small)."""
    if not isinstance(a, Swap) or s.pending:
        return None
    k = sum(a.counts)
    if k <= s.bag_left:
        return None
    hand = s.hand(s.turn)
    if all(h >= c for h, c in zip(hand, a.counts, strict=True)):
        return a
    if sum(hand) < k:
        return None
    counts = [0, 0, 0, 0]
    for c in range(4):
        counts[c] = min(hand[c], k)
        k -= counts[c]
    return Swap((counts[0], counts[1], counts[2], counts[3]))


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
        old = kept[1].children if kept is not None and kept[0] == _public(worlds[0]) else None
        kids = {a: (old.get(a) if old else None) or Node() for a in root.order}
        root.children = kids
        if len(root.order) == 1:
            return str(root.order[0])
        children = list(kids.values())
        root.visits = self.last_reused = sum(ch.visits for ch in children)
        it = min(root.visits, max_iter // 2)  # the search so far counts, up to half the budget
        first = it
        while it < max_iter:
            if deadline is not None and it > first and time.perf_counter() >= deadline:
                break  # (at least one iteration: the root ranking may use up a tiny budget)
            it += 1
            self._iterate(root, det.sample(rng))
            if self._early_stop and it % 16 == 0 and max_iter < 10**9:
                visits = sorted(ch.visits for ch in children)
                if visits[-1] - visits[-2] > max_iter - it:
                    break  # the most visited candidate can no longer be overtaken
        self.last_iterations = it - first
        self.last_root = root
        best = max(
            enumerate(root.order), key=lambda ia: (kids[ia[1]].visits, kids[ia[1]].wins, -ia[0])
        )[1]
        self._kept = (_public(apply_unchecked(worlds[0], best)), kids[best])
        return str(best)

    # --- one iteration ----------------------------------------------------------------------

    def _iterate(self, root: Node, world: State) -> None:
        path: list[tuple[Node, int]] = []  # (node, seat that chose the action leading to it)
        node = root
        s = world
        cfg = self._cfg
        c = cfg.exploration
        lam = cfg.mixmax
        seat = self._seat
        auto_support = cfg.auto_support
        ending = cfg.ending_swaps
        while True:
            if s.over:
                break
            actor = to_act(s)
            assert actor is not None
            if auto_support and actor != seat and isinstance(s.decision, Support):
                s = apply_unchecked(s, commit_choice(s))
                continue
            if node.children is None:
                if node.visits == 0 and node is not root:
                    break  # a new leaf: evaluate it
                self._expand(node, s, actor)
            assert node.children is not None
            # The root's candidates come from the view's legal actions: legal in every world.
            available = node.order if node is root else self._available(s, node.order)
            if not available:
                self._expand(node, s, actor)
                available = self._available(s, node.order)
                if not available:
                    break
            pick: Action | None = None
            best = -math.inf
            for a in available:
                child = node.children[a]
                child.avail += 1
                if child.visits == 0:
                    if pick is None or node.children[pick].visits > 0:
                        pick = a
                        best = math.inf
                    continue
                if best == math.inf:
                    continue
                # the plain mean inline: this loop is the search's hot path (two players)
                q = child_value(child, actor, lam) if lam else child.wins / child.visits
                ucb = q + c * math.sqrt(math.log(child.avail) / child.visits)
                if ucb > best:
                    best, pick = ucb, a
            assert pick is not None
            node = node.children[pick]
            path.append((node, actor))
            if ending and isinstance(pick, Swap):
                pick = _ending_swap(s, pick) or pick
            s = apply_unchecked(s, pick)
        if not s.over and s.pending:
            s = settle(s)
        u = utilities(s, cfg.weights)
        root.visits += 1
        for n, who in path:
            n.visits += 1
            n.wins += u[who]

    def _available(self, s: State, order: list[Action]) -> list[Action]:
        """The candidates of ``order`` that can be played in world ``s``: the legal ones and,
        when this decision uses ending swaps, a swap that ends the game (``_ending_swap``)
        whenever this world's hand can make a swap of its size: the hand differs from world
        to world, the end of the game does not."""
        if not self._cfg.ending_swaps:
            return [a for a in order if _legal_in(s, a)]
        return [a for a in order if _legal_in(s, a) or _ending_swap(s, a) is not None]

    def _expand(self, node: Node, s: State, actor: int) -> None:
        """Rank a sample of the actor's actions and add the best ``node_k`` that are not
        children yet (called again when no child is legal in a world)."""
        cfg = self._cfg
        if cfg.prune_commits and isinstance(s.decision, Support):
            acts: list[Action] = [Commit(n) for n in useful_commits(s)]
        else:
            limit = cfg.own_sample if actor == self._seat else cfg.node_sample
            acts = self._sample(s, legal_actions(s), limit, actor)
        ranked = rank_actions(s, actor, acts, None, cfg.weights)
        if node.children is None:
            node.children = {}
        node.actor = actor
        for _, a in ranked[: cfg.node_k]:
            if a not in node.children:
                node.children[a] = Node()
                node.order.append(a)
        node.visits = max(node.visits, 1)

    def _sample(self, s: State, acts: list[Action], limit: int, actor: int) -> list[Action]:
        """At most ``limit`` actions to rank: the *hot* turn actions first, then *warm* ones
        (``triage``); a tile or catastrophe away from every piece, a swap or a pass changes
        nothing the evaluation sees, so at most ``quiet_sample`` of those are ranked, and
        only when the others leave room."""
        cfg = self._cfg
        if len(acts) <= cfg.quiet_sample:
            return acts
        rng = self.rng
        if s.pending:
            return acts if len(acts) <= limit else rng.sample(acts, limit)
        hot, warm, quiet = triage(s, acts, actor, cfg.focused_triage, cfg.ending_swaps)
        out = hot if len(hot) <= limit else rng.sample(hot, limit)
        room = limit - len(out)
        if room > 0:
            out.extend(warm if len(warm) <= room else rng.sample(warm, room))
        room = min(cfg.quiet_sample, limit - len(out))
        if room > 0:
            out.extend(quiet if len(quiet) <= room else rng.sample(quiet, room))
        return out
