"""Rulesets: the classic game, and the hooks a variant ruleset overrides.

A ruleset is a small class registered by name (``RULESETS``; the option ``ruleset`` picks
one, ``Options.rules`` holds it). The classic game is ``Ruleset``; ``galaxy.Galaxy`` is the
worked example of a variant that overrides what differs. Legality (``legal``) and play
(``play``) ask the ruleset where their rules differ, so each rule is written once:

* ``leader_blocked``: the cells a leader may not go to because it would link pieces that must
  stay apart (classic: cells touching two kingdoms);
* ``catastrophe_targets``: where a catastrophe may go;
* ``war_losses``: the tiles a war removes from the loser's kingdom;
* the flags ``monuments`` (monuments and the wonder can be offered), ``treasure_rule``
  (traders take treasures after each action), ``harvest`` (the turn player harvests one at
  the end of the turn) and ``orphans_after_war`` (a war may leave leaders without a temple).

The wonder and the civilization buildings are options of the classic ruleset (``wonder``,
``buildings`` modules), plugged into the same flow: after a tile is placed, at the end of a
turn, in a war's losses and a catastrophe's targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .board import FULL, RED, dilate
from .types import Cell, Colour, Mask

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


class Ruleset:
    """The classic game (RULES.md §1–§10)."""

    name: ClassVar[str] = "classic"
    #: Monuments (and, with the option, the wonder) can be offered after a tile.
    monuments: ClassVar[bool] = True
    #: After every action, traders take treasures down to one per kingdom (§7).
    treasure_rule: ClassVar[bool] = True
    #: At the end of a turn the turn player harvests one treasure (galaxy).
    harvest: ClassVar[bool] = False
    #: After each war, leaders left without a face-up temple return (galaxy, §13.11).
    orphans_after_war: ClassVar[bool] = False
    #: Words for the rule a leader placement breaks when ``leader_blocked``.
    blocked_code: ClassVar[str] = "unites-kingdoms"
    blocked_words: ClassVar[str] = "a leader may not unite two kingdoms"

    def __repr__(self) -> str:
        return f"RULESETS[{self.name!r}]"

    def leader_blocked(self, occupied: Mask, kingdom_twos: Mask, region_twos: Mask) -> Mask:
        """Cells a leader may not go to (the leader being moved already lifted from
        ``occupied``): here, cells touching two or more kingdoms (``kingdom_twos``).
        ``region_twos``, the cells touching two or more regions of any kind, is given only
        to rulesets that ask for it (``needs_regions``)."""
        return kingdom_twos

    #: Whether ``leader_blocked`` needs the cells touching two or more regions.
    needs_regions: ClassVar[bool] = False

    def catastrophe_targets(self, state: State) -> Mask:
        """Empty cells and tiles, but not a leader, a treasure, a face-down (monument or
        wonder) tile, another catastrophe or a building's tile (§5.3)."""
        out = FULL & ~(state.lmask | state.treasures | state.facedown | state.catastrophes)
        return out & ~building_cells(state) if state.options.buildings else out

    def war_losses(self, state: State, colour: Colour, kingdom: Mask, loser: Cell) -> Mask:
        """The face-up tiles of ``colour`` a war removes from the loser's ``kingdom``: all but
        those carrying a treasure, in a red war the temples beside another leader than the
        losing one (at ``loser``), and a building's tile (§6.2)."""
        removed = state.tiles[colour] & ~state.facedown & kingdom & ~state.treasures
        if colour == RED:
            removed &= ~dilate(state.lmask & ~(1 << loser))
        return removed & ~building_cells(state) if state.options.buildings else removed


#: Every ruleset by name (filled by the modules that define them).
RULESETS: dict[str, Ruleset] = {"classic": Ruleset()}
