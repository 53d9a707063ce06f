"""Which actions the search ranks first (``ai.triage``), on a small diagram.

Seat 0's king stands at b1 beside the temples b2 and c2; seat 1's green leader stands at e1
beside the temple e2. d2 touches both kingdoms.
"""

from __future__ import annotations

from diagram import state
from tigris_euphrates import State, legal_actions
from tigris_euphrates.ai.triage import triage

BOARD = """
    . . . . . . . .
    . r r . r . . .
    . . . . . . . .
    """


def _state() -> State:
    return state(
        BOARD,
        leaders="0 black b1, 1 green e1",
        hands=[{"red": 2, "black": 2, "green": 2}, {"red": 6}],
    )


def _tiers() -> dict[str, str]:
    s = _state()
    hot, warm, quiet = triage(s, legal_actions(s), 0)
    tiers = {}
    for name, group in (("hot", hot), ("warm", warm), ("quiet", quiet)):
        for a in group:
            tiers[str(a)] = name
    return tiers


def test_every_action_lands_in_exactly_one_tier() -> None:
    s = _state()
    acts = legal_actions(s)
    hot, warm, quiet = triage(s, acts, 0)
    assert sorted(map(str, hot + warm + quiet)) == sorted(map(str, acts))


def test_moves_that_change_the_game_are_hot() -> None:
    t = _tiers()
    assert t["tile black a2"] == "hot"  # scores a black point for seat 0 (its king)
    assert t["tile green a2"] == "hot"  # no green leader there: the king scores it
    assert t["tile black d2"] == "hot"  # unites the two kingdoms: a war
    assert t["tile red a1"] == "hot"  # a temple beside seat 0's own king
    assert t["leader green f2"] == "hot"  # joins seat 1's green leader's kingdom: a revolt
    assert t["catastrophe b2"] == "hot"  # removes the temple beside seat 0's own king


def test_moves_that_help_only_the_opponent_are_warm() -> None:
    t = _tiers()
    assert t["tile green f1"] == "warm"  # the point goes to seat 1's green leader
    assert t["tile red f1"] == "warm"  # a temple beside seat 1's leader guards only it


def test_a_point_in_the_colour_the_seat_leads_is_warm() -> None:
    """Seat 0 has 6 black points and 1 or 2 of the others: a black point (its king scores
    black at a2) is worth little, a green one (the king scores it too) is what it needs."""
    s = state(
        BOARD,
        leaders="0 black b1, 1 green e1",
        hands=[{"red": 2, "black": 2, "green": 2}, {"red": 6}],
        scores=[{"red": 1, "blue": 2, "green": 1, "black": 6}, {}],
    )
    hot, warm, _ = triage(s, legal_actions(s), 0)
    names = {str(a) for a in hot}, {str(a) for a in warm}
    assert "tile black a2" in names[1]
    assert "tile green a2" in names[0]
    assert "tile red a2" in names[0]


def test_moves_far_from_every_piece_are_quiet() -> None:
    t = _tiers()
    assert t["tile black h9"] == "quiet"
    assert t["catastrophe h9"] == "quiet"
    assert t["pass"] == "quiet"
    assert t["swap red=1"] == "quiet"


def test_only_the_best_placed_leaders_of_a_colour_are_hot() -> None:
    """Seat 0's red leader could go beside one temple each at a2, b3, c1, c3 (joining its
    kingdom of four) or e3, f2 (joining seat 1's kingdom of three): the two best placed
    are hot, the rest warm."""
    t = _tiers()
    red = {a.removeprefix("leader red "): tier for a, tier in t.items() if "leader red" in a}
    assert set(red) == {"a2", "b3", "c1", "c3", "e3", "f2"}
    assert red["e3"] == red["f2"] == "warm"
    assert sorted(red.values()).count("hot") == 2


def test_only_the_best_backed_revolts_of_a_colour_are_hot() -> None:
    """Seat 1's green leader at f1 rules the temples e2 and g2. Seat 0's green leader would
    start a revolt at f2 (beside both temples) or at e1, e3, g1, g3, h2 (beside one): f2
    and one of the others are hot, the other four revolts warm."""
    s = state(
        """
        . . . . . . . .
        . r r . r . r .
        . . . . . . . .
        """,
        leaders="0 black b1, 1 green f1",
        hands=[{"red": 2, "black": 2, "green": 2}, {"red": 6}],
    )
    hot, warm, _ = triage(s, legal_actions(s), 0)
    cells = {"e1", "e3", "f2", "g1", "g3", "h2"}
    hot_revolts = {str(a)[-2:] for a in hot if str(a).startswith("leader green")} & cells
    warm_revolts = {str(a)[-2:] for a in warm if str(a).startswith("leader green")} & cells
    assert "f2" in hot_revolts and len(hot_revolts) == 2
    assert hot_revolts | warm_revolts == cells


def test_a_swap_that_ends_the_game_is_hot() -> None:
    """With three tiles left in the bag, a swap of four or more ends the game at once: with
    ``ending`` (``SearchBot.ending_swaps``) one such swap is hot (they all end it alike),
    smaller swaps stay quiet; without it every swap is quiet."""
    s = state(
        BOARD,
        leaders="0 black b1, 1 green e1",
        hands=[{"red": 2, "black": 2, "green": 2}, {"red": 6}],
        bag=["black"] * 3,
    )
    acts = legal_actions(s)
    hot, _, quiet = triage(s, acts, 0, ending=True)
    ending = [a for a in hot if str(a).startswith("swap")]
    assert len(ending) == 1 and sum(ending[0].counts) > 3  # type: ignore[attr-defined]
    assert "swap red=2,black=1" in {str(a) for a in quiet}
    _, _, plain_quiet = triage(s, acts, 0)
    swaps = {str(a) for a in acts if str(a).startswith("swap")}
    assert swaps <= {str(a) for a in plain_quiet}


def test_swaps_are_quiet_while_the_bag_is_full() -> None:
    s = _state()
    hot, _, _ = triage(s, legal_actions(s), 0, ending=True)
    assert not [a for a in hot if str(a).startswith("swap")]
