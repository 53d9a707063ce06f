#!/usr/bin/env python3
"""An example tne-bot/1 bot in Python, using only the standard library.

It speaks the protocol of docs/formats.md ("Bot protocol") over standard input and output:
one JSON object a line. It plays by a simple rule of thumb: it weighs each legal action by
its kind (a treasure or a monument is always worth taking, a tile more than a leader, a pass
little), commits all the support it may, and draws among the weighted actions with the seed
the referee sends, so a game replays the same. Diagnostics go to standard error, which the
referee keeps in a file.

Run it in a tournament:  tne tournament --bots 'cmd:python3 examples/bots/pybot.py',greedy
Options: --uniform draws uniformly among the legal actions (no rule of thumb).
"""

import json
import random
import sys

PROTOCOL = "tne-bot/1"

# How much an action of each kind is worth drawing (the first word of its notation).
WEIGHTS = {
    "treasure": 100.0,
    "monument": 50.0,
    "wonder": 50.0,
    "building": 20.0,
    "tile": 4.0,
    "leader": 2.0,
    "point": 1.0,
    "war": 1.0,
    "decline": 0.5,
    "swap": 0.3,
    "catastrophe": 0.2,
    "withdraw": 0.1,
    "pass": 0.05,
}


def send(message):
    """Write one message as a line and flush it (the referee waits for whole lines)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(view, rng, uniform):
    """One of the view's legal actions."""
    legal = view["legal_actions"]
    if uniform or len(legal) == 1:
        return rng.choice(legal)
    commits = [a for a in legal if a.startswith("commit ")]
    if commits:
        return max(commits, key=lambda a: int(a.split()[1]))
    weights = [WEIGHTS.get(a.split()[0], 1.0) for a in legal]
    return rng.choices(legal, weights=weights)[0]


def main():
    uniform = "--uniform" in sys.argv[1:]
    rng = random.Random(0)
    seat = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                print(f"unknown protocol {message.get('protocol')!r}", file=sys.stderr)
                return 1
            send(
                {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "name": "pybot" + (" (uniform)" if uniform else ""),
                    "author": "tigris-euphrates examples",
                    "options": {"uniform": uniform},
                }
            )
        elif kind == "new_game":
            rng = random.Random(message["seed"])
            seat = message["seat"]
            print(f"new game: seat {seat} of {message['players']}", file=sys.stderr)
        elif kind == "decide":
            action = choose(message["view"], rng, uniform)
            send({"type": "action", "id": message.get("id"), "action": action})
        elif kind == "end":
            ranking = message["result"]["ranking"]
            print(f"game over: seat {seat}, ranking {ranking}", file=sys.stderr)
        elif kind == "quit":
            break
        # "events": this bot keeps no memory of the game, so it lets them pass.
    return 0


if __name__ == "__main__":
    sys.exit(main())
