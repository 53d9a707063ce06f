"""A game's log entries and their one codec (``store/logentry.py``): every form the server
has ever written reads back to the same text, byte for byte, so old games load as they
were played."""

from __future__ import annotations

import pytest

from tigris_euphrates.store.logentry import (
    Abort,
    HandOver,
    LogEntry,
    Move,
    Resign,
    TakeBack,
    Undo,
    decode,
    encode,
)

#: The stored text of each kind of entry, as games in databases hold it.
STORED: list[tuple[str, LogEntry]] = [
    ("tile red e4", Move("tile red e4")),
    ("swap red=2,blue=1", Move("swap red=2,blue=1")),
    ("pass", Move("pass")),
    ("undo", Undo()),
    ("resign 1 hard", Resign(1, "hard")),
    ("abort", Abort()),
    ("abort 0 resign", Abort(0, "resign")),
    ("abort 1 bot", Abort(1, "bot")),
    ("abort 2 timeout", Abort(2, "timeout")),
    ("seat 1 bot hard", HandOver(1, "hard")),
    ("seat 0 bot easy timeout", HandOver(0, "easy", timeout=True)),
    ("seat 1 bot greedy fallback", HandOver(1, "greedy", fallback=True)),
    ("seat 3 human", TakeBack(3)),
]


@pytest.mark.parametrize(("text", "entry"), STORED)
def test_every_stored_form_reads_and_writes_back_the_same(text: str, entry: LogEntry) -> None:
    assert decode(text) == entry
    assert encode(entry) == text


def test_a_text_of_no_other_kind_is_a_move_for_the_rules_to_judge() -> None:
    for text in ["abort 1 nonsense", "resign one hard", "resign 1", "seat 1", "undo 2"]:
        assert decode(text) == Move(text)


def test_a_seat_entry_of_no_known_form_is_refused() -> None:
    for text in ["seat 1 robot", "seat 1 bot hard later", "seat x human", "seat 1 human now"]:
        with pytest.raises(ValueError):
            decode(text)


def test_an_entry_that_cannot_be_written_is_refused() -> None:
    with pytest.raises(ValueError):
        Abort(1, "bored")
    with pytest.raises(ValueError):
        Abort(1)
    with pytest.raises(ValueError):
        HandOver(1, "easy", timeout=True, fallback=True)


def test_others_see_how_many_tiles_a_swap_put_back_not_which() -> None:
    swap = Move("swap red=2,blue=1")
    assert swap.shown_to(0, by=0) == "swap red=2,blue=1"
    assert swap.shown_to(1, by=0) == swap.shown_to(None, by=0) == "swap 3 tiles"
    assert Move("swap red=1").shown_to(1, by=0) == "swap 1 tile"
    assert Move("tile red e4").shown_to(1, by=0) == "tile red e4"
