"""The server's figures for Prometheus: ``/metrics`` (served only when the setting
``metrics`` is on; docs/web.md, *Running it in public*, lists every figure).

Each app has its own ``Metrics`` (its own registry: several apps in one test process do not
mix their figures). The counters and histograms are counted where things happen (the
websocket route, the hub, the bots, the database thread); the gauges (games, connections,
the bot queue) are read from the hub when they are scraped (``Hub.census``).

Several processes on one port (``tne serve --workers N``) use prometheus-client's
multiprocess mode: the launcher gives every worker one folder (``PROMETHEUS_MULTIPROC_DIR``,
read by prometheus-client when it is imported), each process writes its figures there, and
whichever worker answers a scrape adds up all of them. Each worker then refreshes its gauges
every second (``CENSUS_SECONDS``) instead of at the scrape, which it cannot see.

A matchmaking queue, once there is one, gets its gauge here beside the bot queue.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from .events import GameChanged

#: The folder of the figures shared by several processes (prometheus-client's variable).
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: How often a worker of several refreshes its gauges.
CENSUS_SECONDS = 1.0
#: The answer's media type.
CONTENT_TYPE = CONTENT_TYPE_LATEST

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_BOTS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)


def multiprocess_mode() -> bool:
    """Whether this process shares its figures with others (``PROMETHEUS_MULTIPROC_DIR``)."""
    return bool(os.environ.get(MULTIPROC_ENV))


class DbTimer:
    """The counter and histogram of one kind of store call, resolved once."""

    __slots__ = ("calls", "seconds")

    def __init__(self, metrics: Metrics, operation: str) -> None:
        self.calls = metrics.db_calls.labels(operation)
        self.seconds = metrics.db_seconds.labels(operation)

    def observe(self, seconds: float) -> None:
        self.calls.inc()
        self.seconds.observe(seconds)


class Metrics:
    """Every figure of one server process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.games = Gauge(
            "tne_live_games",
            "Games in this process's memory (held) and those whose bots and clock it runs "
            "(owned: it holds their lock)",
            ["state"],
            registry=r,
            multiprocess_mode="livesum",
        )
        self.connections = Gauge(
            "tne_connections",
            "Open game websockets, by role (player, spectator)",
            ["role"],
            registry=r,
            multiprocess_mode="livesum",
        )
        self.bot_queue = Gauge(
            "tne_bot_queue",
            "Bot decisions waiting for a worker, by pool (search, quick)",
            ["pool"],
            registry=r,
            multiprocess_mode="livesum",
        )
        self.actions = Counter(
            "tne_actions_stored",
            "Log entries this process stored: moves, bot moves, undos, seat changes",
            registry=r,
        )
        self.ack_seconds = Histogram(
            "tne_ack_seconds",
            "From a move or undo frame read to its entry committed and its views due",
            buckets=_FAST,
            registry=r,
        )
        self.bot_seconds = Histogram(
            "tne_bot_decision_seconds",
            "A bot's decision on its worker (hearing the steps, then choosing), by level",
            ["level"],
            buckets=_BOTS,
            registry=r,
        )
        self.db_calls = Counter(
            "tne_db_calls",
            "Store calls run on the database thread, by operation",
            ["operation"],
            registry=r,
        )
        self.db_seconds = Histogram(
            "tne_db_seconds",
            "The time of a store call on the database thread, by operation",
            ["operation"],
            buckets=_FAST,
            registry=r,
        )
        self.refusals = Counter(
            "tne_refusals",
            "Refusals sent (error frames and HTTP errors), by code",
            ["code"],
            registry=r,
        )
        self.limits_hit = Counter(
            "tne_limits_hit",
            "Requests and messages refused or held back by one of the limits, by limit",
            ["limit"],
            registry=r,
        )
        self._db: dict[str, DbTimer] = {}

    def game_changed(self, event: GameChanged) -> None:
        """A game changed (``events.py``): an entry this process stored is counted."""
        if event.stored:
            self.actions.inc()

    def db_timer(self, operation: str) -> DbTimer:
        """The figures of the store call ``operation`` (e.g. ``Games.append``)."""
        timer = self._db.get(operation)
        if timer is None:
            timer = self._db[operation] = DbTimer(self, operation)
        return timer

    def refused(self, code: str, limit: str | None = None) -> None:
        """A refusal sent (``limit``: the limit behind it)."""
        self.refusals.labels(code).inc()
        if limit is not None:
            self.limits_hit.labels(limit).inc()

    def limit(self, name: str) -> None:
        """A limit held something back without a refusal (e.g. a bot waits)."""
        self.limits_hit.labels(name).inc()

    def census(
        self, held: int, owned: int, players: int, spectators: int, search: int, quick: int
    ) -> None:
        """The gauges as the hub counts them now."""
        self.games.labels("held").set(held)
        self.games.labels("owned").set(owned)
        self.connections.labels("player").set(players)
        self.connections.labels("spectator").set(spectators)
        self.bot_queue.labels("search").set(search)
        self.bot_queue.labels("quick").set(quick)

    def render(self) -> bytes:
        """The text of a scrape: this process's figures, or every process's in
        multiprocess mode."""
        if multiprocess_mode():
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return generate_latest(registry)
        return generate_latest(self.registry)

    @staticmethod
    def process_gone() -> None:
        """This process stops: its live gauges leave the shared figures."""
        if multiprocess_mode():
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
