"""The server's settings: every one, with its default, in one frozen object.

Each entry point (``tne serve``, ``python -m tigris_euphrates.server``, ``app_from_env`` for
``uvicorn --workers``) builds one ``Settings`` at start-up: the defaults, replaced by the
``TNE_*`` environment variables (``Settings.from_env``), replaced by the flags given on the
command line (``Settings.replace``); ``create_app(settings)`` builds the app from it. The
defaults are the operator's; tests and scripts say what they want otherwise (``bot_delay=0``).

A setting's variable and flag are kept beside its default (the ``metadata`` of its field);
docs/web.md's table of settings lists the same, and ``tests/server/test_settings.py`` checks
that the two agree.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from ..coach.analysis import AnalysisBudget
from .limits import Limits
from .logs import FORMATS, LEVELS
from .mail import SECURITY, MailSettings

#: The default SMTP port of each ``smtp_security``.
SMTP_PORTS = {"none": 25, "starttls": 587, "tls": 465}
#: The words a true or false environment variable may say.
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _optional_float(text: str) -> float | None:
    return None if text.strip().lower() == "none" else float(text)


def _optional_int(text: str) -> int | None:
    return None if text.strip().lower() == "none" else int(text)


def _flag(text: str) -> bool:
    word = text.strip().lower()
    if word not in TRUE + FALSE:
        raise ValueError(f"{text!r} is none of {', '.join(TRUE + FALSE)}")
    return word in TRUE


def _limits(text: str) -> Limits:
    return Limits.parse([pair.strip() for pair in text.split(",") if pair.strip()])


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A reader of a setting that is one word of ``choices``."""

    def read(text: str) -> str:
        word = text.strip().lower()
        if word not in choices:
            raise ValueError(f"{text!r} is none of {', '.join(choices)}")
        return word

    return read


def _security(text: str) -> str:
    return text.strip().lower() or "none"


def _show(value: Any, default: Any) -> str:
    """A setting's value as its environment variable says it (``Settings.to_env``): none is
    an empty variable where that is the default, else the word ``none``."""
    if value is None:
        return "" if default is None else "none"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, Limits):
        default = Limits()
        return ",".join(
            f"{f.name}={getattr(value, f.name)}"
            for f in fields(Limits)
            if getattr(value, f.name) != getattr(default, f.name)
        )
    return str(value)


class Source(TypedDict):
    """Where a setting comes from: its environment variable, what reads it, its flag."""

    env: str
    parse: Callable[[str], Any]
    flag: str


def source(env: str, parse: Callable[[str], Any], flag: str = "") -> Source:
    """Where a setting comes from (its field's ``metadata``): its environment variable,
    read by ``parse``, and its command-line flag (``""``: none)."""
    return {"env": env, "parse": parse, "flag": flag}


@dataclass(frozen=True)
class Settings:
    """Every setting of a server (docs/web.md, *Settings*, says what each one does)."""

    #: The database (``postgresql://user@host/db``); none: SQLite in ``data_dir``.
    database_url: str | None = field(
        default=None, metadata=source("TNE_DATABASE_URL", str, "--database-url")
    )
    data_dir: Path = field(
        default=Path("data"), metadata=source("TNE_DATA_DIR", Path, "--data-dir")
    )
    #: A prefix of the store's table names (tests share one PostgreSQL database).
    table_prefix: str = field(
        default="", metadata=source("TNE_TABLE_PREFIX", str, "--table-prefix")
    )
    host: str = field(default="127.0.0.1", metadata=source("TNE_HOST", str, "--host"))
    port: int = field(default=8000, metadata=source("TNE_PORT", int, "--port"))
    #: Server processes sharing the port (more than one needs PostgreSQL).
    workers: int = field(default=1, metadata=source("TNE_WORKERS", int, "--workers"))
    #: The longest a bot thinks per move (none: each level's own budget only).
    bot_seconds: float | None = field(
        default=2.0, metadata=source("TNE_BOT_SECONDS", _optional_float, "--bot-seconds")
    )
    #: A search level's iterations, replacing its own count (none: the level's).
    bot_iterations: int | None = field(
        default=None, metadata=source("TNE_BOT_ITERATIONS", _optional_int)
    )
    #: A pause before each bot move so that people can follow it.
    bot_delay: float = field(default=0.4, metadata=source("TNE_BOT_DELAY", float, "--bot-delay"))
    #: Worker processes of the search bots.
    bot_processes: int = field(
        default=1, metadata=source("TNE_BOT_PROCESSES", int, "--bot-processes")
    )
    #: The CPU seconds a finished game's post-game analysis may take at most.
    analysis_seconds: float = field(default=300.0, metadata=source("TNE_ANALYSIS_SECONDS", float))
    #: The search's iterations at each decision of the analysis, and the deals of the
    #: hidden tiles the action played and the search's choice are played out in
    #: (``coach.analysis.AnalysisBudget``).
    analysis_iterations: int = field(
        default=AnalysisBudget.iterations, metadata=source("TNE_ANALYSIS_ITERATIONS", int)
    )
    analysis_worlds: int = field(
        default=AnalysisBudget.worlds, metadata=source("TNE_ANALYSIS_WORLDS", int)
    )
    #: What one client may ask (``name=value`` pairs, separated by commas in the variable).
    limits: Limits = field(default=Limits(), metadata=source("TNE_LIMITS", _limits, "--limit"))
    #: Accept a client's seed for any game (tests and local study, never in public).
    client_seeds: bool = field(
        default=False, metadata=source("TNE_CLIENT_SEEDS", _flag, "--client-seeds")
    )
    #: How long the page holds the last step of a turn before sending it (0: at once).
    confirm_seconds: float = field(default=5.0, metadata=source("TNE_CONFIRM_SECONDS", float))
    #: How long an open table waits for players after it was opened or last joined.
    table_minutes: float = field(default=30.0, metadata=source("TNE_TABLE_MINUTES", float))
    #: Quick match: the rating difference (openskill's mu) accepted at once, and how much
    #: more each second waited.
    match_window: float = field(default=3.0, metadata=source("TNE_MATCH_WINDOW", float))
    match_widen: float = field(default=0.25, metadata=source("TNE_MATCH_WIDEN", float))
    #: Freeze the objects alive at start-up out of the garbage collector, and make young
    #: collections rarer: fewer pauses in the middle of a move (a process that only serves).
    tune_gc: bool = field(default=True, metadata=source("TNE_TUNE_GC", _flag))
    #: The SMTP server of the turn e-mails (empty: no e-mail is ever sent).
    smtp_host: str = field(default="", metadata=source("TNE_SMTP_HOST", str.strip))
    #: Its port (none: 25, 587 or 465 by ``smtp_security``).
    smtp_port: int | None = field(default=None, metadata=source("TNE_SMTP_PORT", _optional_int))
    smtp_security: str = field(default="none", metadata=source("TNE_SMTP_SECURITY", _security))
    smtp_user: str | None = field(default=None, metadata=source("TNE_SMTP_USER", str))
    smtp_password: str | None = field(default=None, metadata=source("TNE_SMTP_PASSWORD", str))
    smtp_from: str = field(default=MailSettings.sender, metadata=source("TNE_SMTP_FROM", str))
    #: The site's public address, which the links in the e-mails start with.
    public_url: str = field(default=MailSettings.public_url, metadata=source("TNE_PUBLIC_URL", str))
    #: The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed: their
    #: addresses or networks, separated by commas (``*``: any peer). Empty: none, the
    #: client is the socket's peer and the scheme the connection's.
    forwarded_allow_ips: str = field(
        default="",
        metadata=source("TNE_FORWARDED_ALLOW_IPS", str.strip, "--forwarded-allow-ips"),
    )
    #: Serve the Prometheus figures on ``/metrics`` (off: 404).
    metrics: bool = field(default=False, metadata=source("TNE_METRICS", _flag, "--metrics"))
    #: The logs: ``text`` or ``json`` (one JSON object a line).
    log_format: str = field(
        default="text", metadata=source("TNE_LOG_FORMAT", _choice(FORMATS), "--log-format")
    )
    #: The least level logged: ``debug``, ``info``, ``warning``, ``error`` or ``critical``.
    log_level: str = field(
        default="warning", metadata=source("TNE_LOG_LEVEL", _choice(LEVELS), "--log-level")
    )

    def __post_init__(self) -> None:
        AnalysisBudget(self.analysis_iterations, self.analysis_worlds)  # refused if out of range
        if self.smtp_security not in SECURITY:
            raise ValueError(
                f"TNE_SMTP_SECURITY is one of {', '.join(SECURITY)}, not {self.smtp_security!r}"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The defaults, replaced by the ``TNE_*`` variables set (an empty one is as unset);
        raises ``ValueError`` naming a variable that cannot be read."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            text = env.get(f.metadata["env"], "")
            if not text.strip():
                continue
            try:
                values[f.name] = f.metadata["parse"](text)
            except ValueError as exc:
                raise ValueError(f"{f.metadata['env']}: {exc}") from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The variables from which ``from_env`` builds these settings again (the worker
        processes of ``tne serve --workers N`` read them)."""
        return {f.metadata["env"]: _show(getattr(self, f.name), f.default) for f in fields(self)}

    def replace(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (the flags given on a command line; a folder may
        come as text, as the command line's raw parameters give it)."""
        if "data_dir" in changes:
            changes["data_dir"] = Path(changes["data_dir"])
        return dataclasses.replace(self, **changes)

    @property
    def analysis_budget(self) -> AnalysisBudget:
        """The work of one post-game analysis."""
        return AnalysisBudget(self.analysis_iterations, self.analysis_worlds)

    @property
    def mail(self) -> MailSettings | None:
        """Where the turn e-mails go (``None``: no SMTP server, no e-mail)."""
        if not self.smtp_host:
            return None
        return MailSettings(
            host=self.smtp_host,
            port=self.smtp_port or SMTP_PORTS[self.smtp_security],
            sender=self.smtp_from,
            user=self.smtp_user or None,
            password=self.smtp_password or None,
            security=self.smtp_security,
            public_url=self.public_url.rstrip("/"),
        )
