"""Moderation on the database alone (``tne admin``): a ban's hand-overs, a hidden chat line
and an aborted game, made without a running server in this process.

The changes are those the server makes (``server/moderation.py``): the same log entries
(``seat N bot LEVEL``, ``abort``; ``abort N bot`` for a banned seat in a rated game's
opening) written as the game's next step, the same flags. On
PostgreSQL they are announced on the store's channel as a server process announces its own
(``step``, ``hide``, ``expel``), so the running servers apply them at once. On SQLite a
running server hears nobody: ``ServerLock`` tells, and the command line refuses these three
while a server holds the database (do them through the web API then, or stop it first).
"""

from __future__ import annotations

import secrets
import time

from ..store import StepTaken, Store
from ..store.logentry import Abort, HandOver, LogEntry, encode
from .aiseats import default_level
from .live import LiveGame
from .notices import ChatHidden, Expel, Notice, Step
from .notices import encode as encode_notice

#: How often a step is tried when a server keeps writing the game's next step.
TRIES = 5


class Refused(Exception):
    """What the command line cannot do, and why (for people)."""


class Offline:
    """The moderation of one database from the command line."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: this command among the server processes (the ``proc`` of its announcements)
        self.proc = f"cli-{secrets.token_hex(4)}"

    def _notice(self, notice: Notice) -> str:
        return "" if self.store.is_sqlite else encode_notice(notice)

    def _step(self, game: LiveGame, entry: LogEntry, bots: int | None = None) -> None:
        """Write ``entry`` as the game's next log entry (by the server: no seat), announced;
        raises ``StepTaken`` when another writer stored that step first."""
        seq, text = game.seq + 1, encode(entry)
        notice = self._notice(Step(self.proc, game.id, seq, None, text))
        self.store.games.append(game.id, seq, None, text, time.time(), bots, notice)

    def _game(self, game_id: str) -> LiveGame:
        return LiveGame(self.store.games.load(game_id))

    def ban(self, account_id: int) -> list[tuple[str, int]]:
        """Ban the account (its sessions end) and give each of its seats in unfinished
        games to a bot; returns the ``(game, seat)`` pairs handed over."""
        self.store.moderation.set_banned(account_id, True)
        handed: list[tuple[str, int]] = []
        expelled: list[str] = []
        for game_id, seat in self.store.moderation.active_seats(account_id):
            if self._hand_over(game_id, seat):
                handed.append((game_id, seat))
            expelled.append(self._notice(Expel(self.proc, game_id, seat)))
        self.store.moderation.announce([n for n in expelled if n])
        return handed

    def _hand_over(self, game_id: str, seat: int) -> bool:
        for _ in range(TRIES):
            game = self._game(game_id)
            if game.ended or not 0 <= seat < len(game.seats):
                return False
            if game.seats[seat]["kind"] == "bot":
                return False
            bots = game.table.bot_seats(seat, "bot")
            opening = game.log.in_opening()  # a rated game's opening: aborted (endings.py)
            entry = Abort(seat, "bot") if opening else HandOver(seat, default_level())
            try:
                self._step(game, entry, None if opening else bots)
                if opening:
                    self.store.games.mark_aborted(game_id)
                return True
            except StepTaken:
                continue  # a server stored that step: read the log again
        raise Refused(f"game {game_id} keeps changing: try again")

    def hide(self, game_id: str, n: int, hidden: bool) -> None:
        """Hide chat line ``n`` of the game (``hidden`` false: show it again)."""
        if not self.store.chat.hide(game_id, n, hidden):
            raise Refused(f"game {game_id} has no chat line {n}")
        self.store.moderation.announce([self._notice(ChatHidden(self.proc, game_id, n))])

    def abort(self, game_id: str) -> None:
        """Stop the game: ``abort`` ends its log, it is unrated and nobody moves again."""
        for _ in range(TRIES):
            game = self._game(game_id)
            if game.aborted:
                raise Refused(f"game {game_id} was aborted already")
            if game.over:
                raise Refused(f"game {game_id} is over")
            try:
                self._step(game, Abort())
            except StepTaken:
                continue
            self.store.games.mark_aborted(game_id)
            return
        raise Refused(f"game {game_id} keeps changing: try again")
