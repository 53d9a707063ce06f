"""A game changed (``server/events.py``): the hub's one write path emits it once for each
entry it stores, after the entry is applied; a refused step emits nothing and stores
nothing; a game loaded here is announced as looked at, nothing stored."""

from __future__ import annotations

import asyncio

import pytest

from tigris_euphrates import player_view
from tigris_euphrates.server.errors import GameError
from tigris_euphrates.server.events import GameChanged
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.store import Store

PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_each_stored_entry_is_one_event_after_it_is_applied(db: tuple[str, str]) -> None:
    async def run() -> None:
        hub = Hub(Store(*db), bot_seconds=None, bot_iterations=20, bot_processes=0)
        seen: list[tuple[bool, int, int]] = []

        def record(event: GameChanged) -> None:
            seen.append((event.stored, event.game.seq, len(event.game.log.seat_log)))

        hub.events.subscribe(record)
        await hub.start()
        try:
            game, tokens, _ = await hub.create({"players": 2}, PEOPLE)
            assert seen == [(False, 0, 0)]  # created here: looked at, nothing stored
            action = player_view(game.state, 0)["legal_actions"][0]
            with pytest.raises(GameError):
                await hub.submit(game, 0, game.seq + 1, action)  # a stale step
            with pytest.raises(GameError):
                await hub.submit(game, 1, game.seq, action)  # not Bob's turn
            assert seen == [(False, 0, 0)] and game.seq == 0
            await hub.submit(game, 0, 0, action)
            assert seen[1:] == [(True, 1, 0)]
            await hub.undo(game, 0, 1)
            assert seen[2:] == [(True, 2, 0)] and game.entries == []
            await hub.hand_to_bot(game, tokens[1], 1, "random")  # Bob leaves his seat
            await hub.take_back(game, tokens[1], 1)
            assert seen[3:] == [(True, 3, 1), (True, 4, 2)]
            assert len(await hub.db(hub.store.games.rows_after, game.id, 0)) == 4
        finally:
            await hub.stop()

    asyncio.run(run())
