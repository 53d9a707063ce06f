"""Shared pytest set-up: the ``--slow`` flag turns on the long suites (marked ``slow``)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run the slow suites too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow suite: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
