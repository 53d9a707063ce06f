"""The server's settings: read from the environment and the flags, the same defaults in
``Settings``, in ``tne serve``'s help and in docs/web.md's table of settings."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import pytest
import typer

from tigris_euphrates.cli.serve import serve
from tigris_euphrates.server.__main__ import parser, settings_from
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.server.settings import Settings

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def default_words(value: Any) -> str:
    """How the docs' table starts the default of a setting."""
    if value is None:
        return "none"
    if value == "":
        return "empty"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Limits):
        return "the `Limits` defaults"
    return f"`{value}`"


def docs_table() -> dict[str, dict[str, str]]:
    """The rows of the table under docs/web.md's heading *Settings*, by setting."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        name, env, flag, default = cells[:4]
        flags = re.findall(r"`(--[a-z-]+)", flag)
        table[name.strip("`")] = {
            "env": env.strip("`"),
            "flag": flags[0] if flags else "",
            "default": default,
        }
    return table


def test_the_docs_list_every_setting_with_its_variable_flag_and_default() -> None:
    table = docs_table()
    assert list(table) == [f.name for f in fields(Settings)]
    for f in fields(Settings):
        row = table[f.name]
        assert row["env"] == f.metadata["env"], f.name
        assert row["flag"] == f.metadata["flag"], f.name
        assert f.default is not MISSING
        assert row["default"].startswith(default_words(f.default)), (f.name, row["default"])


def test_every_flag_of_both_commands_is_a_setting_with_the_same_default() -> None:
    by_flag = {f.metadata["flag"]: f for f in fields(Settings) if f.metadata["flag"]}
    app = typer.Typer(add_completion=False)
    app.command()(serve)
    command = typer.main.get_command(app)
    tne_flags = set()
    for param in command.params:
        flag = next(opt for opt in param.opts if opt.startswith("--"))
        tne_flags.add(flag)
        f = by_flag[flag]
        if f.name != "limits":  # --limit NAME=VALUE: none given, the defaults
            assert param.default == f.default, flag
    python_m_flags = {
        opt for action in parser()._actions for opt in action.option_strings if opt != "-h"
    } - {"--help"}
    assert tne_flags | python_m_flags == set(by_flag)


def test_the_environment_replaces_the_defaults() -> None:
    env = {
        "TNE_DATABASE_URL": "postgresql://u@h/db",
        "TNE_DATA_DIR": "/srv/tne",
        "TNE_PORT": "9000",
        "TNE_BOT_SECONDS": "none",
        "TNE_BOT_DELAY": "0",
        "TNE_LIMITS": "games_per_client=50, body_bytes=2048",
        "TNE_CLIENT_SEEDS": "yes",
        "TNE_TUNE_GC": "0",
        "TNE_SMTP_SECURITY": " TLS ",
        "TNE_HOST": "",  # empty: as unset
    }
    s = Settings.from_env(env)
    assert s.database_url == "postgresql://u@h/db" and s.data_dir == Path("/srv/tne")
    assert s.port == 9000 and s.host == "127.0.0.1"
    assert s.bot_seconds is None and s.bot_delay == 0.0
    assert s.limits == Limits(games_per_client=50, body_bytes=2048)
    assert s.client_seeds and not s.tune_gc and s.smtp_security == "tls"
    assert Settings.from_env({}) == Settings()


def test_a_bad_variable_is_named() -> None:
    with pytest.raises(ValueError, match="TNE_BOT_DELAY"):
        Settings.from_env({"TNE_BOT_DELAY": "soon"})
    with pytest.raises(ValueError, match="TNE_LIMITS: unknown limit"):
        Settings.from_env({"TNE_LIMITS": "speed=3"})
    with pytest.raises(ValueError, match="TNE_SMTP_SECURITY"):
        Settings.from_env({"TNE_SMTP_SECURITY": "ssl"})


def test_the_environment_carries_settings_to_worker_processes() -> None:
    s = Settings(
        database_url="postgresql+psycopg://u@h/db",
        bot_seconds=None,
        bot_delay=0.0,
        limits=Limits(games_per_client=7),
        client_seeds=True,
        smtp_host="mail.example.org",
        smtp_user="tne",
    )
    assert Settings.from_env(s.to_env()) == s
    assert Settings.from_env(Settings().to_env()) == Settings()


def test_flags_replace_the_environment_and_only_the_flags_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TNE_BOT_DELAY", "0.1")
    monkeypatch.setenv("TNE_TABLE_PREFIX", "t_")
    s = settings_from(["--bot-delay", "0", "--limit", "games_per_client=3", "--client-seeds"])
    assert s.bot_delay == 0.0 and s.table_prefix == "t_" and s.client_seeds
    assert s.limits == Limits(games_per_client=3)
    monkeypatch.delenv("TNE_BOT_DELAY")
    assert settings_from([]).bot_delay == 0.4  # the operator's default


def test_mail_is_sent_only_with_an_smtp_host() -> None:
    assert Settings().mail is None
    mail = Settings(smtp_host="smtp.example.org", smtp_security="starttls").mail
    assert mail is not None and mail.port == 587 and mail.security == "starttls"
    mail = Settings(smtp_host="h", smtp_port=2525, public_url="https://tne.example.org/").mail
    assert mail is not None and mail.port == 2525
    assert mail.public_url == "https://tne.example.org"
