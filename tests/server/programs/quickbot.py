"""A tne-bot/1 program for the bridge's tests (standard library only): it swaps the largest
set of tiles offered, or passes, so that a game ends in about 22 actions, waiting
``QUICKBOT_PAUSE`` seconds before each answer (a game that lasts long enough to be cut).
``QUICKBOT_CRASH=always`` makes it exit at every decision; ``QUICKBOT_CRASH=every:N`` at the
N-th decision of every run (a program that fails every few decisions);
``QUICKBOT_CRASH=FILE`` at its first decision if FILE does not exist yet (it creates it: the
next run plays). It names each answer's decision (``id``) and tells its standard error the
options ``new_game`` gave it."""

from __future__ import annotations

import json
import os
import sys
import time

PAUSE = float(os.environ.get("QUICKBOT_PAUSE", "0"))
CRASH = os.environ.get("QUICKBOT_CRASH", "")


def crash_now(decisions: int) -> bool:
    if CRASH == "always":
        return True
    if CRASH.startswith("every:"):
        return decisions == int(CRASH.split(":")[1])
    if CRASH and not os.path.exists(CRASH):
        open(CRASH, "w").close()
        return True
    return False


def choose(view: dict) -> str:
    legal = view["legal_actions"]
    swaps = [a for a in legal if a.startswith("swap ")]
    if swaps:
        return max(swaps, key=lambda a: sum(int(x.split("=")[1]) for x in a[5:].split(",")))
    return "pass" if "pass" in legal else legal[0]


def main() -> None:
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "hello", "protocol": "tne-bot/1", "name": "quickbot"}
        elif kind == "new_game":
            options = json.dumps(message["options"], sort_keys=True)
            print(f"options {options}", file=sys.stderr, flush=True)
            continue
        elif kind == "decide":
            decisions += 1
            if crash_now(decisions):
                print("crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(1)
            time.sleep(PAUSE)
            answer = {"type": "action", "id": message["id"], "action": choose(message["view"])}
        elif kind == "quit":
            return
        else:
            continue
        print(json.dumps(answer), flush=True)
        print(f"answered {kind}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
