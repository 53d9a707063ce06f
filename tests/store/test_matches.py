"""The matchmaker's rule (``store.matches.groups``), a pure function of the waiting players,
the blocks between them and the time; and the queue's claim in the database: on
PostgreSQL two rounds at once (two processes) never put a player in two games."""

from __future__ import annotations

import secrets
import threading
from typing import Any

from tigris_euphrates.store import GameRow, Store
from tigris_euphrates.store.matches import Policy, Waiting, groups

POLICY = Policy(window=3.0, widen=0.5, stale=90.0)


def w(account: int, mu: float = 25.0, joined: float = 0.0, **kw: Any) -> Waiting:
    base: dict[str, Any] = {"family": "classic", "players": 2, "pace": "realtime"}
    base.update(kw)
    return Waiting(
        account, base["family"], base["players"], base["pace"], mu, joined,
        base.get("bot_after"), f"token{account}", f"p{account}",
    )  # fmt: skip


def ids(found: list[tuple[list[Waiting], bool]]) -> list[tuple[list[int], bool]]:
    return [([p.account_id for p in players], bots) for players, bots in found]


def test_close_players_meet_and_far_ones_wait_until_their_windows_widen() -> None:
    waiting = [w(1, 25.0), w(2, 40.0), w(3, 26.0)]
    assert ids(groups(waiting, set(), 0.0, POLICY)) == [([1, 3], False)]
    # 15 apart: 3 + 0.5 s⁻¹ × 24 s = 15 — both must accept
    assert ids(groups([w(1, 25.0), w(2, 40.0)], set(), 23.0, POLICY)) == []
    assert ids(groups([w(1, 25.0), w(2, 40.0)], set(), 24.0, POLICY)) == [([1, 2], False)]
    # a newcomer far away is not taken until its own window reaches too
    assert ids(groups([w(1, 25.0), w(2, 40.0, joined=24.0)], set(), 24.0, POLICY)) == []


def test_blocks_the_same_account_and_other_games_keep_players_apart() -> None:
    assert ids(groups([w(1), w(2)], {(2, 1)}, 0.0, POLICY)) == []
    assert ids(groups([w(1), w(1)], set(), 0.0, POLICY)) == []
    assert ids(groups([w(1), w(2, players=3)], set(), 0.0, POLICY)) == []
    assert ids(groups([w(1), w(2, pace="turn")], set(), 0.0, POLICY)) == []
    assert ids(groups([w(1), w(2, family="galaxy")], set(), 0.0, POLICY)) == []
    # three players: everyone must fit everyone (1 and 3 blocked: 1, 2, 4)
    four = [w(1, players=3), w(2, players=3), w(3, players=3), w(4, players=3)]
    assert ids(groups(four, {(1, 3)}, 0.0, POLICY)) == [([1, 2, 4], False)]


def test_the_longest_waiting_player_is_served_first() -> None:
    waiting = [w(1, 25.0, joined=5.0), w(2, 25.5, joined=0.0), w(3, 25.2, joined=1.0)]
    assert ids(groups(waiting, set(), 6.0, POLICY)) == [([2, 3], False)]


def test_a_bot_fills_when_the_players_time_has_come() -> None:
    alone = [w(1, players=3, bot_after=10.0)]
    assert ids(groups(alone, set(), 9.0, POLICY)) == []
    assert ids(groups(alone, set(), 10.0, POLICY)) == [([1], True)]
    # with someone who does not want bots: only those whose bot time came go
    two = [w(1, players=3, bot_after=10.0), w(2, players=3)]
    assert ids(groups(two, set(), 10.0, POLICY)) == [([1], True)]
    both = [w(1, players=3, bot_after=10.0), w(2, players=3, bot_after=5.0, joined=1.0)]
    assert ids(groups(both, set(), 10.0, POLICY)) == [([1, 2], True)]


def make(players: list[Waiting], bots: int) -> tuple[GameRow, None]:
    seats = [{"kind": "human", "name": p.name, "token": p.token} for p in players]
    seats += [{"kind": "bot", "level": "random", "name": ""}] * bots
    row = GameRow(secrets.token_hex(6), {"players": 2}, 1, seats, "active", 0.0, rated=not bots)
    return row, None


def test_rounds_at_the_same_moment_never_put_a_player_in_two_games(db: tuple[str, str]) -> None:
    url, prefix = db
    store = Store(url, prefix)
    others = Store(url, prefix)  # a second process's engine
    try:
        accounts = [store.accounts.create(f"m{i}x", "hash").id for i in range(20)]
        for a in accounts:
            store.matches.join(w(a), 0.0)
        made: list[list[tuple[str, list[int]]]] = []

        def round_(s: Store) -> None:
            made.append(s.matches.pair(1.0, POLICY, make))

        threads = [threading.Thread(target=round_, args=(s,)) for s in (store, others) * 2]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        players = [a for games in made for _, group in games for a in group]
        assert sorted(players) == sorted(accounts)  # everybody once, nobody twice
        for a in accounts:
            state = store.matches.state(a)
            assert state is not None and state.state == "matched" and state.game_id
    finally:
        others.close()
        store.close()


def test_a_player_whose_page_went_quiet_leaves_the_queue(db: tuple[str, str]) -> None:
    url, prefix = db
    store = Store(url, prefix)
    try:
        gone, kept = (store.accounts.create(n, "hash").id for n in ("quiet", "there"))
        store.matches.join(w(gone, players=3), 0.0)
        store.matches.join(w(kept, players=3), 0.0)
        store.matches.seen([kept], 80.0)
        assert store.matches.pair(100.0, POLICY, make) == []
        assert store.matches.state(gone) is None
        assert store.matches.state(kept) is not None
        assert store.matches.waiting() == 1
    finally:
        store.close()
