"""The puzzles' store on SQLite and on the real PostgreSQL: a game's puzzles stored once; the
next puzzle is the nearest to the account's rating among those it never tried; an attempt is
rated once per account and puzzle however many arrive at once (a double click, two tabs,
several processes), and attempts at several puzzles never start from the same old rating;
the setting that lets an account's games become puzzles is off until set."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

import pytest

from puzzling import game_puzzles
from tigris_euphrates.coach.puzzles import DEFAULT_MU, puzzle_id
from tigris_euphrates.store import Store
from tigris_euphrates.store.puzzles import shown


def made(mus: list[float], game: str = "g1") -> list[tuple[str, dict[str, Any]]]:
    """Puzzles of a real game, their starting ratings set to ``mus`` (one puzzle each, at
    plies 0, 1, …)."""
    real = game_puzzles(7)[0]
    out = []
    for ply, mu in enumerate(mus):
        data = copy.deepcopy(real)
        data["ply"], data["rating"]["mu"] = ply, mu
        out.append((puzzle_id(game, ply), data))
    return out


def test_a_games_puzzles_are_stored_once(db: tuple[str, str]) -> None:
    store = Store(*db)
    puzzles = [(puzzle_id("g1", p["ply"]), p) for p in game_puzzles(7)]
    assert store.puzzles.add("g1", puzzles, now=1.0) == len(puzzles)
    assert store.puzzles.add("g1", puzzles, now=2.0) == 0  # the analysis stored again
    assert store.puzzles.count() == len(puzzles)
    first = store.puzzles.get(puzzles[0][0])
    assert first is not None and first.data == puzzles[0][1] and first.game_id == "g1"
    assert (first.attempts, first.solved, first.family) == (0, 0, "classic")
    assert [r.ply for r in store.puzzles.of_game("g1")] == [p["ply"] for _, p in puzzles]
    assert store.puzzles.get("nothing") is None
    store.close()


def test_the_next_puzzle_is_the_nearest_to_the_rating_never_tried(db: tuple[str, str]) -> None:
    store = Store(*db)
    puzzles = made([DEFAULT_MU + 4, DEFAULT_MU - 1, DEFAULT_MU + 0.5, DEFAULT_MU - 6])
    ids = [i for i, _ in puzzles]
    store.puzzles.add("g1", puzzles, now=1.0)
    # a guest: the nearest to the default, then the next nearest past the ones it skips
    assert _next(store, None, []) == ids[2]
    assert _next(store, None, [ids[2]]) == ids[1]
    assert _next(store, None, ids) is None
    # an account: never one it tried, right or wrong
    store.puzzles.attempt(ids[2], 7, "pass", correct=False, now=2.0)
    after = store.puzzles.rating_of(7)
    assert after.mu < DEFAULT_MU and after.attempts == 1 and after.solved == 0
    assert _next(store, 7, []) == ids[1]  # nearest to its new, lower rating
    # the puzzle won: its rating rose; another account still gets it
    raised = store.puzzles.get(ids[2])
    assert raised is not None and raised.mu > DEFAULT_MU + 0.5
    assert _next(store, 8, [ids[0], ids[1]]) == ids[2]
    store.close()


def _next(store: Store, account: int | None, skip: list[str]) -> str | None:
    row = store.puzzles.next_for(account, skip)
    return None if row is None else row.id


@pytest.mark.parametrize("correct", [True, False])
def test_an_attempt_is_a_game_between_the_player_and_the_puzzle(
    db: tuple[str, str], correct: bool
) -> None:
    store = Store(*db)
    ((pid, data),) = made([DEFAULT_MU])
    store.puzzles.add("g1", [(pid, data)], now=1.0)
    got = store.puzzles.attempt(pid, 5, data["solution"], correct, now=2.0)
    assert got.first and got.correct == correct and got.action == data["solution"]
    assert got.mu_before == pytest.approx(DEFAULT_MU)
    assert (got.mu > DEFAULT_MU) == correct and (shown(got.mu) > 1500) == correct
    puzzle = store.puzzles.get(pid)
    assert puzzle is not None and (puzzle.mu < DEFAULT_MU) == correct
    assert (puzzle.attempts, puzzle.solved) == (1, int(correct))
    # the second time: the first attempt answers, nothing moves
    again = store.puzzles.attempt(pid, 5, data["played"], not correct, now=3.0)
    assert not again.first and again.correct == correct and again.mu == got.mu
    assert store.puzzles.rating_of(5).attempts == 1
    assert store.puzzles.get(pid) == puzzle
    with pytest.raises(LookupError):
        store.puzzles.attempt("nothing", 5, "pass", True)
    assert store.puzzles.attempt_of("nothing", 5) is None
    store.close()


def _at_once(n: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(k)`` for k < n, started together on n threads; their results."""
    results: list[Any] = [None] * n
    errors: list[BaseException] = []
    start = threading.Barrier(n)

    def run(k: int) -> None:
        start.wait()
        try:
            results[k] = work(k)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_the_same_attempt_from_many_processes_counts_once(db: tuple[str, str]) -> None:
    """Eight stores (as eight server processes) send the same account's attempt at once:
    one stores it, the others are answered with it, the ratings move once."""
    url, prefix = db
    stores = [Store(url, prefix) for _ in range(8)]
    ((pid, data),) = made([DEFAULT_MU])
    stores[0].puzzles.add("g1", [(pid, data)], now=1.0)
    results = _at_once(8, lambda k: stores[k].puzzles.attempt(pid, 3, data["solution"], True))
    assert sum(r.first for r in results) == 1
    assert len({(r.mu, r.sigma, r.correct) for r in results}) == 1
    rating = stores[0].puzzles.rating_of(3)
    assert (rating.attempts, rating.solved) == (1, 1) and rating.mu == results[0].mu
    puzzle = stores[0].puzzles.get(pid)
    assert puzzle is not None and (puzzle.attempts, puzzle.solved) == (1, 1)
    for s in stores:
        s.close()


def test_attempts_at_several_puzzles_at_once_lose_no_update(db: tuple[str, str]) -> None:
    """One account's attempts at six puzzles through six stores at once: each starts from the
    rating the one before it left (a chain), none from the same old rating."""
    url, prefix = db
    stores = [Store(url, prefix) for _ in range(6)]
    puzzles = made([DEFAULT_MU] * 6)
    stores[0].puzzles.add("g1", puzzles, now=1.0)
    results = _at_once(6, lambda k: stores[k].puzzles.attempt(puzzles[k][0], 9, "pass", k % 2 == 0))
    assert all(r.first for r in results)
    befores = sorted(r.mu_before for r in results)
    afters = {r.mu for r in results}
    chain = [b for b in befores if b != pytest.approx(DEFAULT_MU)]
    assert len(chain) == 5 and set(chain) <= afters  # each started where another ended
    rating = stores[0].puzzles.rating_of(9)
    assert (rating.attempts, rating.solved) == (6, 3) and rating.mu in afters - set(befores)
    for s in stores:
        s.close()


def test_games_become_puzzles_only_once_their_player_says_so(db: tuple[str, str]) -> None:
    store = Store(*db)
    assert store.puzzles.consent(1) is False and store.puzzles.consents([1, 2]) == {}
    store.puzzles.set_consent(1, True, now=1.0)
    store.puzzles.set_consent(1, True, now=2.0)  # twice: the same
    assert store.puzzles.consent(1) and store.puzzles.consents([1, 2]) == {1: True}
    store.puzzles.set_consent(1, False, now=3.0)
    assert not store.puzzles.consent(1)
    store.close()
