"""``python -m tigris_euphrates.server``: the server without the CLI (tests, benchmarks).

Its settings are ``Settings.from_env()`` with the flags given replacing them (a flag not
given leaves the setting as the environment or the default has it)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import launch
from .limits import Limits
from .settings import Settings


def parser() -> argparse.ArgumentParser:
    """The flags; each one left out is absent from the parsed namespace."""
    p = argparse.ArgumentParser(prog="python -m tigris_euphrates.server")
    unset = argparse.SUPPRESS
    p.add_argument("--host", default=unset)
    p.add_argument("--port", type=int, default=unset)
    p.add_argument("--data-dir", type=Path, default=unset)
    p.add_argument("--database-url", default=unset)
    p.add_argument("--table-prefix", default=unset)
    p.add_argument("--bot-seconds", type=float, default=unset)
    p.add_argument("--bot-delay", type=float, default=unset)
    p.add_argument("--bot-processes", type=int, default=unset)
    p.add_argument(
        "--client-seeds",
        action="store_true",
        default=unset,
        help="accept a client's seed for any game (tests, benchmarks: never in public)",
    )
    p.add_argument("--forwarded-allow-ips", default=unset)
    p.add_argument(
        "--metrics",
        action="store_true",
        default=unset,
        help="serve the Prometheus figures on /metrics",
    )
    p.add_argument("--log-format", choices=["text", "json"], default=unset)
    p.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error", "critical"], default=unset
    )
    p.add_argument(
        "--limit",
        action="append",
        default=unset,
        metavar="NAME=VALUE",
        dest="limits",
        help="change one of the limits of server/limits.py (repeatable)",
    )
    return p


def settings_from(argv: list[str] | None = None) -> Settings:
    """The environment's settings with the flags of ``argv`` replacing them."""
    given: dict[str, Any] = vars(parser().parse_args(argv))
    if "limits" in given:
        given["limits"] = Limits.parse(given["limits"])
    return Settings.from_env().replace(**given)


def main(argv: list[str] | None = None) -> None:
    settings = settings_from(argv)
    try:
        launch.prepare(settings)
    except ValueError as exc:
        raise SystemExit(f"python -m tigris_euphrates.server: {exc}") from None
    launch.serve(settings)


if __name__ == "__main__":
    main()
