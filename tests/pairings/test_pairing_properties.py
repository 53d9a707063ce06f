"""Properties over random events: in every round every present entrant is in exactly one
game or has a bye, the tables have legal sizes and byes are as few as can be; arena tables
are disjoint, of exactly the size, as many as the free entrants fill."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tigris_euphrates.pairings import (
    Entrant,
    FreeEntrant,
    Game,
    Round,
    lot_of,
    pair_free,
    pair_round,
)
from tigris_euphrates.pairings.swiss import table_sizes


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 14),
    size=st.sampled_from([2, 3, 4]),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 2**32),
)
def test_every_present_entrant_once_a_round(n: int, size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    everyone = [Entrant(i, float(rng.randint(1000, 2000)), lot_of(seed, i)) for i in range(n)]
    present = list(everyone)
    history: list[Round] = []
    smaller = max(size - 1, 2)
    for _ in range(rounds):
        if present and rng.random() < 0.3:  # a withdrawal
            present.remove(rng.choice(present))
        if rng.random() < 0.3:  # a late joiner
            joiner = len(everyone)
            everyone.append(Entrant(joiner, 1500.0, lot_of(seed, joiner)))
            present.append(everyone[-1])
        rnd = pair_round(present, history, size)
        assert pair_round(present, history, size) == rnd
        seated = rnd.entrants()
        assert sorted(seated) == sorted(e.id for e in present)
        assert all(len(g.seats) in {size, smaller} for g in rnd.games)
        if size == 2:
            assert len(rnd.byes) == len(present) % 2
        else:
            assert len(rnd.byes) == len(present) - sum(table_sizes(len(present), size))
        history.append(
            Round(
                tuple(
                    Game(g.seats, tuple(rng.randint(0, len(g.seats) - 1) for _ in g.seats))
                    for g in rnd.games
                ),
                rnd.byes,
            )
        )


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 16),
    size=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
)
def test_arena_tables_are_disjoint_and_full(n: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = list(range(n))
    entrants = [
        FreeEntrant(
            e,
            rng.randint(0, 8),
            1500.0,
            lot_of(seed, e),
            frozenset(rng.sample(ids, min(n, rng.randint(0, size - 1)))) - {e},
        )
        for e in ids
    ]
    tables = pair_free(entrants, size)
    seated = [e for t in tables for e in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(ids)
    assert all(len(t) == size for t in tables)
    assert len(tables) == n // size
