"""How much of a bot's strength is missing information? Play it shown more than its view.

One search bot against greedy players on the deals of a ``tne tournament`` run (same seed,
same game and bot seeds, seats rotated the same way), but every world its search deals is
built from the true state instead of from its view (a benchmark, not a test: no bot ever
plays like this):

* ``--shown view``: its view only, as in play (the tournament's own games, for a check);
* ``--shown state``: the true state, other hands, swapped tiles and the bag order;
* ``--shown hands``: the true other hands, the bag shuffled in each world;
* ``--shown red``: only how many red tiles each other hand holds; the rest of those hands
  and the bag dealt again in each world.

Two honest controls build the same kinds of world not from the true state but from one
world the bot's own determinizer dealt from its view at the start of the decision (so they
see nothing a player cannot): ``--shown guess-red`` (every world of the decision keeps that
guess's red counts) and ``--shown guess-hands`` (its hands). They tell whether what the
oracle gains is the information or only worlds that agree with one another.

The output has the tournament's ``results`` format, so ``bench/paired.py`` compares it deal
by deal with a tournament of the plain bot:

    python bench/oracle.py --shown red --seed 501 --games 40 --iterations 400 --out red.json
    tne tournament --bots hard,greedy,greedy,greedy --players 4 --games 40 --seed 501 \\
        --iterations 400 --out plain.json
    python bench/paired.py red.json plain.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.ai.greedy import ViewBot
from tigris_euphrates.ai.tournament import deal, places
from tigris_euphrates.engine import (
    State,
    apply,
    new_game,
    player_view,
    redact_event,
    result,
    to_act,
)
from tigris_euphrates.engine.board import RED

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minimax import _Truth


class _Hands(_Truth):
    """The true state with the bag's order dealt again."""

    def sample(self, rng: object) -> State:
        assert isinstance(rng, random.Random)
        w = self.s.copy()
        rest = list(w.bag[w.bag_pos :])
        rng.shuffle(rest)
        w.bag = tuple(w.bag[: w.bag_pos]) + tuple(rest)
        return w


class _Red(_Truth):
    """The other hands' red counts from the true state; their other tiles and the bag dealt
    again from what is left."""

    def sample(self, rng: object) -> State:
        assert isinstance(rng, random.Random)
        w = self.s.copy()
        others = [p for p in range(w.options.players) if p != self.seat]
        pool = list(w.bag[w.bag_pos :])
        need = {}
        for p in others:
            need[p] = sum(w.hands[p * 4 + 1 : p * 4 + 4])
            for c in range(1, 4):
                pool += [c] * w.hands[p * 4 + c]
                w.hands[p * 4 + c] = 0
        rng.shuffle(pool)
        rest = []
        for c in pool:
            p = next((q for q in others if need[q]), None) if c != RED else None
            if p is None:
                rest.append(c)
            else:
                need[p] -= 1
                w.hands[p * 4 + c] += 1
        w.bag = tuple(w.bag[: w.bag_pos]) + tuple(rest)
        return w


SHOWN = {"state": _Truth, "hands": _Hands, "red": _Red}
#: Honest controls: the same kinds of world, built not from the true state but from one world
#: the bot's own determinizer dealt from its view at the start of the decision.
GUESSED = {"guess-hands": _Hands, "guess-red": _Red}


def play(spec: str, players: int, seed: int, index: int, its: int, shown: str) -> dict[str, Any]:
    """One game of the tournament's deal ``index``, the bot shown ``shown``."""
    seats, game_seed, bot_seeds = deal(seed, index, index, [spec] + ["greedy"] * (players - 1))
    ours = seats.index(spec)
    bots = [make_bot(name, bot_seeds[i]) for i, name in enumerate(seats)]
    if shown != "view" and not isinstance(bots[ours], ViewBot):
        raise SystemExit(f"{spec} does not deal worlds: it cannot be shown more")
    s = new_game({"players": players}, game_seed)
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        bot = bots[seat]
        if seat == ours and shown in GUESSED:
            view = player_view(s, seat)
            guess = type(bot).determinizer(bot, view).sample(random.Random(f"{game_seed}:{s.ply}"))  # type: ignore[attr-defined]
            world = GUESSED[shown]
            bot.determinizer = lambda view, g=guess, world=world: world(g, view["seat"])  # type: ignore[attr-defined]
        elif seat == ours and shown != "view":
            world = SHOWN[shown]
            bot.determinizer = lambda view, s=s, world=world: world(s, view["seat"])  # type: ignore[attr-defined]
        s, events = apply(s, bot.choose(player_view(s, seat), Budget(iterations=its)))
        for p, b in enumerate(bots):
            b.observe([redact_event(e, p) for e in events])
    res = result(s)
    assert res is not None
    keys = res["scores"]
    return {
        "index": index,
        "seed": game_seed,
        "seats": seats,
        "scores": [k[0] for k in keys],
        "ranks": places(keys),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--shown", choices=["view", *SHOWN, *GUESSED], default="state")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=501)
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    results = []
    for index in range(args.games):
        results.append(play(args.bot, args.players, args.seed, index, args.iterations, args.shown))
        r = results[-1]
        print(index, r["seats"].index(args.bot), r["ranks"], flush=True)
        summary = {
            "format": "tne-oracle/1",
            "bots": [args.bot, "greedy"],
            "shown": args.shown,
            "players": args.players,
            "seed": args.seed,
            "iterations": args.iterations,
            "results": results,
        }
        args.out.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
