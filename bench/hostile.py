"""The long hostile-input campaign: many seeds of support/hostile.py against a server in its
own process (SQLite by default), counting what came back. Writes bench/hostile.json.

    .venv/bin/python bench/hostile.py [--seeds 20] [--rest 5000] [--frames 10000] \\
        [--first 1000] [--database-url postgresql://postgres@127.0.0.1:5432/test]

Any 5xx, ``server-error`` frame, close without a reason or change to the game under
attack stops the run with the input that caused it (an ``AssertionError``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

# support/ (the repository's helpers shared with the tests, not the package) is imported
# from the repository's root
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support import hostile
from support.serving import ServerProcess

OUT = Path(__file__).with_name("hostile.json")
LIMITS = {
    "messages_per_second": 100_000,
    "message_burst": 100_000,
    "games_per_minute": 100_000,
    "games_per_client": 100_000,
    "bot_games_per_client": 3,
    "connections_per_client": 1000,
    # every sign-up or sign-in let through costs a password hash (argon2, ~0.1 s of CPU)
    "sign_ups_per_client": 2,
    "sign_in_failures_per_client": 2,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--rest", type=int, default=5000)
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--lobby", type=int, default=1000, help="frames on the lobby's socket")
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--out", default=str(OUT))
    a = ap.parse_args()
    rest: Counter[int] = Counter()
    frames: Counter[str] = Counter()
    closes: Counter[int] = Counter()
    inputs, created = 0, 0
    prefix = f"hostile{os.getpid()}_" if a.database_url else ""
    start = time.monotonic()
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(tmp, a.database_url, prefix, limits=LIMITS) as srv,
    ):
        for seed in range(a.seeds):
            tally = hostile.run(srv.url, srv.ws_url, seed, a.rest, a.frames, a.first, a.lobby)
            rest.update(tally.rest)
            frames.update(tally.frames)
            closes.update(tally.closes)
            inputs += tally.inputs
            created += tally.created
            print(f"seed {seed}: {tally.inputs} inputs in {tally.seconds:.1f} s", flush=True)
    seconds = time.monotonic() - start
    if a.database_url:
        from tigris_euphrates.store import Store

        Store(a.database_url, prefix).drop_all()
    result = {
        "benchmark": "bench/hostile.py",
        "command": "python bench/hostile.py " + " ".join(sys.argv[1:]),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "database": "postgresql" if a.database_url else "sqlite (WAL)",
        "seeds": a.seeds,
        "inputs": inputs,
        "seconds": round(seconds, 1),
        "inputs_per_second": round(inputs / seconds, 1),
        "server_errors": 0,
        "games_created_by_valid_requests": created,
        "http_status": {str(k): v for k, v in sorted(rest.items())},
        "frames_received": dict(frames.most_common()),
        "closes": {str(k): v for k, v in sorted(closes.items())},
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
