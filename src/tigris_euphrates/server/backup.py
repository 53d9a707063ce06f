"""The operator's backup, ``tne export``: every game of the store (or a range of them) with
everything a restore needs, then the accounts and ratings without their secrets, the
puzzles and the live events, as one JSON-lines file (``tne-export/1``, docs/formats.md).

The file is written in pages of games, each line complete and the file synced after each
page, so that an export cut short (a stopped process, a full disk) leaves a prefix of the
whole: ``export(..., resume=True)`` keeps its complete game lines and writes on after the
last of them, giving the file an uninterrupted export would have written. The games are in
creation order (``(created, id)``), which is also where a resumed export continues.

An export holds what the database holds: the seed and whole log of every unfinished game
(its hidden hands and bag) and the hashes of the seats' tokens. It is kept like the
database. It holds no password hash, no session key and no other server secret.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TypeGuard

from typing_extensions import TypedDict

from .. import __version__
from ..store import GameRow, Store
from ..store.backuprows import GameDump, GameLine
from ..store.jsontypes import JsonDict, JsonValue, json_object
from .live import LiveGame

FORMAT = "tne-export/1"
#: games read and written together, the file synced after each page
PAGE = 100


class ExportError(Exception):
    """An export that cannot be written (the message says why and what to do)."""


class SpanData(TypedDict):
    """A ``Span`` as the export's header holds it."""

    since: float | None
    until: float | None
    games: list[str] | None


@dataclass(frozen=True)
class Span:
    """Which games an export holds: created at or after ``since`` and before ``until``
    (seconds since the epoch), among ``games`` when given; everything by default."""

    since: float | None = None
    until: float | None = None
    games: tuple[str, ...] | None = None

    def to_dict(self) -> SpanData:
        return {
            "since": self.since,
            "until": self.until,
            "games": None if self.games is None else list(self.games),
        }

    @classmethod
    def from_dict(cls, data: SpanData) -> Span:
        games = data.get("games")
        return cls(data.get("since"), data.get("until"), None if games is None else tuple(games))

    @property
    def everything(self) -> bool:
        return self == Span()


@dataclass
class ExportReport:
    """What an export wrote: its games (``kept``: those a resumed export found already
    written), accounts, ratings, puzzles and live events, and the games it could not
    replay (``unreadable``: exported with their log and no record; ``tne import`` reports
    them)."""

    path: Path
    games: int = 0
    kept: int = 0
    accounts: int = 0
    ratings: int = 0
    puzzles: int = 0
    events: int = 0
    #: the file was complete already (a resumed export with nothing to do)
    complete_already: bool = False
    unreadable: list[str] = field(default_factory=list)


def export(
    store: Store,
    path: Path,
    span: Span | None = None,
    resume: bool = False,
    now: Callable[[], float] = time.time,
    page: int = PAGE,
) -> ExportReport:
    """Write the export of ``store`` to ``path`` (created with mode 0600: it holds the
    games' secrets). ``resume``: continue the export at ``path`` where it was cut short
    (its own span is used; ``span``, if given, must be the same); without it ``path`` must
    not exist. Raises ``ExportError``."""
    report = ExportReport(path)
    start = _resume_point(path, span) if resume else None
    if start is None:
        if resume:  # not even a header was written: start again
            path.unlink(missing_ok=True)
        span = span or Span()
        out = _create(path)
        _write(
            out,
            {
                "format": FORMAT,
                "kind": "header",
                "started": now(),
                "version": __version__,
                "span": span.to_dict(),
            },
        )
        after: tuple[float, str] | None = None
    else:
        kept, size, report.kept, after = start
        if kept is None:  # the file was complete
            report.complete_already = True
            return report
        span = Span.from_dict(kept)
        out = path.open("r+b")
        out.truncate(size)
        out.seek(size)
    with out:
        report.games = report.kept + _export_games(store, out, span, after, page, report)
        _export_players(store, out, report)
        _export_puzzles(store, out, report)
        _export_events(store, out, report)
        _write(
            out,
            {
                "kind": "end",
                "games": report.games,
                "accounts": report.accounts,
                "ratings": report.ratings,
                "puzzles": report.puzzles,
                "events": report.events,
            },
        )
        _sync(out)
    return report


def _create(path: Path) -> IO[bytes]:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ExportError(
            f"{path} exists: continue that export with --resume, or choose another file"
        ) from None
    return os.fdopen(fd, "wb")


def _write(out: IO[bytes], line: Mapping[str, object]) -> None:
    out.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")


def _sync(out: IO[bytes]) -> None:
    out.flush()
    os.fsync(out.fileno())


def _export_games(
    store: Store,
    out: IO[bytes],
    span: Span,
    after: tuple[float, str] | None,
    page: int,
    report: ExportReport,
) -> int:
    """Write the games of ``span`` after ``after``, a page at a time; how many."""
    count = 0
    ids = None if span.games is None else list(span.games)
    while True:
        games = store.games.backup.dump(after, page, span.since, span.until, ids)
        if not games:
            return count
        page_ids = [g["id"] for g in games]
        chat = store.chat.dump(page_ids)
        clocks = store.clocks.dump(page_ids)
        players = store.accounts.dump_seats(page_ids)
        hints = store.hints.dump(page_ids)
        for game in games:
            line: GameLine = {
                **game,
                "chat": chat.get(game["id"], []),
                "clock": clocks.get(game["id"]),
                "players": players.get(game["id"], []),
                "hints": hints.get(game["id"], []),
                "record": record_of(game),
            }
            if line["record"] is None:
                report.unreadable.append(game["id"])
            _write(out, {"kind": "game", **line})
        _sync(out)
        count += len(games)
        after = (games[-1]["created"], games[-1]["id"])


def record_of(game: GameDump) -> JsonDict | None:
    """The game's record (``tne-record/1`` with ``seed_source``, as
    ``GET /api/games/{id}/record`` gives it once the game is over): the replay of its log,
    undos and seat changes applied. ``None`` when the log does not replay."""
    try:
        return json_object(json.loads(json.dumps(LiveGame(game_row(game)).record())))
    except Exception:  # a game the engine refuses is still backed up, with its log
        return None


def game_row(game: GameDump) -> GameRow:
    """The store's row of a game of an export (``GameBackup.dump``'s form)."""
    return GameRow(
        id=game["id"],
        options=game["options"],
        seed=game["seed"],
        seats=game["seats"],
        status=game["status"],
        created=game["created"],
        result=game["result"],
        actions=[(seq, seat, action) for seq, seat, action, _ in game["log"]],
        creator=game["creator"],
        seed_source=game["seed_source"],
        client=game["client"],
        rated=game["rated"],
        listed=game["listed"],
        settings=game["settings"],
    )


def _export_players(store: Store, out: IO[bytes], report: ExportReport) -> None:
    """The accounts (no password hash) with their notification settings, the ratings, the
    rating changes, whom each account follows and blocked, each account's standing (admin,
    banned, muted) and the players' reports."""
    notify = store.notifications.dump()
    for account in store.accounts.dump():
        _write(out, {"kind": "account", **account, "notify": notify.get(account["id"])})
        report.accounts += 1
    ratings, changes = store.ratings.dump()
    for rating in ratings:
        _write(out, {"kind": "rating", **rating})
    for change in changes:
        _write(out, {"kind": "rating_change", **change})
    report.ratings = len(ratings)
    for social in store.social.dump():
        _write(out, {"kind": "social", **social})
    flags, reports = store.moderation.dump()
    for standing in flags:
        _write(out, {"kind": "standing", **standing})
    for report_row in reports:
        _write(out, {"kind": "report", **report_row})


def _export_puzzles(store: Store, out: IO[bytes], report: ExportReport) -> None:
    """The puzzles (each with its ``tne-puzzle/1`` data and rating), the rated attempts at
    them, the accounts' puzzle ratings and their setting "my games may become puzzles"."""
    puzzles, attempts, ratings, consents = store.puzzles.backup.dump()
    for puzzle in puzzles:
        _write(out, {"kind": "puzzle", **puzzle})
    for attempt in attempts:
        _write(out, {"kind": "puzzle_attempt", **attempt})
    for rating in ratings:
        _write(out, {"kind": "puzzle_rating", **rating})
    for consent in consents:
        _write(out, {"kind": "puzzle_consent", **consent})
    report.puzzles = len(puzzles)


def _export_events(store: Store, out: IO[bytes], report: ExportReport) -> None:
    """The live events (arenas and Swiss tournaments), their entrants, games and byes."""
    events, entrants, games, byes = store.events.backup.dump()
    for event in events:
        _write(out, {"kind": "event", **event})
    for entrant in entrants:
        _write(out, {"kind": "event_entrant", **entrant})
    for game in games:
        _write(out, {"kind": "event_game", **game})
    for bye in byes:
        _write(out, {"kind": "event_bye", **bye})
    report.events = len(events)


def _resume_point(
    path: Path, span: Span | None
) -> tuple[SpanData | None, int, int, tuple[float, str] | None] | None:
    """Where an export cut short continues: ``(span, size, games, after)``, the span of
    its header, the bytes to keep (the header and the complete game lines), how many games
    they hold and the key of the last one. ``(None, …)``: the export is complete.
    ``None``: nothing worth keeping (no file, or not even its header), start afresh."""
    if not path.exists():
        return None
    size = games = 0
    kept: SpanData | None = None  # the header's, once read
    after: tuple[float, str] | None = None
    players = False  # among the accounts and ratings, which are written again
    with path.open("rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # the line being written when it stopped
            line = _line(path, raw)
            kind = line.get("kind")
            if kind == "end":
                return None, size, games, after
            if kept is None:
                if line.get("format") != FORMAT or kind != "header":
                    raise ExportError(f"{path} is not a {FORMAT} file: it cannot be resumed")
                kept = _span(path, line["span"])
            elif kind == "game" and not players:
                games += 1
                after = (_created(path, line["created"]), str(line["id"]))
            else:
                players = True
            if not players:
                size += len(raw)
    if kept is None:
        return None
    if span is not None and not span.everything and Span.from_dict(kept) != span:
        raise ExportError(f"{path} is the export of other games: resume it without a range")
    return kept, size, games, after


def _line(path: Path, raw: bytes) -> JsonDict:  # a line as read: any JSON object
    try:
        line = json.loads(raw)
    except ValueError:
        raise ExportError(f"{path} holds a line that is not JSON: it cannot be resumed") from None
    if not isinstance(line, dict):
        raise ExportError(f"{path} holds a line that is not an object: it cannot be resumed")
    return line


def _span(path: Path, value: JsonValue) -> SpanData:
    """The span of an export's header, checked (a bound it lacks: none)."""
    if isinstance(value, dict):
        since, until, games = value.get("since"), value.get("until"), value.get("games")
        if _time(since) and _time(until):
            if games is None:
                return {"since": since, "until": until, "games": None}
            names = [g for g in games if isinstance(g, str)] if isinstance(games, list) else []
            if isinstance(games, list) and len(names) == len(games):
                return {"since": since, "until": until, "games": names}
    raise ExportError(f"{path} has a header of no span: it cannot be resumed")


def _time(value: JsonValue) -> TypeGuard[float | None]:
    """Whether ``value`` is a time (seconds since the epoch) or none."""
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _created(path: Path, value: JsonValue) -> float:
    """When a game of an export was created, checked."""
    if _time(value) and value is not None:
        return float(value)
    raise ExportError(f"{path} holds a game of no creation time: it cannot be resumed")
