"""Tournaments between bots: seat-balanced games in parallel processes, with statistics.

``run_tournament`` is the engine behind ``tne tournament``: it plays every lineup (each
combination of ``players`` entries of the bot list) ``games`` times, rotating the lineup
through the seats so that every bot sits in every seat equally often, and returns a JSON-able
summary: win rates with 95 % Wilson intervals per lineup, mean final score (lowest colour,
treasures included) and rank, game lengths, decision times, and openskill (Plackett–Luce)
ratings over all games, rated in the order of the game index so results do not depend on
which process finished first.

A tournament may keep a journal (``journal``: a JSON-lines file, one finished game a line
after a header naming the tournament): a run that is stopped part-way is resumed by running
the same tournament with the same journal, and plays only the games the journal lacks.

A bot may be a program speaking ``tne-bot/1`` (``cmd:COMMAND``, see ``botproto``); its
faults are in the game's result and record; a program that fails is started again (at most
``restarts`` times a game), and then ``fallback`` names the level that takes over its seat
for the rest of the game (none: the seat loses the game). ``ray`` runs the games as tasks on a Ray
cluster (``cluster.py``) with the same seeds, results and journal as the local pool.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .. import EngineError, Options
from ..ai import Budget
from ..botproto import check_fallback, check_spec, make_player
from ..botproto.faults import RESTARTS
from .cluster import run_on_ray
from .plots import plot_ratings
from .referee import play_game
from .stats import places, summarize


def parse_options(text: str | None, players: int) -> dict[str, Any]:
    """Game options from ``key=value,...`` (bare ``advanced``, ``english``, ``open``,
    ``wonder``, ``buildings``, ``galaxy`` allowed) or a JSON object as in a record's
    ``options``; validated by the engine."""
    opts: dict[str, Any] = {"players": players}
    if not text:
        return opts
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ValueError(f"options are not valid JSON: {e}") from e
        if not isinstance(data, dict):
            raise ValueError("options in JSON are an object")
        opts.update(data)
        opts["players"] = players
        _validate(opts)
        return opts
    aliases = {
        "advanced": ("board", "advanced"),
        "standard": ("board", "standard"),
        "english": ("english_variant", True),
        "english_variant": ("english_variant", True),
        "open": ("open_scoring", True),
        "open_scoring": ("open_scoring", True),
        "hidden": ("open_scoring", False),
        "wonder": ("wonder", True),
        "buildings": ("buildings", True),
        "galaxy": ("ruleset", "galaxy"),
    }
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            key, value = (x.strip() for x in part.split("=", 1))
            parsed: Any = value
            if value.lower() in ("true", "yes", "1"):
                parsed = True
            elif value.lower() in ("false", "no", "0"):
                parsed = False
            opts[key] = parsed
        elif part in aliases:
            key, val = aliases[part]
            opts[key] = val
        else:
            raise ValueError(f"unknown option {part!r}: use key=value or advanced/english/open")
    _validate(opts)
    return opts


def _validate(opts: dict[str, Any]) -> None:
    """Refuse options the engine refuses, with its message (before any game is played)."""
    try:
        Options.from_dict(opts)
    except EngineError as e:
        raise ValueError(str(e)) from e


def lineups(bots: Sequence[str], players: int, ladder: bool = False) -> list[tuple[str, ...]]:
    """The distinct lineups: combinations of ``players`` entries of ``bots`` (in list order).

    ``ladder``: only neighbours in the list meet (``players`` consecutive entries), which
    rates a list of levels, weakest first, at a fraction of the cost of every pairing.
    """
    if len(bots) < players:
        raise ValueError(
            f"{len(bots)} bot(s) for {players} seats: list one bot per seat "
            "(e.g. hard,greedy,greedy,greedy)"
        )
    if ladder:
        return list(
            dict.fromkeys(tuple(bots[i : i + players]) for i in range(len(bots) - players + 1))
        )
    seen: dict[tuple[str, ...], None] = {}
    for combo in itertools.combinations(range(len(bots)), players):
        seen.setdefault(tuple(bots[i] for i in combo), None)
    return list(seen)


def deal(
    seed: int, index: int, game: int, lineup: Sequence[str]
) -> tuple[list[str], int, list[int]]:
    """Game ``index`` of a tournament with ``seed``, the ``game``-th of its lineup: the
    seats (the lineup turned by ``game``, so every bot sits in every seat in turn), the game
    seed and each seat's bot seed: a tool that replays a tournament's deals with another
    bot takes them from here."""
    players = len(lineup)
    shift = game % players
    seats = list(lineup[shift:]) + list(lineup[:shift])
    game_seed = seed * 1_000_003 + index
    return seats, game_seed, [game_seed * 10 + s + 1 for s in range(players)]


def ranks_of(result: dict[str, Any]) -> list[int]:
    """Each seat's place in a game's result: from the scores, except in a game a seat lost
    by a fault (``forfeit``), whose ranking puts that seat last."""
    if result["end"] != "forfeit":
        return places(result["scores"])
    ranks = [0] * len(result["scores"])
    place = 1
    for entry in result["ranking"]:
        group = entry if isinstance(entry, list) else [entry]
        for seat in group:
            ranks[seat] = place
        place += len(group)
    return ranks


def play_task(task: dict[str, Any]) -> dict[str, Any]:
    """Play one game of a tournament (``task`` as ``run_tournament`` deals it) and return
    its result: the same wherever it runs (a process of the pool, a Ray worker)."""
    seats: list[str] = task["seats"]
    logs = Path(task["logs"]) if task.get("logs") else None
    bots = [make_player(name, task["bot_seeds"][i], logs) for i, name in enumerate(seats)]
    budgets = [task["budget"]] * len(seats)
    out = play_game(
        bots,
        task["options"],
        task["seed"],
        budgets,
        names=seats,
        fallback=task.get("fallback"),
        restarts=task.get("restarts", RESTARTS),
    )
    keys = out.result["scores"]
    n = len(seats)
    ranks = ranks_of(out.result)
    summary: dict[str, Any] = {
        "index": task["index"],
        "lineup": task["lineup"],
        "seats": seats,
        "seed": task["seed"],
        "scores": [k[0] for k in keys],
        "ranks": ranks,
        "plies": out.plies,
        "turns": out.turns,
        "end": out.result["end"],
        "times": out.times,
        "n": n,
    }
    if out.faults:
        summary["faults"] = out.faults
    if task.get("record"):
        summary["record"] = out.record()
    return summary


def run_tournament(
    bots: Sequence[str],
    players: int = 2,
    games: int = 20,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    budget: Budget | None = None,
    jobs: int | None = None,
    records: bool = False,
    progress: Callable[[int, int], None] | None = None,
    ladder: bool = False,
    journal: Path | None = None,
    fallback: str | None = None,
    logs: Path | None = None,
    ray: str | None = None,
    restarts: int = RESTARTS,
) -> dict[str, Any]:
    """Play the tournament and return its summary (see the module docstring).

    ``games`` is per lineup. ``budget`` (None: each level's default) applies to every bot.
    ``jobs`` processes (default: every core; 1 plays in this process). ``ladder``: only
    neighbours in ``bots`` meet (see ``lineups``). ``journal``: resume from and append to
    this file (see ``Journal``); ``progress`` then counts the games it already held.
    ``fallback``: the level that takes over a protocol bot's seat after a fault (None: the
    seat loses), after the program was started again ``restarts`` times in that game;
    ``logs``: the folder for the programs' standard error. ``ray``: the address
    of a Ray cluster to run the games on (``auto``: a local instance), ``jobs`` then the
    games in flight at once.
    """
    for name in bots:
        check_spec(name)  # a level (with settings) or cmd:PROGRAM: refused here if not
    check_fallback(fallback)
    if restarts < 0:
        raise ValueError(f"--restarts takes a number of at least 0, not {restarts}")
    opts = dict(options or {})
    opts["players"] = players
    ups = lineups(bots, players, ladder)
    common = {
        "options": opts,
        "budget": budget,
        "record": records,
        "fallback": fallback,
        "restarts": restarts,
        "logs": None if logs is None else str(logs.absolute()),
    }
    tasks = _tasks(ups, games, seed, common)
    total = len(tasks)
    book = None
    if journal is not None:
        header = _journal_header(
            bots, players, games, seed, opts, budget, ladder, records, fallback, restarts
        )
        book = Journal.open(journal, header)
    done: list[dict[str, Any]] = list(book.games.values()) if book else []
    tasks = [t for t in tasks if not book or t["index"] not in book.games]
    if progress and done:
        progress(len(done), total)

    def finished(res: dict[str, Any]) -> None:
        done.append(res)
        if book:
            book.append(res)
        if progress:
            progress(len(done), total)

    _play_all(tasks, finished, jobs, ray)
    done.sort(key=lambda r: r["index"])
    return summarize(bots, players, opts, seed, budget, ups, done)


def _journal_header(
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any],
    budget: Budget | None,
    ladder: bool,
    records: bool,
    fallback: str | None,
    restarts: int,
) -> dict[str, Any]:
    """What a journal's first line says of its tournament (resumed only by the same one,
    ``Journal.open``): the fallback and the restarts only when they are not the defaults."""
    header: dict[str, Any] = {
        "bots": list(bots),
        "players": players,
        "games": games,
        "seed": seed,
        "options": options,
        "budget": None if budget is None else [budget.seconds, budget.iterations],
        "ladder": ladder,
        "records": records,
    }
    if fallback is not None:
        header["fallback"] = fallback
    if restarts != RESTARTS:
        header["restarts"] = restarts
    return header


def _tasks(
    ups: list[tuple[str, ...]], games: int, seed: int, common: dict[str, Any]
) -> list[dict[str, Any]]:
    """The games of the tournament, ``games`` per lineup of ``ups``, each a task for
    ``play_task``: its index, lineup, seats and seeds (``deal``), then ``common``."""
    tasks = []
    index = 0
    for li, lineup in enumerate(ups):
        for g in range(games):
            seats, game_seed, bot_seeds = deal(seed, index, g, lineup)
            tasks.append(
                {
                    "index": index,
                    "lineup": li,
                    "seats": seats,
                    "seed": game_seed,
                    "bot_seeds": bot_seeds,
                    **common,
                }
            )
            index += 1
    return tasks


def _play_all(
    tasks: list[dict[str, Any]],
    finished: Callable[[dict[str, Any]], None],
    jobs: int | None,
    ray: str | None,
) -> None:
    """Play ``tasks``, each result given to ``finished`` as it comes: on the Ray cluster at
    ``ray``, else in ``jobs`` processes (default: every core; 1, or a single task, plays in
    this process)."""
    if ray is not None:
        run_on_ray(play_task, tasks, ray, finished, jobs)
        return
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            finished(play_task(t))
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            for res in pool.map(play_task, tasks, chunksize=1):
                finished(res)


class Journal:
    """The finished games of one tournament, kept in a JSON-lines file as they finish.

    The first line is ``{"format": "tne-tournament-journal/1", "tournament": HEADER}``, where
    HEADER holds everything that decides the tournament's games (bots, players, games, seed,
    options, budget, ladder, records); each later line is one game's result. A file whose
    header names another tournament is refused rather than mixed in. A last line cut short
    (the process was killed while writing it) is dropped and its game played again.
    """

    FORMAT = "tne-tournament-journal/1"

    def __init__(self, path: Path, games: dict[int, dict[str, Any]]) -> None:
        self.path = path
        self.games = games

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, <{len(self.games)} games>)"

    @classmethod
    def open(cls, path: Path, header: dict[str, Any]) -> Journal:
        """Read the journal at ``path`` (created with ``header`` when absent or empty)."""
        head = {"format": cls.FORMAT, "tournament": header}
        if not path.exists() or not path.read_text().strip():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(head) + "\n")
            return cls(path, {})
        lines = path.read_text().splitlines()
        try:
            first = json.loads(lines[0])
        except ValueError:
            first = None
        if not isinstance(first, dict) or first.get("format") != cls.FORMAT:
            raise ValueError(f"{path} is not a tournament journal")
        # Through JSON, so that tuples and lists (and int and float keys) compare alike.
        if first.get("tournament") != json.loads(json.dumps(header)):
            raise ValueError(
                f"{path} is the journal of another tournament ({first.get('tournament')}); "
                "use another file or delete this one"
            )
        games: dict[int, dict[str, Any]] = {}
        kept = [lines[0]]
        for line in lines[1:]:
            try:
                game = json.loads(line)
            except ValueError:
                continue  # cut short by a kill: the game is played again
            if isinstance(game, dict) and isinstance(game.get("index"), int):
                games[game["index"]] = game
                kept.append(line)
        if len(kept) != len(lines):
            path.write_text("\n".join(kept) + "\n")
        return cls(path, games)

    def append(self, game: dict[str, Any]) -> None:
        """Add one finished game, on disk before this returns."""
        self.games[game["index"]] = game
        with self.path.open("a") as f:
            f.write(json.dumps(game) + "\n")
            f.flush()
            os.fsync(f.fileno())


def write_outputs(
    summary: dict[str, Any],
    json_path: Path,
    plot_path: Path | None,
    records_dir: Path | None = None,
) -> None:
    """Write the JSON summary, the ratings plot and (on request) one record per game."""
    records = summary.pop("_records", [])
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
        for i, rec in enumerate(records):
            (records_dir / f"game-{i:05d}.json").write_text(json.dumps(rec) + "\n")
        summary["records_dir"] = str(records_dir)
    if plot_path is not None:
        plot_ratings(summary, plot_path)
        summary["plot"] = str(plot_path)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(summary, indent=2) + "\n")
