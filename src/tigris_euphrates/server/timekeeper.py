"""The clocks' keeper: enforces the running clocks of the games this process owns and tells
players by e-mail that it is their move in a turn-based game.

Exactly one process enforces a game's clock: the one that runs its bots (``Hub.owns``: on
PostgreSQL the holder of the game's advisory lock, ``cluster.py``). It stores the running
deadline (``store/clocks.py``) and keeps one task a game that sleeps until it; when the time
is up it has a bot take the seat (``expire``: ``Hub.time_out``). A step stored in between moves the
deadline and the task is replaced. After a restart, or when another process takes the lock
of a dead one, the clock is rebuilt from the steps' times and a deadline passed meanwhile is
enforced at once. It is armed after every change of a game (it follows "a game changed":
``events.py``).

E-mails go to account holders who opted in (``store.notifications``) and confirmed their
address (``confirm.py``), when a person's move starts in a turn-based game and that player
has no page open on the game; each move is announced once, whichever process asks
(``claim_notice``). The unsubscribe link carries a
token signed with the server's key: it works without signing in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from ..store import Store
from .dbthread import DatabaseThread
from .events import GameChanged
from .live import LiveGame
from .mail import Mailer

log = logging.getLogger("tigris_euphrates.server")

#: A clock's task wakes at least this often to look again (the time may be injected).
WATCH_SECONDS = 30.0
UNSUBSCRIBE_SALT = "tne-unsubscribe"


def unsubscribe_token(key: str, account_id: int) -> str:
    """The signed token of an unsubscribe link (it never expires: old e-mails keep working)."""
    return str(URLSafeSerializer(key, salt=UNSUBSCRIBE_SALT).dumps({"a": account_id}))


def unsubscribe_account(key: str, token: str) -> int | None:
    """The account an unsubscribe token names (``None``: not a token this server signed)."""
    try:
        data = URLSafeSerializer(key, salt=UNSUBSCRIBE_SALT).loads(token)
    except BadSignature:
        return None
    account = data.get("a") if isinstance(data, dict) else None
    return account if isinstance(account, int) and not isinstance(account, bool) else None


class Timekeeper:
    """The clocks of this process's games. ``owns(game)``: whether this process enforces the
    game's clock; ``expire(game)``: a bot takes the seat whose time ran out, if it did
    (``Hub.time_out``); ``now()``: the time; ``games()``: the games in memory."""

    def __init__(
        self,
        db: DatabaseThread,
        store: Store,
        owns: Callable[[LiveGame], bool],
        expire: Callable[[LiveGame], Awaitable[bool]],
        now: Callable[[], float],
        games: Callable[[], dict[str, LiveGame]],
        mailer: Mailer | None,
    ) -> None:
        self.db = db
        self.store = store
        self.owns = owns
        self.expire = expire
        self.now = now
        self.games = games
        self.mailer = mailer
        self.closing = False
        self.tasks: dict[str, asyncio.Task[None]] = {}
        #: what each game's task watches: (deadline, step)
        self.armed: dict[str, tuple[float | None, int]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._key: str | None = None

    # --- the clocks -----------------------------------------------------------------------

    def arm(self, game: LiveGame) -> None:
        """Watch the game's running clock, if this process enforces it; store its deadline
        and announce a new turn-based move (called after every change of the game)."""
        if game.log.clock is None or self.closing:
            return
        if not self.owns(game):
            self.disarm(game.id)
            return
        clock = game.log.clock
        deadline = None if game.ended else clock.deadline
        key = (deadline, game.seq)
        if self.armed.get(game.id) == key:
            return
        self.armed[game.id] = key
        self._cancel(game.id)
        seat = clock.actor if deadline is not None else None
        self._spawn(self.db(self.store.clocks.save_deadline, game.id, deadline, seat, game.seq))
        if game.ended:
            self.armed.pop(game.id, None)  # nothing more to watch (the game leaves memory)
        if deadline is None or seat is None:
            return
        self.tasks[game.id] = asyncio.get_running_loop().create_task(self._watch(game, deadline))
        if clock.pace.kind == "turn" and self.mailer is not None:
            self._spawn(self._notify(game, seat, game.log.turn_seq))

    def game_changed(self, event: GameChanged) -> None:
        """A game changed (``events.py``): arm its clock."""
        self.arm(event.game)

    def disarm(self, game_id: str) -> None:
        self.armed.pop(game_id, None)
        self._cancel(game_id)

    def disarm_all(self) -> None:
        """Stop watching every clock (the server stops, or the games' locks were lost)."""
        for game_id in list(self.tasks):
            self.disarm(game_id)
        self.armed.clear()
        for task in list(self._background):
            task.cancel()

    def _cancel(self, game_id: str) -> None:
        task = self.tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _watch(self, game: LiveGame, deadline: float) -> None:
        try:
            while True:
                wait = deadline - self.now()
                if wait <= 0:
                    break
                await asyncio.sleep(min(wait, WATCH_SECONDS))
            await self.expire(game)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot enforce the clock of game %s", game.id)
        finally:
            if self.tasks.get(game.id) is asyncio.current_task():
                del self.tasks[game.id]

    async def check(self) -> int:
        """Enforce every clock of this process that ran out by now (``now()``);
        returns how many seats went to a bot. The tasks do it on their own; tests that move
        an injected time call this."""
        done = 0
        for game in list(self.games().values()):
            if game.log.clock is not None and self.owns(game) and await self.expire(game):
                done += 1
        return done

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- e-mails --------------------------------------------------------------------------

    async def key(self) -> str:
        """The key that signs the unsubscribe links (the store's, shared by every process)."""
        if self._key is None:
            accounts = self.store.accounts
            self._key = str(await self.db(accounts.secret, "unsubscribe-key"))
        return self._key

    async def _notify(self, game: LiveGame, seat: int, turn_seq: int) -> None:
        try:
            await self.notify(game, seat, turn_seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cannot send the turn e-mail of game %s", game.id)

    async def notify(self, game: LiveGame, seat: int, turn_seq: int) -> bool:
        """E-mail seat ``seat``'s account that its move started after step ``turn_seq``:
        if it opted in, has no page open on the game, and nobody sent it yet. Returns
        whether an e-mail went out."""
        mailer = self.mailer
        if mailer is None or seat in game.audience.online():
            return False
        bound: dict[int, int] = await self.db(self.store.accounts.seats_of_game, game.id)
        account_id = bound.get(seat)
        if account_id is None:
            return False
        wants = await self.db(self.store.notifications.get, account_id)
        if wants is None or not wants.enabled or not wants.confirmed:
            return False  # not wanted, or the address is not confirmed by its owner
        if not await self.db(self.store.clocks.claim_notice, game.id, turn_seq + 1):
            return False
        base = mailer.settings.public_url
        game_url = f"{base}/game/{game.id}"
        stop_url = f"{base}/unsubscribe?t={unsubscribe_token(await self.key(), account_id)}"
        names = [str(s.get("name") or f"Player {i + 1}") for i, s in enumerate(game.seats)]
        others = ", ".join(n for i, n in enumerate(names) if i != seat)
        assert game.log.clock is not None
        hours = game.log.clock.banks[seat] / 3600
        left = (
            f"{hours:.0f} hours" if hours >= 2 else f"{game.log.clock.banks[seat] / 60:.0f} minutes"
        )
        body = (
            f"Hello {names[seat]},\n\n"
            f"it is your move in your game of Tigris & Euphrates with {others}.\n"
            f"You have {left} for it; after that a bot plays your seat until you take it back.\n\n"
            f"Play: {game_url}\n\n"
            "You get this e-mail because you asked to be told when it is your move.\n"
            f"Stop these e-mails (one click, no sign-in): {stop_url}\n"
        )
        msg = mailer.message(
            wants.email,
            "Your move in Tigris & Euphrates",
            body,
            {
                "List-Unsubscribe": f"<{stop_url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
        await mailer.deliver(msg)
        return True
