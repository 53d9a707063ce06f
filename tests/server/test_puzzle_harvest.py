"""``tne admin puzzles`` on SQLite and PostgreSQL: the games analysed earlier become puzzles
when every seat consents (the bots' game at once; a guest's never; an account's once it
says yes), each puzzle stored once: run again, the command adds nothing."""

from __future__ import annotations

import json
import time
import uuid
from functools import cache
from typing import Any

from typer.testing import CliRunner

from puzzling import bot_game, small_budget
from tigris_euphrates import to_act
from tigris_euphrates.cli import app
from tigris_euphrates.coach.analysis import analyse
from tigris_euphrates.coach.puzzles import extract, puzzle_id
from tigris_euphrates.server.live import LiveGame
from tigris_euphrates.store import Store

HUMAN = {"kind": "human", "name": "P"}
BOT = {"kind": "bot", "name": "B", "level": "random"}
SEED = 11


def stored_game(store: Store, seats: list[dict[str, str]], bound: dict[int, int]) -> str:
    """A finished game of random bots, stored under ``seats`` (``bound``: seat -> account)."""
    states, actions = bot_game(SEED, levels=("random", "random"))
    game_id = f"h{uuid.uuid4().hex[:8]}"
    store.games.create(game_id, {"players": 2}, SEED, seats, bound=bound)  # type: ignore[arg-type]
    for seq, (state, action) in enumerate(zip(states, actions, strict=False), start=1):
        store.games.append(game_id, seq, to_act(state), action)
    live = LiveGame(store.games.load(game_id))
    assert live.over
    store.games.finish(game_id, live.log.result())
    return game_id


@cache
def _analysis_of(record: str) -> str:
    """The analysis of a record (JSON), made once per process."""
    return json.dumps(analyse(json.loads(record), small_budget()))


def analysed(store: Store, game_id: str, analysis: dict[str, Any]) -> None:
    """The game's analysis stored as the server's analyst stores it."""
    store.analyses.request(game_id, time.time())
    assert store.analyses.claim("w", time.time(), 60.0) == game_id
    assert store.analyses.finish(game_id, "w", analysis, 1.0)


def admin_puzzles(db: tuple[str, str]) -> str:
    url, prefix = db
    where = ["--database-url", url] + (["--table-prefix", prefix] if prefix else [])
    result = CliRunner().invoke(app, ["admin", "puzzles", *where])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_games_analysed_earlier_become_puzzles_once_their_seats_consent(
    db: tuple[str, str],
) -> None:
    store = Store(*db)
    person = store.accounts.create(f"pz{uuid.uuid4().hex[:8]}", "x")
    bots = stored_game(store, [BOT, BOT], {})
    guest = stored_game(store, [HUMAN, BOT], {})
    account = stored_game(store, [HUMAN, BOT], {0: person.id})
    record = LiveGame(store.games.load(bots)).record()
    analysis = json.loads(_analysis_of(json.dumps(record)))
    expected = extract(record, analysis)
    assert expected, "random bots blunder"
    for game_id in (bots, guest, account):
        analysed(store, game_id, analysis)
    unfinished = stored_game(store, [BOT, BOT], {})
    store.analyses.request(unfinished, time.time())  # queued, not analysed yet
    assert store.puzzles.count() == 0
    out = admin_puzzles(db)
    assert f"{len(expected)} new puzzles from 1 games whose players consent" in out
    assert "3 finished analyses read" in out
    made = store.puzzles.of_game(bots)
    assert [p.ply for p in made] == [p["ply"] for p in expected]
    assert [p.id for p in made] == [puzzle_id(bots, p["ply"]) for p in expected]
    assert made[0].data == expected[0]
    assert store.puzzles.of_game(guest) == store.puzzles.of_game(account) == []
    # the second time: nothing new
    assert "0 new puzzles from 1 games" in admin_puzzles(db)
    assert store.puzzles.count() == len(expected)
    # the account says yes: its game analysed earlier becomes puzzles, once
    store.puzzles.set_consent(person.id, True, time.time())
    assert f"{len(expected)} new puzzles from 2 games" in admin_puzzles(db)
    assert len(store.puzzles.of_game(account)) == len(expected)
    assert "0 new puzzles from 2 games" in admin_puzzles(db)
    assert store.puzzles.count() == 2 * len(expected)
    assert store.puzzles.of_game(guest) == []
    store.close()
