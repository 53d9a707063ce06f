"""The two errors of the engine. Both leave the state untouched."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of the engine's errors: a stable machine-readable ``code`` and a human message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidAction(EngineError):
    """Malformed input: not an action of the notation, a bad cell, an unknown option."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now; the message names the rule."""
