"""A live game's table: its seats (who plays each: a person or a bot, and the bot objects
playing), the secret tokens that open them, the people sitting at it, its settings and its
chat.

The seats change only through the game's log (``gamelog.GameLog.apply``: a hand-over or a
take-back is an entry like a move), so every process holds the same table.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from dataclasses import dataclass

from typing_extensions import TypedDict

from ..ai import Bot
from ..store import ChatLine, GameRow
from ..store.rows import StoredSeat
from .errors import GameError


def hash_token(token: str) -> str:
    """What the store keeps of a secret token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


class Person(TypedDict):
    """The account holding a seat, as the table shows it (``people.read_people``): its id
    and name, its displayed rating in the game's family, its change once the rated game is
    counted (``None`` before), and whether it is a bot account."""

    id: int
    account: str
    rating: int
    change: int | None
    bot: bool


@dataclass
class SeatBot:
    """The bot playing one seat of a game, kept across its decisions.

    ``heard`` is how many steps of the game's log it has observed (the last of them step
    ``heard_seq``); it hears the rest just before its next decision.
    """

    level: str
    bot: Bot
    heard: int = 0
    heard_seq: int = 0


class Table:
    """The seats of one game and what sits around them."""

    def __init__(self, row: GameRow) -> None:
        self.seats: list[StoredSeat] = [s.copy() for s in row.seats]
        #: SHA-256 of the creator's secret token (``None``: a game without one)
        self.creator = row.creator
        #: who created the game (a hash of its address; ``""``: unknown)
        self.client = row.client
        self.created = row.created
        self.listed = row.listed
        #: the table's settings: who may chat (``chat``), the rematch's id (``rematch``)
        self.settings = row.settings.copy()
        #: the last lines of the table chat (``chat.HISTORY`` at most)
        self.chat: list[ChatLine] = []
        #: the number of the last chat line stored (lines are numbered from 1)
        self.chat_n = 0
        #: each seat's account as the table shows it: name, displayed rating, and its
        #: change once the rated game is counted (``people.py``)
        self.people: dict[int, Person] = {}
        #: held while ``people`` is read again, so that reads end in the order they began
        self.people_lock = asyncio.Lock()
        #: when each human seat's player was last seen (left, or the game was loaded)
        self.away_since: dict[int, float] = {i: time.time() for i in range(len(self.seats))}
        #: the bots playing seats, kept across their decisions (``aiseats.py``)
        self.bots: dict[int, SeatBot] = {}

    # --- hand-overs (applied from the log) ------------------------------------------------

    def to_bot(self, seat: int, level: str) -> None:
        """A bot of ``level`` plays the seat (its player's token still opens it)."""
        now = self.seats[seat].copy()
        now["kind"] = "bot"
        now["level"] = level
        self.seats[seat] = now

    def to_person(self, seat: int) -> None:
        """The seat's player plays it again."""
        now = self.seats[seat].copy()
        now["kind"] = "human"
        now.pop("level", None)
        self.seats[seat] = now

    def bot_seats(self, changed: int | None = None, kind: str | None = None) -> int:
        """How many seats bots play (``changed`` played by ``kind`` instead)."""
        return sum(
            1
            for i, s in enumerate(self.seats)
            if (kind if i == changed and kind is not None else s["kind"]) == "bot"
        )

    # --- tokens ---------------------------------------------------------------------------

    def is_creator(self, token: str | None) -> bool:
        """Whether ``token`` is the secret token of the game's creator."""
        return bool(
            token and self.creator and secrets.compare_digest(self.creator, hash_token(token))
        )

    def seat_for(self, token: str | None) -> int | None:
        """The seat a token opens (``None``: spectator); raises on a wrong token."""
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            kept = seat.get("token")
            if kept and secrets.compare_digest(kept, digest):
                return i
        raise GameError("bad-token", "this link's token does not open any seat of this game")

    def seat_or_none(self, token: str | None) -> int | None:
        """The seat a token opens, ``None`` for no token or a wrong one."""
        try:
            return self.seat_for(token)
        except GameError:
            return None
