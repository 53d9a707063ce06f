"""The hint counts (``store.hints``): a seat's count stops at the limit, whoever asks at
once (two stores on one database: two server processes), and a hint given back counts no
more."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tigris_euphrates.store import Store


def test_a_seat_gets_at_most_the_limit_even_when_asking_at_once(db: tuple[str, str]) -> None:
    url, prefix = db
    one, two = Store(url, prefix), Store(url, prefix)
    try:
        with ThreadPoolExecutor(8) as pool:
            stores = [one, two] * 10
            got = list(pool.map(lambda s: s.hints.take("g1", 0, 5), stores))
        assert sorted(n for n in got if n is not None) == [1, 2, 3, 4, 5]
        assert got.count(None) == 15
        assert one.hints.used("g1", 0) == 5 and one.hints.used("g1", 1) == 0
        # another seat, another game: counts of their own
        assert two.hints.take("g1", 1, 5) == 1 and two.hints.take("g2", 0, 5) == 1
        one.hints.give_back("g1", 0)
        assert two.hints.take("g1", 0, 5) == 5 and one.hints.take("g1", 0, 5) is None
        assert one.hints.take("g3", 0, 0) is None  # no hints at all
    finally:
        one.close()
        two.close()
