"""A game changed: the one event of a live game that the server's other parts follow.

The hub's write path emits it once for every entry it stores in a game's log (``stored``),
after the entry is applied and the views are due, still under the game's lock; the hub
emits it too when a game is loaded, taken over from a dead process, or read on past steps
other processes stored (``stored`` false: nothing was written here). Whoever cares
subscribes: the clocks (and the turn e-mails they send), the bots' scheduling, the lobby's
view of the games in progress, the metrics. Each subscriber looks at the game as it is now
and does what is due, so an event more than needed changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .live import LiveGame


@dataclass(frozen=True, slots=True)
class GameChanged:
    """``game`` changed, or is to be looked at again; ``stored``: this process stored an
    entry of its log for it."""

    game: LiveGame
    stored: bool = False


#: What follows the event: called at once, in the order of subscription; it must not block.
Subscriber = Callable[[GameChanged], None]


class GameEvents:
    """The subscribers to "a game changed", called in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def emit(self, event: GameChanged) -> None:
        for subscriber in self._subscribers:
            subscriber(event)
