"""``python -m tigris_euphrates.server``: the server without the CLI (tests, benchmarks)."""

from __future__ import annotations

import argparse

import uvicorn

from ..store import database_url_for
from .app import check_alone, create_app, uvicorn_options
from .limits import Limits


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m tigris_euphrates.server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default="data")
    p.add_argument("--database-url", default=None)
    p.add_argument("--table-prefix", default="")
    p.add_argument("--bot-seconds", type=float, default=2.0)
    p.add_argument("--bot-delay", type=float, default=0.0)
    p.add_argument("--bot-processes", type=int, default=1)
    p.add_argument(
        "--client-seeds",
        action="store_true",
        help="accept a client's seed for any game (tests, benchmarks: never in public)",
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the limits of server/limits.py (repeatable)",
    )
    a = p.parse_args(argv)
    limits = Limits.parse(a.limit)
    check_alone(database_url_for(a.data_dir, a.database_url))
    app = create_app(
        database_url=a.database_url,
        data_dir=a.data_dir,
        bot_seconds=a.bot_seconds,
        bot_delay=a.bot_delay,
        bot_processes=a.bot_processes,
        table_prefix=a.table_prefix,
        tune_gc=True,
        client_seeds=a.client_seeds,
        limits=limits,
    )
    uvicorn.run(app, host=a.host, port=a.port, log_level="warning", **uvicorn_options(limits))


if __name__ == "__main__":
    main()
