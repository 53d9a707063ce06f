"""What a decision in progress asks (the stages) and the two kinds of conflict: small
constants shared by the state, legality, play and positions."""

from __future__ import annotations

ACTION = 0  # the turn player's action
CONFLICT = 1  # a support commitment (attacker, then defender)
WAR_CHOICE = 2  # which war next (the placer of the union tile)
MONUMENT = 3  # build a monument or decline (the placer)
TREASURE = 4  # which treasure to take (the trader's owner)

REVOLT, WAR = 0, 1
