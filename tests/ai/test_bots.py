"""The bots: complete legal games for every player count and option, reproducibility,
iteration budgets, and the proof that the search player cannot see hidden tiles."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from diagram import state as diagram_state
from tigris_euphrates import (
    Commit,
    State,
    Support,
    Swap,
    apply,
    from_position,
    new_game,
    player_view,
    redact_event,
    replay,
    to_act,
)
from tigris_euphrates.ai import BOTS, LEVELS, Budget, SearchLevel, evaluate, make_bot
from tigris_euphrates.ai.determinize import Determinizer
from tigris_euphrates.ai.search import SearchBot
from tigris_euphrates.ai.tree import Node, child_value
from tigris_euphrates.tournament import play_game

OPTION_SETS = [
    {},
    {"board": "advanced", "english_variant": True},
    {"open_scoring": True, "english_variant": True},
    {"board": "advanced", "open_scoring": True},
    {"wonder": True, "buildings": True},
    {"ruleset": "galaxy", "english_variant": True},
]
SMART = ["easy", "greedy", "medium", "hard", "expert"]
TINY = Budget(iterations=4)


def _lineup(players: int, k: int) -> list[str]:
    """Seats cycling through every level so each bot meets every player count."""
    names = list(BOTS)
    return [names[(k * players + i) % len(names)] for i in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opt", range(len(OPTION_SETS)))
def test_every_bot_plays_legal_complete_games(players: int, opt: int) -> None:
    options = {"players": players, **OPTION_SETS[opt]}
    names = _lineup(players, opt)
    bots = [make_bot(name, 7 + i) for i, name in enumerate(names)]
    out = play_game(bots, options, seed=100 + 10 * players + opt, budgets=[TINY] * players)
    assert out.result["end"] in ("treasures", "bag")
    # play_game applies through the validating ``apply``; the record replays to the result.
    final = replay(out.record())
    assert final.over


def test_each_level_in_each_player_count() -> None:
    seen = {(p, name) for p in (2, 3, 4) for k in range(4) for name in _lineup(p, k)}
    assert {(p, n) for p in (2, 3, 4) for n in BOTS} <= seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_cover_every_option(players: int) -> None:
    for board in ("standard", "advanced"):
        for english in (False, True):
            for open_scoring in (False, True):
                options = {
                    "players": players,
                    "board": board,
                    "english_variant": english,
                    "open_scoring": open_scoring,
                }
                bots = [make_bot("random", s) for s in range(players)]
                out = play_game(bots, options, seed=players * 8 + english + 2 * open_scoring)
                assert out.result is not None


@pytest.mark.slow
@pytest.mark.parametrize("name", SMART)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_smart_bot_all_options(name: str, players: int) -> None:
    for k, extra in enumerate(OPTION_SETS):
        bots = [make_bot(name, k * 10 + s) for s in range(players)]
        play_game(bots, {"players": players, **extra}, seed=k, budgets=[TINY] * players)


def _play_until(seed: int, plies: int, players: int = 2) -> tuple[object, list[list[dict]]]:
    """A game of random bots stopped after ``plies`` actions, and each seat's observed
    events (its hidden parts are as rich as a real game's; the play is fast)."""
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    s = new_game({"players": players}, seed)
    seen: list[list[dict]] = [[] for _ in range(players)]
    while s.ply < plies and not s.over:
        seat = to_act(s)
        s, events = apply(s, bots[seat].choose(player_view(s, seat)))
        for p in range(players):
            seen[p].extend(redact_event(e, p) for e in events)
    return s, seen


def _resample(state, seat: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """The true state with every hidden part (other hands, their swaps, the bag order) dealt
    again at random: a different game that ``seat`` cannot tell apart from the real one."""
    view = player_view(state, seat)
    det = Determinizer(view, None)
    alt = det.sample(rng)
    # Keep the true scores (the resampling is about tiles).
    alt.scores = state.scores[:]
    return alt


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize(
    "seed,plies,players", [(1, 12, 2), (2, 41, 2), (3, 80, 2), (4, 120, 2), (5, 60, 4), (6, 90, 3)]
)
def test_search_cannot_see_hidden_tiles(level: str, seed: int, plies: int, players: int) -> None:
    """Also in three and four players, where more hands are hidden: the other seats' replies
    the search plays in its tree come from the worlds it samples, never the true hands."""
    state, seen = _play_until(seed, plies, players)
    seat = to_act(state)
    assert seat is not None
    others = [p for p in range(players) if p != seat]
    rng = random.Random(seed)
    changed = 0
    decisions = set()

    def hidden(s):  # type: ignore[no-untyped-def]
        return ([s.hands[p * 4 : p * 4 + 4] for p in others], s.bag[s.bag_pos :])

    for _ in range(3):
        alt = _resample(state, seat, rng)
        # The hidden parts really differ...
        changed += hidden(state) != hidden(alt)
        # ...the seat's view does not...
        assert player_view(alt, seat) == player_view(state, seat)
        # ...and so neither does the decision (same seed, same iteration budget).
        for s in (state, alt):
            bot = make_bot(level, 99)
            bot.observe(seen[seat])
            decisions.add(bot.choose(player_view(s, seat), Budget(iterations=30)))
    assert changed >= 2
    assert len(decisions) == 1


def test_determinizations_match_the_view() -> None:
    for seed, plies, players in ((5, 30, 2), (6, 70, 3), (7, 50, 4)):
        state, _ = _play_until(seed, plies, players)
        for seat in range(players):
            view = player_view(state, seat)
            det = Determinizer(view)
            rng = random.Random(seed)
            for _ in range(5):
                world = det.sample(rng)
                wv = player_view(world, seat)
                assert wv == view or {**wv, "players": None} == {**view, "players": None}
                assert world.bag_left == state.bag_left
                for p in range(players):
                    assert sum(world.hands[p * 4 : p * 4 + 4]) == sum(
                        state.hands[p * 4 : p * 4 + 4]
                    )


def test_a_deal_shuffles_exactly_as_random_does() -> None:
    """The deals shuffle with their own copy of ``Random.shuffle`` (it compiles): the same
    order and the same draws, so the recorded games stay those of ``rng.shuffle``; a
    subclass of ``Random`` shuffles itself."""
    from tigris_euphrates.ai.determinize import shuffle

    class Doubling(random.Random):
        def random(self) -> float:
            return super().random() ** 2

    for seed in range(200):
        for n in (0, 1, 2, 3, 5, 8, 31, 64, 65, 117, 200):
            for kind in (random.Random, Doubling):
                ours, theirs = kind(seed), kind(seed)
                a, b = list(range(n)), list(range(n))
                shuffle(a, ours)
                theirs.shuffle(b)
                assert a == b, (seed, n, kind)
                assert ours.random() == theirs.random()  # the same draws were used up


def test_colour_ranks_are_those_of_a_stable_sort() -> None:
    """Each colour's rank among a seat's scores, ties in colour order, for every row of
    scores 0 to 5."""
    import itertools

    for row in map(list, itertools.product(range(6), repeat=4)):
        by_score = sorted(range(4), key=row.__getitem__)
        assert evaluate.colour_ranks(row) == [by_score.index(c) for c in range(4)]


@pytest.mark.parametrize("level", ["easy", "greedy", "medium", "hard"])
def test_same_seed_and_iterations_same_decisions(level: str) -> None:
    def run() -> list[str]:
        bots = [make_bot(level, 3), make_bot("greedy", 4)]
        s = new_game({"players": 2}, 11)
        out = []
        while s.ply < 30 and not s.over:
            seat = to_act(s)
            a = bots[seat].choose(player_view(s, seat), Budget(iterations=20))
            out.append(a)
            s, events = apply(s, a)
            for p, b in enumerate(bots):
                b.observe([redact_event(e, p) for e in events])
        return out

    assert run() == run()


@pytest.mark.parametrize("iterations", [1, 7, 25])
def test_iteration_budget_is_honoured(iterations: int) -> None:
    state, seen = _play_until(8, 20)
    seat = to_act(state)
    bot = make_bot("hard", 1)
    assert isinstance(bot, SearchBot)
    bot.observe(seen[seat])
    view = player_view(state, seat)
    assert len(view["legal_actions"]) > 1
    bot._early_stop = False
    choice = bot.choose(view, Budget(iterations=iterations))
    assert choice in view["legal_actions"]
    assert bot.last_iterations == iterations


@pytest.mark.parametrize("seed", [8, 12, 15])
def test_stopping_early_never_changes_the_decision(seed: int) -> None:
    """The search stops once the most visited candidate cannot be overtaken: the decision
    is the one the whole budget would have made, with fewer iterations."""
    state, seen = _play_until(seed, 24)
    seat = to_act(state)
    view = player_view(state, seat)
    choices, used = [], []
    for early in (False, True):
        bot = make_bot("medium", 5)
        assert isinstance(bot, SearchBot)
        bot._early_stop = early
        bot.observe(seen[seat])
        choices.append(bot.choose(view, Budget(iterations=160)))
        used.append(bot.last_iterations)
    assert choices[0] == choices[1]
    assert used[0] == 160 and used[1] <= 160


def test_second_action_of_a_turn_goes_on_from_the_first_search() -> None:
    """After its first action the search keeps the subtree under it: the second decision
    of the turn starts with those visits."""
    state, _ = _play_until(21, 12)
    while True:
        seat = to_act(state)
        legal = player_view(state, seat)["legal_actions"]
        if not state.pending and state.actions_left == 2 and len(legal) > 1:
            break
        state, _ = apply(state, player_view(state, seat)["legal_actions"][0])
    bot = make_bot("hard", 2)
    assert isinstance(bot, SearchBot)
    bot._early_stop = False
    a = bot.choose(player_view(state, seat), Budget(iterations=120))
    state, _ = apply(state, a)
    if to_act(state) != seat or state.pending:
        pytest.skip("the first action started a decision of another seat")
    bot.choose(player_view(state, seat), Budget(iterations=120))
    assert bot.last_reused > 0
    assert bot.last_iterations == 120 - min(bot.last_reused, 60)


def _hard_with(seed: int, **more: Any) -> SearchBot:
    """``hard`` with its three-or-four-player configuration changed (to show what a
    setting of that configuration does)."""
    level = LEVELS["hard"]
    assert isinstance(level, SearchLevel)
    return SearchBot(seed, SearchLevel(level.two, dataclasses.replace(level.more, **more)))


def _node(actor: int, visits: int, wins: float) -> Node:
    n = Node()
    n.actor, n.visits, n.wins = actor, visits, wins
    return n


def test_mixmax_values_a_first_action_by_its_best_second_one() -> None:
    """A turn's first action whose best follow-up is strong is not buried under the poor
    second actions the search also tried (mixmax); an opponent's reply below is averaged."""
    first = _node(0, 10, 0.0)  # mean 0: one excellent second action, four poor ones
    first.children = {i: _node(0, 2, w) for i, w in enumerate([4.0, -1.0, -1.0, -1.0, -1.0])}
    assert child_value(first, 0) == 0.0
    assert child_value(first, 0, 0.5) == 1.0  # half the mean (0), half the best (2.0)
    first.actor = 1  # the next decision is an opponent's: its best is not ours to pick
    assert child_value(first, 0, 0.5) == 0.0


@pytest.mark.parametrize("players,exploration,iterations", [(2, 0.6, 800), (4, 0.3, 1600)])
def test_search_settings_follow_the_player_count(
    players: int, exploration: float, iterations: int
) -> None:
    """With more players the leads compared are smaller: hard explores less, uses mixmax
    and gets more iterations (under the same time cap)."""
    state, seen = _play_until(3, 4 * players, players)
    seat = to_act(state)
    bot = make_bot("hard", 1)
    assert isinstance(bot, SearchBot)
    bot.observe(seen[seat])
    view = player_view(state, seat)
    assert bot.default_budget(players) == Budget(seconds=0.9, iterations=iterations)
    bot._early_stop = False
    bot.choose(view, Budget(iterations=16))
    cfg = bot._cfg
    assert cfg.exploration == exploration and cfg.mixmax == (0.5 if players > 2 else 0.0)
    assert cfg.focused_triage == (players > 2)  # the focused triage with three or four players
    assert cfg.ending_swaps == (players > 2)  # and the game-ending swaps
    assert cfg.auto_support == (players > 2)  # and other seats' support by the policy
    assert cfg.prune_commits == (players > 2)  # and only the useful commitments
    assert bot.last_iterations == 16


def _busy_turn(players: int = 4) -> tuple[Any, int]:
    """A position of random play where the seat to act has a turn action to choose: with
    four players one with 30+ of them, with two the first after 20 plies."""
    plies, need = (40, 30) if players == 4 else (20, 1)
    state, _ = _play_until(4, plies, players)
    seat = to_act(state)
    while seat is not None and (
        state.pending or len(player_view(state, seat)["legal_actions"]) < need
    ):
        state, _ = apply(state, player_view(state, seat)["legal_actions"][0])
        seat = to_act(state)
    assert seat is not None
    return state, seat


def test_time_budget_is_used_without_an_iteration_count() -> None:
    state, _ = _play_until(9, 10)
    seat = to_act(state)
    bot = make_bot("medium", 1)
    view = player_view(state, seat)
    assert bot.choose(view, Budget(seconds=0.05)) in view["legal_actions"]
    assert isinstance(bot, SearchBot) and bot.last_iterations >= 1


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {"conflict", "monument", "treasure"}),
        ({"wonder": True, "buildings": True}, {"building"}),
        ({"ruleset": "galaxy"}, {"conflict", "harvest"}),
    ],
    ids=["classic", "wonder+buildings", "galaxy"],
)
def test_every_kind_of_decision_is_answered(options: dict[str, Any], expected: set[str]) -> None:
    """Random games reach conflicts, war choices, monuments and treasure picks — and in the
    variants building offers, wonder points and harvests; every level answers each kind
    with a legal action."""
    kinds: dict[str, int] = {}
    rng = random.Random(0)
    seed = 0
    while not expected <= set(kinds) and seed < 60:
        s = new_game({"players": 3, **options}, seed)
        seed += 1
        while not s.over:
            seat = to_act(s)
            view = player_view(s, seat)
            stage = (view["pending"] or {}).get("stage", "action")
            if stage != "action" and kinds.get(stage, 0) < 2 and len(view["legal_actions"]) > 1:
                kinds[stage] = kinds.get(stage, 0) + 1
                for level in SMART:
                    choice = make_bot(level, 1).choose(view, TINY)
                    assert choice in view["legal_actions"], (level, stage, choice)
            s, _ = apply(s, rng.choice(view["legal_actions"]))
    assert expected <= set(kinds)


def test_every_level_chooses_the_colour_of_a_wonder_point() -> None:
    """At the end of its turn, its king in the wonder's kingdom, a seat chooses the colour
    of its wonder point (rare in random play, so from a diagram)."""
    from diagram import position

    pos = position(
        """
        . R . r
        R R R .
        . R . .
        """,
        leaders="0 black d2",
        hands=[{"red": 2, "blue": 2, "green": 2}, {"black": 6}],
        actions_left=0,
        monuments={"wonder": "b2"},
        bag=["black"] * 20,
        wonder=True,
        spare_treasures=3,
    )
    pos["pending"] = {"stage": "wonder_point", "union": None}
    s = from_position(pos)
    view = player_view(s, 0)
    assert view["legal_actions"] == ["point red", "point blue", "point green", "point black"]
    for level in SMART:
        assert make_bot(level, 1).choose(view, TINY) in view["legal_actions"]


def test_unknown_bot_and_spectator_view() -> None:
    with pytest.raises(ValueError):
        make_bot("grandmaster")
    s = new_game({"players": 2}, 0)
    with pytest.raises(ValueError):
        make_bot("greedy").choose(player_view(s, 1 - to_act(s)))


def test_score_tally_rebuilds_hidden_scores_from_public_events() -> None:
    from tigris_euphrates.ai.determinize import ScoreTally

    state, seen = _play_until(12, 150, 3)
    for seat in range(3):
        tally = ScoreTally()
        tally.observe(seen[seat])
        rows = tally.scores(player_view(state, seat))
        assert rows is not None
        assert [x for row in rows for x in row] == state.scores


def test_the_evaluation_tells_the_variants_apart() -> None:
    """One process (the server) plays every variant: the same pieces in a galaxy game are
    worth what the galaxy's harsher wars make them, not what the classic game makes them;
    and a caller changing a returned list changes no later answer."""
    from tigris_euphrates import Options

    classic, _ = _play_until(9, 90, 2)
    galaxy = classic.copy()
    galaxy.options = Options.from_dict({"players": 2, "ruleset": "galaxy"})
    first = evaluate.seat_values(classic, evaluate.FULL)
    again = list(first)
    first[0] += 100.0
    assert evaluate.seat_values(classic, evaluate.FULL) == again
    assert evaluate.seat_values(galaxy, evaluate.FULL) != again


def test_the_search_expects_a_player_ahead_to_end_the_game() -> None:
    """Three tiles are left in the bag and seat 1, well ahead, plays next: a swap of four or
    more ends the game at once, and a player ahead takes it (the greedy player does). With
    ``ending_swaps`` the search's imagined seat 1 ranks that swap first under every move of
    seat 0 it tries, whatever hand a world deals it, and finds it wins the game there."""
    s = diagram_state(
        """
        . . . . . . . .
        . r r . r . . .
        . . . . . . . .
        """,
        players=3,
        leaders="0 black b1, 1 green e1",
        hands=[{"red": 2, "black": 2, "green": 2}, {"blue": 6}, {"green": 6}],
        scores=[
            {c: 3 for c in ("red", "blue", "green", "black")},
            {c: 5 for c in ("red", "blue", "green", "black")},
            {c: 2 for c in ("red", "blue", "green", "black")},
        ],
        bag=["black"] * 3,
        actions_left=1,
        spare_treasures=4,
        open_scoring=True,
    )
    bot = make_bot("hard", 3)
    assert isinstance(bot, SearchBot)
    bot._early_stop = False
    bot.choose(player_view(s, 0), Budget(iterations=150))  # three players: ending swaps on
    assert bot.last_root is not None and bot.last_root.children
    checked = 0
    for move in bot.last_root.children.values():
        if move.visits < 2 or not move.children or move.actor != 1:
            continue  # the game ended on seat 0's move, or it was hardly tried
        first = move.order[0]
        assert isinstance(first, Swap) and sum(first.counts) > 2
        ending = move.children[first]
        assert ending.visits and ending.wins / ending.visits > 25  # a won game for seat 1
        checked += 1
    assert checked >= 3


def test_auto_support_plays_other_seats_commitments_by_the_fixed_policy() -> None:
    """With ``auto_support`` (hard with four players) no other seat's support commitment is
    a node of the tree (each is played by ``commit_choice`` with the hand its world dealt);
    the same level without it searches them."""
    state, seat = _busy_turn()
    view = player_view(state, seat)
    found = []
    for auto in (False, True):
        bot = _hard_with(5, auto_support=auto)
        bot._early_stop = False
        assert bot.choose(view, Budget(iterations=400)) in view["legal_actions"]
        assert bot.last_root is not None
        commits = 0

        def walk(node: Node) -> None:
            nonlocal commits
            for a, child in (node.children or {}).items():
                if node.actor not in (-1, seat) and isinstance(a, Commit):
                    commits += 1
                walk(child)

        walk(bot.last_root)
        found.append(commits)
    assert found[0] > 0 and found[1] == 0


def _revolt_on_seat_2(att_red: int, dfn_red: int, attacker_commits: int | None) -> State:
    """Seat 1's priest enters at f2 against seat 2's priest at b2 (3 temples to 2); the
    attacker has committed ``attacker_commits`` red tiles (None: its commitment is due)."""
    s = diagram_state(
        """
        r R . . . r .
        r . r k r . r
        . . . . . . .
        """,
        players=4,
        turn=1,
        leaders="2 red b2",
        hands=[{"blue": 2}, {"red": att_red, "black": 2}, {"red": dfn_red, "blue": 1}, {}],
        # the rest of the tiles (10 red and 1 black on the board)
        bag=["red"] * (47 - att_red - dfn_red) + ["blue"] * 33 + ["green"] * 30 + ["black"] * 27,
        spare_treasures=3,
    )
    s, _ = apply(s, "leader red f2")
    c = s.decision
    assert isinstance(c, Support) and (c.attacker_base, c.defender_base) == (3, 2)
    if attacker_commits is not None:
        s, _ = apply(s, f"commit {attacker_commits}")
    return s


def test_useful_commits_leave_out_the_dominated_ones() -> None:
    """Committed tiles are lost whatever happens: the defender commits nothing or exactly
    the least that wins (nothing when it wins already), the attacker nothing or a count
    that beats the defender's base."""
    assert evaluate.useful_commits(_revolt_on_seat_2(3, 3, None)) == [0, 1, 2, 3]
    assert evaluate.useful_commits(_revolt_on_seat_2(3, 3, 0)) == [0, 1]
    assert evaluate.useful_commits(_revolt_on_seat_2(3, 3, 2)) == [0, 3]
    assert evaluate.useful_commits(_revolt_on_seat_2(3, 3, 3)) == [0]  # 6 against at most 5
    s = _revolt_on_seat_2(3, 3, None)
    c = s.decision
    assert isinstance(c, Support)
    # an attacker two short of the defender's base
    s.pending = (dataclasses.replace(c, attacker_base=1, defender_base=3),)
    assert evaluate.useful_commits(s) == [0, 3]
    s.pending = (
        dataclasses.replace(
            c, owner=c.defender, attacker_base=3, defender_base=2, attacker_commit=0
        ),
    )
    assert evaluate.useful_commits(s) == [0, 1]


def test_the_search_commits_no_tile_it_would_throw_away() -> None:
    """Seat 2 defends its priest with three red tiles. When the attacker's total is out of
    reach, `hard` (three or four players) gives in at once, without searching; when one tile
    saves the priest, it weighs only that and nothing. Without the pruning the search weighs
    every count."""
    lost = _revolt_on_seat_2(3, 3, 3)
    bot = make_bot("hard", 1)
    assert isinstance(bot, SearchBot)
    assert bot.choose(player_view(lost, 2), Budget(iterations=200)) == "commit 0"
    assert bot.last_iterations == 0
    winnable = _revolt_on_seat_2(3, 3, 0)
    orders = []
    for prune in (True, False):
        bot = _hard_with(1, prune_commits=prune)
        answer = bot.choose(player_view(winnable, 2), Budget(iterations=200))
        assert bot.last_root is not None
        orders.append(sorted(str(a) for a in bot.last_root.order))
        if prune:
            assert answer in ("commit 0", "commit 1")
    assert orders == [["commit 0", "commit 1"], ["commit 0", "commit 1", "commit 2", "commit 3"]]


@pytest.mark.parametrize("spec", ["random", "easy", "greedy", "medium", "hard:iterations=50"])
def test_a_bots_repr_makes_the_same_bot_afresh(spec: str) -> None:
    """``repr(bot)`` is the constructor call of the level it plays: evaluated, it gives a
    bot that decides exactly as a fresh one of that spec."""
    from tigris_euphrates.ai import GreedyBot, GreedyConfig, RandomBot, SearchConfig  # noqa: F401
    from tigris_euphrates.ai.evaluate import Weights  # noqa: F401

    bot = make_bot(spec, 4)
    again = eval(repr(bot))
    assert repr(again) == repr(bot)
    state, _ = _play_until(5, 16)
    seat = to_act(state)
    view = player_view(state, seat)
    budget = Budget(iterations=20)
    assert again.choose(view, budget) == make_bot(spec, 4).choose(view, budget)


def test_a_pickled_search_bot_goes_on_from_its_kept_tree() -> None:
    """A search bot sent to a worker process and back (as the web server does) keeps the
    subtree its next decision goes on from, but not the last decision's whole tree, which
    is only there for analysis."""
    import pickle

    state, _ = _play_until(21, 12)
    while True:
        seat = to_act(state)
        legal = player_view(state, seat)["legal_actions"]
        if not state.pending and state.actions_left == 2 and len(legal) > 1:
            break
        state, _ = apply(state, legal[0])
    bot = make_bot("hard", 2)
    assert isinstance(bot, SearchBot)
    a = bot.choose(player_view(state, seat), Budget(iterations=120))
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.last_root is None and bot.last_root is not None
    state, _ = apply(state, a)
    if to_act(state) != seat or state.pending:
        pytest.skip("the first action started a decision of another seat")
    view = player_view(state, seat)
    assert copy.choose(view, Budget(iterations=120)) == bot.choose(view, Budget(iterations=120))
    assert copy.last_reused == bot.last_reused > 0
