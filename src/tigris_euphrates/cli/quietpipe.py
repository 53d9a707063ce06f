"""The command group of ``tne`` that ends quietly when the reader of its output goes away.

``tne legal position.json | head -5`` closes the pipe after five lines. Click would then exit
with status 1, which fails a shell script run with ``set -o pipefail`` although nothing went
wrong; like ripgrep, ``tne`` treats a reader that has read enough as success (status 0) and
prints no traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup


class QuietPipeGroup(TyperGroup):
    """A Typer group whose commands end with status 0 when standard output's reader is gone."""

    def invoke(self, ctx: Any) -> Any:  # Typer's own Click context
        try:
            answer = super().invoke(ctx)
            sys.stdout.flush()  # a pipe closed early fails here rather than at exit
        except BrokenPipeError:
            # Python flushes standard output again at exit: point it at nothing first.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        return answer
