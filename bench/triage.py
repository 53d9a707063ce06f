"""How well the search's opponent model finds the greedy player's move, with and without
the static triage of ``ai.triage``.

At a node where another player acts, the search ranks a sample of that player's actions with
the greedy one-step evaluation and keeps the best five as children. If the move the greedy
player would really make is not among them, the search plays against a weaker opponent
than the one at the table. This plays a few games of greedy play (on the true state), stops
at turn actions along the way, and reports for each way of drawing the sample (a random draw
of nearby actions, the first broad triage, today's focused one; 20, 40 and 60 actions) how
often the greedy choice (greedy ranking of *all* legal actions, basic weights) is among the
five children, and the mean regret (how much worse, by greedy's own values, the best child is;
capped at 5 points a position, since missing a move that ends the game is worth 100).

    python bench/triage.py [--games 12] [--players 2]

Writes ``bench/triage.json`` (``bench/triage_4p.json`` etc. for more players).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from tigris_euphrates.ai.evaluate import BASIC, FULL  # noqa: E402
from tigris_euphrates.ai.greedy import rank_actions  # noqa: E402
from tigris_euphrates.ai.search import SearchBot  # noqa: E402
from tigris_euphrates.engine import (  # noqa: E402
    State,
    apply_unchecked,
    legal_actions,
    new_game,
    to_act,
)
from tigris_euphrates.engine.actions import (  # noqa: E402
    Action,
    Pass,
    PlaceCatastrophe,
    PlaceTile,
    Swap,
)
from tigris_euphrates.engine.board import NEIGHBOURS  # noqa: E402
from tigris_euphrates.engine.state import ACTION  # noqa: E402

Sampler = Callable[[State, list[Action], int, random.Random], list[Action]]


def nearby(s: State, acts: list[Action], limit: int, rng: random.Random) -> list[Action]:
    """The sample before the triage: a random draw of the actions next to a piece, then
    at most 8 of the others."""
    occ = s.occupied()
    active: list[Action] = []
    quiet: list[Action] = []
    for a in acts:
        if isinstance(a, PlaceTile):
            (active if NEIGHBOURS[a.cell] & occ else quiet).append(a)
        elif isinstance(a, PlaceCatastrophe):
            (active if occ >> a.cell & 1 else quiet).append(a)
        elif isinstance(a, (Swap, Pass)):
            quiet.append(a)
        else:
            active.append(a)
    if len(active) > limit:
        active = rng.sample(active, limit)
    room = min(8, limit - len(active))
    if room > 0:
        active.extend(quiet if len(quiet) <= room else rng.sample(quiet, room))
    return active


def triaged(
    s: State, acts: list[Action], limit: int, rng: random.Random, focused: bool = True
) -> list[Action]:
    """The search's own sample (``SearchBot._sample``): hot, then warm, then quiet, with the
    focused triage or (``focused=False``) the first, broader one."""
    actor = to_act(s)
    assert actor is not None
    bot = SearchBot()
    bot._focused = focused
    bot.rng = rng
    return bot._sample(s, acts, limit, actor)


def broad(s: State, acts: list[Action], limit: int, rng: random.Random) -> list[Action]:
    """``triaged`` with the broad triage (``SearchBot.focused_triage = False``)."""
    return triaged(s, acts, limit, rng, focused=False)


def positions(players: int, games: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out: list[State] = []
    for g in range(games):
        s = new_game({"players": players}, seed + g)
        while not s.over:
            acts = legal_actions(s)
            actor = to_act(s)
            assert actor is not None
            if s.stage == ACTION and rng.random() < 0.15:
                out.append(s)
            a = acts[0] if len(acts) == 1 else rank_actions(s, actor, acts, None, BASIC)[0][1]
            s = apply_unchecked(s, a)
    return out


def measure(states: list[State], sampler: Sampler, limit: int, k: int = 5) -> dict[str, float]:
    rng = random.Random(0)
    hits = 0
    regret = 0.0
    ranked_n = 0
    for s in states:
        actor = to_act(s)
        assert actor is not None
        acts = legal_actions(s)
        full = rank_actions(s, actor, acts, None, BASIC)
        values = {a: v for v, a in full}
        sample = sampler(s, acts, limit, rng)
        ranked_n += len(sample)
        top = [a for _, a in rank_actions(s, actor, sample, None, FULL)[:k]]
        hits += full[0][1] in top
        regret += min(5.0, full[0][0] - max(values[a] for a in top))
    n = len(states)
    return {
        "hit_rate": hits / n,
        "mean_regret": regret / n,
        "mean_ranked": ranked_n / n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=900)
    args = ap.parse_args()
    t0 = time.perf_counter()
    states = positions(args.players, args.games, args.seed)
    rows = {}
    for name, sampler in (("nearby", nearby), ("broad-triage", broad), ("triage", triaged)):
        for limit in (20, 40, 60):
            rows[f"{name}-{limit}"] = measure(states, sampler, limit)
    print(f"{len(states)} positions from {args.games} {args.players}-player games of greedy play")
    print("| sample | ranked | greedy's move among the 5 children | mean regret (points, ≤ 5) |")
    print("|---|---:|---:|---:|")
    for key, r in rows.items():
        print(f"| {key} | {r['mean_ranked']:.0f} | {r['hit_rate']:.0%} | {r['mean_regret']:.3f} |")
    out = {
        "command": " ".join(["python bench/triage.py", *sys.argv[1:]]),
        "positions": len(states),
        "players": args.players,
        "games": args.games,
        "rows": rows,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    suffix = "" if args.players == 2 else f"_{args.players}p"
    (ROOT / "bench" / f"triage{suffix}.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
