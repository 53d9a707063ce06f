"""Rematch: a finished game's table plays again, in one click.

The new game has the same options, the same seats in the same order (bots stay bots at
their level; a seat a bot held for its player is a person's seat again), the same names,
lobby listing and chat setting, and a new secret seed. Each person's seat keeps the token
of the old game, and the creator keeps theirs: the links and the browsers that opened the
old game open the new one, so nobody needs a new link. The old game records the rematch's
id (its ``rematch`` setting): every connection of the old game is told at once (its view
carries ``rematch``) and whoever opens the old game later finds it there too.

There is one rematch per game, whatever the processes: the new game is stored in the same
transaction that records its id in the old game's row, which it locks first
(``store.games.create(rematch_of=…)``). A process that asks at the same moment as another
finds the other's rematch there, creates nothing and answers with it; asking again returns
it too.
"""

from __future__ import annotations

from typing import Any

from ..store import RematchTaken
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
        if not isinstance(existing, str):  # another process may have made it
            existing = (await hub.db(hub.store.games.settings, game.id)).get("rematch")
        if isinstance(existing, str):
            _learn(hub, game, existing)
            return existing
        try:
            new, _, _ = await hub.create(
                dict(game.options),
                _seats(game),
                client=client,
                listed=game.listed,
                settings={k: v for k, v in game.settings.items() if k != "rematch"},
                same_people=game,
            )
        except RematchTaken as taken:  # another process made it at the same moment
            _learn(hub, game, taken.rematch)
            return taken.rematch
        _learn(hub, game, new.id)
    if hub.cluster is not None:
        hub.cluster.publish(RematchMade(hub.cluster.proc, game.id, new.id))
    return new.id


def _seats(game: LiveGame) -> list[dict[str, Any]]:
    """The rematch's seats: people stay people (a seat a bot held for its player too), bots
    stay bots at their level."""
    seats: list[dict[str, Any]] = []
    for seat in game.seats:
        if seat.get("token"):
            seats.append({"kind": "human", "name": seat.get("name") or ""})
        else:
            seats.append({"kind": "bot", "level": seat.get("level"), "name": seat.get("name")})
    return seats


def _learn(hub: Hub, game: LiveGame, rematch_id: str) -> None:
    """Tell the old game's connections that its rematch is ``rematch_id`` (stored already),
    through the copy of the game this process holds now (it may have left memory and been
    loaded again meanwhile)."""
    held = hub.games.get(game.id)
    for copy in (game,) if held is None or held is game else (game, held):
        if copy.settings.get("rematch") != rematch_id:
            copy.settings["rematch"] = rematch_id
            copy.broadcast()
