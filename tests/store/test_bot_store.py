"""Bot accounts in the store, on SQLite and on the real PostgreSQL: an account becomes a bot
for good (not one rated among people), tokens are found by their digest only and limited, a
challenge is closed once, a rated game mixing a bot and a person is rated for nobody while a
bots' game is rated on the bots' board only, and a backup keeps a bot account a bot."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator

import pytest

from tigris_euphrates.store import Store
from tigris_euphrates.store.bots import NotABot, TooManyChallenges, TooManyTokens


def people(store: Store, n: int) -> list[int]:
    return [store.accounts.create(f"p{uuid.uuid4().hex[:8]}", "hash").id for _ in range(n)]


def ended(store: Store, accounts: list[int], ranking: list[int]) -> str:
    """A finished rated game of ``accounts`` (seat i = accounts[i]) with ``ranking``."""
    game = uuid.uuid4().hex[:12]
    seats = [{"kind": "human", "name": f"P{a}"} for a in accounts]
    store.games.create(game, {"players": len(accounts)}, 1, seats, rated=True)
    for seat, account in enumerate(accounts):
        store.accounts.bind_seat(game, seat, account)
    store.games.finish(game, {"ranking": ranking, "scores": [[0] * 4] * len(accounts)})
    return game


@pytest.fixture
def store(db: tuple[str, str]) -> Iterator[Store]:
    s = Store(*db)
    yield s
    s.close()


def test_bot_accounts_tokens_and_challenges(store: Store) -> None:
    bot, other, person = people(store, 3)
    since = store.bots.make_bot(bot)
    assert store.bots.make_bot(bot) == since  # for good, once
    store.bots.make_bot(other)
    assert store.accounts.by_id(bot).is_bot and not store.accounts.by_id(person).is_bot
    digest = hashlib.sha256(b"secret").hexdigest()
    made = store.bots.add_token(bot, "laptop", digest, most=2)
    found = store.bots.token_account(digest)
    assert found is not None and found[0].id == bot and found[1] == made.id
    assert store.bots.token_account(hashlib.sha256(b"other").hexdigest()) is None
    store.bots.add_token(bot, "pc", hashlib.sha256(b"2").hexdigest(), most=2)
    with pytest.raises(TooManyTokens):
        store.bots.add_token(bot, "more", hashlib.sha256(b"3").hexdigest(), most=2)
    assert store.bots.revoke(bot, made.id) and not store.bots.revoke(bot, made.id)
    assert store.bots.token_account(digest) is None
    challenge = store.bots.challenge(other, bot, {"players": 2}, True, most=1)
    with pytest.raises(TooManyChallenges):
        store.bots.challenge(other, bot, {"players": 2}, False, most=1)
    assert store.bots.close(challenge, "accepted") and not store.bots.close(challenge, "declined")
    assert store.bots.get(challenge).state == "accepted"


def test_a_person_rated_among_people_does_not_become_a_bot(store: Store) -> None:
    a, b = people(store, 2)
    assert store.ratings.rate_game(ended(store, [a, b], [0, 1]))
    with pytest.raises(NotABot):
        store.bots.make_bot(a)


def test_bots_are_rated_among_bots_only_and_a_mixed_game_for_nobody(store: Store) -> None:
    bot_a, bot_b, person_a, person_b = people(store, 4)
    for bot in (bot_a, bot_b):
        store.bots.make_bot(bot)
    mixed = ended(store, [bot_a, person_a], [1, 0])
    assert not store.ratings.rate_game(mixed)
    assert store.ratings.of_account(person_a) == []
    assert store.ratings.rate_game(ended(store, [bot_a, bot_b], [0, 1]))
    assert store.ratings.rate_game(ended(store, [person_a, person_b], [0, 1]))
    bots, total = store.ratings.board("classic", "2p", bots=True)
    assert {r.account_id for r in bots} == {bot_a, bot_b} and total == 2
    assert [r.rank for r in bots] == [1, 2]
    humans, total = store.ratings.board("classic", "2p")
    assert {r.account_id for r in humans} == {person_a, person_b} and total == 2
    assert store.ratings.of_account(bot_b)[0].rank == 2
    assert store.ratings.position(bot_a, "classic", "2p", bots=True) == 0


def test_a_backup_keeps_a_bot_account_a_bot(store: Store, tmp_path) -> None:
    bot, person = people(store, 2)
    store.bots.make_bot(bot)
    dumped = store.accounts.dump()
    assert {a["id"]: a["bot"] is not None for a in dumped} == {bot: True, person: False}
    copy = Store(f"sqlite:///{tmp_path / f'copy{uuid.uuid4().hex[:6]}.sqlite3'}")
    try:
        copy.accounts.restore(dumped)
        assert copy.accounts.by_id(bot).is_bot and not copy.accounts.by_id(person).is_bot
        older = [{k: v for k, v in a.items() if k != "bot"} for a in dumped]
        other = Store(f"sqlite:///{tmp_path / 'older.sqlite3'}")
        other.accounts.restore(older)  # an export of an older version: people
        assert not other.accounts.by_id(bot).is_bot
        other.close()
    finally:
        copy.close()
