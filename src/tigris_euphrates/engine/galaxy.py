"""The galaxy ruleset (RULES.md §11, after the Thousand Parsec "TaE" ruleset): the classic
game in space, with a few rules of its own — and the worked example of a ruleset that
overrides the hooks of ``rules.Ruleset`` where it differs.

* No monuments (``monuments``; nor the wonder or buildings, which do not combine with it).
* A weapon ship (catastrophe) may destroy any system not already destroyed: one with a
  leader (the leader returns to its owner) or an artifact (the artifact is lost) too
  (``catastrophe_targets``).
* A leader may not link two regions: it may not touch two or more separate groups of
  settled systems, with or without leaders (``leader_blocked``).
* A war vacates every system of the war's colour in the loser's region (no exceptions:
  an artifact there is lost), and leaders left without a temple return (``war_losses``,
  ``war_orphans``).
* Artifacts are not taken after each action (``treasure_pick``): at the end of the turn,
  after the refills, the turn player harvests one from its merchant leader's region if it
  holds two or more (``harvest``).

The play (``play``) does the rest: a weapon ship that hits a leader or an artifact removes
it, and an artifact on a removed tile is lost, whatever the ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .board import FULL, GREEN
from .decisions import Harvest, TreasurePick
from .kingdoms import region_at
from .rules import RULESETS, Ruleset, orphaned
from .types import Cell, Colour, Mask

if TYPE_CHECKING:
    from .state import State


class Galaxy(Ruleset):
    """The galaxy ruleset."""

    name: ClassVar[str] = "galaxy"
    monuments: ClassVar[bool] = False
    needs_regions: ClassVar[bool] = True
    wonder: ClassVar[bool] = False
    buildings: ClassVar[bool] = False
    total_war: ClassVar[bool] = True
    harvest_treasures: ClassVar[bool] = True
    theme: ClassVar[str] = "galaxy"
    family: ClassVar[str] = "galaxy"
    blocked_code: ClassVar[str] = "links-regions"
    blocked_words: ClassVar[str] = (
        "a leader may not link two regions (galaxy: it may touch only one group of settled systems)"
    )

    def leader_blocked(self, occupied: Mask, kingdom_twos: Mask, region_twos: Mask) -> Mask:
        """Cells touching two or more regions, with or without leaders."""
        return region_twos

    def catastrophe_targets(self, state: State) -> Mask:
        """Any system not already destroyed."""
        return FULL & ~state.catastrophes

    def war_losses(self, state: State, colour: Colour, kingdom: Mask, loser: Cell) -> Mask:
        """Every system of the war's colour in the loser's region."""
        return state.tiles[colour] & ~state.facedown & kingdom

    def war_orphans(self, state: State) -> Mask:
        """Every leader left without an adjacent face-up temple."""
        return orphaned(state)

    def treasure_pick(self, state: State) -> TreasurePick | None:
        """Never: artifacts are harvested at the end of a turn instead."""
        return None

    def harvest(self, state: State) -> Harvest | None:
        """The turn player's merchant leader's region holding two or more artifacts: one of
        them, the player's choice."""
        merchant = state.leaders[state.turn * 4 + GREEN]
        if merchant >= 0:
            held = region_at(state, 1 << merchant) & state.treasures
            if held.bit_count() >= 2:
                return Harvest(state.turn, held)
        return None


RULESETS["galaxy"] = Galaxy()
