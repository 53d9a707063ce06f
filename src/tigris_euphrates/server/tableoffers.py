"""Open tables offered to bot accounts (``botaccounts.OfferSource``).

A bot account's event socket (``/ws/bot``) is offered every open table it could sit at: one
whose creator invited bot accounts (``bot_accounts``: a choice of its own, off by default;
the choice to start early with AI players does not invite them), is not rated (a rated
table is for people only: bots never move people's ratings), has a free seat, and whose
seated players did not block it (``store.tables`` ``bot_offers``). Each offer is shaped as
a challenge (``Challenge.public``) whose id is ``table:<table id>``, from the table's
creator, with the table's pace and free seats besides. Accepting one takes the table's
first free seat exactly as a person taking it would (``Meeting.sit``: the same row lock, so
of two accepts of the last seat one wins and the other is told ``table-full``); the seat is
bound to the bot account, so its event socket announces the game when the table fills.
"""

from __future__ import annotations

import re

from ..store.accounts import Account
from ..store.bots import PublicChallenge
from ..store.tables import OpenTable
from .accounts import AccountService
from .errors import GameError
from .hub import Hub
from .inputs import GAME_ID_PATTERN

#: The kind of an open table's offer: its id is ``table:<table id>``.
OFFER_KIND = "table"


def offer_of(table: OpenTable, account: Account) -> PublicChallenge:
    """An open table as a bot is offered it (shaped as ``Challenge.public``)."""
    creator = next((s for s in table.seats if s.seat == 0), None)
    return {
        "id": f"{OFFER_KIND}:{table.id}",
        "from": {"name": "" if creator is None else creator.name, "bot": False},
        "to": {"name": account.name, "bot": True},
        "options": {**table.options, "players": table.players},
        "rated": table.rated,
        "state": "open",
        "reason": None,
        "game": None,
        "created": table.created,
        "pace": table.pace,
        "free": len(table.free()),
    }


class TableOffers:
    """The open tables that invite bot accounts, as offers to bot accounts."""

    async def offers(
        self, hub: Hub, service: AccountService, account: Account
    ) -> list[PublicChallenge]:
        if not account.is_bot:
            return []
        now = hub.meeting.clock()
        tables: list[OpenTable] = await hub.db(hub.store.tables.bot_offers, now, account.id)
        return [offer_of(t, account) for t in tables]

    async def accept(
        self, hub: Hub, service: AccountService, account: Account, offer_id: str
    ) -> str | None:
        """Take the table's first free seat; the game's id when this seat filled the
        table, ``""`` while it waits for more players, ``None`` for another kind's id or
        a table that does not exist.
        Raises ``GameError`` as taking the seat in the lobby does (``table-full``,
        ``no-bot-accounts``, ``bot-rated``, ``table-closed``...)."""
        kind, _, table_id = offer_id.partition(":")
        if kind != OFFER_KIND or not re.fullmatch(GAME_ID_PATTERN, table_id):
            return None
        if await hub.db(hub.store.tables.get, table_id) is None:
            return None
        if not account.is_bot:
            raise GameError("not-a-bot", "only a bot account is offered tables")
        ticket = await hub.meeting.sit(table_id, account, "")
        return ticket.game or ""
