"""The admins' list of pairs of accounts with repeated short rated results between them, in
the store, on SQLite and on the real PostgreSQL: short is fewer than ``SHORT_PLIES`` plies
(a move taken back, a seat change or a resignation is none), repeated is ``REPEATED`` games
or more, only rated games counted for both accounts, each pair of a game of three."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from support.serving import postgres_or_skip
from tigris_euphrates.store import Store
from tigris_euphrates.store.moderation import REPEATED, SHORT_PLIES


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    else:
        s = Store(postgres_or_skip(), f"c{uuid.uuid4().hex[:10]}_")
    s.games.finish_hooks.append(s.ratings.rate_game)
    yield s
    if request.param != "sqlite":
        s.drop_all()
    s.close()


def people(store: Store, n: int) -> list[int]:
    return [store.accounts.create(f"p{uuid.uuid4().hex[:8]}", "hash").id for _ in range(n)]


def played(
    store: Store,
    accounts: list[int],
    ranking: list[Any],
    log: list[tuple[int | None, str]],
    rated: bool = True,
) -> str:
    """A finished game of ``accounts`` whose log is ``log``, counted if ``rated``."""
    game = uuid.uuid4().hex[:12]
    seats = [{"kind": "human", "name": f"P{a}"} for a in accounts]
    store.games.create(game, {"players": len(accounts)}, 1, seats, rated=rated)
    for seat, account in enumerate(accounts):
        store.accounts.bind_seat(game, seat, account)
    for seq, (seat, action) in enumerate(log, 1):
        store.games.append(game, seq, seat, action)
    store.games.finish(game, {"ranking": ranking, "scores": [[0] * 4] * len(accounts)})
    return game


def passes(plies: int, players: int = 2) -> list[tuple[int | None, str]]:
    return [(i % players, "pass") for i in range(plies)]


def test_short_is_fewer_than_the_threshold_of_kept_plies(store: Store) -> None:
    ann, bob = people(store, 2)
    # SHORT_PLIES - 1 plies, with an undone move, a seat change and a resignation beside
    log = [*passes(2), (0, "pass"), (0, "undo"), *passes(SHORT_PLIES - 3)]
    log += [(1, "seat 1 bot hard"), (1, "seat 1 human"), (1, "resign 1 hard")]
    first = played(store, [ann, bob], [0, 1], log)
    second = played(store, [ann, bob], [0, 1], passes(4))
    # not short: as many plies as the threshold; not rated: never counted
    played(store, [ann, bob], [0, 1], passes(SHORT_PLIES))
    played(store, [ann, bob], [1, 0], passes(4), rated=False)
    [pair] = store.moderation.short_pairs()
    assert pair.games == 2 == REPEATED
    assert pair.plies == SHORT_PLIES - 1 + 4
    assert pair.wins == ((2, 0) if ann < bob else (0, 2))
    assert pair.game_ids == [second, first]  # the newest first
    assert pair.last > 0


def test_one_short_game_is_no_pattern_and_a_game_of_three_pairs_everyone(store: Store) -> None:
    ann, bob, cy = people(store, 3)
    played(store, [ann, bob], [0, 1], passes(6))  # once only: not listed
    assert store.moderation.short_pairs() == []
    for _ in range(2):
        played(store, [ann, bob, cy], [2, 1, 0], passes(6, 3))
    found = {frozenset(p.names): p for p in store.moderation.short_pairs()}
    names = {a: store.accounts.by_id(a).name for a in (ann, bob, cy)}  # type: ignore[union-attr]
    assert set(found) == {
        frozenset((names[ann], names[bob])),
        frozenset((names[ann], names[cy])),
        frozenset((names[bob], names[cy])),
    }
    assert found[frozenset((names[ann], names[bob]))].games == 3  # the game of two too
    assert found[frozenset((names[bob], names[cy]))].games == 2
