"""What players hold, against what a uniform deal says they hold (a benchmark, not a test).

A searching bot deals the hands it cannot see from the unseen tiles. Uniformly, every
unseen tile is as likely to sit in a hand as in the bag. But players do not keep tiles at
random: red tiles are temples and are placed early and often, and blue tiles wait for a
river cell, so hands in play hold less red and more blue than the bag. ``hand_weights``
(a ``SearchBot`` setting) deals the other hands with a weight per colour; this script
measures what those weights should be, from games of our own bots, so that the prior is a
fact about the game as it is played, not about any one opponent.

At every turn action of every seat, it records the seat's hand by colour and what a
uniform deal would give it: the hand's size times each colour's share of the tiles the
next seat cannot see (that hand, the bag, and with more players the other hands).

    .venv/bin/python bench/hand_colours.py --games 10 --seed 9200 --bots \\
        "hard:auto_support=true:prune_commits=true:world_others=true:seconds=null:iterations=400"

Prints, per colour, the mean held, the mean a uniform deal gives, and their ratio (the
weight to deal with); writes ``bench/hand_colours.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tigris_euphrates.ai import make_bot, split_specs
from tigris_euphrates.engine import State, apply, new_game, player_view, redact_event, to_act
from tigris_euphrates.engine.board import COLOURS
from tigris_euphrates.engine.state import ACTION

HERE = Path(__file__).parent


def held_and_uniform(s: State, seat: int) -> tuple[list[int], list[float]]:
    """``seat``'s hand by colour, and the same hand dealt uniformly from the tiles the next
    seat cannot see (every hand but its own, and the bag)."""
    n = s.options.players
    observer = (seat + 1) % n
    pool = [0, 0, 0, 0]
    for t in s.bag[s.bag_pos :]:
        pool[t] += 1
    for p in range(n):
        if p != observer:
            for c in range(4):
                pool[c] += s.hands[p * 4 + c]
    hand = s.hands[seat * 4 : seat * 4 + 4]
    k, total = sum(hand), sum(pool)
    return hand, [k * pool[c] / total if total else 0.0 for c in range(4)]


def play(task: dict[str, Any]) -> list[tuple[list[int], list[float]]]:
    """One game of the given bots (seats rotated by the game's index); the hands at every
    turn action."""
    n = len(task["bots"])
    shift = task["index"] % n
    specs = task["bots"][shift:] + task["bots"][:shift]
    bots = [make_bot(spec, task["seed"] * 4 + i) for i, spec in enumerate(specs)]
    s = new_game({"players": n}, task["seed"])
    rows: list[tuple[list[int], list[float]]] = []
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        if s.stage == ACTION:
            rows.extend(held_and_uniform(s, p) for p in range(n))
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        for p, bot in enumerate(bots):
            bot.observe([redact_event(e, p) for e in events])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="hard:seconds=null:iterations=400")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=9200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "hand_colours.json"))
    args = ap.parse_args()
    specs = split_specs(args.bots)
    bots = [specs[i % len(specs)] for i in range(args.players)]
    tasks = [{"index": i, "seed": args.seed * 1_000 + i, "bots": bots} for i in range(args.games)]
    rows: list[tuple[list[int], list[float]]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in pool.map(play, tasks):
            rows.extend(game)
    held = [statistics.fmean(r[0][c] for r in rows) for c in range(4)]
    uniform = [statistics.fmean(r[1][c] for r in rows) for c in range(4)]
    ratio = [h / u if u else 1.0 for h, u in zip(held, uniform, strict=True)]
    summary = {
        "format": "tne-bench-hand-colours/1",
        "command": f"python bench/hand_colours.py --bots {args.bots} --players {args.players} "
        f"--games {args.games} --seed {args.seed}",
        "machine": f"{platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        "hands": len(rows),
        "colours": list(COLOURS),
        "held": [round(x, 3) for x in held],
        "uniform": [round(x, 3) for x in uniform],
        "ratio": [round(x, 3) for x in ratio],
    }
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{len(rows)} hands at turn actions, {args.games} games of {', '.join(bots)}")
    for c, name in enumerate(COLOURS):
        print(f"  {name:5}  held {held[c]:.2f}  uniform {uniform[c]:.2f}  ratio {ratio[c]:.2f}")
    print("hand_weights=[" + ",".join(f"{x:.2f}" for x in ratio) + "]")


if __name__ == "__main__":
    main()
