"""The table chat: short text lines per game, stored in the ``chat`` table and delivered over
the game's websockets as ``{"type": "chat", "lines": [...], "reset": bool}`` frames.

A connection is not sent the lines of the seats whose accounts its own account blocked
(``chat_for``). An account a moderator muted or banned writes nothing (``muted``): neither
signed in nor from a seat bound to it. A moderator may hide a line: every connection then
gets the chat anew without it (``refresh``: a ``reset`` frame).

Who may write is the table's ``chat`` setting, chosen by the game's creator: ``players``
(the seated people; the default), ``everyone`` (spectators too) or ``off``. Everybody who
can open the game reads it. A line is plain text (the page never renders it as HTML) of at
most ``CHAT_MAX`` characters under the inputs' character policy, and each connection may
write ``CHAT_BURST`` lines at once, then one every ``1 / CHAT_PER_SECOND`` seconds.
"""

from __future__ import annotations

from typing import Literal

from ..store import ChatLine, StepTaken, Store
from .cluster import Cluster
from .conn import Conn
from .dbthread import DatabaseThread
from .errors import GameError
from .frames import ChatFrame, ChatLineData
from .limits import CHAT_BURST, CHAT_PER_SECOND
from .live import LiveGame
from .notices import ChatStored

#: Who may write: the seated people, everybody who watches as well, or nobody.
ChatPolicy = Literal["players", "everyone", "off"]
CHAT_POLICIES: tuple[str, ...] = ("players", "everyone", "off")
#: The longest line, in characters.
CHAT_MAX = 300
#: The lines a game keeps in memory and sends to a new connection.
HISTORY = 200
#: How often a line is tried when other processes write the same line number.
TRIES = 5


def chat_frame(lines: list[ChatLine], *, reset: bool = False) -> ChatFrame:
    """The frame carrying ``lines`` (``reset``: they are the whole chat so far)."""
    data: list[ChatLineData] = [
        {"n": line.n, "seat": line.seat, "name": line.name, "text": line.text, "at": line.at}
        for line in lines
    ]
    return {"type": "chat", "reset": reset, "lines": data}


def chat_for(conn: Conn, lines: list[ChatLine], *, reset: bool = False) -> ChatFrame:
    """The frame of ``lines`` for one connection: without the lines of the seats whose
    accounts its account blocked (``Conn.hidden``)."""
    if conn.hidden:
        lines = [line for line in lines if line.seat not in conn.hidden]
    return chat_frame(lines, reset=reset)


def may_write(policy: str, seat: int | None) -> bool:
    """Whether a connection of ``seat`` (``None``: a spectator) may write under ``policy``."""
    if policy == "off":
        return False
    return seat is not None or policy == "everyone"


class TableChat:
    """The chat of this process's live games: a line is stored (numbered, once across
    processes), delivered to the game's connections here, and announced to the others."""

    def __init__(self, db: DatabaseThread, store: Store, cluster: Cluster | None) -> None:
        self.db = db
        self.store = store
        self.cluster = cluster

    async def say(self, game: LiveGame, conn: Conn, text: str) -> None:
        """Store ``text`` (already checked by ``inputs.Chat``) as the game's next chat line
        and send it to every connection of the game; raises ``GameError`` when the
        connection may not write or writes too fast."""
        policy = str(game.settings.get("chat", "players"))
        if not may_write(policy, conn.seat):
            why = "the chat is off at this table" if policy == "off" else "only players write here"
            raise GameError("chat-closed", why)
        if not conn.chat_rate.take():
            raise GameError(
                "chat-too-fast",
                f"at most {CHAT_BURST} chat lines at once, "
                f"then one every {1 / CHAT_PER_SECOND:g} s",
                retry_after=1 / CHAT_PER_SECOND,
            )
        if await self.db(self.store.moderation.silenced, game.id, conn.seat, conn.account):
            raise GameError(
                "muted", "a moderator muted this account: it cannot write in the table chat"
            )
        name = "Spectator" if conn.seat is None else str(game.public_seats()[conn.seat]["name"])
        for attempt in range(TRIES):
            async with game.lock:
                n = game.table.chat_n + 1
                try:
                    at = await self.db(self.store.chat.add, game.id, n, conn.seat, name, text)
                except StepTaken:
                    if attempt + 1 == TRIES:
                        raise GameError("stale", "the chat is busy; try again") from None
                    await self._read_locked(game)
                    continue
                _deliver(game, [ChatLine(n, conn.seat, name, text, at)])
                break
        if self.cluster is not None:
            self.cluster.publish(ChatStored(self.cluster.proc, game.id, n))

    async def read(self, game: LiveGame) -> None:
        """Read and deliver the lines other processes stored after this copy's last line."""
        async with game.lock:
            await self._read_locked(game)

    async def _read_locked(self, game: LiveGame) -> None:
        lines = await self.db(self.store.chat.lines, game.id, game.table.chat_n)
        if lines:
            _deliver(game, lines)

    async def refresh(self, game: LiveGame) -> None:
        """Read the game's chat again, hidden lines and all (a moderator hid or showed a
        line, or announcements were missed): when lines this copy shows are hidden now (or
        shown again), every connection gets the chat anew (``reset``); new lines alone go
        out as new lines."""
        async with game.lock:
            lines = await self.db(self.store.chat.lines, game.id, 0, HISTORY)
            first = lines[0].n if lines else 0
            known = [line.n for line in game.table.chat if line.n >= first]
            before = [line.n for line in lines if line.n <= game.table.chat_n and not line.hidden]
            if known == before:
                _deliver(game, [line for line in lines if line.n > game.table.chat_n])
                return
            game.table.chat = [line for line in lines if not line.hidden]
            game.table.chat_n = max(game.table.chat_n, lines[-1].n if lines else 0)
            for conn in game.conns.values():
                conn.send(chat_for(conn, game.table.chat, reset=True))


def _deliver(game: LiveGame, lines: list[ChatLine]) -> None:
    """New lines of the game's chat: kept and sent to every connection, but the hidden ones
    (their numbers are taken all the same)."""
    if not lines:
        return
    game.table.chat_n = max(game.table.chat_n, lines[-1].n)
    shown = [line for line in lines if not line.hidden]
    if not shown:
        return
    game.table.chat = (game.table.chat + shown)[-HISTORY:]
    frame = chat_frame(shown)
    for conn in game.conns.values():
        mine = chat_for(conn, shown) if conn.hidden else frame
        if mine["lines"]:
            conn.send(mine)
