"""The server's logs: plain text (uvicorn's) or one JSON object a line (the setting
``log_format``), and one short line at most for a client's mistake.

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the context
the call gave (``log.info("game created", extra={"game": gid})``: ``"game": gid``) and, for an
error with an exception, ``exception``: its traceback as one string (still one line).
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

#: The formats of ``log_format``.
FORMATS = ("text", "json")
#: The levels of ``log_level``.
LEVELS = ("debug", "info", "warning", "error", "critical")
#: The loggers of the server and of uvicorn, which ``log_config`` sets up.
LOGGERS = ("tigris_euphrates", "uvicorn", "uvicorn.access")

#: The attributes every ``LogRecord`` has: the others are the context a call gave.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class ClientMistakes(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 as an error with its traceback (an
    exception it caught while decoding). It is a client's mistake, not the server's: one
    short line at ``info`` instead (and nothing at the default level, ``warning``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, UnicodeDecodeError):
            return True
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.INFO, "INFO"
        record.msg, record.args = "a client sent a text frame that is not UTF-8: closed (1007)", ()
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


_MISTAKES = ClientMistakes()


def quiet_client_mistakes() -> None:
    """Put ``ClientMistakes`` on the logger uvicorn's websockets write to (once)."""
    logger = logging.getLogger("uvicorn.error")
    if _MISTAKES not in logger.filters:
        logger.addFilter(_MISTAKES)


def log_config(log_format: str, level: str) -> dict[str, Any]:
    """The logging set-up for uvicorn (its ``log_config``): the server's loggers and
    uvicorn's at ``level``, written to stderr as text or JSON lines."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if log_format == "json"
        else {"format": "%(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
            for name in LOGGERS
        },
    }
