"""New games: their seats and secret tokens, their seed, and the limits of the client that
creates them (games a minute, unfinished games, unfinished games with bots)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from typing_extensions import TypedDict

from ..store import GameRow, Store
from ..store.rows import StoredSeat, TableSettings, checked_options
from .aiseats import bot_levels, default_level
from .clocks import Pace
from .dbthread import DatabaseThread
from .errors import GameError
from .limits import ClientRates, Limits
from .live import LiveGame, hash_token
from .seats import too_many_bot_games

#: A seat a new game is asked for: a person (``human``, the default; in a rematch ``from``
#: names the old game's seat whose token it keeps) or a ``bot`` of ``level`` (the default
#: level when none), and its name (none: the default the page shows).
SeatWanted = TypedDict(
    "SeatWanted",
    {"kind": str, "level": str | None, "name": str | None, "from": int},
    total=False,
)

#: The server's seeds: 128 bits from ``secrets``, beyond any search for the seed that a
#: player's own draws single out.
SEED_BITS = 128


class Creator(Protocol):
    """What a new game needs of the hub: the store, the limits and the time."""

    store: Store
    db: DatabaseThread
    limits: Limits
    clock: Callable[[], float]


class NewGames:
    """Creates games within each client's limits (``client_seeds``: accept a client's seed
    for every game, even with several people: tests and local study only)."""

    def __init__(self, hub: Creator, client_seeds: bool) -> None:
        self.hub = hub
        self.client_seeds = client_seeds
        self.game_rates = ClientRates(
            hub.limits.games_per_minute, max(1, int(hub.limits.games_per_minute))
        )

    async def create(
        self,
        posted: Mapping[str, object],
        seats: Sequence[SeatWanted],
        seed: int | None = None,
        client: str = "",
        *,
        listed: bool = False,
        settings: TableSettings | None = None,
        same_people: LiveGame | None = None,
        rated: bool = False,
        pace: Pace | None = None,
        bound: dict[int, int] | None = None,
    ) -> tuple[LiveGame, list[str | None], str | None]:
        """A new game created by ``client`` (a hash of its address; ``""`` for the server's
        own callers, which no per-client limit counts); returns it, each human seat's secret
        token (bots: None) and the creator's secret token (it may hand an absent player's
        seat to a bot). ``listed``: the public lobby shows it; ``settings``: the table's
        settings (who may chat). ``same_people`` (a rematch): each human seat keeps that
        game's token and the creator keeps theirs, so the links people hold open the new
        game too (no new token is returned for them), and the new game is stored only if
        that game has no rematch yet (``store.RematchTaken``). A ``rated`` game is played between
        accounts only: no bot seat, and the server's secret seed; ``pace`` its clocks;
        ``bound``: seat -> account of the seats bound to accounts from the start."""
        self._check_seed(seats, seed, rated)
        seed_source = "server" if seed is None else "client"
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        options = checked_options(posted)  # raises InvalidAction
        if len(seats) != options.get("players", 2):
            raise GameError("bad-seats", "give exactly one seat per player")
        stored, tokens = _seat_rows(seats, same_people)
        levels = bot_levels()
        if pace is not None and pace.level not in levels:
            raise GameError("bad-level", f"unknown bot level {pace.level!r}: {', '.join(levels)}")
        if client:
            await self._check_client(client, any(seat["kind"] == "bot" for seat in stored))
        creator: str | None = secrets.token_urlsafe(18)
        creator_hash = hash_token(creator) if creator else None
        if same_people is not None:
            creator, creator_hash = None, same_people.table.creator
        row = GameRow(
            secrets.token_hex(6),
            options,
            seed,
            stored,
            "active",
            self.hub.clock(),
            creator=creator_hash,
            seed_source=seed_source,
            client=client,
            listed=listed,
            settings=settings.copy() if settings else {},
            rated=rated,
        )
        await self._store(row, pace, same_people.id if same_people is not None else None, bound)
        return LiveGame(row, pace, {}, self.hub.clock), tokens, creator

    def _check_seed(self, seats: Sequence[SeatWanted], seed: int | None, rated: bool) -> None:
        """Refuse a rated game with a bot seat, and a seed chosen by the client for a game
        with several people (unless the server accepts them: ``client_seeds``)."""
        people = sum(1 for seat in seats if seat.get("kind", "human") == "human")
        if rated and (people != len(seats) or people < 2):
            raise GameError(
                "rated-seats", "a rated game is played between accounts only: no bot seats"
            )
        if rated and seed is not None:
            raise GameError("seed-not-allowed", "a rated game gets a secret seed from the server")
        if seed is not None and people > 1 and not self.client_seeds:
            raise GameError(
                "seed-not-allowed",
                "a game with more than one person gets a secret seed from the server: whoever "
                "chooses the seed knows every hand and the bag",
            )

    async def _store(
        self,
        row: GameRow,
        pace: Pace | None,
        rematch_of: str | None,
        bound: dict[int, int] | None = None,
    ) -> None:
        """Store the new game (``rematch_of``: as that game's rematch, claimed in the same
        transaction: ``RematchTaken`` when another process made it first)."""
        hub = self.hub
        if pace is not None:  # before the game: no process ever loads it without its pace
            await hub.db(hub.store.clocks.save_pace, row.id, pace.to_dict())
        await hub.db(
            hub.store.games.create,
            row.id,
            row.options,
            row.seed,
            row.seats,
            row.creator,
            row.seed_source,
            row.client or None,
            row.listed,
            row.settings,
            row.rated,
            row.created,
            rematch_of,
            bound,
        )

    async def _check_client(self, client: str, bots: bool) -> None:
        """Refuse a new game beyond the client's limits: games a minute, unfinished games
        (changed in the last hour) and unfinished games with bots."""
        limits = self.hub.limits
        if not self.game_rates.take(client):
            raise GameError(
                "rate-limited",
                f"at most {limits.games_per_minute:g} new games a minute from one address",
                retry_after=60 / max(limits.games_per_minute, 1e-9),
                limit="games_per_minute",
            )
        since = time.time() - 3600
        games, bot_games = await self.hub.db(self.hub.store.games.recent_of, client, since)
        if games >= limits.games_per_client:
            raise GameError(
                "too-many-games",
                f"at most {limits.games_per_client} unfinished games from one address: "
                "finish or leave some first",
                limit="games_per_client",
            )
        if bots and bot_games >= limits.bot_games_per_client:
            raise too_many_bot_games(limits)


def _seat_rows(
    seats: Sequence[SeatWanted], same_people: LiveGame | None
) -> tuple[list[StoredSeat], list[str | None]]:
    """The seats as stored (each person's token hashed) and each person's secret token
    (bots, and the people of a rematch who keep their token: ``None``)."""
    tokens: list[str | None] = []
    stored: list[StoredSeat] = []
    levels = bot_levels()
    for i, seat in enumerate(seats):
        kind = seat.get("kind", "human")
        name = str(seat.get("name") or "")[:40]
        if kind == "bot":
            level = seat.get("level") or default_level()
            if level not in levels:
                raise GameError("bad-level", f"unknown bot level {level!r}: {', '.join(levels)}")
            stored.append({"kind": "bot", "level": level, "name": name})
            tokens.append(None)
        elif kind == "human" and same_people is not None:
            kept = same_people.seats[int(seat.get("from", i))]["token"]
            stored.append({"kind": "human", "name": name or f"Player {i + 1}", "token": kept})
            tokens.append(None)
        elif kind == "human":
            token = secrets.token_urlsafe(18)
            stored.append(
                {"kind": "human", "name": name or f"Player {i + 1}", "token": hash_token(token)}
            )
            tokens.append(token)
        else:
            raise GameError("bad-seats", f"a seat is 'human' or 'bot', not {kind!r}")
    return stored, tokens
