"""The yardstick of issue 3: our search, which sees only its view, against a minimax that
sees everything (a benchmark, not a test).

The strongest open-source engine we know plays a depth-3/4 alpha-beta minimax on the full
game state: it knows the other player's hand and the order of the bag. ``Cheater`` is such a
player written for this engine. It gets the referee's ``State`` (never a view), so:

* support commitments are chosen knowing the other side's hand, and a conflict at a leaf is
  settled with the hands as they really are;
* swaps and refills draw the real tiles, so it knows what it and its opponent will hold, and
  when the bag runs out;

and it searches ``depth`` decisions ahead (a turn is two decisions; support, war order,
monuments and treasures are decisions too) with alpha-beta pruning. Python cannot search all
~300 actions at every level the way a compiled engine does, so each level above the last
keeps its best ``widths`` actions by a one-step look-ahead from the point of view of the
player who moves there (the move ordering a compiled engine would also use); the last level
is searched in full, with cut-offs. By default positions are scored with the same static
evaluation as our search (``evaluate.value_for`` with ``FULL`` weights): the comparison is
about what the players may see and how they search, not about the evaluation. With
``--eval reference`` they are scored with the evaluation of the open-source engine itself,
re-created in ``reference.py``: everything else stays as above, so that player still knows
more than the original (the bag's order, not only its contents) and may play every action
of this engine (the original never swaps tiles or moves a leader).

    .venv/bin/python bench/minimax.py --games 60 --seed 71            # hard vs the cheater
    .venv/bin/python bench/minimax.py --games 60 --seed 71 --ours-sees state   # both see all
    .venv/bin/python bench/minimax.py --games 60 --seed 71 --ours-sees red     # its red count
    .venv/bin/python bench/minimax.py --games 40 --seed 77 --eval reference   # its own eval
    .venv/bin/python bench/minimax.py --games 4 --bot greedy --quick   # a smoke run

Writes ``bench/hard_vs_minimax.json`` (``--out``): every game, the win rate of our bot with
its 95 % Wilson interval, mean scores and the decision times of both sides.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import reference  # bench/reference.py: run from bench/ or with bench/ on sys.path
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.ai.evaluate import FULL, Weights, settle, value_for
from tigris_euphrates.ai.greedy import ViewBot
from tigris_euphrates.ai.tournament import wilson
from tigris_euphrates.engine import (
    State,
    apply,
    apply_unchecked,
    legal_actions,
    new_game,
    player_view,
    redact_event,
    result,
    to_act,
)
from tigris_euphrates.engine.actions import Action
from tigris_euphrates.engine.state import ACTION

HERE = Path(__file__).parent

#: The cheater's static evaluation (``--eval``): ours (``evaluate.value_for`` with ``FULL``
#: weights), or the one of the open-source engine the issue names (``reference.py``).
EVALUATIONS = {
    "ours": "our FULL evaluation",
    "reference": "the open-source engine's evaluation (bench/reference.py)",
}

#: What our bot may be shown (``--ours-sees``): its view, or, as controls, worlds built from
#: the true state (``oracle.SHOWN``).
OURS_SEES = {
    "view": "its view only",
    "state": "the true state",
    "hands": "the true other hand",
    "red": "the other hand's red count",
}


class Cheater:
    """Full-information alpha-beta minimax (two players: the other seat minimises)."""

    name = "minimax"

    def __init__(
        self,
        depth: int = 4,
        widths: tuple[int, ...] = (10, 6, 4),
        weights: Weights = FULL,
        evaluation: str = "ours",
    ) -> None:
        if depth < 1:
            raise ValueError("depth must be at least 1")
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}")
        self.depth = depth
        self.widths = widths
        self.weights = weights
        self.evaluation = evaluation
        self.nodes = 0  # positions scored for the last decision

    def choose(self, s: State) -> str:
        """The action the search picks for the seat to act in ``s`` (the true state)."""
        me = to_act(s)
        assert me is not None
        self.nodes = 0
        acts = legal_actions(s)
        if len(acts) == 1:
            return str(acts[0])
        best_v, best = -math.inf, acts[0]
        alpha, beta = -math.inf, math.inf
        for a in self._ordered(s, acts, me, 0):
            v = self._value(apply_unchecked(s, a), self.depth - 1, alpha, beta, me)
            if v > best_v:
                best_v, best = v, a
            alpha = max(alpha, v)
        return str(best)

    def _leaf(self, s: State, me: int) -> float:
        self.nodes += 1
        if not s.over and s.stage != ACTION:
            s = settle(s)  # the decisions inside this action, with the real hands
        if self.evaluation == "reference":
            return reference.value(s, me)
        return value_for(s, me, self.weights)

    def _ordered(self, s: State, acts: list[Action], actor: int, level: int) -> list[Action]:
        """``acts`` best first for ``actor`` by a one-step look-ahead, cut to this level's
        width (the last level is not cut: ``_value`` searches it in full)."""
        if level >= len(self.widths) or len(acts) <= 1:
            return acts
        scored = []
        for i, a in enumerate(acts):
            scored.append((-self._leaf(apply_unchecked(s, a), actor), i, a))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in scored[: self.widths[level]]]

    def _value(self, s: State, depth: int, alpha: float, beta: float, me: int) -> float:
        if s.over or depth == 0:
            return self._leaf(s, me)
        actor = to_act(s)
        assert actor is not None
        acts = legal_actions(s)
        level = self.depth - depth
        maximise = actor == me
        if depth == 1:  # the last level in full: each action scored from our side
            best = -math.inf if maximise else math.inf
            for a in acts:
                v = self._leaf(apply_unchecked(s, a), me)
                if maximise:
                    best = max(best, v)
                    if best >= beta:
                        break
                else:
                    best = min(best, v)
                    if best <= alpha:
                        break
            return best
        best = -math.inf if maximise else math.inf
        for a in self._ordered(s, acts, actor, level):
            v = self._value(apply_unchecked(s, a), depth - 1, alpha, beta, me)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


class Guesser(ViewBot):
    """The control: the same minimax on its view alone. It deals the tiles it cannot see once
    per decision (``Determinizer``, as our search does thousands of times) and searches that
    one world as if it were the truth: what the minimax is worth without the hidden tiles."""

    name = "minimax-view"

    def __init__(
        self, seed: int, depth: int, widths: tuple[int, ...], evaluation: str = "ours"
    ) -> None:
        super().__init__(seed)
        self.search = Cheater(depth, widths, evaluation=evaluation)

    def choose(self, view: dict[str, Any], budget: Budget | None = None) -> str:
        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        choice = self.search.choose(self.determinizer(view).sample(self.rng))
        assert choice in legal  # its own decision: the same actions in every dealt world
        return choice


class _Truth:
    """A determinizer that deals the true state every time: for the control in which our
    search, like the cheater, sees every hand and the bag (``--ours-sees state``)."""

    def __init__(self, s: State, seat: int) -> None:
        self.s = s
        self.seat = seat

    def sample(self, rng: object) -> State:
        return self.s.copy()


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One game: our bot (views and redacted events only) against the minimax, which gets
    the true state (``sees == "state"``) or, as a control, its own view. With ``ours_sees ==
    "state"`` (a control too) our search is dealt the true state in every world instead of
    worlds drawn from its view: both sides then see everything and only the searches differ.
    ``"hands"`` and ``"red"`` show it less: the other hand (the bag dealt again in each
    world), or only how many red tiles that hand holds (the rest dealt again): how much of
    the cheater's edge is the red count alone.
    """
    seat_ours = task["index"] % 2  # seats alternate
    ours = make_bot(task["bot"], task["seed"] * 2 + seat_ours)
    shown = task.get("ours_sees", "view")
    oracle = shown != "view"
    if oracle and not isinstance(ours, ViewBot):
        raise ValueError(f"{task['bot']} does not deal worlds: it cannot be shown the state")
    if oracle:
        from oracle import SHOWN  # here, not above: ``oracle`` imports this module

        kind = SHOWN[shown]
    widths = tuple(task["widths"])
    evaluation = task.get("evaluation", "ours")
    cheater = Cheater(task["depth"], widths, evaluation=evaluation)
    guesser = Guesser(task["seed"] * 2 + 1 - seat_ours, task["depth"], widths, evaluation)
    honest = task.get("sees") == "view"
    s = new_game({"players": 2}, task["seed"])
    times: list[list[float]] = [[], []]
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        if seat != seat_ours and s.stage == ACTION and getattr(ours, "reads_play", False):
            # as at the table (and in ``arena.play_game``): a bot that reads the other
            # seat's choices is shown its own view of the board before each turn action
            ours.watch(player_view(s, seat_ours))  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        # ours gets a view and nothing more; the cheater the true state (hands, bag order)
        if seat == seat_ours:
            if oracle:  # the control: every world it deals is built from the true state
                ours.determinizer = lambda view, s=s: kind(s, view["seat"])  # type: ignore[method-assign]
            choice = ours.choose(player_view(s, seat))
        elif honest:
            choice = guesser.choose(player_view(s, seat))
        else:
            choice = cheater.choose(s)
        times[seat].append(time.perf_counter() - t0)
        s, events = apply(s, choice)  # validated: an illegal choice raises
        ours.observe([redact_event(e, seat_ours) for e in events])
        guesser.observe([redact_event(e, 1 - seat_ours) for e in events])
    res = result(s)
    assert res is not None
    keys = res["scores"]
    mine, theirs = keys[seat_ours], keys[1 - seat_ours]
    return {
        "index": task["index"],
        "seed": task["seed"],
        "seat": seat_ours,
        "scores": [mine[0], theirs[0]],
        "win": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "plies": s.ply,
        "end": res["end"],
        "times": [times[seat_ours], times[1 - seat_ours]],
    }


def _shown(out: str) -> str:
    """The ``--out`` path as a command run from the project's root would give it: relative
    inside the project, absolute outside it."""
    path = Path(out).resolve()
    try:
        return str(path.relative_to(HERE.parent))
    except ValueError:
        return str(path)


def summarise(args: argparse.Namespace, games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    wins = sum(g["win"] for g in games)
    lo, hi = wilson(wins, n)

    def times(side: int) -> dict[str, float]:
        ts = sorted(t for g in games for t in g["times"][side])
        return {
            "decisions": len(ts),
            "median": statistics.median(ts),
            "p99": ts[min(len(ts) - 1, int(0.99 * len(ts)))],
            "max": ts[-1],
        }

    return {
        "format": "tne-bench-minimax/1",
        "command": f"python bench/minimax.py --bot {args.bot} --games {args.games} "
        f"--seed {args.seed} --depth {args.depth} --widths {args.widths} --sees {args.sees} "
        + (f"--eval {args.eval} " if args.eval != "ours" else "")
        + (f"--ours-sees {args.ours_sees} " if args.ours_sees != "view" else "")
        + f"--out {_shown(args.out)}",
        "machine": f"{platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "bot": args.bot,
        "minimax": {
            "depth": args.depth,
            "widths": [int(w) for w in args.widths.split(",")],
            "sees": args.sees,
            "evaluation": args.eval,
        },
        "ours_sees": args.ours_sees,
        "games": n,
        "wins": wins,
        "win_rate": wins / n,
        "ci95": [lo, hi],
        "mean_score": [
            statistics.fmean(g["scores"][0] for g in games),
            statistics.fmean(g["scores"][1] for g in games),
        ],
        "decision_seconds": {args.bot: times(0), "minimax": times(1)},
        # each game without its decision times (they are summed up above)
        "results": sorted(
            ({k: v for k, v in g.items() if k != "times"} for g in games),
            key=lambda g: g["index"],
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard", help="our bot's level (it sees only its view)")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--depth", type=int, default=4, help="the cheater's depth in decisions")
    ap.add_argument("--widths", default="10,6,4", help="actions kept at each level above the last")
    ap.add_argument(
        "--sees",
        choices=("state", "view"),
        default="state",
        help="what the minimax gets: the true state (it cheats) or, as a control, its view",
    )
    ap.add_argument(
        "--eval",
        choices=tuple(EVALUATIONS),
        default="ours",
        help="the minimax's evaluation: ours, or the open-source engine's (bench/reference.py)",
    )
    ap.add_argument(
        "--ours-sees",
        choices=("view", "state", "hands", "red"),
        default="view",
        help="what our bot gets: its view (the real thing) or, as a control, the true state, "
        "the true other hand (the bag dealt again), or only that hand's red count",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "hard_vs_minimax.json"))
    ap.add_argument("--quick", action="store_true", help="depth 2: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.depth = 2
    widths = [int(w) for w in args.widths.split(",")]
    tasks = [
        {
            "index": i,
            "seed": args.seed * 1_000_003 + i,
            "bot": args.bot,
            "depth": args.depth,
            "widths": widths,
            "sees": args.sees,
            "ours_sees": args.ours_sees,
            "evaluation": args.eval,
        }
        for i in range(args.games)
    ]
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for g in pool.map(play, tasks):
            games.append(g)
            wins = sum(x["win"] for x in games)
            print(
                f"{time.strftime('%H:%M:%S')} game {len(games)}/{args.games}: "
                f"{args.bot} {wins:g}/{len(games)}",
                flush=True,
            )
            summary = summarise(args, games)
            Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    s = summarise(args, games)
    lo, hi = s["ci95"]
    print(
        f"{args.bot} ({OURS_SEES[args.ours_sees]}) "
        f"vs minimax depth {args.depth} with {EVALUATIONS[args.eval]} "
        f"({'full information' if args.sees == 'state' else 'its view, one dealt world'}): "
        f"{s['wins']:g}/{s['games']} = {100 * s['win_rate']:.1f} % "
        f"({100 * lo:.1f}-{100 * hi:.1f} %), mean score {s['mean_score'][0]:.1f} vs "
        f"{s['mean_score'][1]:.1f}"
    )
    for side, d in s["decision_seconds"].items():
        print(f"  {side}: median {d['median']:.2f} s, p99 {d['p99']:.2f} s, max {d['max']:.2f} s")


if __name__ == "__main__":
    main()
