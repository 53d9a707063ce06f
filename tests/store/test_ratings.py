"""Ratings in the store, on SQLite and on the real PostgreSQL: the winner gains and the loser
loses, shared places tie, every game counts once per account, the kinds of rating are kept
apart, and a rated game whose end was not counted is found again."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from support.serving import postgres_or_skip
from tigris_euphrates.store import Store
from tigris_euphrates.store.ratings import Ratings, places


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
        yield s
        s.close()
        return
    url = postgres_or_skip()
    s = Store(url, f"r{uuid.uuid4().hex[:10]}_")
    yield s
    s.drop_all()
    s.close()


def ended(
    store: Store, accounts: list[int], ranking: list[Any], rated: bool = True, **options: Any
) -> str:
    """A finished game of ``accounts`` (seat i = accounts[i]) with ``ranking``."""
    game = uuid.uuid4().hex[:12]
    seats = [{"kind": "human", "name": f"P{a}"} for a in accounts]
    store.games.create(game, {"players": len(accounts), **options}, 1, seats, rated=rated)
    acc = store.accounts
    for seat, account in enumerate(accounts):
        acc.bind_seat(game, seat, account)
    store.games.finish(game, {"ranking": ranking, "scores": [[0] * 4] * len(accounts)})
    return game


def people(store: Store, n: int) -> list[int]:
    acc = store.accounts
    return [acc.create(f"p{uuid.uuid4().hex[:8]}", "hash").id for _ in range(n)]


def mine(ratings: Ratings, account: int) -> dict[tuple[str, str], Any]:
    return {(r.family, r.size): r for r in ratings.of_account(account)}


def test_places_from_a_ranking_with_shared_places() -> None:
    assert places([1, 0], 2) == [2, 1]
    assert places([[0, 2], 1], 3) == [1, 3, 1]
    assert places([3, [0, 1], 2], 4) == [2, 2, 4, 1]


def test_the_winner_gains_the_loser_loses_and_a_game_counts_once(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob = people(store, 2)
    game = ended(store, [ann, bob], [1, 0])  # Bob wins
    a, b = mine(ratings, ann)["classic", "2p"], mine(ratings, bob)["classic", "2p"]
    assert b.mu > 25 > a.mu and b.rank == 1 and a.rank == 2 and a.games == b.games == 1
    # the same end again (a replay, another process): nothing changes
    assert ratings.rate_game(game) is False
    store.games.finish(game, {"ranking": [1, 0], "scores": [[0] * 4] * 2})
    assert mine(ratings, ann)["classic", "2p"] == a and mine(ratings, bob)["classic", "2p"] == b
    assert [h["game"] for h in ratings.history(bob)] == [game]
    top, total = ratings.board("classic", "2p")
    assert total == 2 and [r.account_id for r in top] == [bob, ann]
    assert ratings.position(ann, "classic", "2p") == 1


def test_shared_places_tie_and_kinds_are_kept_apart(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob, cy = people(store, 3)
    ended(store, [ann, bob, cy], [[0, 1], 2])  # Ann and Bob share first place
    a, b, c = (mine(ratings, x)["classic", "multi"] for x in (ann, bob, cy))
    assert a.mu == pytest.approx(b.mu) and a.mu > 25 > c.mu
    assert a.rank == b.rank == 1 and c.rank == 3
    ended(store, [ann, cy], [0, 1], ruleset="galaxy")
    assert set(mine(ratings, ann)) == {("classic", "multi"), ("galaxy", "2p")}
    assert "2p" not in {k[1] for k in mine(ratings, bob)}


def test_unrated_games_and_games_with_guests_change_nothing(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob = people(store, 2)
    ended(store, [ann, bob], [0, 1], rated=False)
    assert ratings.of_account(ann) == []
    # a rated game one of whose seats no account holds (handed to a bot, never taken)
    game = uuid.uuid4().hex[:12]
    store.games.create(game, {"players": 2}, 1, [{"kind": "human"}] * 2, rated=True)
    store.accounts.bind_seat(game, 0, ann)
    store.games.finish(game, {"ranking": [0, 1], "scores": [[0] * 4] * 2})
    assert ratings.of_account(ann) == []


def test_an_end_not_counted_is_found_again(store: Store) -> None:
    """The server stopped between a game's end and its rating: the next start counts it."""
    ratings = store.ratings
    ann, bob = people(store, 2)
    game = ended(store, [ann, bob], [0, 1])  # no hook: not counted
    assert ratings.unrated_finished() == [game]
    assert ratings.rate_game(game) is True
    assert ratings.unrated_finished() == [] and mine(ratings, ann)["classic", "2p"].games == 1


def played(
    store: Store, accounts: list[int], ranking: list[Any], log: list[tuple[int | None, str]]
) -> str:
    """A finished rated game of ``accounts`` whose log is ``log`` ((seat, entry) pairs)."""
    game = uuid.uuid4().hex[:12]
    seats = [{"kind": "human", "name": f"P{a}"} for a in accounts]
    store.games.create(game, {"players": len(accounts)}, 1, seats, rated=True)
    for seat, account in enumerate(accounts):
        store.accounts.bind_seat(game, seat, account)
    for seq, (seat, action) in enumerate(log, 1):
        store.games.append(game, seq, seat, action)
    store.games.finish(game, {"ranking": ranking, "scores": [[0] * 4] * len(accounts)})
    return game


def test_a_game_bots_played_for_both_accounts_is_rated_for_nobody(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob = people(store, 2)
    log = [(0, "seat 0 bot random"), (1, "seat 1 bot random")] + [(0, "pass"), (1, "pass")] * 5
    game = played(store, [ann, bob], [0, 1], log)
    assert ratings.of_account(ann) == ratings.of_account(bob) == []
    # it is unrated now, for good: not counted again at the next start
    assert not store.games.load(game).rated and ratings.unrated_finished() == []
    assert ratings.rate_game(game) is False and ratings.of_account(ann) == []


def test_the_seat_a_bot_played_for_its_player_is_rated_last(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob = people(store, 2)
    # Ann wins on the scores, with the help of the expert she called for one decision
    log = [(0, "pass"), (1, "pass"), (0, "seat 0 bot expert"), (0, "pass"), (0, "seat 0 human")]
    game = played(store, [ann, bob], [0, 1], log + [(1, "pass"), (0, "pass")] * 5)
    a, b = mine(ratings, ann)["classic", "2p"], mine(ratings, bob)["classic", "2p"]
    assert b.mu > 25 > a.mu and b.rank == 1
    assert [(h["game"], h["place"]) for h in ratings.history(ann)] == [(game, 2)]
    assert store.games.load(game).rated


def test_a_banned_account_leaves_the_leaderboard_and_comes_back_unbanned(store: Store) -> None:
    ratings = store.ratings
    store.games.finish_hooks.append(ratings.rate_game)
    ann, bob, cy = people(store, 3)
    ended(store, [bob, ann], [0, 1])  # Bob beats Ann
    ended(store, [cy, ann], [1, 0])  # Ann beats Cy
    top, total = ratings.board("classic", "2p")
    order = [r.account_id for r in top]
    assert total == 3 and set(order) == {ann, bob, cy}
    store.moderation.set_banned(order[0], True)  # the best is banned
    top, total = ratings.board("classic", "2p")
    assert total == 2 and [r.account_id for r in top] == order[1:]
    assert [r.rank for r in top] == [1, 2]  # the ranks close up
    assert ratings.position(order[0], "classic", "2p") is None
    assert ratings.position(order[1], "classic", "2p") == 0
    assert mine(ratings, order[1])["classic", "2p"].rank == 1
    store.moderation.set_banned(order[0], False)  # unbanned: back, rating kept
    top, total = ratings.board("classic", "2p")
    assert total == 3 and [r.account_id for r in top] == order
    assert ratings.position(order[0], "classic", "2p") == 0
