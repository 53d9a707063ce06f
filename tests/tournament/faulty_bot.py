"""A tne-bot/1 program for the tests, run as ``python faulty_bot.py MODE [N] [FILE]``.

It answers every decision with the first legal action, except that from its N-th decision
on (0: the first) it misbehaves as MODE says: ``late`` (sleeps past any budget), ``illegal``
(an action no view offers), ``garbage`` (a line that is not JSON), ``crash`` (exits with
code 3), ``shape`` (JSON of the wrong type), ``twice`` (writes each answer twice: harmless,
the second names a decision already answered). ``hello`` answers the handshake with garbage;
``record`` misbehaves never, writes every line it receives, unchanged, to FILE, and answers
without naming the decision's ``id`` (as a bot written before ids does); every other mode
names it. Its count of decisions starts again when it is started again.
Everything it does is also told on standard error.
"""

import json
import sys
import time


def main() -> int:
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    record = open(sys.argv[3], "w") if mode == "record" else None  # noqa: SIM115
    decisions = 0
    for line in sys.stdin:
        if record is not None:
            record.write(line)
            record.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            if mode == "hello":
                print("hello yourself", flush=True)
                continue
            hello = {"type": "hello", "protocol": "tne-bot/1", "name": f"faulty {mode}"}
            print(json.dumps(hello), flush=True)
        elif message["type"] == "decide":
            decisions += 1
            if decisions > after and mode not in ("record", "hello"):
                print(f"misbehaving: {mode} at decision {decisions}", file=sys.stderr, flush=True)
                if mode == "late":
                    time.sleep(30)
                elif mode == "illegal":
                    print(json.dumps({"type": "action", "action": "tile red z99"}), flush=True)
                    continue
                elif mode == "garbage":
                    print("{this is not json", flush=True)
                    continue
                elif mode == "shape":
                    print(json.dumps(["action", "pass"]), flush=True)
                    continue
                elif mode == "crash":
                    return 3
            answer = {"type": "action", "action": message["view"]["legal_actions"][0]}
            if mode != "record":
                answer["id"] = message["id"]
            print(json.dumps(answer), flush=True)
            if mode == "twice" and decisions > after:
                print(json.dumps(answer), flush=True)
        elif message["type"] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
