"""The games this process holds, as the lobby sees them: which accounts sit at them, whose
turn it is in each, and when a game's accounts should see their lobby corner again.

A player waiting in the lobby sees *your turn* on a game in progress and sees it leave the
list once it is over: after every change of a game (``events.GameChanged``) this tells the lobbies
of its accounts (on every process, through ``LobbyFeed.announce``) when the turn passed from
one seat to another or the game ended, and nothing otherwise (a move within a turn changes
nothing the lobby shows).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .events import GameChanged
from .live import LiveGame

#: Whose turn it was in a game and whether it was over, as its lobbies last heard.
Mark = tuple[int | None, bool]


class LobbyGames:
    """The lobby's view of the games held here (``games``: the hub's, by id)."""

    def __init__(self, games: Mapping[str, LiveGame], announce: Callable[[int, str], None]):
        self.games = games
        self.announce = announce
        self._marks: dict[str, Mark] = {}

    def accounts_at_games(self) -> set[int]:
        """The accounts connected to a game of this process."""
        return {
            c.account
            for game in self.games.values()
            for c in game.conns.values()
            if c.account is not None
        }

    def actor_of(self, game_id: str) -> int | None:
        """The seat to act in the game, if this process holds it and it is not over."""
        game = self.games.get(game_id)
        if game is None or game.over:
            return None
        return game.log.actor()

    def game_changed(self, event: GameChanged) -> None:
        """After a change of a game (``events.py``): tell its accounts' lobbies if the turn
        passed between seats (the seat that had it and the one that has it now) or the game
        ended (all)."""
        game = event.game
        mark = (game.log.actor(), game.log.ended)
        before = self._marks.get(game.id)
        self._marks[game.id] = mark
        if before is None or before == mark:
            return  # just loaded here, or nothing the lobby shows changed
        for seat, person in game.table.people.items():
            account = person.get("id")
            if isinstance(account, int) and (mark[1] or seat in (before[0], mark[0])):
                self.announce(account, "games")

    def forget(self, game_id: str) -> None:
        """The game left this process's memory."""
        self._marks.pop(game_id, None)
