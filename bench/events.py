"""How long the pairing of a live event takes, by its number of entrants.

    nice -n 10 python bench/events.py [--sizes 16,64,256] [--postgres URL]

Two parts. The rules alone (``tigris_euphrates.pairings``): the CPU time of pairing the
next Swiss round (two and four players a game, after three rounds of seeded random results)
and of an arena's pairing of every free entrant. Then the whole step as the server takes it
(``store.events.Events.step`` with ``server.eventplan.decide``): an arena that starts with
every entrant free, in one locked transaction that reads the event, pairs it and stores its
games, on SQLite and, with ``--postgres``, on PostgreSQL. Writes bench/events.json and the
table between the ``bench:events`` markers of docs/web.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

from tigris_euphrates.pairings import Entrant, FreeEntrant, Game, Round, pair_free, pair_round
from tigris_euphrates.server.eventplan import decide
from tigris_euphrates.server.eventrunner import EventRunner
from tigris_euphrates.store import Store
from tigris_euphrates.store.eventrows import EventRow

ROOT = Path(__file__).resolve().parent.parent


def cpu(fn: Any) -> float:
    """The CPU seconds of one call (the best of three)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def swiss_history(
    entrants: list[Entrant], size: int, rounds: int, rng: random.Random
) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        r = pair_round(entrants, history, size)
        games = []
        for g in r.games:
            places = list(range(len(g.seats)))
            rng.shuffle(places)
            games.append(Game(g.seats, tuple(places)))
        history.append(Round(tuple(games), r.byes))
    return history


def rules(n: int) -> dict[str, float]:
    rng = random.Random(n)
    entrants = [Entrant(i, 1500 + rng.uniform(-300, 300), rng.getrandbits(60)) for i in range(n)]
    out = {}
    for size in (2, 4):
        history = swiss_history(entrants, size, 3, rng)
        out[f"swiss_{size}p_ms"] = 1000 * cpu(lambda h=history, s=size: pair_round(entrants, h, s))
        free = [
            FreeEntrant(e.id, rng.randrange(0, 20), e.rating, e.lot, frozenset({(e.id + 1) % n}))
            for e in entrants
        ]
        out[f"arena_{size}p_ms"] = 1000 * cpu(lambda f=free, s=size: pair_free(f, s))
    return out


def step(url: str, prefix: str, n: int) -> float:
    """Wall seconds of the step that starts an arena of ``n`` free entrants."""
    store = Store(url, prefix)
    ids = [store.accounts.create(f"E{uuid.uuid4().hex[:8]}", "x" * 60).id for _ in range(n)]
    now = time.time()
    settings: Any = {
        "players": 2,
        "ruleset": "classic",
        "base": 600.0,
        "increment": 5.0,
        "rating_min": None,
        "rating_max": None,
        "bots": False,
        "private": False,
        "minutes": 60,
        "rounds": None,
        "repeat_minutes": None,
    }
    event = EventRow(
        uuid.uuid4().hex[:12],
        "Bench",
        "arena",
        ids[0],
        "scheduled",
        settings,
        now,
        now + 3600,
        0,
        1,
    )
    store.events.create(event)
    for a in ids:
        store.events.join(event.id, a, 1500.0, False, now)
    runner = EventRunner.__new__(EventRunner)
    runner.clock = time.time
    t0 = time.perf_counter()
    made = store.events.step(event.id, now, lambda s: decide(s, now, runner.make))
    took = time.perf_counter() - t0
    assert len(made.games) == n // 2, len(made.games)
    if prefix:
        store.drop_all()
    return took


def table(run: dict[str, Any]) -> str:
    rows = [
        "| entrants | Swiss round, 2p | Swiss round, 4p | arena, 2p | arena, 4p "
        "| arena start, SQLite | arena start, PostgreSQL |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, r in run["sizes"].items():
        pg = r.get("step_postgresql_s")
        rows.append(
            f"| {n} | {r['swiss_2p_ms']:.1f} ms | {r['swiss_4p_ms']:.1f} ms "
            f"| {r['arena_2p_ms']:.1f} ms | {r['arena_4p_ms']:.1f} ms "
            f"| {r['step_sqlite_s']:.2f} s | " + ("–" if pg is None else f"{pg:.2f} s") + " |"
        )
    return "\n".join(rows) + f"\n\n`{run['command']}` ({run['machine']}).\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="16,64,256")
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL to measure too")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    run: dict[str, Any] = {
        "command": "python bench/events.py --sizes "
        + args.sizes
        + (" --postgres URL" if args.postgres else ""),
        "machine": f"{platform.machine()}, Python {platform.python_version()}, {date.today()}",
        "sizes": {},
    }
    for n in sizes:
        r: dict[str, Any] = rules(n)
        with tempfile.TemporaryDirectory() as tmp:
            r["step_sqlite_s"] = step(f"sqlite:///{tmp}/bench.sqlite3", "", n)
        if args.postgres:
            r["step_postgresql_s"] = step(args.postgres, f"b{uuid.uuid4().hex[:8]}_", n)
        run["sizes"][str(n)] = r
        print(n, r)
    (ROOT / "bench" / "events.json").write_text(json.dumps(run, indent=1) + "\n")
    docs = ROOT / "docs" / "web.md"
    marked = re.compile(r"(<!-- bench:events -->\n).*?(<!-- /bench:events -->)", re.S)
    docs.write_text(marked.sub(lambda m: m[1] + table(run) + m[2], docs.read_text()))


if __name__ == "__main__":
    main()
