"""The compiled bots decide as the pure-Python ones, bit for bit, and only ever run against
the sources they were built from.

Seeded positions of each variant (classic, wonder + buildings, galaxy; two players and three
or four) are put to the greedy levels and to the search levels at a fixed iteration budget
with no time cap: here, on the compiled engine and bots when they are built, and in a child
interpreter with ``TNE_PURE_PYTHON=1`` (the ``.py`` sources). Each choice, the search's
iteration count and its root candidates' visits and summed utilities (to the last bit) must
be equal, also for the second action of a turn, which goes on from the first one's tree.
``test_golden.py`` holds both builds to the recorded games.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import tigris_euphrates
import tigris_euphrates.ai as ai
from compiling import edited_build, pure_json
from tigris_euphrates import (
    apply,
    legal_actions,
    new_game,
    player_view,
    redact_event,
    to_act,
)
from tigris_euphrates.ai import Budget, SearchBot, make_bot

#: The variants, each with two players and with three or four (the other search settings).
VARIANTS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4},
    {"players": 2, "wonder": True, "buildings": True},
    {"players": 3, "wonder": True, "buildings": True},
    {"players": 2, "ruleset": "galaxy"},
    {"players": 4, "ruleset": "galaxy"},
]
#: Random play up to about these plies gives the positions.
PLIES = (10, 36)
LEVELS = ("easy", "greedy", "medium", "hard")
BUDGET = Budget(iterations=60)


def _position(options: dict[str, Any], seed: int, plies: int) -> tuple[Any, list[list[Any]]]:
    """A state after random play to ``plies`` or later, where the seat to act has a choice,
    and the events each seat heard on the way (redacted for it)."""
    rng = random.Random(seed)
    state = new_game(options, seed)
    heard: list[list[Any]] = [[] for _ in range(options["players"])]
    while state.ply < plies or len(legal_actions(state)) < 2:
        state, events = apply(state, rng.choice(legal_actions(state)))
        for seat, seen in enumerate(heard):
            seen.extend(redact_event(e, seat) for e in events)
    return state, heard


def _root(bot: SearchBot) -> list[Any]:
    root = bot.last_root
    if root is None or root.children is None:
        return []
    return [[str(a), root.children[a].visits, root.children[a].wins.hex()] for a in root.order]


def decisions(variant: int) -> list[Any]:
    """What every level decides in the positions of ``VARIANTS[variant]``: the choice, and
    for the search the iterations and the root's statistics (a second action of the turn
    too, when the first leaves the same seat to act)."""
    options = VARIANTS[variant]
    out: list[Any] = []
    for plies in PLIES:
        state, heard = _position(options, 100 * variant + plies, plies)
        seat = to_act(state)
        assert seat is not None
        for k, level in enumerate(LEVELS):
            bot = make_bot(level, 10 * variant + k)
            bot.observe(heard[seat])
            choice = bot.choose(player_view(state, seat), BUDGET)
            row: list[Any] = [plies, level, choice]
            if isinstance(bot, SearchBot):
                row += [bot.last_iterations, _root(bot)]
                after, events = apply(state, choice)
                if to_act(after) == seat and len(legal_actions(after)) > 1:
                    bot.observe([redact_event(e, seat) for e in events])
                    again = bot.choose(player_view(after, seat), BUDGET)
                    row += [again, bot.last_reused, bot.last_iterations, _root(bot)]
            out.append(row)
    return out


def test_the_compiled_bots_decide_as_the_pure_ones() -> None:
    if not ai.COMPILED:
        pytest.skip("the compiled bots are not built (pure-Python install): nothing to compare")
    code = (
        "import json, sys\n"
        "import tigris_euphrates.ai as ai, tigris_euphrates.engine as engine\n"
        "assert not ai.COMPILED and not engine.COMPILED\n"
        "from test_compiled_bots import VARIANTS, decisions\n"
        "json.dump([decisions(v) for v in range(len(VARIANTS))], sys.stdout)\n"
    )
    pure = pure_json(code, os.path.dirname(__file__))
    for variant in range(len(VARIANTS)):
        mine = json.loads(json.dumps(decisions(variant)))
        assert mine == pure[variant], f"variant {VARIANTS[variant]}"


REPORT = (
    "import json, warnings\n"
    "with warnings.catch_warnings(record=True) as said:\n"
    "    warnings.simplefilter('always')\n"
    "    import tigris_euphrates.ai as ai, tigris_euphrates.engine as engine\n"
    "print(json.dumps([engine.COMPILED, ai.COMPILED, [str(w.message) for w in said]]))\n"
)


@pytest.mark.parametrize(
    ("edited", "engine_compiled"), [("ai/evaluate.py", True), ("engine/board.py", False)]
)
def test_an_edited_source_runs_as_python(
    tmp_path: Path, edited: str, engine_compiled: bool
) -> None:
    """A copy of the build whose source is then edited: that package runs its ``.py`` files
    (with a warning naming the file), never the stale extension modules. An edited bots'
    source leaves the engine compiled; an edited engine source turns the bots to their
    source as well, since the compiled bots call the compiled engine directly."""
    if not ai.COMPILED:
        pytest.skip("the compiled bots are not built (pure-Python install)")
    before, after = edited_build(tmp_path, edited, REPORT)
    assert before == [True, True, []]
    assert after[:2] == [engine_compiled, False]
    assert any(edited in message for message in after[2]), after[2]


def test_the_compiled_bots_run_where_they_were_built() -> None:
    """``make test`` sets TNE_EXPECT_COMPILED: there the build must have compiled the bots
    with the engine (a silent fall-back to pure Python would make the tests above skip)."""
    if not os.environ.get("TNE_EXPECT_COMPILED") or os.environ.get("TNE_PURE_PYTHON"):
        pytest.skip("TNE_EXPECT_COMPILED is not set")
    assert tigris_euphrates.COMPILED and ai.COMPILED
