"""Which of a player's turn actions are worth ranking: a cheap static sort into tiers.

Inside the search, ranking an action (play it, settle it, evaluate) costs about 0.1 ms and a
turn offers 150–400 actions, so a node ranks only a sample. A blind sample misses the moves
that matter; sorting the actions first, without playing them, and ranking the hot ones first
finds the move a real player makes far more often for the same cost (figures in docs/ai.md,
"What was tried"). The tiers:

* **hot**: a tile that scores for the player (except in the colour it clearly leads, where
  a point is worth little), unites two kingdoms (war), puts a temple beside one of the
  player's own leaders or completes a 2×2 square (monument); the best-placed leaders of
  each colour (temples beside it, tiles of its colour and size of the kingdom it joins, as
  the evaluation weighs them) and the best-backed revolts of each colour (most temples
  beside the leader, then tiles of its colour, then kingdom size); a catastrophe beside a
  leader;
* **warm**: any other tile or catastrophe next to a piece (a temple beside another seat's
  leader only guards that leader), the other leader moves, withdrawals;
* **quiet**: tiles and catastrophes away from every piece, swaps, passing (optionally, one
  swap of more tiles than the bag holds is hot: it ends the game at once, and a player
  ahead ends the game that way).

Two widths of the hot tier: the **focused** triage (three or four players) keeps two leader
placements of each colour, only the best-backed revolts, the points the player needs and
temples beside its own leaders; the **broad** one (two players) keeps three leader
placements of each colour, every revolt, every scoring tile and every temple beside any
leader.
"""

from __future__ import annotations

from typing import Final

from .. import (
    BLACK,
    BLOCKS,
    BLOCKS_AT,
    NEIGHBOURS,
    NO_CELLS,
    RED,
    Action,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    State,
    Swap,
    Words,
    bit,
    count,
    has,
    inter,
    meets,
    minus,
    region,
    state_kingdoms,
    with_cell,
    within,
    without_cell,
)
from .evaluate import BASIC

#: Leader placements of each colour that count as hot: the best placed by a static score,
#: and as many of the revolts it may start (most temples beside it, then tiles of its colour
#: and size of the kingdom).
HOT_LEADERS: Final = 2
#: The same in the broad triage (``focused=False``), where every revolt is hot.
BROAD_HOT_LEADERS: Final = 3


#: The tiers, as indices into (hot, warm, quiet).
HOT: Final = 0
WARM: Final = 1
QUIET: Final = 2


class _Board:
    """What the triage reads of the state once for all the actions it sorts: the pieces, the
    kingdoms with the seat a tile of each colour scores for in each, and what the player
    guards and scores."""

    def __init__(self, s: State, actor: int, focused: bool) -> None:
        self.occ = s.occupied()
        self.ks = state_kingdoms(s)  # already found by legal_actions
        self.scorer = _scorers(s, self.ks)
        self.fd = s.facedown
        self.tiles = s.tiles
        self.red_up = minus(self.tiles[RED], self.fd)
        # A red tile beside one of these leaders is hot: the actor's own (focused), or any.
        guarded = s.lmask
        if focused:
            guarded = NO_CELLS
            for cell in s.leaders_of(actor):
                if cell >= 0:
                    guarded = with_cell(guarded, cell)
        self.guarded = guarded
        self.own_scores = s.score(actor)[:4]
        # A colour above ``top`` is the actor's clear best: a point of it is worth little.
        self.top = sorted(self.own_scores)[2] if focused else 10**6


def _scorers(s: State, ks: list[Words]) -> list[list[int]]:
    """Per kingdom and colour: the seat a tile of that colour scores for (the leader of its
    colour, else the king), -1 for nobody."""
    scorer: list[list[int]] = []
    for k in ks:
        row = [-1, -1, -1, -1]
        for p in range(s.options.players):
            for c, cell in enumerate(s.leaders_of(p)):
                if cell >= 0 and has(k, cell):
                    row[c] = p
        king = row[BLACK]
        scorer.append([r if r >= 0 else king for r in row])
    return scorer


def triage(
    s: State, acts: list[Action], actor: int, focused: bool = True, ending: bool = False
) -> tuple[list[Action], list[Action], list[Action]]:
    """Split ``acts`` (turn actions of ``actor`` in ``s``) into (hot, warm, quiet), each in
    the order given (the hot leaders best placed first). ``focused=False`` is the broad
    triage of two-player games (every revolt, every scoring tile and every temple beside any
    leader hot, three leader placements of each colour).
    ``ending``: one swap of more tiles than the bag holds is hot (it ends the game at once);
    off, every swap is quiet."""
    b = _Board(s, actor, focused)
    hot: list[Action] = []
    warm: list[Action] = []
    quiet: list[Action] = []
    tiers = (hot, warm, quiet)
    # A swap of more tiles than the bag holds ends the game at once, whatever the tiles.
    left = s.bag_left
    ended = False
    # Per colour, (sort key, index, action) of the plain leader placements and the revolts.
    placed: list[list[tuple[tuple[float, ...], int, Action]]] = [[], [], [], []]
    revolts: list[list[tuple[tuple[float, ...], int, Action]]] = [[], [], [], []]
    for i, a in enumerate(acts):
        if isinstance(a, PlaceTile):
            tiers[_tile_tier(b, a, actor)].append(a)
        elif isinstance(a, PlaceLeader):
            k, revolt = _leader_kingdom(s, b.occ, a, actor)
            if revolt and not focused:
                hot.append(a)
            else:
                group = revolts if revolt else placed
                group[a.colour].append((_leader_key(b, a, k, revolt), i, a))
        elif isinstance(a, PlaceCatastrophe):
            on_piece = has(b.occ, a.cell)
            if on_piece and meets(NEIGHBOURS[a.cell], s.lmask):
                hot.append(a)
            elif on_piece:
                warm.append(a)
            else:
                quiet.append(a)
        elif ending and isinstance(a, Swap) and sum(a.counts) > left and not ended:
            hot.append(a)  # the bag is short: the game ends at once (one such swap will do)
            ended = True
        elif isinstance(a, (Swap, Pass)):
            quiet.append(a)
        else:
            warm.append(a)
    hot_leaders = HOT_LEADERS if focused else BROAD_HOT_LEADERS
    for ranked in (*placed, *revolts):  # best first: the first ``hot_leaders`` are hot
        ranked.sort()
        hot.extend(a for _, _, a in ranked[:hot_leaders])
        warm.extend(a for _, _, a in ranked[hot_leaders:])
    return hot, warm, quiet


def _tile_tier(b: _Board, a: PlaceTile, actor: int) -> int:
    """A tile away from every piece is quiet; one that unites kingdoms, puts a temple beside
    a guarded leader, scores for the player (not in the colour it clearly leads) or
    completes a square of four (a monument) is hot; any other is warm."""
    cell = a.cell
    nb = NEIGHBOURS[cell]
    if not meets(nb, b.occ):
        return QUIET
    touched = [j for j, k in enumerate(b.ks) if meets(nb, k)]
    if len(touched) >= 2 or (a.colour == RED and meets(nb, b.guarded)):
        return HOT
    if (
        touched
        and b.scorer[touched[0]][a.colour] == actor
        and b.own_scores[a.colour] <= b.top  # not a point in the colour it leads most
    ):
        return HOT
    same = with_cell(minus(b.tiles[a.colour], b.fd), cell)  # with the tile put
    if any(within(BLOCKS[t], same) for t in BLOCKS_AT[cell]):
        return HOT  # completes a square of four: a monument
    return WARM


def _leader_kingdom(s: State, occ: Words, a: PlaceLeader, actor: int) -> tuple[Words, bool]:
    """The kingdom the leader would stand in (lifted from where it stands), and whether
    another seat's leader of its colour is there (a revolt)."""
    colour = a.colour
    cur = s.leader(actor, colour)
    base = without_cell(occ, cur) if cur >= 0 else occ
    k = region(with_cell(base, a.cell), bit(a.cell))
    for other in range(s.options.players):
        o = s.leader(other, colour)
        if other != actor and o >= 0 and has(k, o):
            return k, True
    return k, False


def _leader_key(b: _Board, a: PlaceLeader, k: Words, revolt: bool) -> tuple[float, ...]:
    """The sort key of a leader placement in kingdom ``k``, best first: a revolt by the
    temples beside the leader, then the tiles of its colour, then the kingdom's size; a plain
    placement by its place as the evaluation weighs it (greedy's ``BASIC`` weights)."""
    temples = count(inter(NEIGHBOURS[a.cell], b.red_up))
    backing = count(inter(minus(b.tiles[a.colour], b.fd), k))
    size = count(k)
    if revolt:
        return (-temples, -backing, -size)
    v = (
        BASIC.temple_guard * min(temples, 3)
        + BASIC.war_guard * min(backing, 6)
        + BASIC.kingdom_size * min(size, 15)
    )
    return (-v,)
