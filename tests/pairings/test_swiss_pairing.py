"""Swiss rounds for two, three and four players: who meets whom, who sits first, who has
the bye, worked by hand where the rounds are short and checked against every possible
pairing where they are not."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import pytest

from tigris_euphrates.pairings import Bye, Entrant, Game, Round, pair_round, swiss_totals
from tigris_euphrates.pairings.swiss import Past, placing, table_meetings, table_sizes

ONE = Fraction(1)
#: How a round's games end: a game's seats to their ranks.
Result = Callable[[tuple[int, ...]], tuple[int, ...]]


def field(n: int, start: int = 1) -> list[Entrant]:
    """``n`` entrants numbered from ``start``, the smaller the number the higher the
    rating (so round 1 places them by number)."""
    return [Entrant(i, 2000.0 - 10 * i, i) for i in range(start, start + n)]


def lower_id_wins(seats: tuple[int, ...]) -> tuple[int, ...]:
    order = sorted(seats)
    return tuple(order.index(e) for e in seats)


def random_results(seed: int) -> Result:
    rng = random.Random(seed)

    def result(seats: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(rng.randint(0, len(seats) - 1) for _ in seats)

    return result


def play(rnd: Round, result: Result) -> Round:
    return Round(tuple(Game(g.seats, result(g.seats)) for g in rnd.games), rnd.byes)


def run(
    entrants: Sequence[Entrant], rounds: int, size: int, result: Result = lower_id_wins
) -> list[Round]:
    history: list[Round] = []
    for _ in range(rounds):
        history.append(play(pair_round(entrants, history, size), result))
    return history


def pairs_of(rnd: Round) -> set[frozenset[int]]:
    return {frozenset(p) for g in rnd.games for p in itertools.combinations(g.seats, 2)}


def matchings(people: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for m in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *m]


# --- two players ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "expected"),
    [
        (6, 1, Round((Game((1, 4)), Game((2, 5)), Game((3, 6))))),
        (7, 1, Round((Game((1, 4)), Game((2, 5)), Game((3, 6))), (Bye(7, ONE),))),
        # after round 1 (the lower number wins): 1, 2, 3 and 7 (bye) on 1 point, 4, 5, 6 on
        # 0; the bye to 6, the lowest without one; S1 = 1, 2 v S2 = 3, 7; 4 v 5. 7 has never
        # moved first, 2 has: 7 starts; 1 and 3 both have: the higher placed starts.
        (7, 2, Round((Game((1, 3)), Game((7, 2)), Game((4, 5))), (Bye(6, ONE),))),
        # after round 2: 1, 2 on 2; 3, 4, 6, 7 on 1; 5 on 0 gets the bye. 1 v 2; 3 met 6 in
        # round 1, so 3 v 7 and 4 v 6. Firsts so far: 1 two, 2 one; 3 one, 7 one; 4 one, 6 none.
        (7, 3, Round((Game((2, 1)), Game((3, 7)), Game((6, 4))), (Bye(5, ONE),))),
        # 1, 2, 3 on 1 point: 1 v 2, 3 floats down to meet 4 (who has never moved first)
        (6, 2, Round((Game((1, 2)), Game((4, 3)), Game((5, 6))))),
    ],
)
def test_two_player_rounds_by_hand(n: int, rounds: int, expected: Round) -> None:
    entrants = field(n)
    history = run(entrants, rounds - 1, 2)
    assert pair_round(entrants, history, 2) == expected


@pytest.mark.parametrize("seed", range(6))
def test_the_bye_never_goes_twice_while_someone_has_had_none(seed: int) -> None:
    history = run(field(7), 7, 2, random_results(seed))
    byes = [b.entrant for rnd in history for b in rnd.byes]
    assert len(byes) == 7 and sorted(byes) == list(range(1, 8))
    # the bye goes to the lowest placed of those who have had none
    for k, rnd in enumerate(history):
        past = Past.of(history[:k])
        order = placing(field(7), past)
        fresh = [e for e in order if e not in past.byes]
        assert rnd.byes[0].entrant == fresh[-1]


@pytest.mark.parametrize(("n", "seed"), [(n, s) for n in (2, 4, 6, 8) for s in range(4)])
def test_a_rematch_only_when_every_pairing_has_one(n: int, seed: int) -> None:
    entrants = field(n)
    result = random_results(seed)
    history: list[Round] = []
    for _ in range(n + 1):
        rnd = pair_round(entrants, history, 2)
        met = {p for r in history for p in pairs_of(r)}
        fewest = min(
            sum(frozenset(p) in met for p in m) for m in matchings([e.id for e in entrants])
        )
        assert sum(p in met for p in pairs_of(rnd)) == fewest
        history.append(play(rnd, result))


def test_two_entrants_meet_again_with_the_other_moving_first() -> None:
    entrants = field(2)
    history = run(entrants, 1, 2)
    assert history[0].games == (Game((1, 2), (0, 1)),)
    assert pair_round(entrants, history, 2) == Round((Game((2, 1)),))


def test_no_rematch_across_rounds_while_one_can_be_avoided() -> None:
    history = run(field(10), 5, 2, random_results(3))
    meetings = [p for rnd in history for p in pairs_of(rnd)]
    assert len(meetings) == len(set(meetings)) == 25


def test_a_withdrawal_mid_event() -> None:
    """6 play round 1; 4 withdraws: the 5 left have a bye among them, 4 is not paired, and
    the standings' points still count its game."""
    entrants = field(6)
    history = run(entrants, 1, 2)
    present = [e for e in entrants if e.id != 4]
    rnd = pair_round(present, history, 2)
    assert sorted(rnd.entrants()) == [1, 2, 3, 5, 6] and len(rnd.byes) == 1
    assert rnd.byes == (Bye(6, ONE),)


def test_a_late_joiner_starts_at_the_bottom() -> None:
    """6 play two rounds (the lower number wins): 1 and 3 on 2, 2 and 5 on 1, 4 and 6 on 0.
    J joins with the best rating but no points: placed with 4 and 6, ahead of them on
    rating; 6 has the bye. 2 and 5 met in round 1, so 2 floats down to meet J, the top of
    the group below, and 5 meets 4."""
    entrants = field(6)
    history = run(entrants, 2, 2)
    assert swiss_totals(history) == {1: 2, 2: 1, 3: 2, 4: 0, 5: 1, 6: 0}
    joiner = Entrant(99, 3000.0, 0)
    present = [*entrants, joiner]
    assert placing(present, Past.of(history)) == [1, 3, 2, 5, 99, 4, 6]
    rnd = pair_round(present, history, 2)
    assert rnd == Round((Game((3, 1)), Game((99, 2)), Game((5, 4))), (Bye(6, ONE),))


@pytest.mark.parametrize(("n", "size", "seed"), [(8, 2, 1), (9, 2, 2), (9, 3, 3), (11, 4, 4)])
def test_the_first_seat_rotates(n: int, size: int, seed: int) -> None:
    """Two players: seat 0 to whoever has moved first less often (a tie: the higher
    placed). More: whoever has sat later on average sits earlier."""
    entrants = field(n)
    history = run(entrants, 6, size, random_results(seed))
    for k, rnd in enumerate(history):
        past = Past.of(history[:k])
        order = placing(entrants, past)
        for game in rnd.games:
            if size == 2:
                keys = [(past.firsts.get(e, 0), order.index(e)) for e in game.seats]
            else:
                lateness = [past.lateness.get(e, Fraction(1, 2)) for e in game.seats]
                keys = [(-x, order.index(e)) for x, e in zip(lateness, game.seats, strict=True)]
            assert keys == sorted(keys)
    if size == 2:
        firsts = Past.of(history).firsts
        assert max(firsts.values()) - min(firsts.get(e.id, 0) for e in entrants) <= 2


@pytest.mark.parametrize(("n", "size"), [(7, 2), (10, 2), (9, 3), (11, 4)])
def test_the_same_input_gives_the_same_round(n: int, size: int) -> None:
    entrants = field(n)
    history = run(entrants, 3, size, random_results(n))
    once = pair_round(entrants, history, size)
    shuffled = list(entrants)
    random.Random(5).shuffle(shuffled)
    assert pair_round(entrants, history, size) == once == pair_round(shuffled, history, size)


def test_unknown_sizes_and_twice_listed_entrants_are_refused() -> None:
    with pytest.raises(ValueError):
        pair_round(field(4), [], 1)
    with pytest.raises(ValueError):
        pair_round([*field(4), field(1)[0]], [], 2)


# --- three and four players ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "n", "sizes", "byes"),
    [
        (3, 5, [3, 2], 0),
        (3, 6, [3, 3], 0),
        (3, 7, [3, 2, 2], 0),
        (3, 8, [3, 3, 2], 0),
        (3, 9, [3, 3, 3], 0),
        (3, 10, [3, 3, 2, 2], 0),
        (3, 11, [3, 3, 3, 2], 0),
        (4, 5, [4], 1),
        (4, 6, [3, 3], 0),
        (4, 7, [4, 3], 0),
        (4, 8, [4, 4], 0),
        (4, 9, [3, 3, 3], 0),
        (4, 10, [4, 3, 3], 0),
        (4, 11, [4, 4, 3], 0),
        (4, 2, [], 2),
        (4, 1, [], 1),
        (3, 1, [], 1),
        (3, 2, [2], 0),
    ],
)
def test_table_sizes_and_byes(size: int, n: int, sizes: list[int], byes: int) -> None:
    assert table_sizes(n, size) == sizes
    entrants = field(n)
    rnd = pair_round(entrants, [], size)
    assert [len(g.seats) for g in rnd.games] == sizes
    assert [b.entrant for b in rnd.byes] == list(range(n, n - byes, -1))
    assert sorted(rnd.entrants()) == list(range(1, n + 1))


def test_round_one_seats_tables_in_placing_order() -> None:
    assert pair_round(field(7), [], 4) == Round((Game((1, 2, 3, 4)), Game((5, 6, 7))))


def test_the_byes_of_four_player_rounds_go_round() -> None:
    history = run(field(5), 5, 4, random_results(7))
    assert sorted(b.entrant for rnd in history for b in rnd.byes) == [1, 2, 3, 4, 5]


def test_swaps_between_neighbouring_tables_reduce_meetings() -> None:
    """Round 1: (1, 2, 3) all level, (4, 5, 6) in order, (7, 8, 9) all level. Placing: 4,
    then 1, 2, 3, 5, 7, 8, 9, then 6: filled in order, (4, 1, 2) and (8, 9, 6) would hold
    two meetings."""
    entrants = field(9)
    level: Result = lambda seats: (0, 0, 0) if 4 not in seats else lower_id_wins(seats)  # noqa: E731
    history = run(entrants, 1, 3, level)
    past = Past.of(history)
    assert placing(entrants, past) == [4, 1, 2, 3, 5, 7, 8, 9, 6]
    rnd = pair_round(entrants, history, 3)
    assert sum(table_meetings(g.seats, past) for g in rnd.games) == 0
    assert sorted(rnd.entrants()) == list(range(1, 10))


@pytest.mark.parametrize(("n", "size", "seed"), [(12, 3, 1), (12, 3, 2), (16, 4, 3), (40, 3, 4)])
def test_repeated_meetings_stay_fewer_than_in_placing_order(n: int, size: int, seed: int) -> None:
    """Every round holds no more earlier meetings than the tables filled in placing order
    would, the first two rounds none, and no table is ever seated twice."""
    entrants = field(n)
    history = run(entrants, 6, size, random_results(seed))
    for k, rnd in enumerate(history):
        past = Past.of(history[:k])
        seated = [e for e in placing(entrants, past) if e not in {b.entrant for b in rnd.byes}]
        naive, start = [], 0
        for m in table_sizes(n, size):
            naive.append(seated[start : start + m])
            start += m
        ours = sum(table_meetings(g.seats, past) for g in rnd.games)
        assert ours <= sum(table_meetings(t, past) for t in naive)
        if k < 2:
            assert ours == 0
    tables = [frozenset(g.seats) for rnd in history for g in rnd.games]
    assert len(tables) == len(set(tables))
