"""``tne import``: an export (``tne-export/1``, server/backup.py) restored into an empty
database.

The file is read twice. The first reading checks everything and writes nothing: the file is
whole (its header, then its end line with the counts it announces), every line has its
fields, and every game replays: its log (actions, undos, seat changes, at their times) gives
the record the export holds, and a game marked finished ends with its result. A game that
does not replay fails the import (nothing is written), or with ``skip_bad`` is left out and
reported. The second reading writes the games (with their hint counts), then the accounts
(without passwords: each signs in once the operator has set it one, ``tne set-password``),
the ratings, whom each follows and blocked, each account's standing (admin, banned, muted),
the players' reports, the puzzles (their attempts, the puzzle ratings, the consents) and the
live events (their entrants, games and byes).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import TypeAdapter

from ..store import Store
from ..store.backuprows import (
    AccountLine,
    EventByeLine,
    EventEntrantLine,
    EventGameLine,
    EventLine,
    GameLine,
    PuzzleAttemptRow,
    PuzzleConsentRow,
    PuzzleLine,
    PuzzleRatingRow,
    RatingChangeRow,
    RatingRow,
    ReportRow,
    SocialRow,
    StandingRow,
)
from ..store.jsontypes import JsonDict, list_at, text_at
from .backup import FORMAT, game_row
from .clocks import pace_from_dict
from .live import LiveGame

_NUMBER = (int, float)
_NONE = type(None)
#: the JSON types a field takes
Types = type | tuple[type, ...]
#: the fields of each kind of line and the JSON types they take
FIELDS: dict[str, dict[str, Types]] = {
    "game": {
        "id": str, "created": _NUMBER, "updated": _NUMBER, "status": str, "options": dict,
        "seed": int, "seed_source": str, "seats": list, "creator": (str, _NONE),
        "client": str, "bots": (int, _NONE), "rated": bool, "listed": bool,
        "settings": dict, "result": (dict, _NONE), "stats": (dict, _NONE), "log": list,
        "chat": list, "clock": (dict, _NONE), "players": list, "record": (dict, _NONE),
    },
    "account": {"id": int, "name": str, "created": _NUMBER, "notify": (dict, _NONE)},
    "rating": {
        "account_id": int, "family": str, "size": str, "mu": _NUMBER, "sigma": _NUMBER,
        "ordinal": _NUMBER, "games": int, "updated": _NUMBER,
    },
    "rating_change": {
        "game_id": str, "account_id": int, "family": str, "size": str, "place": int,
        "mu_before": _NUMBER, "sigma_before": _NUMBER, "mu": _NUMBER, "sigma": _NUMBER,
        "created": _NUMBER,
    },
    "social": {"account_id": int, "follows": list, "blocks": list},
    "standing": {
        "account_id": int, "admin": bool, "banned": (*_NUMBER, _NONE),
        "muted": (*_NUMBER, _NONE), "updated": _NUMBER,
    },
    "report": {
        "id": int, "reporter": int, "about": str, "target": str, "game_id": (str, _NONE),
        "n": (int, _NONE), "account_id": (int, _NONE), "reason": str, "created": _NUMBER,
        "state": str, "closed_by": (str, _NONE), "closed": (*_NUMBER, _NONE),
    },
    "puzzle": {
        "id": str, "game_id": str, "ply": int, "family": str, "players": int, "data": dict,
        "mu": _NUMBER, "sigma": _NUMBER, "attempts": int, "solved": int, "created": _NUMBER,
    },
    "puzzle_attempt": {
        "puzzle_id": str, "account_id": int, "action": str, "correct": bool,
        "mu_before": _NUMBER, "sigma_before": _NUMBER, "mu": _NUMBER, "sigma": _NUMBER,
        "puzzle_mu_before": _NUMBER, "puzzle_sigma_before": _NUMBER, "puzzle_mu": _NUMBER,
        "puzzle_sigma": _NUMBER, "created": _NUMBER,
    },
    "puzzle_rating": {
        "account_id": int, "mu": _NUMBER, "sigma": _NUMBER, "attempts": int, "solved": int,
        "updated": _NUMBER,
    },
    "puzzle_consent": {"account_id": int, "allowed": bool, "updated": _NUMBER},
    "event": {
        "id": str, "name": str, "type": str, "maker": int, "state": str, "settings": dict,
        "starts": _NUMBER, "ends": (*_NUMBER, _NONE), "round": int, "seed": int,
        "invite": (str, _NONE), "next_id": (str, _NONE), "created": _NUMBER,
    },
    "event_entrant": {
        "event_id": str, "account_id": int, "state": str, "rating": _NUMBER, "bot": bool,
        "joined": _NUMBER,
    },
    "event_game": {
        "game_id": str, "event_id": str, "round": (int, _NONE), "seats": list, "state": str,
        "ranks": (list, _NONE), "created": _NUMBER, "ended": (*_NUMBER, _NONE),
    },
    "event_bye": {"event_id": str, "round": int, "account_id": int, "points": _NUMBER},
    "end": {"games": int, "accounts": int, "ratings": int},
}  # fmt: skip
#: Fields a line may lack (an export of an older version): a bot account's ``bot``, a
#: game's hint counts, the end line's counts of puzzles and live events.
OPTIONAL: dict[str, dict[str, Types]] = {
    "account": {"bot": (*_NUMBER, _NONE)},
    "game": {"hints": list},
    "end": {"puzzles": int, "events": int},
}
#: The end line's counts and the kind of line each counts.
COUNTED = {
    "games": "game",
    "accounts": "account",
    "ratings": "rating",
    "puzzles": "puzzle",
    "events": "event",
}


#: The lines that are rows of the store, read once ``check`` checked their fields.
_ACCOUNT = TypeAdapter(AccountLine)
_RATING = TypeAdapter(RatingRow)
_CHANGE = TypeAdapter(RatingChangeRow)
_SOCIAL = TypeAdapter(SocialRow)
_STANDING = TypeAdapter(StandingRow)
_REPORT = TypeAdapter(ReportRow)
#: The puzzles' and live events' lines, each kind restored whole by its area's backup.
_LATER: dict[str, TypeAdapter[Any]] = {
    "puzzle": TypeAdapter(PuzzleLine),
    "puzzle_attempt": TypeAdapter(PuzzleAttemptRow),
    "puzzle_rating": TypeAdapter(PuzzleRatingRow),
    "puzzle_consent": TypeAdapter(PuzzleConsentRow),
    "event": TypeAdapter(EventLine),
    "event_entrant": TypeAdapter(EventEntrantLine),
    "event_game": TypeAdapter(EventGameLine),
    "event_bye": TypeAdapter(EventByeLine),
}


class RestoreError(Exception):
    """An import refused (the message says why); nothing was written."""


@dataclass
class RestoreReport:
    """What an import wrote, and the games it left out (id -> why) with ``skip_bad``."""

    games: int = 0
    accounts: int = 0
    ratings: int = 0
    puzzles: int = 0
    events: int = 0
    skipped: dict[str, str] = field(default_factory=dict)


def restore(store: Store, path: Path, skip_bad: bool = False) -> RestoreReport:
    """Restore the export at ``path`` into ``store``, which must hold no game, account or
    rating. Raises ``RestoreError`` (and writes nothing) on a non-empty database, a file
    that is not a whole export, or a game that does not replay (unless ``skip_bad``)."""
    holding = store.db.holding()
    if holding:
        raise RestoreError(
            "the database is not empty (" + ", ".join(holding) + " hold rows): tne import "
            "restores into an empty database only"
        )
    bad = check(path)
    if bad and not skip_bad:
        raise RestoreError(
            f"{len(bad)} game(s) do not replay, nothing was imported (--skip-bad imports "
            "the others):\n" + "\n".join(f"  {game}: {why}" for game, why in bad.items())
        )
    report = RestoreReport(skipped=bad)
    accounts: list[AccountLine] = []
    ratings: list[RatingRow] = []
    changes: list[RatingChangeRow] = []
    social: list[SocialRow] = []
    flags: list[StandingRow] = []
    reports: list[ReportRow] = []
    later: dict[str, list[Any]] = {kind: [] for kind in _LATER}
    for _, line in lines(path):
        kind = line.pop("kind", None)
        if kind == "game" and line["id"] not in bad:
            _restore_game(store, game_line(line))
            report.games += 1
        elif kind == "account":
            accounts.append(_ACCOUNT.validate_python(line))
        elif kind == "rating":
            ratings.append(_RATING.validate_python(line))
        elif kind == "rating_change":
            changes.append(_CHANGE.validate_python(line))
        elif kind == "social":
            social.append(_SOCIAL.validate_python(line))
        elif kind == "standing":
            flags.append(_STANDING.validate_python(line))
        elif kind == "report":
            reports.append(_REPORT.validate_python(line))
        elif kind in _LATER:
            later[str(kind)].append(_LATER[str(kind)].validate_python(line))
    store.accounts.restore(
        [
            {"id": a["id"], "name": a["name"], "created": a["created"], "bot": a.get("bot")}
            for a in accounts
        ]
    )
    for account in accounts:
        notify = account["notify"]
        if notify is not None:
            store.notifications.restore(account["id"], notify)
    store.ratings.restore(ratings, changes)
    store.social.restore(social, time.time())
    store.moderation.restore(flags, reports)
    store.puzzles.backup.restore(
        (later["puzzle"], later["puzzle_attempt"], later["puzzle_rating"], later["puzzle_consent"])
    )
    store.events.backup.restore(
        (later["event"], later["event_entrant"], later["event_game"], later["event_bye"])
    )
    report.accounts, report.ratings = len(accounts), len(ratings)
    report.puzzles, report.events = len(later["puzzle"]), len(later["event"])
    return report


def _restore_game(store: Store, game: GameLine) -> None:
    store.games.backup.restore(game)
    store.chat.restore(game["id"], game["chat"])
    if game["clock"] is not None:
        store.clocks.restore(game["id"], game["clock"])
    store.accounts.restore_seats(game["id"], game["players"])
    store.hints.restore(game["id"], game.get("hints", []))


def lines(path: Path) -> Iterator[tuple[int, JsonDict]]:
    """The lines of an export after its header, numbered from 2, as read (any JSON object:
    ``check`` checks their fields); raises ``RestoreError`` on a file that is not an export
    or a line that is not a JSON object."""
    try:
        f = path.open("rb")
    except OSError as exc:
        raise RestoreError(f"cannot read {path}: {exc.strerror}") from None
    with f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                raise RestoreError(_cut_short(path))
            try:
                line = json.loads(raw)
            except ValueError:
                raise RestoreError(f"{path}, line {number}: not JSON") from None
            if not isinstance(line, dict):
                raise RestoreError(f"{path}, line {number}: not a JSON object")
            if number == 1:
                if line.get("format") != FORMAT or line.get("kind") != "header":
                    raise RestoreError(f"{path} is not a {FORMAT} file")
                continue
            yield number, line


def check(path: Path) -> dict[str, str]:
    """Read the whole export without writing: the games that do not replay (id -> why).
    Raises ``RestoreError`` on a file that is not a whole, well-formed export."""
    counts: Counter[str] = Counter()
    seen: set[str] = set()
    bad: dict[str, str] = {}
    end: Mapping[str, object] | None = None
    for number, line in lines(path):
        kind = str(line.get("kind"))
        if end is not None:
            raise RestoreError(f"{path}, line {number}: a line after the end line")
        _check_fields(path, number, kind, line)
        counts[kind] += 1
        if kind == "end":
            end = line
        elif kind == "game":
            game_id = text_at(line, "id")
            if game_id in seen:
                raise RestoreError(f"{path}, line {number}: game {game_id} a second time")
            seen.add(game_id)
            reason = check_game(line)
            if reason is not None:
                bad[game_id] = reason
    if end is None:
        raise RestoreError(_cut_short(path))
    # the counts the end line announces (an older export's announce no puzzles or events)
    found = {count: counts[kind] for count, kind in COUNTED.items() if count in end}
    if any(end[k] != found[k] for k in found):
        raise RestoreError(f"{path} announces {end} but holds {found}")
    return bad


def _cut_short(path: Path) -> str:
    return (
        f"{path} is an export cut short (it does not end with its end line): finish it with "
        f"tne export --resume {path}"
    )


def _check_fields(path: Path, number: int, kind: str, line: Mapping[str, object]) -> None:
    fields = FIELDS.get(kind)
    if fields is None:
        raise RestoreError(f"{path}, line {number}: no line of an export is of kind {kind!r}")
    for name, types in fields.items():
        if name not in line:
            raise RestoreError(f"{path}, line {number}: the {kind} has no {name!r}")
        if not isinstance(line[name], types):
            raise RestoreError(f"{path}, line {number}: the {kind}'s {name!r} has the wrong type")
    optional = OPTIONAL.get(kind, {})
    for name, types in optional.items():
        if name in line and not isinstance(line[name], types):
            raise RestoreError(f"{path}, line {number}: the {kind}'s {name!r} has the wrong type")
    extra = set(line) - set(fields) - set(optional) - {"kind"}
    if extra:
        raise RestoreError(f"{path}, line {number}: the {kind} has unknown fields {sorted(extra)}")


def check_game(line: JsonDict) -> str | None:
    """Why the game of an export cannot be restored (``None``: it can): its log must
    replay to the record the export holds, a finished game's to its result, an aborted
    game's to an abort."""
    try:
        _check_entries(line)
        game = game_line(line)
        clock = game["clock"]
        pace = None if clock is None else pace_from_dict(clock["pace"])
        times = {int(seq): float(at) for seq, _, _, at in game["log"]}
        live = LiveGame(game_row(game), pace, times)
        record = json.loads(json.dumps(live.record()))
    except Exception as exc:  # whatever the engine or the shapes refuse
        return f"its log does not replay ({type(exc).__name__}: {exc})"
    if game["record"] is None:
        return "the export holds no record of it (its log did not replay when exported)"
    if record != game["record"]:
        differ = sorted(k for k in record.keys() | game["record"].keys()
                        if record.get(k) != game["record"].get(k))  # fmt: skip
        return f"its replay does not give its record ({', '.join(differ)} differ)"
    if game["status"] == "over":
        if not live.over or live.log.result() != game["result"]:
            return "it is marked finished but its log does not end with its result"
    elif game["status"] == "aborted":
        if not live.aborted or game["result"] is not None:
            return "it is marked aborted but its log does not end with an abort"
    elif game["status"] != "active" or game["result"] is not None:
        return f"it is marked {game['status']!r} with a result, but it is not over"
    if any(not 0 <= seat < len(game["seats"]) for seat, _, _ in game["players"]):
        return "an account holds a seat the game does not have"
    return None


def game_line(line: JsonDict) -> GameLine:
    """A game's line once its fields and entries are checked (``_check_fields``,
    ``_check_entries``), as read: its options and seats keep the order of their keys, as
    the restored game then answers with them (a validation would reorder them)."""
    return cast(GameLine, line)


def _check_entries(game: JsonDict) -> None:
    """Raise ``ValueError`` unless the game's log, chat and bound seats have their shapes
    (log steps numbered 1, 2, 3…)."""
    shapes: tuple[tuple[str, tuple[Any, ...]], ...] = (
        ("log", (int, (int, _NONE), str, _NUMBER)),
        ("chat", (int, (int, _NONE), str, str, _NUMBER, (*_NUMBER, _NONE))),
        ("players", (int, int, _NUMBER)),
    )
    for name, shape in shapes:
        for entry in list_at(game, name):
            if not isinstance(entry, list) or len(entry) != len(shape):
                raise ValueError(f"an entry of its {name} is not a list of {len(shape)}")
            if not all(isinstance(v, t) for v, t in zip(entry, shape, strict=True)):
                raise ValueError(f"an entry of its {name} has a value of the wrong type")
    steps = [entry[0] for entry in list_at(game, "log") if isinstance(entry, list)]
    if steps != list(range(1, len(steps) + 1)):
        raise ValueError("its log's steps are not numbered 1, 2, 3…")
