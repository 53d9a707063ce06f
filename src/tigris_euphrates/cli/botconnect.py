"""``tne bot connect``: a ``tne-bot/1`` program plays on a server as a bot account.

The bridge holds the account's event socket (``/ws/bot``, with the API token in the
``Authorization`` header), answers the challenges it is offered (accepting while it plays
fewer games than it may at once, declining with a reason otherwise) and plays each of the
account's games over the game websocket, as the page does: it joins the account's seat,
hands the program the seat's redacted events (one ``events`` message a step, as the referee
does) and, when the seat is to act, its view in a ``decide`` message, and sends the answer as
a move. One program runs per game, from its ``new_game`` to its ``end``.

A dropped connection (the network, a server restart) is opened again, with a growing pause,
and the game goes on where it is: the view the server sends on joining holds the whole log,
so the program hears exactly the steps it missed; an answer sent just before the drop is
sent again if the game still waits for it. If the log changed under it (an undo), the program
is started again and hears the game from its start. A program that fails (late, illegal,
garbage, crash) is started again, at most ``restarts`` times in a game (once unless told;
counted over the game, not per decision); at its next fault the seat goes to the server's
``fallback`` level for the rest of the game (which forfeits a rated game) or, without one,
the bridge leaves the game. The program gets the game's options complete (every key, the
defaults filled), as in a tournament. The token is never printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .. import EngineError, Options
from ..ai import Budget
from ..botproto import DEFAULT_SECONDS, BotFault, ProtocolBot, default_logs

#: The pauses before connecting again after a drop: doubling from the first to the last.
FIRST_PAUSE, LAST_PAUSE = 0.25, 5.0
#: The errors of a game's websocket after which the bridge leaves that game.
FATAL_JOIN = ("bad-token", "not-your-seat", "no-game", "banned", "bot-rated", "sign-in")


class TokenRefused(Exception):
    """The server refused the API token (revoked, or not a bot account's)."""


@dataclass
class BridgeSettings:
    """What ``tne bot connect`` was told."""

    server: str
    token: str
    command: list[str]
    #: games played at once; a challenge beyond them is declined
    games: int = 1
    #: which challenges to accept: ``all``, ``bots`` or ``people``
    accept: str = "all"
    #: whether to accept rated challenges
    rated: bool = True
    seconds: float = DEFAULT_SECONDS
    logs: Path = field(default_factory=default_logs)
    fallback: str | None = None
    #: how many times a failed program is started again in one game before the fallback
    restarts: int = 1
    #: a bot account to challenge on connecting (``challenge_rated``: a rated game)
    challenge: str | None = None
    challenge_rated: bool = False
    challenge_options: dict[str, Any] = field(default_factory=dict)
    #: stop once this many games are over (``None``: run until interrupted)
    stop_after: int | None = None

    @property
    def ws_base(self) -> str:
        base = self.server.rstrip("/")
        if base.startswith("https://"):
            return "wss://" + base[len("https://") :]
        if base.startswith("http://"):
            return "ws://" + base[len("http://") :]
        return base

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def say(text: str) -> None:
    """A line for the person running the bridge (standard error; never the token)."""
    print(f"tne bot: {text}", file=sys.stderr, flush=True)


def complete_options(options: dict[str, Any]) -> dict[str, Any]:
    """A game's options with every key, the defaults filled (what ``new_game`` sends in a
    tournament), whatever the server sent; as sent if the engine does not know them."""
    try:
        return Options.from_dict(options).to_dict()
    except EngineError:
        return dict(options)


class Bridge:
    """One bot account connected to a server (see the module docstring)."""

    def __init__(self, settings: BridgeSettings, out: Callable[[str], None] = say) -> None:
        self.settings = settings
        self.say = out
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.finished: set[str] = set()
        self.challenged = False
        self.me = ""
        self.done = asyncio.Event()

    async def run(self) -> None:
        """Hold the event socket (connecting again after every drop) until the games asked
        for are over; raises ``TokenRefused``."""
        pause = FIRST_PAUSE
        while not self.done.is_set():
            try:
                async with connect(
                    self.settings.ws_base + "/ws/bot",
                    additional_headers=self.settings.headers,
                    open_timeout=20,
                    max_size=2**24,
                ) as ws:
                    pause = FIRST_PAUSE
                    await self._events(ws)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as e:
                if self.done.is_set():
                    break
                self.say(f"the event connection dropped ({type(e).__name__}); again in {pause:g} s")
                await asyncio.sleep(pause)
                pause = min(LAST_PAUSE, pause * 2)
        for task in self.playing.values():
            task.cancel()
        await asyncio.gather(*self.playing.values(), return_exceptions=True)

    async def _events(self, ws: ClientConnection) -> None:
        """Read the event socket until it closes or the bridge is done."""
        stop = asyncio.ensure_future(self.done.wait())
        try:
            while True:
                receive = asyncio.ensure_future(ws.recv())
                await asyncio.wait({receive, stop}, return_when=asyncio.FIRST_COMPLETED)
                if stop.done():
                    receive.cancel()
                    return
                await self._event(ws, json.loads(receive.result()))
        finally:
            stop.cancel()

    async def _event(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "error" and frame.get("code") == "bad-token":
            raise TokenRefused(str(frame.get("message")))
        if kind == "error":
            self.say(f"refused: {frame.get('code')}: {frame.get('message')}")
        elif kind == "hello":
            self.me = str(frame["account"]["name"])
            self.say(f"connected as {self.me}")
            await self._challenge(ws)
        elif kind == "challenge":
            await self._offered(ws, frame["challenge"])
        elif kind == "game":
            self._game(frame)

    async def _challenge(self, ws: ClientConnection) -> None:
        """Send the challenge asked for on the command line, once."""
        s = self.settings
        if s.challenge is None or self.challenged:
            return
        self.challenged = True
        msg = {"type": "challenge", "to": s.challenge, "rated": s.challenge_rated}
        await ws.send(json.dumps({**msg, "options": s.challenge_options}))

    async def _offered(self, ws: ClientConnection, c: dict[str, Any]) -> None:
        """Accept or decline a challenge to this account (one it sent is only reported)."""
        name = c["from"]["name"]
        if c["state"] != "open" or c["to"]["name"] != self.me:
            self.say(f"challenge {c['id']} ({name} -> {c['to']['name']}): {c['state']}")
            return
        reason = self._refusal(c)
        if reason is None:
            self.say(f"accepting {name}'s challenge {c['id']}")
            await ws.send(json.dumps({"type": "accept", "id": c["id"]}))
        else:
            self.say(f"declining {name}'s challenge {c['id']}: {reason}")
            await ws.send(json.dumps({"type": "decline", "id": c["id"], "reason": reason}))

    def _refusal(self, c: dict[str, Any]) -> str | None:
        """Why the challenge is declined (``None``: it is accepted)."""
        s = self.settings
        if len(self.playing) - len(self.finished & set(self.playing)) >= s.games:
            return "busy: playing as many games as it may"
        if c["rated"] and not s.rated:
            return "plays casual games only"
        if s.accept == "bots" and not c["from"]["bot"]:
            return "plays bots only"
        if s.accept == "people" and c["from"]["bot"]:
            return "plays people only"
        return None

    def _game(self, frame: dict[str, Any]) -> None:
        game_id = str(frame["game"])
        if game_id in self.playing:
            return
        self.say(f"playing game {game_id}, seat {frame['seat']}")
        options = complete_options(frame["options"])
        seat = GameSeat(self.settings, game_id, int(frame["seat"]), options, self.say)
        task = asyncio.create_task(seat.run())
        self.playing[game_id] = task
        task.add_done_callback(lambda _: self._over(game_id))

    def _over(self, game_id: str) -> None:
        self.finished.add(game_id)
        stop = self.settings.stop_after
        if stop is not None and len(self.finished) >= stop:
            self.done.set()


class GameSeat:
    """One game of the account, played by one run of the program."""

    def __init__(
        self,
        settings: BridgeSettings,
        game_id: str,
        seat: int,
        options: dict[str, Any],
        out: Callable[[str], None],
    ) -> None:
        self.settings, self.game_id, self.seat, self.options = settings, game_id, seat, options
        self.say = out
        self.bot: ProtocolBot | None = None
        #: the seq of each step the program heard, and its events (to replay them)
        self.heard: list[int] = []
        self.events: list[list[dict[str, Any]]] = []
        #: the program's answer at a step (sent again after a drop if still due)
        self.answers: dict[int, str] = {}
        #: answers the server refused (other than for the message rate)
        self.refusals = 0
        #: the times the program was started again after a fault in this game
        self.restarts = 0
        self.over = False

    async def run(self) -> None:
        pause = FIRST_PAUSE
        try:
            while not self.over:
                try:
                    async with connect(
                        f"{self.settings.ws_base}/ws/games/{self.game_id}",
                        additional_headers=self.settings.headers,
                        open_timeout=20,
                        max_size=2**24,
                    ) as ws:
                        await ws.send(json.dumps({"type": "join", "seat": self.seat}))
                        pause = FIRST_PAUSE
                        async for text in ws:
                            await self._frame(ws, json.loads(text))
                            if self.over:
                                return
                except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as e:
                    what = type(e).__name__
                    self.say(
                        f"game {self.game_id}: connection dropped ({what}); again in {pause:g} s"
                    )
                    await asyncio.sleep(pause)
                    pause = min(LAST_PAUSE, pause * 2)
        finally:
            await self._stop(None)

    async def _frame(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        if frame.get("type") == "error":
            await self._refused(ws, frame)
            return
        if frame.get("type") != "view":
            return
        await self._hear(frame["log"], bool(frame["log_reset"]))
        view = frame["view"]
        if view["over"]:
            self.say(f"game {self.game_id} is over")
            await self._stop(view.get("result"))
            self.over = True
            return
        seq = int(frame["seq"])
        if view["to_act"] == self.seat and view.get("legal_actions"):
            action = self.answers.get(seq)
            if action is None:
                action = await self._choose(view)
                if action is None:
                    self.over = True
                    return
                self.answers = {seq: action}
            await ws.send(json.dumps({"type": "move", "seq": seq, "action": action}))

    async def _refused(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        """A message refused by the server. Over the message rate (the page's limit: a
        fast program can pass it), the move was dropped: wait a second and ask for the view
        again, which sends the same answer. Another refusal of an answer (the server's
        checks are the judge) asks the program again; a second one ends the bridge's part
        in the game as a fault does."""
        code = frame.get("code")
        if code == "rate-limited":
            await asyncio.sleep(1.0)
            await ws.send(json.dumps({"type": "sync"}))
            return
        self.say(f"game {self.game_id}: refused: {code}: {frame.get('message')}")
        if code in FATAL_JOIN:
            self.over = True
            return
        seq = frame.get("seq")
        if isinstance(seq, int) and self.answers.pop(seq, None) is not None:
            self.refusals += 1
            if self.refusals >= 2:
                await asyncio.to_thread(self._hand_over)
                self.over = True

    async def _hear(self, log: list[dict[str, Any]], reset: bool) -> None:
        """Hand the program the steps it has not heard (all again if the log changed)."""
        if reset and [line["seq"] for line in log[: len(self.heard)]] != self.heard:
            self.say(f"game {self.game_id}: the log changed (an undo): the program starts again")
            await self._stop(None)
            self.heard, self.events = [], []
        last = self.heard[-1] if self.heard else -1
        for line in log:
            if line["seq"] > last:
                self.heard.append(int(line["seq"]))
                self.events.append(line["events"])
                if self.bot is not None:
                    await asyncio.to_thread(self.bot.observe, line["events"])

    async def _start(self) -> ProtocolBot:
        """The program, started and told the game and every step it has not heard."""
        bot = ProtocolBot(
            self.settings.command,
            secrets.randbits(31),
            name=f"game {self.game_id}",
            logs=self.settings.logs,
        )
        budget = Budget(seconds=self.settings.seconds)
        await asyncio.to_thread(bot.begin, {**self.options}, self.seat, budget, self.game_id)
        for events in self.events:
            await asyncio.to_thread(bot.observe, events)
        self.bot = bot
        return bot

    async def _choose(self, view: dict[str, Any]) -> str | None:
        """The program's answer, the program started again after a fault while the game's
        restarts last; ``None``: it failed with none left, and the seat went to the fallback
        level or was left for the rest of the game."""
        budget = Budget(seconds=self.settings.seconds)
        limit = self.settings.restarts
        while True:
            try:
                bot = self.bot if self.bot is not None else await self._start()
                return str(await asyncio.to_thread(bot.choose, view, budget))
            except BotFault as fault:
                self.bot = None
                if self.restarts >= limit:
                    self.say(
                        f"game {self.game_id}: the program failed ({fault}); "
                        f"restarted {self.restarts} of {limit} times in this game already"
                    )
                    break
                self.restarts += 1
                self.say(
                    f"game {self.game_id}: the program failed ({fault}); "
                    f"starting it again ({self.restarts} of {limit} in this game)"
                )
        await asyncio.to_thread(self._hand_over)
        return None

    def _hand_over(self) -> None:
        """The seat goes to the server's fallback level, if one was named."""
        level = self.settings.fallback
        if level is None:
            self.say(f"game {self.game_id}: left (no fallback level)")
            return
        url = f"{self.settings.server.rstrip('/')}/api/games/{self.game_id}/seats/{self.seat}/bot"
        body = json.dumps({"level": level}).encode()
        headers = {**self.settings.headers, "Content-Type": "application/json"}
        request = urllib.request.Request(url, body, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30):
                self.say(f"game {self.game_id}: the server's {level} plays the seat now")
        except OSError as e:
            self.say(f"game {self.game_id}: the fallback was refused ({e})")

    async def _stop(self, result: dict[str, Any] | None) -> None:
        bot, self.bot = self.bot, None
        if bot is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(bot.finish, result)
