"""Rulesets: the classic game, and the hooks a variant ruleset overrides.

A ruleset is a small class registered by name (``RULESETS``; the option ``ruleset`` picks
one, ``Options.rules`` holds it). The classic game is ``Ruleset``; ``galaxy.Galaxy`` is the
worked example of a variant that overrides what differs. Legality (``legal``) and play
(``play``) ask the ruleset wherever rulesets differ, so each rule is written once.

The hooks read a state and say what the rules make of it; they never change it. ``play``
does what they say, in the order the rules give (after a tile, after an action, at the end
of a turn), so that order too is written once:

* legality: ``leader_blocked`` (cells a leader may not go to), ``catastrophe_targets``;
* a war: ``war_losses`` (the tiles it removes), ``war_orphans`` (the leaders it leaves
  without a temple, who return);
* after a tile (a union tile: once its wars are over): ``building_offer``, then
  ``monument_offer``;
* after an action: ``treasure_pick`` (the treasure rule, until it is due nowhere);
* at the end of a turn: ``wonder_point``, ``monument_points``, the refills (the same in every
  ruleset), ``harvest``, then ``game_end``.

The wonder and the civilization buildings are options, not rulesets: the base hooks consult
them (``state.options.wonder``, ``state.options.buildings``) and their geometry lives in the
``wonder`` and ``buildings`` modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .board import BLOCKS, BLOCKS_AT, FULL, GREEN, MONUMENTS, RED, dilate
from .buildings import building_targets
from .decisions import BuildingOffer, Harvest, MonumentOffer, TreasurePick, WonderPoint
from .kingdoms import region_at
from .types import Cell, Colour, Mask
from .wonder import king_at_wonder, wonder_centres

if TYPE_CHECKING:
    from .state import State


def building_cells(state: State) -> Mask:
    """The cells of the civilization buildings on the board (buildings variant)."""
    out = 0
    if state.options.buildings:
        for cell in state.buildings:
            if cell >= 0:
                out |= 1 << cell
    return out


def orphaned(state: State) -> Mask:
    """The cells of the leaders with no adjacent face-up temple (they return to their
    owners)."""
    return state.lmask & ~dilate(state.tiles[RED] & ~state.facedown)


class Ruleset:
    """The classic game (RULES.md §1–§10), with the wonder and buildings options (§11)."""

    name: ClassVar[str] = "classic"
    #: Whether the game has monuments (and, with the option, the wonder): offered after a
    #: tile (``monument_offer``), listed by views, named by the error of a monument action.
    monuments: ClassVar[bool] = True
    #: Whether ``leader_blocked`` needs the cells touching two or more regions.
    needs_regions: ClassVar[bool] = False
    #: Words for the rule a leader placement breaks when ``leader_blocked``.
    blocked_code: ClassVar[str] = "unites-kingdoms"
    blocked_words: ClassVar[str] = "a leader may not unite two kingdoms"
    #: The named boards a game of this ruleset may be played on (or a custom grid).
    boards: ClassVar[tuple[str, ...]] = ("standard", "advanced")
    #: Whether the wonder and the civilization buildings options apply (RULES §11: both
    #: stand on the monuments).
    wonder: ClassVar[bool] = True
    buildings: ClassVar[bool] = True
    #: Whether a war removes every tile of its colour from the loser's kingdom, treasures
    #: and temples beside other leaders included (``war_losses``).
    total_war: ClassVar[bool] = False
    #: Whether treasures are harvested from the turn player's merchant's kingdom at the end
    #: of a turn instead of the treasure rule (``harvest``).
    harvest_treasures: ClassVar[bool] = False
    #: The look and words of its games (a catalogue theme of ``catalogues``).
    theme: ClassVar[str] = "classic"
    #: The family of ratings its rated games count in (one leaderboard per family).
    family: ClassVar[str] = "classic"

    def __repr__(self) -> str:
        return f"RULESETS[{self.name!r}]"

    def facts(self) -> dict[str, object]:
        """What a program outside the engine needs to know of the ruleset, as data: the
        server sends these to the page, whose choices and words follow them."""
        return {
            "name": self.name,
            "boards": list(self.boards),
            "monuments": self.monuments,
            "wonder": self.wonder,
            "buildings": self.buildings,
            "total_war": self.total_war,
            "harvest_treasures": self.harvest_treasures,
            "theme": self.theme,
            "family": self.family,
        }

    # --- legality ---------------------------------------------------------------------------

    def leader_blocked(self, occupied: Mask, kingdom_twos: Mask, region_twos: Mask) -> Mask:
        """Cells a leader may not go to (the leader being moved already lifted from
        ``occupied``): here, cells touching two or more kingdoms (``kingdom_twos``).
        ``region_twos``, the cells touching two or more regions of any kind, is given only
        to rulesets that ask for it (``needs_regions``). Callers may pass masks restricted
        to the cells they ask about."""
        return kingdom_twos

    def catastrophe_targets(self, state: State) -> Mask:
        """Empty cells and tiles, but not a leader, a treasure, a face-down (monument or
        wonder) tile, another catastrophe or a building's tile (§5.3)."""
        out = FULL & ~(state.lmask | state.treasures | state.facedown | state.catastrophes)
        return out & ~building_cells(state) if state.options.buildings else out

    # --- a war ------------------------------------------------------------------------------

    def war_losses(self, state: State, colour: Colour, kingdom: Mask, loser: Cell) -> Mask:
        """The face-up tiles of ``colour`` a war removes from the loser's ``kingdom``: all but
        those carrying a treasure, in a red war the temples beside another leader than the
        losing one (at ``loser``), and a building's tile (§6.2)."""
        removed = state.tiles[colour] & ~state.facedown & kingdom & ~state.treasures
        if colour == RED:
            removed &= ~dilate(state.lmask & ~(1 << loser))
        return removed & ~building_cells(state) if state.options.buildings else removed

    def war_orphans(self, state: State) -> Mask:
        """The cells of the leaders a war (its tiles removed) sends back for want of a
        temple: none here, since a red war spares every temple beside another leader."""
        return 0

    # --- after a tile -----------------------------------------------------------------------

    def building_offer(self, state: State, cell: Cell, colour: Colour) -> BuildingOffer | None:
        """The first step after a tile of ``colour`` on ``cell``: with the buildings option,
        the offer to put building ``colour`` on a longer run (§11), if there is one."""
        if not state.options.buildings:
            return None
        targets = building_targets(state, cell, colour)
        return BuildingOffer(state.turn, colour, cell, targets) if targets else None

    def monument_offer(self, state: State, cell: Cell, colour: Colour) -> MonumentOffer | None:
        """The next step: a monument on a 2×2 block of ``colour`` the tile completed (§8),
        or with the wonder option the wonder on a plus it is part of (§11), in one offer."""
        if not self.monuments:
            return None
        blocks: tuple[Cell, ...] = ()
        for m in range(6):
            if state.monuments[m] < 0 and colour in MONUMENTS[m]:
                up = state.tiles[colour] & ~state.facedown
                blocks = tuple(t for t in BLOCKS_AT[cell] if up & BLOCKS[t] == BLOCKS[t])
                break
        centres = wonder_centres(state, cell, colour) if state.options.wonder else ()
        if blocks or centres:
            return MonumentOffer(state.turn, colour, blocks, centres)
        return None

    # --- after an action --------------------------------------------------------------------

    def treasure_pick(self, state: State) -> TreasurePick | None:
        """The treasure rule (§7), one treasure at a time: the first trader, from the turn
        player's clockwise, whose kingdom holds two or more treasures, with the treasures its
        owner may take (the special ones while there are any); a single one is taken without
        asking. None once no kingdom qualifies."""
        n = state.options.players
        specials = state.options.board.specials
        for i in range(n):
            seat = (state.turn + i) % n
            trader = state.leaders[seat * 4 + GREEN]
            if trader < 0:
                continue
            held = region_at(state, 1 << trader) & state.treasures
            if held.bit_count() >= 2:
                return TreasurePick(seat, held & specials or held)
        return None

    # --- the end of a turn ------------------------------------------------------------------

    def wonder_point(self, state: State) -> WonderPoint | None:
        """First at the end of a turn: with the wonder built, the turn player whose king is in
        its kingdom chooses the colour of a point (§11)."""
        if state.wonder >= 0 and king_at_wonder(state):
            return WonderPoint(state.turn)
        return None

    def monument_points(self, state: State) -> list[Colour]:
        """Then the colours of the turn player's monument points, one point each, in order:
        for each built monument, each of its colours whose leader the turn player has in the
        monument's kingdom (§8)."""
        out: list[Colour] = []
        seat = state.turn
        for m, top_left in enumerate(state.monuments):
            if top_left < 0:
                continue
            kingdom = region_at(state, BLOCKS[top_left])
            for colour in MONUMENTS[m]:
                cell = state.leaders[seat * 4 + colour]
                if cell >= 0 and kingdom >> cell & 1:
                    out.append(colour)
        return out

    def harvest(self, state: State) -> Harvest | None:
        """After the refills: a treasure the turn player takes (none in the classic game)."""
        return None

    def game_end(self, state: State) -> str:
        """Last: the reason the game ends at the end of this turn, or "" if it goes on: two or
        fewer treasures left (§9). (A draw the bag cannot meet ends the game at once, in
        every ruleset.)"""
        return "treasures" if state.treasures.bit_count() <= 2 else ""


#: The ruleset of a game whose options name none.
DEFAULT_RULESET = "classic"
#: Every ruleset by name (filled by the modules that define them).
RULESETS: dict[str, Ruleset] = {DEFAULT_RULESET: Ruleset()}
