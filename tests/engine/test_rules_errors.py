"""Errors (DESIGN.md): illegal actions raise IllegalAction naming the rule and leave the state
unchanged; malformed input raises InvalidAction; ``check`` agrees with ``legal_actions``."""

from __future__ import annotations

import pytest

from diagram import assert_illegal, legal, play, st
from tigris_euphrates import IllegalAction, InvalidAction, State, apply, to_position
from tigris_euphrates.engine.board import CELL_NAMES, COLOURS

# Kingdoms: seat 0's king a1 (a2), seat 1's king c1 (c2), seat 0's priest e3 (d3), seat 1's
# trader b6 (b5). Column f is a river.
BOARD = """
    . . . . . ~
    r . r . . ~
    . . . r . ~
    . . . . . ~
    . r . r . ~
    . . . . . ~
"""
LEADERS = "0 black a1, 1 black c1, 0 red e3, 1 green b6"


@pytest.mark.parametrize(
    ("action", "code", "words"),
    [
        ("tile blue a4", "blue-on-land", "blue tiles go only on rivers"),
        ("tile red f1", "tile-on-river", "red tiles go only on land"),
        ("tile green a2", "occupied", "holds a tile"),
        ("tile black d1", "no-tile", "no black tile in hand"),
        ("leader red b2", "unites-kingdoms", "a leader may not unite two kingdoms"),
        ("leader green b1", "no-temple", "next to a face-up temple"),
        ("leader green c1", "occupied", "may not go on a leader"),
        ("leader green f3", "leader-on-river", "never on a river"),
        ("leader black a1", "same-cell", "cannot be placed on the cell it stands on"),
        ("withdraw blue", "leader-off-board", "not on the board"),
        ("catastrophe a1", "catastrophe-on-leader", "may not be placed on a leader"),
        ("swap red=4", "swap-not-in-hand", "not in your hand"),
        ("commit 0", "wrong-decision", "the decision now is a turn action"),
        ("war red", "wrong-decision", "a turn action"),
        ("decline", "wrong-decision", "a turn action"),
        ("treasure l11", "wrong-decision", "a turn action"),
        ("wonder c3", "no-wonder", "wonder variant"),
        ("building red c3", "no-buildings", "buildings variant"),
    ],
)
def test_illegal_actions_name_their_rule_and_change_nothing(
    action: str, code: str, words: str
) -> None:
    s = st(BOARD, leaders=LEADERS, hands=[{"red": 3, "blue": 1, "green": 2}, {}])
    assert_illegal(s, action, code, words)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "dance",
        "tile",
        "tile purple a1",
        "tile red q1",
        "tile red a12",
        "tile red a0",
        "tile red a1 b2",
        "leader king c3",
        "withdraw",
        "catastrophe",
        "swap",
        "swap red",
        "swap red=0",
        "swap red=x",
        "swap red=1,red=1",
        "commit",
        "commit -1",
        "commit two",
        "war",
        "monument red-red a1",
        "monument blue-red a1",
        "monument red-blue",
        "pass now",
        "decline it",
        "treasure",
    ],
)
def test_malformed_notation_raises_invalid_action(text: str) -> None:
    s = st(BOARD, leaders=LEADERS, hands=[{"red": 3}, {}])
    before = to_position(s)
    with pytest.raises(InvalidAction):
        apply(s, text)
    assert to_position(s) == before


def test_malformed_json_actions_raise_invalid_action() -> None:
    s = st(BOARD, leaders=LEADERS, hands=[{"red": 3}, {}])
    for bad in ({}, {"type": "tile"}, {"type": "tile", "colour": "red"}, {"kind": "pass"}, 42):
        with pytest.raises(InvalidAction):
            apply(s, bad)  # type: ignore[arg-type]


def test_errors_are_value_errors_with_codes() -> None:
    s = st(BOARD, leaders=LEADERS, hands=[{"blue": 3}, {}])
    with pytest.raises(ValueError) as info:
        apply(s, "tile blue a4")
    assert isinstance(info.value, IllegalAction) and info.value.code == "blue-on-land"
    with pytest.raises(ValueError) as info2:
        apply(s, "tile mauve a4")
    assert isinstance(info2.value, InvalidAction) and info2.value.code == "bad-colour"


def test_no_action_once_the_game_is_over() -> None:
    s = st(". .", hands=[{"red": 6}, {}], bag=[])
    s, _ = play(s, "swap red=1")
    assert_illegal(s, "pass", "game-over", "the game is over")


def _every_turn_action(s: State) -> list[str]:
    out = ["pass"]
    for colour in COLOURS:
        out.append(f"withdraw {colour}")
        for cell in CELL_NAMES:
            out.append(f"tile {colour} {cell}")
            out.append(f"leader {colour} {cell}")
    out.extend(f"catastrophe {cell}" for cell in CELL_NAMES)
    out.extend(f"swap {c}={n}" for c in COLOURS for n in range(1, 4))
    return out


@pytest.mark.parametrize(
    ("diagram", "leaders"),
    [
        (BOARD, LEADERS),
        (
            """
            R R r . k ~ . T
            R R . r k ~ . .
            x . . r . ~ $ .
            . k k . g ~ g r
            """,
            "0 red c2, 1 red e3, 0 green h2, 1 black c3",
        ),
    ],
)
def test_check_agrees_with_legal_actions(diagram: str, leaders: str) -> None:
    s = st(diagram, leaders=leaders, hands=[{"red": 2, "blue": 1, "green": 1, "black": 2}, {}])
    allowed = legal(s)
    for text in _every_turn_action(s):
        try:
            apply(s, text)
        except IllegalAction:
            assert text not in allowed, text
        else:
            assert text in allowed, text


def _every_decision(s: State) -> list[str]:
    from tigris_euphrates.engine.board import MONUMENT_NAMES

    out = ["pass", "decline"]
    out.extend(f"commit {n}" for n in range(9))
    out.extend(f"war {c}" for c in COLOURS)
    out.extend(f"treasure {cell}" for cell in CELL_NAMES)
    out.extend(f"monument {m} {cell}" for m in MONUMENT_NAMES for cell in CELL_NAMES)
    return out


def _decision_states() -> list[State]:
    war3 = st(
        """
        . r . . . r .
        r r k . k r r
        . r . . . r .
        """,
        leaders="0 red a1, 0 black a3, 0 green c1, 1 red g1, 1 black g3, 1 green e1",
        hands=[{"black": 1, "red": 3}, {"red": 2}],
    )
    revolt = """
        r R . . . r .
        r . r k r . r
        """
    out = []
    s, _ = play(war3, "tile black d2")
    out.append(s)  # war choice
    s, _ = play(s, "war red")
    out.append(s)  # attacker's commitment
    s, _ = play(s, "commit 1")
    out.append(s)  # defender's commitment
    for english in (False, True):
        r = st(revolt, leaders="1 red b2", hands=[{"red": 3}, {"red": 3}], english_variant=english)
        r, _ = play(r, "leader red f2")
        out.append(r)
        r, _ = play(r, "commit 1")
        out.append(r)
    m, _ = play(st("k k k\nk . k", hands=[{"black": 1}, {}]), "tile black b2")
    out.append(m)  # monument offer
    t, _ = play(st("C . C T", leaders="1 green a2", hands=[{"red": 1}, {}]), "tile red b1")
    out.append(t)  # treasure pick
    return out


def test_check_agrees_with_legal_actions_in_every_decision() -> None:
    for s in _decision_states():
        allowed = legal(s)
        assert allowed
        for text in _every_decision(s):
            try:
                apply(s, text)
            except IllegalAction:
                assert text not in allowed, text
            else:
                assert text in allowed, text
