"""The rule that a rated game is rated only for the moves its people made
(``store/fairplay.py``), on logs written as the server writes them: who made each seat's
decisions, which seats forfeit, and when a game is rated for nobody."""

from __future__ import annotations

import pytest

from tigris_euphrates.store.fairplay import ABSENCE_SHARE, SeatPlay, judge, tally
from tigris_euphrates.store.logentry import (
    HandOver,
    LogEntry,
    Move,
    TakeBack,
    Undo,
    decode,
    encode,
)


def turns(seats: list[int]) -> list[tuple[int | None, LogEntry]]:
    """One decision of each seat in ``seats``, in order (what they play does not matter)."""
    return [(seat, Move("pass")) for seat in seats]


def seat_change(
    seat: int, kind: str, level: str | None = None, timeout: bool = False
) -> HandOver | TakeBack:
    """The log entry of a seat change: to a bot of ``level`` (``timeout``: its time ran out),
    or back to its person."""
    return HandOver(seat, str(level), timeout) if kind == "bot" else TakeBack(seat)


def test_seat_change_entries_read_back() -> None:
    texts = ["seat 1 bot hard", "seat 0 bot easy timeout", "seat 1 bot greedy fallback"]
    for text in [*texts, "seat 2 human"]:
        assert encode(decode(text)) == text
    assert decode("seat 0 bot easy timeout") == HandOver(0, "easy", timeout=True)
    assert decode("seat 2 human") == TakeBack(2)
    assert decode("place red 3f") == Move("place red 3f")
    with pytest.raises(ValueError):
        decode("seat 1 robot")


def test_people_who_played_their_seats() -> None:
    plays = tally(2, turns([0, 0, 1, 1] * 10))
    assert plays == [SeatPlay(person=20), SeatPlay(person=20)]
    verdict = judge(plays, [2, 1])
    assert verdict.counted and verdict.places == [2, 1] and verdict.forfeits == []


def test_two_accounts_that_let_bots_play_both_seats_are_rated_for_nobody() -> None:
    log = [(0, seat_change(0, "bot", "random")), (1, seat_change(1, "bot", "random"))]
    log += turns([0, 0, 1, 1] * 10)
    plays = tally(2, log)
    assert [p.called for p in plays] == [20, 20] and all(p.bot_at_end for p in plays)
    assert not judge(plays, [1, 2]).counted
    # the same when both let their clocks run out
    timeouts = [
        (None, seat_change(0, "bot", "easy", True)),
        (None, seat_change(1, "bot", "easy", True)),
    ]
    assert not judge(tally(2, timeouts + turns([0, 1] * 5)), [1, 1]).counted


def test_a_player_who_leaves_a_lost_game_loses_it_and_the_others_are_rated() -> None:
    # seat 1 wins on the scores, but hands its seat to a bot that finishes the game
    log = [*turns([0, 0, 1, 1] * 10), (1, seat_change(1, "bot", "hard")), *turns([1, 0])]
    verdict = judge(tally(2, log), [2, 1])
    assert verdict.counted and verdict.forfeits == [1] and verdict.places == [1, 2]
    # even when the bot held the seat for no decision: a bot holds it at the end
    log = [*turns([0, 1] * 10), (1, seat_change(1, "bot", "hard"))]
    assert judge(tally(2, log), [2, 1]).places == [1, 2]


def test_a_player_helped_by_their_own_bot_forfeits_even_after_taking_the_seat_back() -> None:
    log = [*turns([0, 0, 1, 1] * 10), (0, seat_change(0, "bot", "expert")), *turns([0])]
    log += [(0, seat_change(0, "human")), *turns([0, 1, 1] * 30)]
    plays = tally(2, log)
    assert plays[0] == SeatPlay(person=50, called=1)
    verdict = judge(plays, [1, 2])
    assert verdict.counted and verdict.forfeits == [0] and verdict.places == [2, 1]
    # called and taken back before the bot decided anything: nothing changes
    log = [*turns([0, 1]), (0, seat_change(0, "bot", "expert")), (0, seat_change(0, "human"))]
    assert judge(tally(2, log + turns([0, 1])), [1, 2]).forfeits == []


def test_a_clock_that_ran_out_loses_the_game_even_when_taken_back() -> None:
    log = [*turns([0, 1] * 10), (None, seat_change(1, "bot", "easy", True)), *turns([1])]
    log += [(1, seat_change(1, "human")), *turns([0, 1] * 10)]
    plays = tally(2, log)
    assert plays[1].timed_out and plays[1].other == 1 and not plays[1].bot_at_end
    assert judge(plays, [2, 1]).places == [1, 2]


def test_a_short_absence_covered_by_the_creator_is_forgiven_a_long_one_is_not() -> None:
    def absent(bot_turns: int) -> SeatPlay:
        # the creator (seat 0) hands the absent seat 1 to a bot; its player comes back
        log = [*turns([0, 1] * 20), (0, seat_change(1, "bot", "medium"))]
        log += [*turns([0, 1] * bot_turns), (1, seat_change(1, "human")), *turns([0, 1] * 10)]
        return tally(2, log)[1]

    short, long = absent(3), absent(20)
    assert short.other == 3 and short.person == 30 and not short.forfeits
    assert long.other > ABSENCE_SHARE * long.decisions and long.forfeits
    # a creator who is not a player (None) counts the same
    log = [*turns([0, 1] * 5), (None, seat_change(1, "bot", "medium")), *turns([0, 1] * 5)]
    assert tally(2, [*log, (1, seat_change(1, "human"))])[1].other == 5


def test_a_persons_undone_decisions_do_not_count_a_bots_do() -> None:
    log = [*turns([0, 1, 0]), (0, Undo())]
    assert tally(2, log)[0] == SeatPlay(person=1)
    # the expert's decision, taken back with its seat and undone, was advice all the same
    log = [*turns([0, 1]), (0, seat_change(0, "bot", "expert")), (0, Move("pass"))]
    log += [(0, seat_change(0, "human")), (0, Undo()), *turns([0])]
    assert tally(2, log)[0] == SeatPlay(person=2, called=1)
    assert judge(tally(2, log), [1, 2]).forfeits == [0]


def test_in_a_larger_game_forfeits_share_the_last_place_and_the_others_keep_their_ties() -> None:
    plays = [
        SeatPlay(person=10),
        SeatPlay(person=9, called=1),
        SeatPlay(person=10),
        SeatPlay(other=10, timed_out=True, bot_at_end=True),
    ]
    # scores: seat 1 first, seats 0 and 2 share second, seat 3 last
    verdict = judge(plays, [2, 1, 2, 4])
    assert verdict.counted and verdict.forfeits == [1, 3]
    assert verdict.places == [1, 3, 1, 3]
    # one person who played against forfeits: rated, and first
    assert judge(
        [SeatPlay(person=5), SeatPlay(called=5), SeatPlay(called=5)], [3, 1, 2]
    ).places == [
        1,
        2,
        2,
    ]
