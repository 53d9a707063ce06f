"""The table chat: short text lines per game, stored in the ``chat`` table and delivered over
the game's websockets as ``{"type": "chat", "lines": [...], "reset": bool}`` frames.

Who may write is the table's ``chat`` setting, chosen by the game's creator: ``players``
(the seated people; the default), ``everyone`` (spectators too) or ``off``. Everybody who
can open the game reads it. A line is plain text (the page never renders it as HTML) of at
most ``CHAT_MAX`` characters under the inputs' character policy, and each connection may
write ``CHAT_BURST`` lines at once, then one every ``1 / CHAT_PER_SECOND`` seconds.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Literal

from ..store import ChatLine, StepTaken
from .errors import GameError

if TYPE_CHECKING:
    from .hub import Conn, Hub, LiveGame

#: Who may write: the seated people, everybody who watches as well, or nobody.
ChatPolicy = Literal["players", "everyone", "off"]
CHAT_POLICIES: tuple[str, ...] = ("players", "everyone", "off")
#: The longest line, in characters.
CHAT_MAX = 300
#: Lines a connection may write: a burst, then this many a second.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
#: The lines a game keeps in memory and sends to a new connection.
HISTORY = 200
#: How often a line is tried when other processes write the same line number.
TRIES = 5


def chat_frame(lines: list[ChatLine], *, reset: bool = False) -> dict[str, Any]:
    """The frame carrying ``lines`` (``reset``: they are the whole chat so far)."""
    return {"type": "chat", "reset": reset, "lines": [asdict(line) for line in lines]}


def may_write(policy: str, seat: int | None) -> bool:
    """Whether a connection of ``seat`` (``None``: a spectator) may write under ``policy``."""
    if policy == "off":
        return False
    return seat is not None or policy == "everyone"


async def say(hub: Hub, game: LiveGame, conn: Conn, text: str) -> None:
    """Store ``text`` (already checked by ``inputs.Chat``) as the game's next chat line and
    send it to every connection of the game; raises ``GameError`` when the connection may
    not write or writes too fast."""

    policy = str(game.settings.get("chat", "players"))
    if not may_write(policy, conn.seat):
        why = "the chat is off at this table" if policy == "off" else "only players write here"
        raise GameError("chat-closed", why)
    if not conn.chat_rate.take():
        raise GameError(
            "chat-too-fast",
            f"at most {CHAT_BURST} chat lines at once, then one every {1 / CHAT_PER_SECOND:g} s",
            retry_after=1 / CHAT_PER_SECOND,
        )
    name = "Spectator" if conn.seat is None else str(game.public_seats()[conn.seat]["name"])
    for attempt in range(TRIES):
        async with game.lock:
            n = game.chat_n + 1
            try:
                at = await hub.db(hub.store.add_chat, game.id, n, conn.seat, name, text)
            except StepTaken:
                if attempt + 1 == TRIES:
                    raise GameError("stale", "the chat is busy; try again") from None
                await _read_locked(hub, game)
                continue
            line = ChatLine(n, conn.seat, name, text, at)
            _deliver(game, [line])
            break
    if hub.cluster is not None:
        hub.cluster.publish(f"m|{hub.cluster.proc}|{game.id}|{n}")


async def read_chat(hub: Hub, game: LiveGame) -> None:
    """Read and deliver the lines other processes stored after this copy's last line."""
    async with game.lock:
        await _read_locked(hub, game)


async def _read_locked(hub: Hub, game: LiveGame) -> None:
    lines = await hub.db(hub.store.chat_lines, game.id, game.chat_n)
    if lines:
        _deliver(game, lines)


def _deliver(game: LiveGame, lines: list[ChatLine]) -> None:
    game.chat = (game.chat + lines)[-HISTORY:]
    game.chat_n = lines[-1].n
    frame = chat_frame(lines)
    for conn in game.conns.values():
        conn.send(frame)
