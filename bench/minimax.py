"""Our search, which sees only its view, against a minimax that sees everything (a benchmark,
not a test).

The open-source engine the project measures itself against, 0b01/tigris-and-euphrates,
plays an alpha-beta minimax on the full game state: it knows the other player's hand and the
bag. ``Cheater`` is such a player written for this engine. It gets the referee's ``State``
(never a view), so:

* support commitments are chosen knowing the other side's hand, and a conflict at a leaf is
  settled with the hands as they really are;
* swaps and refills draw the real tiles, so it knows what it and its opponent will hold, and
  when the bag runs out;

and it searches ``depth`` decisions ahead (a turn is two decisions; support, war order,
monuments and treasures are decisions too) with alpha-beta pruning. Python cannot search all
~300 actions at every level the way a compiled engine does, so each level above the last
keeps its best ``widths`` actions by a one-step look-ahead from the point of view of the
player who moves there; the last level is searched in full, with cut-offs. With ``--eval
reference`` positions are scored with the open-source engine's own evaluation, re-created in
``reference.py`` (that player still knows more than the original: the bag's order, not only
its contents, and it may play every action of this engine). With ``--eval ours`` (the
default) they are scored with our search's evaluation (``evaluate.value_for``, ``FULL``
weights): a stronger player, and the harder yardstick.

    .venv/bin/python bench/minimax.py --games 40 --seed 77 --eval reference
    .venv/bin/python bench/minimax.py --games 60 --seed 71
    .venv/bin/python bench/minimax.py --games 2 --depth 1 --bot greedy --out /tmp/smoke.json

Keeps its runs in ``bench/minimax.json`` (``--out``), a JSON list: a run replaces the one
with the same command. A run holds every game, the win rate of our bot with its 95 % Wilson
interval, mean scores and the decision times of both sides; ``bench/strength.py`` adds the
runs up into the README's strength table.
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
from tigris_euphrates.ai import Bot, make_bot
from tigris_euphrates.ai.evaluate import FULL, Weights, settle, value_for
from tigris_euphrates.engine import (
    Action,
    State,
    apply_unchecked,
    legal_actions,
    to_act,
)
from tigris_euphrates.tournament import Omniscient, play_game, wilson

HERE = Path(__file__).parent

#: The cheater's static evaluation (``--eval``): ours (``evaluate.value_for`` with ``FULL``
#: weights), or the one of the open-source engine 0b01/tigris-and-euphrates (``reference.py``).
EVALUATIONS = {
    "ours": "our FULL evaluation",
    "reference": "the open-source engine's evaluation (bench/reference.py)",
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

    def choose_from_state(self, s: State) -> str:
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
        if not s.over and s.pending:
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


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One game through the referee: our bot (views and redacted events only) against the
    minimax, which the referee hands the true state (hands, bag order)."""
    seat_ours = task["index"] % 2  # seats alternate
    ours = make_bot(task["bot"], task["seed"] * 2 + seat_ours)
    cheater = Cheater(task["depth"], tuple(task["widths"]), evaluation=task["evaluation"])
    seats: list[Bot | Omniscient] = [cheater, cheater]
    seats[seat_ours] = ours
    game = play_game(seats, {"players": 2}, task["seed"])
    keys = game.result["scores"]
    mine, theirs = keys[seat_ours], keys[1 - seat_ours]
    return {
        "index": task["index"],
        "seed": task["seed"],
        "seat": seat_ours,
        "scores": [mine[0], theirs[0]],
        "win": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "plies": game.plies,
        "end": game.result["end"],
        "times": [game.times[seat_ours], game.times[1 - seat_ours]],
    }


def _shown(out: str) -> str:
    """The ``--out`` path as a command run from the project's root would give it: relative
    inside the project, absolute outside it."""
    path = Path(out).resolve()
    try:
        return str(path.relative_to(HERE.parent))
    except ValueError:
        return str(path)


#: Where the runs are kept.
RUNS = HERE / "minimax.json"


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

    command = (
        f"python bench/minimax.py --bot {args.bot} --games {args.games} --seed {args.seed} "
        f"--depth {args.depth} --widths {args.widths}"
        + (f" --eval {args.eval}" if args.eval != "ours" else "")
        + (f" --out {_shown(args.out)}" if Path(args.out).resolve() != RUNS.resolve() else "")
    )
    return {
        "format": "tne-bench-minimax/2",
        "command": command,
        "machine": f"{platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "bot": args.bot,
        "minimax": {
            "depth": args.depth,
            "widths": [int(w) for w in args.widths.split(",")],
            "evaluation": args.eval,
        },
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


def keep(path: Path, run: dict[str, Any]) -> None:
    """Write ``run`` into the list of runs at ``path``, in place of the run with the same
    command (a run played again) or after the others."""
    runs: list[dict[str, Any]] = json.loads(path.read_text()) if path.exists() else []
    for i, old in enumerate(runs):
        if old["command"] == run["command"]:
            runs[i] = run
            break
    else:
        runs.append(run)
    path.write_text(json.dumps(runs, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard", help="our bot: a level (it sees only its view)")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--depth", type=int, default=4, help="the minimax's depth in decisions")
    ap.add_argument("--widths", default="10,6,4", help="actions kept at each level above the last")
    ap.add_argument(
        "--eval",
        choices=tuple(EVALUATIONS),
        default="ours",
        help="the minimax's evaluation: ours, or the open-source engine's (bench/reference.py)",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(RUNS), help="the JSON list of runs to keep this one in")
    args = ap.parse_args()
    widths = [int(w) for w in args.widths.split(",")]
    tasks = [
        {
            "index": i,
            "seed": args.seed * 1_000_003 + i,
            "bot": args.bot,
            "depth": args.depth,
            "widths": widths,
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
            keep(Path(args.out), summarise(args, games))
    s = summarise(args, games)
    lo, hi = s["ci95"]
    print(
        f"{args.bot} vs minimax depth {args.depth} with {EVALUATIONS[args.eval]}: "
        f"{s['wins']:g}/{s['games']} = {100 * s['win_rate']:.1f} % "
        f"({100 * lo:.1f}-{100 * hi:.1f} %), mean score {s['mean_score'][0]:.1f} vs "
        f"{s['mean_score'][1]:.1f}"
    )
    for side, d in s["decision_seconds"].items():
        print(f"  {side}: median {d['median']:.2f} s, p99 {d['p99']:.2f} s, max {d['max']:.2f} s")


if __name__ == "__main__":
    main()
