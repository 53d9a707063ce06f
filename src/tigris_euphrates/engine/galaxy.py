"""The galaxy ruleset (RULES.md §11, after the Thousand Parsec "TaE" ruleset): the classic
game in space, with a few rules of its own — and the worked example of a ruleset that
overrides the hooks of ``rules.Ruleset`` where it differs.

* No monuments (nor the wonder or buildings, which do not combine with it).
* A weapon ship (catastrophe) may destroy any system not already destroyed: one with a
  leader (the leader returns to its owner) or an artifact (the artifact is lost) too.
* A leader may not link two regions: it may not touch two or more separate groups of
  settled systems, with or without leaders.
* A war vacates every system of the war's colour in the loser's region (no exceptions:
  an artifact there is lost), and leaders left without a temple return.
* Artifacts are not taken after each action: at the end of the turn, after the refills, the
  turn player harvests one from its merchant leader's region if it holds two or more.

The play (``play``) does the rest: a weapon ship that hits a leader or an artifact removes
it, and an artifact on a removed tile is lost, whatever the ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .board import FULL
from .rules import RULESETS, Ruleset
from .types import Cell, Colour, Mask

if TYPE_CHECKING:
    from .state import State


class Galaxy(Ruleset):
    """The galaxy ruleset."""

    name: ClassVar[str] = "galaxy"
    monuments: ClassVar[bool] = False
    treasure_rule: ClassVar[bool] = False
    harvest: ClassVar[bool] = True
    orphans_after_war: ClassVar[bool] = True
    needs_regions: ClassVar[bool] = True
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


RULESETS["galaxy"] = Galaxy()
