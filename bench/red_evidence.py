"""How often greedy players take each kind of turn action, by the red tiles they hold.

Plays four-player greedy games and counts, for every turn action, the actor's red tiles
(0, 1, 2, 3, 4+) and the kind of action (a red tile; another tile; a leader that starts a
revolt; another leader; a catastrophe; anything else). The frequencies of the kinds that do
not play a red tile are ``ai.red_evidence.LIKELIHOOD``. After a red tile is placed or red
support committed it also counts the red tiles the seat kept; divided by what a uniform deal
of that many tiles would hold (the hypergeometric prior, as seat ``+1`` sees the unseen
tiles) and scaled to 1 at no red, that is the likelihood of ``after_red_tile`` and
``after_red_support``. With ``--check N`` it then plays N
more games and scores ``RedEvidence``'s posterior for each other seat's red count, as seat 0
sees it, against the hypergeometric prior (log loss and mean absolute error; lower is
better), and the same scores for the posterior that reads each turn action in its position
(``ai.red_reading``: would a one-step player holding r red tiles have done otherwise?) with
the time a reading takes. In the check the greedy players hear the events, as in a
tournament (under hidden scoring their tally of the others' scores depends on it); in the
count they do not, as when ``LIKELIHOOD`` was fitted.

    python bench/red_evidence.py --games 90 --seed 2 --check 8 --out bench/red_evidence.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any

from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.ai.determinize import Determinizer, ScoreTally
from tigris_euphrates.ai.red_evidence import TOP, RedEvidence
from tigris_euphrates.ai.red_reading import READING, read_action, turn_action
from tigris_euphrates.engine import (
    State,
    apply,
    apply_unchecked,
    new_game,
    parse_action,
    player_view,
    redact_event,
    to_act,
)
from tigris_euphrates.engine.board import RED
from tigris_euphrates.engine.state import ACTION, REVOLT

KINDS = ("red", "tile", "leader", "revolt", "catastrophe", "other")


def kind(s: State, text: str) -> str:
    """The kind of turn action ``text`` in ``s``."""
    word = text.split()[0]
    if word == "tile":
        return "red" if text.split()[1] == "red" else "tile"
    if word == "leader":
        c = apply_unchecked(s, parse_action(text)).conflict
        return "revolt" if c is not None and c[0] == REVOLT else "leader"
    return word if word == "catastrophe" else "other"


AFTER = ("after_red_tile", "after_red_support")


def _prior(s: State, seat: int, k: int) -> list[float]:
    """The hypergeometric chance of r = 0..TOP+ red tiles in ``k`` tiles of seat ``seat``'s
    hand, as the next seat sees the unseen tiles."""
    unseen = player_view(s, (seat + 1) % s.options.players)["unseen"]
    red, pool = unseen["red"], sum(unseen.values())
    out = [0.0] * (TOP + 1)
    for r in range(min(k, red) + 1):
        out[min(r, TOP)] += comb(red, r) * comb(pool - red, k - r) / comb(pool, k)
    return out


def count(games: int, seed: int) -> tuple[dict[int, Counter[str]], dict[str, list[list[float]]]]:
    """Per red count (``TOP`` for more), how many turn actions of each kind; and after each
    red tile or red support, [red tiles kept, summed prior chance] per red count."""
    table: dict[int, Counter[str]] = {r: Counter() for r in range(TOP + 1)}
    after = {k: [[0.0, 0.0] for _ in range(TOP + 1)] for k in AFTER}
    for g in range(games):
        bots = [make_bot("greedy", seed * 100 + g * 4 + p) for p in range(4)]
        s = new_game({"players": 4}, seed * 1000 + g)
        while not s.over:
            seat = to_act(s)
            assert seat is not None
            text = bots[seat].choose(player_view(s, seat), Budget())
            if s.stage == ACTION:
                table[min(s.hands[seat * 4 + RED], TOP)][kind(s, text)] += 1
            before = s
            s, events = apply(s, text)
            for e in events:
                if e.get("seat") != seat or e.get("colour") != "red":
                    continue
                if e["type"] == "tile_placed":
                    spent, which = 1, AFTER[0]
                elif e["type"] == "support_committed" and e["count"]:
                    spent, which = e["count"], AFTER[1]
                else:
                    continue
                kept = before.hands[seat * 4 + RED] - spent
                size = sum(before.hands[seat * 4 : seat * 4 + 4]) - spent
                rows = after[which]
                rows[min(kept, TOP)][0] += 1
                for r, q in enumerate(_prior(before, seat, size)):
                    rows[r][1] += q
    return table, after


def check(games: int, seed: int, conflict_tau: float = 0.3) -> dict[str, float]:
    """The posterior's and the prior's log loss and mean absolute error on the true red
    counts of the other seats, at each of seat 0's turn actions."""
    loss = [0.0, 0.0, 0.0]
    err = [0.0, 0.0, 0.0]
    n = 0
    spent = 0.0
    reads = 0
    for g in range(games):
        bots = [make_bot("greedy", seed * 100 + g * 4 + p) for p in range(4)]
        s = new_game({"players": 4}, seed * 1000 + g)
        seen = RedEvidence()
        blind = RedEvidence(likelihood={})
        read = RedEvidence(likelihood=READING)
        tally = ScoreTally()
        rng = random.Random(g)
        while not s.over:
            seat = to_act(s)
            assert seat is not None
            if seat == 0 and s.stage == ACTION:
                view = player_view(s, 0)
                unseen = view["unseen"]
                for p in range(1, 4):
                    k = view["players"][p]["hand_size"]
                    true = s.hands[p * 4 + RED]
                    for i, ev in enumerate((seen, blind, read)):
                        odds = ev.posterior(p, k, unseen["red"], sum(unseen.values()))
                        loss[i] -= math.log(max(odds[true], 1e-9))
                        err[i] += sum(q * abs(r - true) for r, q in enumerate(odds))
                    n += 1
            before = player_view(s, 0) if seat != 0 and s.stage == ACTION else None
            s, events = apply(s, bots[seat].choose(player_view(s, seat), Budget()))
            seen_events = [redact_event(e, 0) for e in events]
            for p, bot in enumerate(bots):
                bot.observe([redact_event(e, p) for e in events])
            if before is not None:
                action = turn_action(seen_events, seat)
                if action is not None:
                    t0 = time.perf_counter()
                    det = Determinizer(before, tally.scores(before))
                    vec = read_action(det, seat, action, rng, conflict_tau=conflict_tau)
                    spent += time.perf_counter() - t0
                    reads += 1
                    if vec is not None:
                        read.read(seat, vec)
            seen.observe(seen_events)
            read.observe(seen_events)
            tally.observe(seen_events)
    return {
        "positions": n,
        "log_loss_posterior": loss[0] / n,
        "log_loss_prior": loss[1] / n,
        "abs_error_posterior": err[0] / n,
        "abs_error_prior": err[1] / n,
        "log_loss_reading": loss[2] / n,
        "abs_error_reading": err[2] / n,
        "reading_ms": 1000 * spent / max(1, reads),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=90)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--check", type=int, default=0, help="games to score the posterior on")
    ap.add_argument("--conflict-tau", type=float, default=0.3)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    table, after = count(args.games, args.seed)
    out: dict[str, Any] = {"games": args.games, "seed": args.seed, "counts": {}, "likelihood": {}}
    print("red  actions  " + "  ".join(f"{k:>11}" for k in KINDS))
    for r, row in table.items():
        total = sum(row.values())
        out["counts"][r] = {k: row[k] for k in KINDS}
        share = [row[k] / total if total else 0.0 for k in KINDS]
        print(f"{r:>3}  {total:>7}  " + "  ".join(f"{x:>11.3f}" for x in share))
    for k in KINDS[1:5]:
        out["likelihood"][k] = [
            max(0.001, round(table[r][k] / max(1, sum(table[r].values())), 3))
            for r in range(TOP + 1)
        ]
    for k in AFTER:
        rows = after[k]
        ratio = [kept / prior if prior else 0.0 for kept, prior in rows]
        # (a floor of 0.01: a count never seen in these games is rare, not impossible)
        out["likelihood"][k] = [max(0.01, round(x / ratio[0], 3)) for x in ratio]
        out[k] = {"kept": [kept for kept, _ in rows], "prior": [round(p, 1) for _, p in rows]}
    print("likelihood:", json.dumps(out["likelihood"]))
    if args.check:
        out["check"] = check(args.check, args.seed + 1000, args.conflict_tau)
        print("check:", json.dumps(out["check"]))
    if args.out:
        args.out.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
