"""Reading another seat's red tiles from the turn actions it did not take (``red_reading``):
what an action says in a position, that the action is read from public events, and that a
reading bot is shown nothing but its own view."""

from __future__ import annotations

import random
from typing import Any

from diagram import state as diagram_state
from tigris_euphrates.ai import Budget, make_bot
from tigris_euphrates.ai.arena import play_game
from tigris_euphrates.ai.determinize import Determinizer
from tigris_euphrates.ai.greedy import GreedyBot, parse
from tigris_euphrates.ai.red_reading import read_action, turn_action
from tigris_euphrates.engine import (
    apply,
    new_game,
    player_view,
    redact_event,
    to_act,
)
from tigris_euphrates.engine.actions import Pass, Swap
from tigris_euphrates.engine.state import ACTION

# Seat 1's priest stands beside a temple: a red tile beside them scores it a red point.
PRIEST = """
    . . . . . .
    . r . . . .
    . . . . . .
"""


def _reading(leaders: str, played: str) -> tuple[float, ...] | None:
    s = diagram_state(
        PRIEST,
        players=2,
        turn=1,
        leaders=leaders,
        hands=[{"blue": 6}, {"red": 1, "blue": 2, "green": 3}],
        scores=[{}, {"blue": 2, "green": 2, "black": 2}],  # red is seat 1's lowest colour
        open_scoring=True,
        spare_treasures=2,
    )
    det = Determinizer(player_view(s, 0))  # what seat 0 sees: not seat 1's hand
    return read_action(det, 1, parse(played), random.Random(1))


def test_passing_up_a_red_point_says_the_hand_held_no_red() -> None:
    """A one-step player holding red would have scored the red point; one that passed
    most likely held none."""
    vec = _reading("1 red c2", "pass")
    assert vec is not None
    assert vec[0] > 0.9
    assert all(x < 0.2 for x in vec[1:])


def test_passing_says_nothing_when_no_red_tile_is_worth_placing() -> None:
    """Without the priest a red tile scores nothing and costs a tile in hand: holding red or
    not, passing is what a one-step player may do."""
    vec = _reading("", "pass")
    assert vec is not None
    assert min(vec) > 0.8


def test_red_tiles_and_revolts_are_not_read_this_way() -> None:
    """A red tile played resets what is known of the hand (``RedEvidence``), and a revolt's
    own worth depends on the red count: neither is read here."""
    assert _reading("1 red c2", "tile red d2") is None


def test_the_turn_action_is_read_from_the_events_a_seat_receives() -> None:
    bots = [make_bot("random", 40 + p) for p in range(3)]
    s = new_game({"players": 3}, 40)
    read = 0
    while not s.over and s.ply < 150:
        seat = to_act(s)
        assert seat is not None
        text = bots[seat].choose(player_view(s, seat))
        stage = s.stage
        s, events = apply(s, text)
        if stage != ACTION:
            continue
        seen = [redact_event(e, (seat + 1) % 3) for e in events]
        got = turn_action(seen, seat)
        expected = parse(text)
        assert got == (Pass() if isinstance(expected, Swap) else expected)
        read += 1
    assert read > 50


class _Watcher(GreedyBot):
    """A reading greedy player that keeps every view it is shown between its decisions."""

    red_reading = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.shown: list[dict[str, Any]] = []

    def watch(self, view: dict[str, Any]) -> None:
        self.shown.append(view)
        super().watch(view)


def test_a_reading_bot_is_shown_only_its_own_view_and_files_what_it_read() -> None:
    watcher = _Watcher(3)
    bots = [make_bot("random", 1), watcher, make_bot("random", 2)]
    play_game(bots, {"players": 3}, seed=8)
    assert len(watcher.shown) > 30
    for view in watcher.shown:
        assert view["seat"] == 1 and view["turn"]["player"] != 1
        for p, entry in enumerate(view["players"]):
            assert ("hand" in entry) == (p == 1)
    vectors = [
        kind
        for groups in watcher.red_seen.groups.values()
        for _, kinds in groups
        for kind in kinds
        if isinstance(kind, tuple)
    ]
    assert vectors and all(len(v) == 5 for v in vectors)


def test_reading_search_cannot_see_hidden_tiles() -> None:
    """A reading search player that watched a game's first plies decides the same when the
    other hands and the bag are dealt again: what it read came from its views and the
    events it heard."""
    bots = [make_bot("random", 70 + p) for p in range(4)]
    reader = make_bot("hard:red_reading=true", 99)
    s = new_game({"players": 4}, 7)
    me = 2
    heard: list[dict[str, Any]] = []
    while s.ply < 70:
        seat = to_act(s)
        assert seat is not None
        if seat != me and s.stage == ACTION:
            reader.watch(player_view(s, me))  # type: ignore[attr-defined]
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        reader.observe([redact_event(e, me) for e in events])
        heard.extend(redact_event(e, me) for e in events)
    while to_act(s) != me:
        seat = to_act(s)
        assert seat is not None
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        reader.observe([redact_event(e, me) for e in events])
    state_copy = reader.__dict__.copy()
    decisions = set()
    rng = random.Random(5)
    for alt in (s, Determinizer(player_view(s, me)).sample(rng)):
        alt.scores = s.scores[:]
        assert player_view(alt, me) == player_view(s, me)
        bot = make_bot("hard:red_reading=true", 99)
        bot.__dict__.update(
            {k: v for k, v in state_copy.items() if k in ("red_seen", "tally", "_last_ply")}
        )
        decisions.add(bot.choose(player_view(alt, me), Budget(iterations=40)))
    assert len(decisions) == 1
    assert heard
