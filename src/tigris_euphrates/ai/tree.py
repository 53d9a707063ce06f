"""The search tree and one iteration of the search: the walk down the tree in one dealt
world, the expansion of a node and the back-up of the utilities (``search`` describes the
algorithm; ``SearchBot`` runs the iterations of a decision).

This is the search's hot path, compiled with the engine when the build can (``setup.py``).
"""

from __future__ import annotations

import math
import random

from .. import (
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
from .evaluate import commit_choice, settle, useful_commits, utilities
from .levels import SearchConfig
from .rank import rank_actions
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


def public_key(s: State) -> tuple[object, ...]:
    """What identifies a position's public side for reusing a search tree: whose decision,
    which stage, the pieces on the board and the scores."""
    return (s.ply, s.turn, s.pending, s.actions_left, s.occupied(), s.lmask, *s.tiles, *s.scores)


def legal_in(s: State, a: Action) -> bool:
    """Whether ``a`` may be played in world ``s``."""
    try:
        check(s, a)
    except IllegalAction:
        return False
    return True


def ending_swap(s: State, a: Action) -> Action | None:
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


class TreeSearch:
    """The iterations of one decision: the level's configuration ``cfg`` for this player
    count, the searching ``seat`` and the bot's RNG, which samples the actions a node ranks."""

    def __init__(self, cfg: SearchConfig, seat: int, rng: random.Random) -> None:
        self.cfg = cfg
        self.seat = seat
        self.rng = rng

    def iterate(self, root: Node, world: State) -> None:
        """One iteration: walk down from ``root`` in ``world``, expanding the first node
        visited again and stopping at a new leaf, and back its utilities up the path."""
        path: list[tuple[Node, int]] = []  # (node, seat that chose the action leading to it)
        node = root
        s = world
        cfg = self.cfg
        c = cfg.exploration
        lam = cfg.mixmax
        seat = self.seat
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
                self.expand(node, s, actor)
            assert node.children is not None
            # The root's candidates come from the view's legal actions: legal in every world.
            available = node.order if node is root else self.available(s, node.order)
            if not available:
                self.expand(node, s, actor)
                available = self.available(s, node.order)
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
                pick = ending_swap(s, pick) or pick
            s = apply_unchecked(s, pick)
        if not s.over and s.pending:
            s = settle(s)
        u = utilities(s, cfg.weights)
        root.visits += 1
        for n, who in path:
            n.visits += 1
            n.wins += u[who]

    def available(self, s: State, order: list[Action]) -> list[Action]:
        """The candidates of ``order`` that can be played in world ``s``: the legal ones and,
        when this decision uses ending swaps, a swap that ends the game (``ending_swap``)
        whenever this world's hand can make a swap of its size: the hand differs from world
        to world, the end of the game does not."""
        if not self.cfg.ending_swaps:
            return [a for a in order if legal_in(s, a)]
        return [a for a in order if legal_in(s, a) or ending_swap(s, a) is not None]

    def expand(self, node: Node, s: State, actor: int) -> None:
        """Rank a sample of the actor's actions and add the best ``node_k`` that are not
        children yet (called again when no child is legal in a world)."""
        cfg = self.cfg
        if cfg.prune_commits and isinstance(s.decision, Support):
            acts: list[Action] = [Commit(n) for n in useful_commits(s)]
        else:
            limit = cfg.own_sample if actor == self.seat else cfg.node_sample
            acts = self.sample(s, legal_actions(s), limit, actor)
        ranked = rank_actions(s, actor, acts, None, cfg.weights)
        if node.children is None:
            node.children = {}
        node.actor = actor
        for _, a in ranked[: cfg.node_k]:
            if a not in node.children:
                node.children[a] = Node()
                node.order.append(a)
        node.visits = max(node.visits, 1)

    def sample(self, s: State, acts: list[Action], limit: int, actor: int) -> list[Action]:
        """At most ``limit`` actions to rank: the *hot* turn actions first, then *warm* ones
        (``triage``); a tile or catastrophe away from every piece, a swap or a pass changes
        nothing the evaluation sees, so at most ``quiet_sample`` of those are ranked, and
        only when the others leave room."""
        cfg = self.cfg
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
