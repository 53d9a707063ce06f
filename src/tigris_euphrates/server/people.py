"""Who sits at a table, as its seats show them: each account's name and displayed rating in
the game's family (``store.ratings.displayed``; a bot account's on the bots' board), its
rating change once the rated game is counted, whether it is a bot account (the page marks
it BOT), and a guest's nickname.

The names are read from the store whenever they may have changed: when the game loads, when
a seat is bound to an account, when a guest names their seat, when a rated game ends (its
changes are counted by then: the store's finish hook). Another process that bound or named
a seat says so (``notices.Names``) and every process reads them again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..store import Store, UnknownGame
from ..store.ratings import displayed, family_of, size_of
from .errors import GameError
from .inputs import check_text
from .live import LiveGame
from .table import Person

#: The longest nickname (the seats' names' limit, ``inputs.MAX_NAME``).
NICKNAME_MAX = 24


class Reader(Protocol):
    """What the names need of the hub: its store, its database thread, and telling the
    other processes that a game's names changed."""

    store: Store

    @property
    def db(self) -> Callable[..., Awaitable[Any]]: ...

    def names_changed(self, game: LiveGame) -> None: ...


async def read_people(hub: Reader, game: LiveGame) -> None:
    """Read the accounts holding the game's seats, their ratings and the game's rating
    changes; the views are made again if anything changed.

    A game's reads run one at a time, in the order they were asked for: with several
    database threads two overlapping reads (two seats bound at once) could otherwise end
    in the wrong order, and the older one would put back a table without the newer seat."""
    async with game.table.people_lock:
        await _read_people(hub, game)


async def _read_people(hub: Reader, game: LiveGame) -> None:
    """``read_people``'s reads, made while it holds the game's lock."""
    bound: dict[int, int] = await hub.db(hub.store.accounts.seats_of_game, game.id)
    try:
        stored: list[str] = await hub.db(hub.store.games.seat_names, game.id)
    except UnknownGame:
        return
    renamed = False
    for seat, name in enumerate(stored[: len(game.seats)]):
        if name and game.seats[seat].get("name") != name:
            game.seats[seat] = {**game.seats[seat], "name": name}
            renamed = True
    ids = sorted(set(bound.values()))
    names: dict[int, str] = await hub.db(hub.store.accounts.names, ids)
    bots: set[int] = await hub.db(hub.store.bots.bot_ids, ids)
    family, size = family_of(game.options), size_of(len(game.seats))
    ordinals: dict[int, float] = await hub.db(hub.store.ratings.ordinals, ids, family, size)
    changes: dict[int, tuple[float, float]] = {}
    if game.over and game.log.tally is not None:
        changes = await hub.db(hub.store.ratings.changes_of, game.id)
    people: dict[int, Person] = {}
    for seat, account in bound.items():
        if account not in names or not 0 <= seat < len(game.seats):
            continue
        change = changes.get(account)
        rating = displayed(change[0] if change else ordinals.get(account, 0.0))
        people[seat] = {
            "id": account,
            "account": names[account],
            "rating": displayed(change[1]) if change else rating,
            "change": displayed(change[1]) - rating if change else None,
            "bot": account in bots,
        }
    if people != game.table.people or renamed:
        game.table.people = people
        game.audience.broadcast()


def nickname(text: str) -> str:
    """A guest's nickname under the names' character policy, trimmed; raises
    ``GameError`` (``bad-name``) naming the problem."""
    try:
        name = check_text(text, NICKNAME_MAX).strip()
    except ValueError as exc:
        raise GameError("bad-name", f"a nickname: {exc}") from None
    if not name:
        raise GameError("bad-name", "a nickname has at least one letter")
    return name


async def set_nickname(hub: Reader, game: LiveGame, seat: int | None, text: str) -> None:
    """The guest playing ``seat`` names it; refused to spectators, to a seat an account
    holds (its name is the account's) and once the game has ended."""
    if seat is None:
        raise GameError("spectator", "spectators have no seat to name")
    name = nickname(text)
    game.log.check_ongoing()
    if seat in game.table.people:
        raise GameError("named-by-account", "this seat is held by an account: its name shows")
    try:
        await hub.db(hub.store.games.set_seat_name, game.id, seat, name)
    except UnknownGame:
        raise GameError("no-game", "there is no such game") from None
    game.seats[seat] = {**game.seats[seat], "name": name}
    game.audience.broadcast()
    hub.names_changed(game)
