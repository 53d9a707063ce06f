"""The PostgreSQL tests cannot pass silently without PostgreSQL: ``postgres_or_skip`` skips
them when it does not answer, and fails them with ``TNE_REQUIRE_POSTGRES=1``, which
``make test`` sets for every pytest run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.serving import REQUIRE_POSTGRES, postgres_or_skip

#: nothing listens on port 9 (discard) of this machine
NOWHERE = "postgresql://postgres@127.0.0.1:9/test"


def test_an_unreachable_postgresql_skips_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TNE_TEST_POSTGRES_URL", NOWHERE)
    monkeypatch.delenv(REQUIRE_POSTGRES, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"not reachable at .*:9/test"):
        postgres_or_skip()


def test_an_unreachable_postgresql_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TNE_TEST_POSTGRES_URL", NOWHERE)
    monkeypatch.setenv(REQUIRE_POSTGRES, "1")
    with pytest.raises(pytest.fail.Exception, match="TNE_REQUIRE_POSTGRES=1"):
        postgres_or_skip()


def test_make_test_requires_postgresql_in_every_pytest_run() -> None:
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    target = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    runs = [line for line in target.splitlines() if "pytest" in line]
    assert runs and all(re.search(rf"\b{REQUIRE_POSTGRES}=1\b", line) for line in runs), runs


def test_no_postgresql_test_skips_on_its_own() -> None:
    """Every skip for an unreachable PostgreSQL goes through ``postgres_or_skip``
    (support/serving.py, the one place that may skip on its own)."""
    root = Path(__file__).resolve().parent.parent
    serving = root / "support" / "serving.py"
    for path in [*(root / "tests").rglob("*.py"), *(root / "support").rglob("*.py")]:
        if path == serving:
            continue
        text = path.read_text()
        assert not re.search(r"postgres_url\(\)", text), path
        for line in text.splitlines():
            if "pytest.skip(" in line:
                assert "PostgreSQL" not in line and "postgres" not in line.lower(), (path, line)
