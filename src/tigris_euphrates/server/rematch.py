"""Rematch: a finished game's table plays again, in one click.

The new game has the same options, the same seats rotated by one (the old game's second
seat starts; bots stay bots at their level; a seat a bot held for its player is a person's
seat again), the same names, lobby listing, chat setting and pace (clocks), and a new secret
seed. A rated game's rematch is rated too: its accounts are bound to their new seats in the
transaction that stores it. Each person keeps the token of their old seat, and the creator
keeps theirs: the links and the browsers that opened the old game open the new one, so
nobody needs a new link. The old game records the rematch's
id (its ``rematch`` setting): every connection of the old game is told at once (its view
carries ``rematch``) and whoever opens the old game later finds it there too.

There is one rematch per game, whatever the processes: the new game is stored in the same
transaction that records its id in the old game's row, which it locks first
(``store.games.create(rematch_of=…)``). A process that asks at the same moment as another
finds the other's rematch there, creates nothing and answers with it; asking again returns
it too.
"""

from __future__ import annotations

from ..store import RematchTaken
from ..store.games import PlayerBusy
from .errors import GameError
from .hub import Hub
from .live import LiveGame
from .newgames import SeatWanted
from .notices import RematchMade


async def rematch(hub: Hub, game: LiveGame, token: str | None, client: str = "") -> str:
    """The id of ``game``'s rematch, created now unless it exists; asked by one of its
    players (a seat token) or its creator (``None``: by an account holding one of its
    seats, which the caller checked). Raises ``GameError``."""

    if (
        token is not None
        and game.table.seat_or_none(token) is None
        and not game.table.is_creator(token)
    ):
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
        bound = _rotated(await hub.db(hub.store.accounts.seats_of_game, game.id), len(game.seats))
        rated = game.rated and len(bound) == len(game.seats)
        try:
            settings = game.settings.copy()
            settings.pop("rematch", None)
            new, _, _ = await hub.create(
                game.options.copy(),
                _seats(game),
                client=client,
                listed=game.table.listed,
                settings=settings,
                same_people=game,
                rated=rated,
                pace=game.log.pace,
                bound=bound,
            )
        except RematchTaken as taken:  # another process made it at the same moment
            _learn(hub, game, taken.rematch)
            return taken.rematch
        except PlayerBusy as busy:
            raise GameError(
                "in-game",
                f"a player of this game is playing another real-time game (/game/"
                f"{busy.game_id}): ask for the rematch when it is over",
            ) from None
        _learn(hub, game, new.id)
    if hub.cluster is not None:
        hub.cluster.publish(RematchMade(hub.cluster.proc, game.id, new.id))
    return new.id


def _seats(game: LiveGame) -> list[SeatWanted]:
    """The rematch's seats, rotated by one (the old game's second seat starts): people stay
    people (a seat a bot held for its player too) and keep their token (``from``: their
    seat in the old game), bots stay bots at their level."""
    seats: list[SeatWanted] = []
    n = len(game.seats)
    for i in range(n):
        old = (i + 1) % n
        seat = game.seats[old]
        if seat.get("token"):
            seats.append({"kind": "human", "name": seat.get("name") or "", "from": old})
        else:
            seats.append({"kind": "bot", "level": seat.get("level"), "name": seat.get("name")})
    return seats


def _rotated(bound: dict[int, int], n: int) -> dict[int, int]:
    """The old game's seats bound to accounts, at their seats of the rematch."""
    return {i: bound[(i + 1) % n] for i in range(n) if (i + 1) % n in bound}


def _learn(hub: Hub, game: LiveGame, rematch_id: str) -> None:
    """Tell the old game's connections that its rematch is ``rematch_id`` (stored already),
    through the copy of the game this process holds now (it may have left memory and been
    loaded again meanwhile)."""
    held = hub.games.get(game.id)
    for copy in (game,) if held is None or held is game else (game, held):
        if copy.settings.get("rematch") != rematch_id:
            copy.settings["rematch"] = rematch_id
            copy.audience.broadcast()
