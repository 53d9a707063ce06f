"""``GET /api/meta``: what the page needs to know of this server before it draws anything:
the bot levels, the rulesets and their facts, and the settings the page follows."""

from __future__ import annotations

from fastapi import APIRouter

from ... import DEFAULT_RULESET, RULESETS
from ...ai import TIMEOUT_LEVEL
from ...store.jsontypes import json_object
from ..aiseats import bot_levels, default_level
from ..answers.meta import Meta
from ..deps import LimitsDep, SettingsDep
from ..inputs import MAX_CHAT

router = APIRouter()


@router.get("/api/meta")
async def meta(limits: LimitsDep, settings: SettingsDep) -> Meta:
    """The bot levels, the rulesets and their facts, and the settings the page follows."""
    return {
        "bot_levels": bot_levels(),
        "default_level": default_level(),
        "timeout_level": TIMEOUT_LEVEL,
        "default_ruleset": DEFAULT_RULESET,
        "rulesets": [json_object(ruleset.facts()) for ruleset in RULESETS.values()],
        "seat_absence_seconds": limits.seat_absence_seconds,
        "chat_max": MAX_CHAT,
        "confirm_seconds": settings.confirm_seconds,
    }
