"""Rematch: a finished game's table plays again, in one click.

The new game has the same options, the same seats in the same order (bots stay bots at
their level; a seat a bot held for its player is a person's seat again), the same names,
lobby listing and chat setting, and a new secret seed. Each person's seat keeps the token
of the old game, and the creator keeps theirs: the links and the browsers that opened the
old game open the new one, so nobody needs a new link. The old game records the rematch's
id (its ``rematch`` setting): every connection of the old game is told at once (its view
carries ``rematch``) and whoever opens the old game later finds it there too. There is one
rematch per game; asking again returns it.
"""

from __future__ import annotations

from typing import Any

from .errors import GameError
from .hub import Hub
from .live import LiveGame
from .notices import RematchMade


async def rematch(hub: Hub, game: LiveGame, token: str, client: str = "") -> str:
    """The id of ``game``'s rematch, created now unless it exists; asked by one of its
    players (a seat token) or its creator. Raises ``GameError``."""

    if game.seat_or_none(token) is None and not game.is_creator(token):
        raise GameError("not-your-seat", "only the game's players or its creator ask for a rematch")
    async with game.lock:
        if not game.over:
            raise GameError("not-over", "a rematch starts when the game is over")
        existing = game.settings.get("rematch")
        if isinstance(existing, str):
            return existing
        seats: list[dict[str, Any]] = []
        for seat in game.seats:
            if seat.get("token"):
                seats.append({"kind": "human", "name": seat.get("name") or ""})
            else:
                seats.append({"kind": "bot", "level": seat.get("level"), "name": seat.get("name")})
        settings = {k: v for k, v in game.settings.items() if k != "rematch"}
        new, _, _ = await hub.create(
            dict(game.options),
            seats,
            client=client,
            listed=game.listed,
            settings=settings,
            same_people=game,
        )
        game.settings["rematch"] = new.id
        await hub.db(hub.store.games.set_settings, game.id, game.settings)
        game.broadcast()
        held = hub.games.get(game.id)
        if held is not None and held is not game:  # left memory and loaded again meanwhile
            held.settings["rematch"] = new.id
            held.broadcast()
    if hub.cluster is not None:
        hub.cluster.publish(RematchMade(hub.cluster.proc, game.id, new.id))
    return new.id
