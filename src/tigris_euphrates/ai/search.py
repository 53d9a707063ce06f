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

With three or four players the leads compared are several times smaller, so selection
explores less (``multi_exploration``) and values a first action half by its best second one
(``multi_mixmax``, see ``child_value``); hard and expert may run more iterations there.

Decisions are reproducible: all randomness comes from the bot's seeded RNG, and an
iteration budget (``Budget.iterations``) fixes the amount of work; a time budget stops
earlier on a slow machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from ..engine import State, apply_unchecked, legal_actions, to_act
from ..engine.actions import Action, Commit, Swap
from ..engine.board import RED
from ..engine.errors import IllegalAction
from ..engine.legal import check
from ..engine.state import ACTION, CONFLICT
from .base import Budget
from .evaluate import (
    FULL,
    Weights,
    commit_choice,
    settle,
    useful_commits,
    utilities,
    win_chances,
)
from .greedy import ViewBot, parse, rank_actions
from .triage import triage


class Node:
    __slots__ = ("actor", "avail", "by_class", "children", "classes", "order", "visits", "wins")

    def __init__(self) -> None:
        self.actor = -1  # the seat that decides at this node (known once expanded)
        self.visits = 0
        self.wins = 0.0  # sum of the utility for the seat that chose the action leading here
        self.avail = 0
        self.children: dict[Action, Node] | None = None
        self.order: list[Action] = []  # candidates, best prior first
        #: With ``multi_split_others``: per (candidate, class of the actor's dealt hand),
        #: the [visits, summed utility, availability, actor] that selection at another seat
        #: uses (the actor is kept for the backup).
        self.classes: dict[tuple[Action, int], list[float]] | None = None
        #: With ``world_candidates``: another seat's candidates per class of the hand the
        #: world dealt it (how many red tiles: 0, 1, 2 or more), each ranked in a world of
        #: that class; with ``own_candidates``, at this seat's nodes, the candidates each
        #: class of the other hands added. All of them are among ``children``.
        self.by_class: dict[int, list[Action]] | None = None


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


def _public(s: State) -> tuple[int, ...]:
    """What identifies a position's public side for reusing a search tree: whose decision,
    which stage, the pieces on the board and the scores."""
    return (s.ply, s.turn, s.stage, s.actions_left, s.occupied(), s.lmask, *s.tiles, *s.scores)


def _red_class(s: State, seats: list[int]) -> int:
    """The class of the hands of ``seats`` in world ``s`` that the per-class options key on:
    the most red tiles one of them holds, 0, 1 or 2 (for 2 or more)."""
    reds = max(s.hands[p * 4 + RED] for p in seats)
    return reds if reds < 2 else 2


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
    if not isinstance(a, Swap) or s.stage != ACTION:
        return None
    k = sum(a.counts)
    if k <= s.bag_left:
        return None
    base = s.turn * 4
    hand = s.hands[base : base + 4]
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
    """ISMCTS with greedy-ranked candidates and an evaluation cut-off."""

    name = "search"
    iterations = 200
    seconds: float | None = 0.9
    root_k = 8
    root_worlds = 6
    node_k = 5
    node_sample = 40
    own_sample = 90
    quiet_sample = 8
    exploration = 0.6
    #: Mixmax: a child whose own children are decided by the same seat (the second action of
    #: a turn) is valued ``(1 - mixmax) * mean + mixmax * best grandchild's mean``. With two
    #: players 0: at 0.5, 14/40 against the cheating minimax where 0 won 15/40.
    mixmax = 0.0
    #: With three or four players the leads the search compares are several times smaller
    #: (a move changes one's own value, rarely the best of three opponents'), so there the
    #: exploration constant is halved, a turn's first action is valued half by its best
    #: second one (mixmax), and the iteration count may be higher (the time cap holds).
    multi_exploration = 0.3
    multi_mixmax = 0.5
    multi_iterations: int | None = None
    #: With three or four players, how many turn actions of other seats an iteration may
    #: descend through before it is scored (None: no limit).
    multi_replies: int | None = None
    #: With three or four players, progressive widening at other seats' turn actions:
    #: (sample, visits): a first expansion ranks only ``sample`` actions, and the node is
    #: ranked again with the full ``node_sample`` once it has ``visits`` visits (most deep
    #: nodes are visited a few times only, so their full ranking is mostly wasted).
    multi_widen: tuple[int, int] | None = None
    #: With three or four players, other seats play their best-ranked available action (a
    #: one-step player's choice) instead of being searched: the tree then follows each of our
    #: candidate turns through all the other seats' replies instead of only the next seat's.
    multi_ranked_others = False
    #: With three or four players, back up each seat's chance of finishing first
    #: (``evaluate.win_chances`` with this spread) instead of its lead; None: the lead.
    multi_win_spread: float | None = None
    #: The exploration constant with win chances (they live in [0, 1], not in points).
    multi_win_exploration = 0.035
    #: The same with two players (None: the lead). A game is judged by who wins, not by
    #: the margin: behind, a gamble that may turn the game is worth more than its mean lead.
    #: Off: at 0.8, 11/40 against the cheating minimax on deals where the lead won 15/40.
    win_spread: float | None = None
    #: The exploration constant with two-player win chances: 0.6 on leads around an even
    #: game with a dozen turns left, where a point moves the chance by about 0.12.
    win_exploration = 0.07
    #: Other seats rank their actions without seeing this seat's hand: at their nodes the
    #: ranking that picks their candidates runs on a copy of the world in which this seat's
    #: hand is dealt again from its tiles and the bag (what they cannot tell apart). Off, the
    #: imagined opponents choose knowing this seat's true hand (every world holds it), so
    #: they start exactly the conflicts this hand cannot answer, as no player at the table
    #: could (a known leak of searching one tree over one observer's worlds).
    blind_replies = False
    #: Which actions a node ranks first (``triage``): the focused triage (the best-backed
    #: revolts, the points the actor needs, temples beside its own leaders), or, off, the
    #: first, broader one (every revolt, scoring tile and temple beside a leader). Focused
    #: with three or four players, where it was measured; broad with two, where the strength
    #: figures were measured with it.
    focused_triage = False
    multi_focused_triage = True
    #: A swap of more tiles than the bag holds ends the game at once, and a player ahead
    #: takes it (five of six four-player greedy games end so). With this option one such
    #: swap is hot in the triage, and in the tree it stands for every swap of its size
    #: (``_ending_swap``), so the search sees the player ahead end the game in every world.
    #: With three or four players, where it was measured (on 40 four-player deals at a fixed
    #: iteration count it turned 3 lost games into wins and no win into a loss); two-player
    #: figures were measured without it.
    ending_swaps = False
    multi_ending_swaps = True
    #: With three or four players, another seat's node chooses by statistics kept apart for
    #: each class of the hand the world dealt it (how many red tiles: 0, 1, 2 or more), so
    #: an imagined opponent starts a revolt in the worlds where it holds the red for it, as a
    #: player who sees its own hand does, instead of by the mean over all its possible hands
    #: (the strategy fusion of one tree over one observer's worlds). The subtrees below stay
    #: shared.
    multi_split_others = False
    #: The same with two players (off; not measured there).
    split_others = False
    #: Another seat's support commitments inside the tree are not searched: it plays the
    #: fixed policy (``commit_choice``: the defender the least that wins, the attacker all
    #: or nothing) with the hand its world dealt it. Searched, an imagined defender chooses
    #: by its mean over every hand the worlds deal it (the strategy fusion above) and tries
    #: each commitment at least once, so the value of this seat's own attack blurs. On with
    #: three or four players, where it was measured (one hard against three greedy at 400
    #: iterations, 200 deals: 96 wins against 70.5, sign test p = 0.02); two-player figures
    #: were measured without it.
    auto_support = False
    multi_auto_support = True
    #: With three or four players, another seat's turn action inside the tree is the best of
    #: its node's candidates *in this world*, by its one-step value with the hand this world
    #: dealt it (and, with ``blind_replies``, without seeing this seat's hand): a player who
    #: sees its own hand, as each one at the table does. Its node is not searched (no
    #: statistics choose there), so no imagined opponent acts by its mean over every hand
    #: the worlds deal it. The candidates still come from the node's first ranking.
    multi_world_others = False
    #: The same with two players (off): with ``auto_support`` and ``prune_commits``, 24.5/60
    #: against the cheating minimax where plain ``hard`` won 20, but 8/40 where it won 15 on
    #: fresh deals (32.5/100 against 35/100), and 102/120 against 96/120 against greedy at
    #: 400 iterations: no gain shown.
    world_others = False
    #: With ``world_others``, another seat's candidates at a node are ranked once for each
    #: class of the hand the worlds deal it (0, 1, 2 or more red tiles), in the first world
    #: of that class, and the world at hand chooses among its own class's candidates.
    #: Without it every world chooses among the candidates ranked in the first world that
    #: reached the node: when that world dealt the seat no red, its revolts rank low and are
    #: cut, and no world ever starts them there, even those that dealt it the red to win.
    #: Off: with ``auto_support``, ``prune_commits`` and ``world_others``, 21/60 against
    #: the cheating minimax on the deals where those options alone won 24.5.
    world_candidates = False
    multi_world_candidates = False
    #: This seat's own candidates below the root are ranked again in the first world of
    #: each class of the other hands (the most red tiles another seat holds: 0, 1, 2 or
    #: more), and selection chooses among all of them by the statistics shared by every
    #: world (the choice cannot depend on the hidden class; only the candidates come from
    #: it). Without it a node's candidates come from the one world that first ranked them:
    #: when that world dealt the defender the red to answer a revolt, the revolt ranks low
    #: and is cut, and the tree never tries it in any world (the root ranks over several
    #: worlds and is not changed). Off: with ``auto_support``, ``prune_commits`` and
    #: ``world_others``, 15/60 against the cheating minimax where those alone won 24.5.
    own_candidates = False
    multi_own_candidates = False
    #: With three or four players, colours with equal scores share their ranks' weights in
    #: the evaluation (``Weights.tied_colours``) wherever the search values a position.
    multi_tied_colours = False
    #: Only the support commitments that no other beats in every case are searched
    #: (``evaluate.useful_commits``): a defender commits nothing or exactly the least that
    #: wins, an attacker nothing or enough to beat the defender's base. Without it the
    #: search spreads its visits over commitments whose values differ only by the tiles
    #: thrown away (0.04 points a tile), far less than the noise of the dealt worlds, and
    #: picks among them nearly at random: in 16 four-player games `hard` committed tiles to
    #: 30 defences it could not win (43 tiles) and to 10 it had already won. What is left
    #: out can never do better, so it is on with three or four players, where it was
    #: measured (at 400 iterations on 240 deals 108 wins against 111: no difference in
    #: strength, one waste fewer to watch); two-player figures were measured without it.
    prune_commits = False
    multi_prune_commits = True
    weights: Weights = FULL
    #: Stop once no other root candidate can catch up with the most visited one.
    early_stop = True
    #: Go on from the subtree of the previous decision when it leads to this one.
    reuse = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.last_iterations = 0  # iterations run for the last decision
        self.last_reused = 0  # root visits carried over from the previous decision's tree
        #: The last decision's root: its candidates with their visits and summed utilities
        #: (for analysis: which moves the search weighed and how it judged them).
        self.last_root: Node | None = None
        self._seat = -1
        self._c = self.exploration  # the exploration and mixmax of the current decision
        self._mixmax = self.mixmax
        self._replies: int | None = None
        self._widen: tuple[int, int] | None = None
        self._ranked_others = False
        self._spread: float | None = None  # win chances with this spread, else leads
        self._focused = self.focused_triage  # the triage of the current decision
        self._ending = self.ending_swaps
        self._split = False
        self._auto_support = False
        self._world_others = False
        self._world_cands = False
        self._own_cands = False
        self._prune = self.prune_commits
        self._weights = self.weights  # the evaluation of the current decision
        # The subtree under the action this bot chose last, and the public position it leads
        # to: when the next decision is again this seat's, in that position, the search goes
        # on from there instead of from nothing.
        self._kept: tuple[tuple[int, ...], Node] | None = None

    def default_budget(self, players: int = 2) -> Budget:
        """The level's own budget for a game of ``players``."""
        its = self.iterations
        if players > 2 and self.multi_iterations is not None:
            its = self.multi_iterations
        return Budget(seconds=self.seconds, iterations=its)

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        legal = self.legal(view)
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
        multi = players > 2
        self._c = self.multi_exploration if multi else self.exploration
        self._mixmax = self.multi_mixmax if multi else self.mixmax
        self._replies = self.multi_replies if multi else None
        self._widen = self.multi_widen if multi else None
        self._ranked_others = self.multi_ranked_others and multi
        self._spread = self.multi_win_spread if multi else self.win_spread
        self._focused = self.multi_focused_triage if multi else self.focused_triage
        self._ending = self.multi_ending_swaps if multi else self.ending_swaps
        self._split = self.multi_split_others if multi else self.split_others
        self._auto_support = self.multi_auto_support if multi else self.auto_support
        self._world_others = self.multi_world_others if multi else self.world_others
        self._world_cands = self.multi_world_candidates if multi else self.world_candidates
        self._own_cands = self.multi_own_candidates if multi else self.own_candidates
        self._prune = self.multi_prune_commits if multi else self.prune_commits
        self._weights = (
            replace(self.weights, tied_colours=True)
            if multi and self.multi_tied_colours
            else self.weights
        )
        if self._spread is not None:
            self._c = self.multi_win_exploration if multi else self.win_exploration
        rng = self.rng
        actions = [parse(t) for t in legal]
        worlds = [det.sample(rng) for _ in range(self.root_worlds)]
        if self._prune and worlds[0].stage == CONFLICT:
            # the conflict and this seat's hand: what the view shows
            actions = [Commit(n) for n in useful_commits(worlds[0])]
        ranked = rank_actions(worlds[0], seat, actions, worlds, self._weights)
        root = Node()
        root.order = [a for _, a in ranked[: self.root_k]]
        kept = self._kept
        self._kept = None
        old = kept[1].children if kept is not None and kept[0] == _public(worlds[0]) else None
        root.children = {a: (old.get(a) if old else None) or Node() for a in root.order}
        if len(root.order) == 1:
            return str(root.order[0])
        children = list(root.children.values())
        root.visits = self.last_reused = sum(ch.visits for ch in children)
        it = min(root.visits, max_iter // 2)  # the search so far counts, up to half the budget
        first = it
        while it < max_iter:
            if deadline is not None and it > first and time.perf_counter() >= deadline:
                break  # (at least one iteration: the root ranking may use up a tiny budget)
            it += 1
            self._iterate(root, det.sample(rng))
            if self.early_stop and it % 16 == 0 and max_iter < 10**9:
                visits = sorted(ch.visits for ch in children)
                if visits[-1] - visits[-2] > max_iter - it:
                    break  # the most visited candidate can no longer be overtaken
        self.last_iterations = it - first
        self.last_root = root
        assert root.children is not None
        best = max(
            enumerate(root.order),
            key=lambda ia: (root.children[ia[1]].visits, root.children[ia[1]].wins, -ia[0]),  # type: ignore[index]
        )[1]
        if self.reuse:
            self._kept = (_public(apply_unchecked(worlds[0], best)), root.children[best])
        return str(best)

    # --- one iteration ----------------------------------------------------------------------

    def _iterate(self, root: Node, world: State) -> None:
        path: list[tuple[Node, int]] = []  # (node, seat that chose the action leading to it)
        node = root
        s = world
        c = self._c
        lam = self._mixmax
        replies = self._replies
        widen = self._widen
        ranked_others = self._ranked_others
        split = self._split
        seat = self._seat
        auto_support = self._auto_support
        world_others = self._world_others
        stats: list[list[float]] = []  # the class statistics chosen on the way down
        while True:
            if s.over:
                break
            actor = to_act(s)
            assert actor is not None
            if auto_support and actor != seat and s.stage == CONFLICT:
                s = apply_unchecked(s, commit_choice(s))
                continue
            if replies is not None and actor != self._seat and s.stage == ACTION:
                if replies == 0:
                    break  # deep enough: score the position before this seat's turn action
                replies -= 1
            if node.children is None:
                if node.visits == 0 and node is not root:
                    break  # a new leaf: evaluate it
                self._expand(node, s, actor)
            assert node.children is not None
            if widen is not None and node.visits == widen[1] and actor != self._seat:
                self._expand(node, s, actor, self.node_sample)
            if self._own_cands and actor == seat and node is not root and s.stage == ACTION:
                self._own_class(node, s)
            # The root's candidates come from the view's legal actions: legal in every world.
            available = node.order if node is root else self._available(s, node.order)
            if not available:
                self._expand(node, s, actor)
                available = self._available(s, node.order)
                if not available:
                    break
            pick: Action | None = None
            best = -math.inf
            if ranked_others and actor != self._seat and node is not root:
                pick = available[0]  # node.order is best-ranked first
                node.children[pick].avail += 1
            elif world_others and actor != seat and node is not root and s.stage == ACTION:
                if self._world_cands:
                    available = self._class_available(node, s, actor) or available
                pick = self._world_pick(s, actor, available)
                node.children[pick].avail += 1
            elif split and actor != seat:
                pick = self._select_split(node, s, actor, available, c, lam, stats)
            else:
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
            if self._ending and isinstance(pick, Swap):
                pick = _ending_swap(s, pick) or pick
            s = apply_unchecked(s, pick)
        if not s.over and s.stage != ACTION:
            s = settle(s)
        u = (
            utilities(s, self._weights)
            if self._spread is None
            else win_chances(s, self._weights, self._spread)
        )
        root.visits += 1
        for n, who in path:
            n.visits += 1
            n.wins += u[who]
        for st in stats:
            st[0] += 1
            st[1] += u[int(st[3])]

    def _world_pick(self, s: State, actor: int, available: list[Action]) -> Action:
        """The candidate ``actor`` rates best in world ``s`` (``multi_world_others``): its
        one-step value after the decisions inside the action are settled by the fixed
        policies (with ``blind_replies``, in a copy where this seat's hand is dealt again);
        the first candidate of the node's order among equals."""
        seen = self._blind(s) if self.blind_replies else s
        played = [
            (_ending_swap(seen, a) if self._ending and isinstance(a, Swap) else None) or a
            for a in available
        ]
        best = rank_actions(seen, actor, played, None, self._weights)[0][1]
        return available[played.index(best)]

    def _own_class(self, node: Node, s: State) -> None:
        """Rank this seat's actions at ``node`` in world ``s`` when the class of the other
        hands there (the most red tiles another seat holds: 0, 1, 2+) is new at the node
        (``own_candidates``); the best are added to the node's candidates. The node's first
        ranking counts for the class of the world that made it (this one, when it was just
        expanded)."""
        cls = _red_class(s, [p for p in range(s.players) if p != self._seat])
        table = node.by_class
        if table is None:
            node.by_class = {cls: list(node.order)}
        elif cls not in table:
            table[cls] = self._expand(node, s, self._seat)

    def _class_available(self, node: Node, s: State, actor: int) -> list[Action]:
        """The candidates of the class of ``actor``'s hand in world ``s`` that are legal
        there (``world_candidates``), ranked in this world when the class is new at the
        node. The node's first ranking is the first class's: a node is expanded in the world
        that first passes through it after its first visit, which then comes here."""
        cls = _red_class(s, [actor])
        table = node.by_class
        if table is None:
            table = node.by_class = {cls: list(node.order)}
        order = table.get(cls)
        if order is None:
            order = table[cls] = self._expand(node, s, actor)
        return self._available(s, order)

    def _select_split(
        self,
        node: Node,
        s: State,
        actor: int,
        available: list[Action],
        c: float,
        lam: float,
        stats: list[list[float]],
    ) -> Action:
        """UCB1 at another seat's node over the statistics of the class of the hand this
        world dealt it (``multi_split_others``); the chosen class statistics go on ``stats``
        for the backup (as [visits, wins, avail, actor])."""
        assert node.children is not None
        cls = _red_class(s, [actor])
        table = node.classes
        if table is None:
            table = node.classes = {}
        pick: Action | None = None
        pick_st: list[float] | None = None
        best = -math.inf
        for a in available:
            child = node.children[a]
            child.avail += 1
            st = table.get((a, cls))
            if st is None:
                st = table[(a, cls)] = [0, 0.0, 0, actor]
            st[2] += 1
            if st[0] == 0:
                if pick is None or best != math.inf:
                    pick, pick_st, best = a, st, math.inf
                continue
            if best == math.inf:
                continue
            q = st[1] / st[0]
            if lam and child.actor == actor and child.children:
                top = max(
                    (g.wins / g.visits for g in child.children.values() if g.visits), default=q
                )
                q += lam * (top - q)
            ucb = q + c * math.sqrt(math.log(st[2]) / st[0])
            if ucb > best:
                best, pick, pick_st = ucb, a, st
        assert pick is not None and pick_st is not None
        stats.append(pick_st)
        return pick

    def _available(self, s: State, order: list[Action]) -> list[Action]:
        """The candidates of ``order`` that can be played in world ``s``: the legal ones and,
        when this decision uses ending swaps, a swap that ends the game (``_ending_swap``)
        whenever this world's hand can make a swap of its size: the hand differs from world
        to world, the end of the game does not."""
        if not self._ending:
            return [a for a in order if _legal_in(s, a)]
        return [a for a in order if _legal_in(s, a) or _ending_swap(s, a) is not None]

    def _expand(self, node: Node, s: State, actor: int, limit: int = 0) -> list[Action]:
        """Rank a sample of the actor's actions (``limit``, else the sample for the actor) and
        add the best ``node_k`` that are not children yet (called again when no child is
        legal in a world, or to widen: a new sample); returns those best ``node_k``."""
        if not limit:
            if actor == self._seat:
                limit = self.own_sample
            elif self._widen is not None and node.children is None:
                limit = self._widen[0]
            else:
                limit = self.node_sample
        if self._prune and s.stage == CONFLICT:
            acts: list[Action] = [Commit(n) for n in useful_commits(s)]
        else:
            acts = self._sample(s, legal_actions(s), limit, actor)
        seen = self._blind(s) if self.blind_replies and actor != self._seat else s
        ranked = rank_actions(seen, actor, acts, None, self._weights)
        again = bool(node.children)
        if node.children is None:
            node.children = {}
        node.actor = actor
        top = [a for _, a in ranked[: self.node_k]]
        for a in top:
            if a not in node.children:
                node.children[a] = Node()
                node.order.append(a)
        if again and self._ranked_others and actor != self._seat:
            # a new ranking (widening, or a world where no child was legal): its best first
            node.order = top + [a for a in node.order if a not in top]
        node.visits = max(node.visits, 1)
        return top

    def _blind(self, s: State) -> State:
        """``s`` as another seat may imagine it: this seat's hand dealt again at random from
        its own tiles and the rest of the bag (same size; the bag, shuffled, keeps the
        others). The deal depends only on how many tiles of each colour hand and bag hold
        together, not on which of them the hand holds."""
        base = self._seat * 4
        hand = s.hands[base : base + 4]
        k = sum(hand)
        if not k:
            return s
        counts = hand[:]
        for c in s.bag[s.bag_pos :]:
            counts[c] += 1
        pool = [c for c in range(4) for _ in range(counts[c])]
        self.rng.shuffle(pool)
        w = s.copy()
        for c in range(4):
            w.hands[base + c] = 0
        for c in pool[:k]:
            w.hands[base + c] += 1
        w.bag = tuple(pool[k:])
        w.bag_pos = 0
        return w

    def _sample(self, s: State, acts: list[Action], limit: int, actor: int) -> list[Action]:
        """At most ``limit`` actions to rank: the *hot* turn actions first, then *warm* ones
        (``triage``); a tile or catastrophe away from every piece, a swap or a pass changes
        nothing the evaluation sees, so at most ``quiet_sample`` of those are ranked, and
        only when the others leave room."""
        if len(acts) <= self.quiet_sample:
            return acts
        rng = self.rng
        if s.stage != ACTION:
            return acts if len(acts) <= limit else rng.sample(acts, limit)
        hot, warm, quiet = triage(s, acts, actor, self._focused, self._ending)
        out = hot if len(hot) <= limit else rng.sample(hot, limit)
        room = limit - len(out)
        if room > 0:
            out.extend(warm if len(warm) <= room else rng.sample(warm, room))
        room = min(self.quiet_sample, limit - len(out))
        if room > 0:
            out.extend(quiet if len(quiet) <= room else rng.sample(quiet, room))
        return out


class MediumBot(SearchBot):
    """The search with 100 iterations, six root candidates and a narrower opponent model
    (20 actions ranked at another seat's node, 40 at its own): between greedy and hard."""

    name = "medium"
    iterations = 100
    seconds = 0.9
    root_k = 6
    node_sample = 20
    own_sample = 40


class HardBot(SearchBot):
    """The search with 800 iterations (1600 with three or four players) and ten root
    candidates, at most 0.9 s a decision."""

    name = "hard"
    iterations = 800
    multi_iterations = 1600
    root_k = 10


class ExpertBot(SearchBot):
    """Hard with about twice the iterations and a 2.5 s cap: for patient players."""

    name = "expert"
    iterations = 1500
    multi_iterations = 3000
    seconds = 2.5
    root_k = 10
