"""The galaxy ruleset (RULES.md §11, after the Thousand Parsec "TaE" ruleset): the classic
game in space, with a few rules of its own — and the worked example of a ruleset: one
declaration of the facts that differ from the classic game, whose hooks (``rules.Ruleset``)
read them.

* No monuments (``monuments``; nor the wonder or buildings, which do not combine with it).
* A weapon ship (catastrophe) may destroy any system not already destroyed: one with a
  leader (the leader returns to its owner) or an artifact (the artifact is lost) too
  (``catastrophes_anywhere``).
* A leader may not link two regions: it may not touch two or more separate groups of
  settled systems, with or without leaders (``leaders_link_regions``).
* A war vacates every system of the war's colour in the loser's region (no exceptions:
  an artifact there is lost), and leaders left without a temple return (``total_war``).
* Artifacts are not taken after each action (``treasure_pick``): at the end of the turn,
  after the refills, the turn player harvests one from its merchant leader's region if it
  holds two or more (``harvest_treasures``).

The play (``play``) does the rest: a weapon ship that hits a leader or an artifact removes
it, and an artifact on a removed tile is lost, whatever the ruleset.
"""

from __future__ import annotations

from .rules import RULESETS, Ruleset

GALAXY = Ruleset(
    "galaxy",
    monuments=False,
    wonder=False,
    buildings=False,
    leaders_link_regions=True,
    catastrophes_anywhere=True,
    total_war=True,
    harvest_treasures=True,
    theme="galaxy",
    family="galaxy",
)
RULESETS[GALAXY.name] = GALAXY
