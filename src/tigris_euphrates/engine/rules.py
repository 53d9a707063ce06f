"""Rulesets: the classic game, and the hooks a variant ruleset overrides.

A ruleset is one declaration of facts, registered by name (``RULESETS``; the option
``ruleset`` picks one, ``Options.rules`` holds it): ``Ruleset()`` is the classic game, and
``galaxy.GALAXY`` the worked example of a variant that declares what differs. A fact that
changes the rules (``total_war``, ``harvest_treasures``, ...) is the switch the hooks below
read: no ruleset overrides a hook, so its facts (``Ruleset.facts``, what the page is told) and
its play cannot disagree, and ``Ruleset(**facts)`` is the same ruleset. Legality (``legal``)
and play (``play``) ask the ruleset wherever rulesets differ, so each rule is written once.

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

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .board import BLOCKS, BLOCKS_AT, GREEN, MONUMENTS, NEIGHBOURS, RED
from .buildings import building_targets
from .decisions import BuildingOffer, Harvest, MonumentOffer, TreasurePick, WonderPoint
from .kingdoms import region_at
from .types import Cell, Colour, Words
from .wonder import king_at_wonder, wonder_centres
from .words import (
    EMPTY,
    bit,
    count,
    dilate,
    empty,
    has,
    inter,
    invert,
    minus,
    union,
    with_cell,
    within,
    without_cell,
)

if TYPE_CHECKING:
    from .state import State


def building_cells(state: State) -> Words:
    """The cells of the civilization buildings on the board (buildings variant)."""
    out = EMPTY
    if state.options.buildings:
        for cell in state.buildings:
            if cell >= 0:
                out = with_cell(out, cell)
    return out


def orphaned(state: State) -> Words:
    """The cells of the leaders with no adjacent face-up temple (they return to their
    owners)."""
    return minus(state.lmask, dilate(minus(state.tiles_of(RED), state.facedown)))


class Ruleset:
    """A ruleset: the classic game (RULES.md §1–§10, with the wonder and buildings options of
    §11) unless its facts say otherwise. Every argument is a fact (``facts``)."""

    def __init__(
        self,
        name: str = "classic",
        *,
        boards: Sequence[str] = ("standard", "advanced"),
        monuments: bool = True,
        wonder: bool = True,
        buildings: bool = True,
        leaders_link_regions: bool = False,
        catastrophes_anywhere: bool = False,
        total_war: bool = False,
        harvest_treasures: bool = False,
        theme: str = "classic",
        family: str = "classic",
    ) -> None:
        self.name = name
        #: The named boards a game of this ruleset may be played on (or a custom grid).
        self.boards: tuple[str, ...] = tuple(boards)
        #: Whether the game has monuments (and, with the option, the wonder): offered after a
        #: tile (``monument_offer``), listed by views, named by the error of a monument action.
        self.monuments = monuments
        #: Whether the wonder and the civilization buildings options apply (RULES §11: both
        #: stand on the monuments).
        self.wonder = wonder
        self.buildings = buildings
        #: Whether a leader may not touch two or more regions (groups of tiles, with or
        #: without leaders) rather than two kingdoms (``leader_blocked``).
        self.leaders_link_regions = leaders_link_regions
        #: Whether a catastrophe may fall on any cell not already destroyed, a leader's or a
        #: treasure's too (``catastrophe_targets``).
        self.catastrophes_anywhere = catastrophes_anywhere
        #: Whether a war removes every tile of its colour from the loser's kingdom, treasures
        #: and temples beside other leaders included, and leaders left without a temple
        #: return (``war_losses``, ``war_orphans``).
        self.total_war = total_war
        #: Whether treasures are harvested from the turn player's merchant's kingdom at the end
        #: of a turn instead of the treasure rule (``treasure_pick``, ``harvest``).
        self.harvest_treasures = harvest_treasures
        #: The look and words of its games (a catalogue theme of ``catalogues``).
        self.theme = theme
        #: The family of ratings its rated games count in (one leaderboard per family).
        self.family = family

    def __repr__(self) -> str:
        return f"RULESETS[{self.name!r}]"

    def facts(self) -> dict[str, object]:
        """What a program outside the engine needs to know of the ruleset, as data: the
        server sends these to the page, whose choices and words follow them. They are the
        whole ruleset: ``Ruleset(**facts)`` plays the same game."""
        return {
            "name": self.name,
            "boards": list(self.boards),
            "monuments": self.monuments,
            "wonder": self.wonder,
            "buildings": self.buildings,
            "leaders_link_regions": self.leaders_link_regions,
            "catastrophes_anywhere": self.catastrophes_anywhere,
            "total_war": self.total_war,
            "harvest_treasures": self.harvest_treasures,
            "theme": self.theme,
            "family": self.family,
        }

    @property
    def needs_regions(self) -> bool:
        """Whether ``leader_blocked`` needs the cells touching two or more regions."""
        return self.leaders_link_regions

    @property
    def blocked_code(self) -> str:
        """The code of the rule a leader placement breaks when ``leader_blocked``."""
        return "links-regions" if self.leaders_link_regions else "unites-kingdoms"

    @property
    def blocked_words(self) -> str:
        """The words of that rule."""
        if self.leaders_link_regions:
            return (
                "a leader may not link two regions (galaxy: it may touch only one group of"
                " settled systems)"
            )
        return "a leader may not unite two kingdoms"

    # --- legality ---------------------------------------------------------------------------

    def leader_blocked(self, occupied: Words, kingdom_twos: Words, region_twos: Words) -> Words:
        """Cells a leader may not go to (the leader being moved already lifted from
        ``occupied``): here, cells touching two or more kingdoms (``kingdom_twos``).
        ``region_twos``, the cells touching two or more regions of any kind, is given only
        to rulesets that ask for it (``needs_regions``): there, cells touching two or more
        regions, with or without leaders. Callers may pass sets restricted to the cells
        they ask about."""
        return region_twos if self.leaders_link_regions else kingdom_twos

    def catastrophe_targets(self, state: State) -> Words:
        """Empty cells and tiles, but not a leader, a treasure, a face-down (monument or
        wonder) tile, another catastrophe or a building's tile (§5.3); where catastrophes
        fall anywhere, any cell not already destroyed."""
        if self.catastrophes_anywhere:
            return invert(state.catastrophes)
        taken = union(
            union(state.lmask, state.treasures), union(state.facedown, state.catastrophes)
        )
        out = invert(taken)
        return minus(out, building_cells(state)) if state.options.buildings else out

    # --- a war ------------------------------------------------------------------------------

    def war_losses(self, state: State, colour: Colour, kingdom: Words, loser: Cell) -> Words:
        """The face-up tiles of ``colour`` a war removes from the loser's ``kingdom``: all but
        those carrying a treasure, in a red war the temples beside another leader than the
        losing one (at ``loser``), and a building's tile (§6.2); in a total war, every one."""
        up = inter(minus(state.tiles_of(colour), state.facedown), kingdom)
        if self.total_war:
            return up
        removed = minus(up, state.treasures)
        if colour == RED:
            removed = minus(removed, dilate(without_cell(state.lmask, loser)))
        return minus(removed, building_cells(state)) if state.options.buildings else removed

    def war_orphans(self, state: State) -> Words:
        """The cells of the leaders a war (its tiles removed) sends back for want of a
        temple: none in the classic game, since a red war spares every temple beside another
        leader; in a total war, every leader left without an adjacent face-up temple."""
        return orphaned(state) if self.total_war else EMPTY

    # --- after a tile -----------------------------------------------------------------------

    def building_offer(self, state: State, cell: Cell, colour: Colour) -> BuildingOffer | None:
        """The first step after a tile of ``colour`` on ``cell``: with the buildings option,
        the offer to put building ``colour`` on a longer run (§11), if there is one."""
        if not state.options.buildings:
            return None
        targets = building_targets(state, cell, colour)
        if empty(targets):
            return None
        return BuildingOffer(state.turn, colour, cell, targets)

    def monument_offer(self, state: State, cell: Cell, colour: Colour) -> MonumentOffer | None:
        """The next step: a monument on a 2×2 block of ``colour`` the tile completed (§8),
        or with the wonder option the wonder on a plus it is part of (§11), in one offer."""
        if not self.monuments:
            return None
        blocks: tuple[Cell, ...] = ()
        for m in range(6):
            if state.monuments[m] < 0 and colour in MONUMENTS[m]:
                up = minus(state.tiles_of(colour), state.facedown)
                # a completed block holds two of the cell's neighbours
                if count(inter(NEIGHBOURS[cell], up)) >= 2:
                    blocks = tuple([t for t in BLOCKS_AT[cell] if within(BLOCKS[t], up)])
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
        asking. None once no kingdom qualifies, and always where treasures are harvested
        instead."""
        if self.harvest_treasures:
            return None
        n = state.options.players
        specials = state.options.board.specials
        for i in range(n):
            seat = (state.turn + i) % n
            trader = state.leaders[seat * 4 + GREEN]
            if trader < 0:
                continue
            held = inter(region_at(state, bit(trader)), state.treasures)
            if count(held) >= 2:
                special = inter(held, specials)
                return TreasurePick(seat, held if empty(special) else special)
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
                if cell >= 0 and has(kingdom, cell):
                    out.append(colour)
        return out

    def harvest(self, state: State) -> Harvest | None:
        """After the refills, where treasures are harvested: the turn player's merchant
        leader's kingdom holding two or more treasures, one of them, the player's choice
        (none in the classic game)."""
        if not self.harvest_treasures:
            return None
        merchant = state.leaders[state.turn * 4 + GREEN]
        if merchant >= 0:
            held = inter(region_at(state, bit(merchant)), state.treasures)
            if count(held) >= 2:
                return Harvest(state.turn, held)
        return None

    def game_end(self, state: State) -> str:
        """Last: the reason the game ends at the end of this turn, or "" if it goes on: two or
        fewer treasures left (§9). (A draw the bag cannot meet ends the game at once, in
        every ruleset.)"""
        return "treasures" if count(state.treasures) <= 2 else ""


#: The ruleset of a game whose options name none.
DEFAULT_RULESET = "classic"
#: Every ruleset by name (filled by the modules that define them).
RULESETS: dict[str, Ruleset] = {DEFAULT_RULESET: Ruleset()}
