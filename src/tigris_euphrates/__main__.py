"""The ``tne`` command (also ``python -m tigris_euphrates``).

The core install has no third-party dependency, so the command line (Typer, Rich) and what
some commands use (the web server, ratings, plots) come with extras. This entry point loads
the command line only when it runs and, when a module of an extra is missing, exits with one
line naming the extra to install instead of a traceback.
"""

from __future__ import annotations

import sys

# Top-level module -> the extra of pyproject.toml that installs it.
EXTRA_OF = {
    "typer": "cli",
    "click": "cli",
    "rich": "cli",
    "openskill": "cli",
    "fastapi": "web",
    "starlette": "web",
    "uvicorn": "web",
    "websockets": "web",
    "sqlalchemy": "web",
    "psycopg": "web",
    "alembic": "web",
    "argon2": "web",
    "itsdangerous": "web",
    "matplotlib": "plots",
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "ray": "cluster",
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The one-line message for a module of an extra that is not installed (else None)."""
    top = (error.name or "").split(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    return (
        f"tne: this needs the '{extra}' extra (no module named {top!r}): "
        f"pip install 'tigris-euphrates[{extra}]'"
    )


def main() -> None:
    """Run the command line; a missing extra ends it with a one-line message (exit code 1)."""
    try:
        from .cli import app

        app()
    except ModuleNotFoundError as error:
        message = missing_extra(error)
        if message is None:
            raise
        sys.exit(message)


if __name__ == "__main__":
    main()
