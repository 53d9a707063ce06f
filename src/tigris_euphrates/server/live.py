"""A live game: the replay of its log (actions, undos and seat changes), its clock, its
connections, and the frames each seat may see.

Everything a frame holds is built from ``player_view`` and ``redact_event`` for the seat it
goes to; a frame is built once per version of the game and shared by the connections that
see the same thing (``view_text``).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import (
    Event,
    GameOver,
    TilesDrawn,
    TilesSwapped,
    TreasureChoice,
    TurnStarted,
    apply,
    make_record,
    new_game,
    player_view,
    redact_event,
    to_act,
)
from ..ai import Bot
from ..stats import game_stats
from ..store import ChatLine, GameRow
from ..store.fairplay import Tally, judge, parse_resign, parse_seat_change
from ..store.fairplay import seat_change as seat_change  # the log's seat changes, for seats.py
from .clocks import Clock, Pace, advance, handed, returned, start, timed_out
from .conn import Conn
from .endings import ABORT as ABORT  # the log entry of a stopped game, re-exported
from .endings import conceded, ended_view, final_result, seat_note
from .errors import GameError
from .frames import (
    JsonObject,
    LogLine,
    SeatInfo,
    SeatNote,
    TimeoutNote,
    ViewFrame,
    encode,
    error_frame,
)

UNDO = "undo"
#: Event types after which an action can no longer be taken back (something was revealed
#: or the turn moved on).
_REVEALING = (TilesDrawn, TilesSwapped, TurnStarted, GameOver, TreasureChoice)


def hash_token(token: str) -> str:
    """What the store keeps of a secret token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


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


@dataclass
class Entry:
    seq: int
    seat: int | None
    action: str
    events: list[Event]


def public_action(entry: Entry, seat: int | None) -> str:
    """The action as ``seat`` may read it: others' swaps show only how many tiles."""
    if entry.action.startswith("swap ") and entry.seat != seat:
        n = sum(int(part.split("=")[1]) for part in entry.action[5:].split(","))
        return f"swap {n} tile{'s' if n != 1 else ''}"
    return entry.action


def is_named(seat: int, stored: dict[str, Any]) -> bool:
    """Whether a seat's name was chosen (by its creator, or its guest's nickname): else the
    page shows the default name in its language (``Player 2``, a bot's level). Games stored
    before the default was left unnamed hold ``Player N`` itself."""
    name = stored.get("name")
    return bool(name) and name != f"Player {seat + 1}"


def seat_name(seat: int, stored: dict[str, Any]) -> str:
    """A seat's name as stored, else its default in English (the page translates it)."""
    if is_named(seat, stored):
        return str(stored["name"])
    if stored["kind"] == "bot" and not stored.get("token"):  # not a person's seat a bot holds
        return f"Bot ({stored.get('level')})"
    return f"Player {seat + 1}"


class LiveGame:
    """One game as this process knows it: the replay of its log (actions, undos and seat
    changes), its connections and its bots."""

    def __init__(
        self,
        row: GameRow,
        pace: Pace | None = None,
        times: dict[int, float] | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.id = row.id
        self.options = row.options
        self.seed = row.seed
        self.seed_source = row.seed_source
        self.client = row.client
        self.seats = [dict(s) for s in row.seats]
        self.creator = row.creator
        self.created = row.created
        self.listed = row.listed
        #: the table's settings: who may chat (``chat``), the rematch's id (``rematch``)
        self.settings = dict(row.settings)
        #: the last lines of the table chat (``chat.HISTORY`` at most)
        self.chat: list[ChatLine] = []
        #: the number of the last chat line stored (lines are numbered from 1)
        self.chat_n = 0
        #: the result changes the players' ratings: only accounts take its seats
        self.rated = row.rated
        #: the game was stopped (its log ends with ``abort``): nobody is to act
        self.aborted = False
        #: the seat whose player aborted it (``None``: a moderator, or not aborted)
        self.aborted_by: int | None = None
        #: the seats whose players resigned, in order (``endings.py``)
        self.resigned: list[int] = []
        #: each seat's account as the table shows it: name, displayed rating, and its
        #: change once the rated game is counted (``people.py``)
        self.people: dict[int, dict[str, Any]] = {}
        #: the log's seat changes, resignations and players' aborts (``endings.seat_note``)
        self.seat_log: list[SeatNote] = []
        #: who made each seat's decisions (a rated game's): whether its end is rated
        self.tally = Tally(len(self.seats)) if row.rated else None
        #: when each human seat's player was last seen (left, or the game was loaded)
        self.away_since: dict[int, float] = {i: time.time() for i in range(len(self.seats))}
        self.lock = asyncio.Lock()
        self.conns: dict[int, Conn] = {}
        self.version = 0
        self._built_for: tuple[int, int] | None = None
        self._texts: dict[tuple[int | None, int], str] = {}
        self._views: dict[int | None, JsonObject] = {}
        #: the events of the entries in the frames built so far, by entry: their wire form
        self._wire: dict[int, list[JsonObject]] = {}
        self._seats_now: list[SeatInfo] | None = None
        self.bots: dict[int, SeatBot] = {}
        #: connections of other processes, by seat: connection id -> process
        self.remote: dict[int, dict[str, str]] = {}
        #: a notification came while this process was reading the log: read again
        self.behind = False
        #: entries announced by other processes, not applied yet: seq -> (seat, action)
        self.pending: dict[int, tuple[int | None, str]] = {}
        #: the last entry announced (a gap below it is read from the log)
        self.announced = 0
        self.seq = 0
        self.entries: list[Entry] = []
        self.state = new_game(self.options, self.seed)
        #: the time as the hub reads it (injectable: tests pass their own)
        self.now = now
        #: the game's clock (``None``: an untimed game), replayed from the steps' times
        self.pace = pace
        self.clock: Clock | None = None
        #: the step after which the person to act now started their move
        self.turn_seq = 0
        #: the seats whose time ran out: ``{"seat", "level", "seq", "back"}`` (``back``: the
        #: step at which the player took the seat back, ``None`` while the bot holds it)
        self.timeouts: list[TimeoutNote] = []
        times = times or {}
        if pace is not None:
            actor = self.actor()
            person = actor is not None and self.seats[actor]["kind"] == "human"
            self.clock = start(pace, len(self.seats), actor, person, row.created)
        for seq, seat, action in row.actions:
            self._apply_row(seq, seat, action, times.get(seq))

    # --- state ----------------------------------------------------------------------------

    def apply_row(self, seq: int, seat: int | None, action: str, at: float | None = None) -> None:
        """Apply log entry ``seq`` (the next one): an action, an undo or a seat change,
        stored at ``at`` (default: now)."""
        self._apply_row(seq, seat, action, at)

    def _apply_row(self, seq: int, seat: int | None, action: str, at: float | None = None) -> None:
        change = parse_seat_change(action)
        resign = parse_resign(action)
        self.seq = seq
        self.logged(seat, action, seq)
        if change is not None:
            self.change_seat(*change, at=at)
            return
        if resign is not None:
            self.resign(*resign, at=at)
        elif action == ABORT:
            self.aborted, self.rated, self.aborted_by = True, False, seat
        elif action == UNDO:
            self.entries.pop()
            self.rebuild()
        else:
            self.state, events = apply(self.state, action)
            self.entries.append(Entry(seq, seat, action, events))
        self.tick(at)

    def logged(self, seat: int | None, action: str, seq: int) -> None:
        """Log entry ``seq``, ``action`` by ``seat``, is stored (by this process or
        another): who made the seats' decisions (``tally``), and the log's seat notes."""
        if self.tally is not None:
            self.tally.step(seat, action)
        note = seat_note(seq, seat, action)
        if note is not None:
            self.seat_log.append(note)

    def rated_now(self) -> bool:
        """Whether the game is rated: created so, not aborted by a moderator, and, once it
        is over, not rated for nobody (every seat forfeited to bots: ``store/fairplay.py``)."""
        if self.tally is None or not self.rated:
            return False
        if not self.over:
            return True
        return judge(self.tally.plays(), [1] * len(self.seats)).counted

    def tick(self, at: float | None = None) -> None:
        """The clock after a step stored at ``at`` (default: now): the time goes to whoever
        is to act now."""
        if self.clock is None:
            return
        actor = self.actor()
        person = actor is not None and self.seats[actor]["kind"] == "human"
        before = self.clock
        self.clock = advance(self.clock, actor, person, self.now() if at is None else at)
        if self.clock.running and (before.actor != actor or not before.running):
            self.turn_seq = self.seq  # a person's move starts here

    def change_seat(
        self,
        seat: int,
        kind: str,
        level: str | None,
        timeout: bool = False,
        at: float | None = None,
    ) -> None:
        """Apply a seat change: a bot plays the seat (its player's token still opens it, to
        watch or to take it back; ``timeout``: because the player's time ran out), or its
        player takes it back."""
        now = dict(self.seats[seat])
        when = self.now() if at is None else at
        if kind == "bot":
            now["kind"], now["level"] = "bot", level
            if timeout:
                note: TimeoutNote = {
                    "seat": seat,
                    "level": str(level),
                    "seq": self.seq,
                    "back": None,
                }
                self.timeouts.append(note)
        else:
            now["kind"] = "human"
            now.pop("level", None)
            for note in self.timeouts:
                if note["seat"] == seat and note["back"] is None:
                    note["back"] = self.seq
        self.seats[seat] = now
        if self.clock is not None:
            if kind == "bot":
                change = timed_out if timeout else handed
                self.clock = change(self.clock, seat, when)
            else:
                self.clock = returned(self.clock, seat, when)

    def resign(self, seat: int, level: str, at: float | None = None) -> None:
        """Seat ``seat`` resigned (``endings.py``): it ranks last; a bot of ``level`` plays
        it out unless the game is over now."""
        if seat in self.resigned or not 0 <= seat < len(self.seats):
            return
        self.resigned.append(seat)
        if not self.over and self.seats[seat]["kind"] != "bot":
            self.change_seat(seat, "bot", level, at=at)
        self.touch()

    def result(self) -> dict[str, Any] | None:
        """The game's result once it is over (``endings.final_result``)."""
        return final_result(self.state, self.resigned)

    def rebuild(self) -> None:
        """The state replayed from the entries (after an undo)."""
        state = new_game(self.options, self.seed)
        for entry in self.entries:
            state, _ = apply(state, entry.action)
        self.state = state

    @property
    def over(self) -> bool:
        return bool(self.state.over) or conceded(len(self.seats), self.resigned)

    @property
    def ended(self) -> bool:
        """Over, or stopped by a moderator: nothing more happens in the game."""
        return self.over or self.aborted

    def actor(self) -> int | None:
        return None if self.over or self.aborted else to_act(self.state)

    def check_ongoing(self) -> None:
        """Raise unless the game goes on (neither over nor stopped by a moderator)."""
        if self.aborted:
            raise GameError("game-aborted", "this game was stopped (aborted): nobody moves now")
        if self.over:
            raise GameError("game-over", "the game is over")

    def check_turn(self, seat: int, seq: Any) -> None:
        """Raise unless ``seat`` may act now against step ``seq``."""
        self.check_ongoing()
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq:
            raise GameError("stale", self.stale_message(seq))
        actor = self.actor()
        if actor != seat:
            raise GameError("not-your-turn", f"it is not your turn: seat {actor} is to act")

    def stale_message(self, seq: Any) -> str:
        """Why a message made against step ``seq`` is refused now."""
        return (
            f"your move was made against step {seq!r} but the game is at step {self.seq}: "
            "here is the current position, please choose again"
        )

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or self.over or not self.entries:
            return False
        last = self.entries[-1]
        if last.seat != seat or self.seats[seat]["kind"] != "human":
            return False
        if any(isinstance(e, _REVEALING) for e in last.events):
            return False
        return self.actor() == seat

    def record(self) -> dict[str, Any]:
        """The game's record (``tne-record/1``) with ``seed_source``: ``"server"`` (a
        secret seed) or ``"client"`` (chosen by whoever created the game). Published only
        when the game is over: the seed decides every hand and the bag. A game every seat
        but one resigned has the result the rules did not give: ``end`` is ``"resign"``
        (its actions replay to the position where it stopped, as a forfeit's do)."""
        record = make_record(
            self.options,
            [e.action for e in self.entries],
            seed=self.seed,
            final=self.state,
        )
        if not self.state.over and conceded(len(self.seats), self.resigned):
            record["result"] = self.result()
        record["seed_source"] = self.seed_source
        return record

    # --- what a seat may see --------------------------------------------------------------

    def online(self) -> set[int]:
        """The seats with a live connection, in this process or another (spectators come
        and go unseen)."""
        here = {c.seat for c in self.conns.values() if c.seat is not None and c.closing is None}
        return here | {seat for seat, conns in self.remote.items() if conns}

    def public_seats(self) -> list[SeatInfo]:
        """Each seat as everybody may see it: kind, bot level, name, whether someone plays
        it now (``online``), whether a bot holds it for its player (``away``) and since when
        its player has been offline (``offline_since``, seconds since the epoch)."""
        online = self.online()
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "level": s.get("level") if s["kind"] == "bot" else None,
                "name": self.people.get(i, {}).get("account") or seat_name(i, s),
                "online": s["kind"] == "bot" or i in online,
                "away": s["kind"] == "bot" and bool(s.get("token")),
                "offline_since": None
                if i in online or not s.get("token")
                else round(self.away_since[i], 1),
                "named": i in self.people or is_named(i, s),
                "account": self.people.get(i, {}).get("account"),
                "rating": self.people.get(i, {}).get("rating"),
                "change": self.people.get(i, {}).get("change"),
                "resigned": i in self.resigned,
            }
            for i, s in enumerate(self.seats)
        ]

    def log_for(self, seat: int | None, start: int = 0) -> list[LogLine]:
        """The log from entry ``start`` on as ``seat`` may read it. Each entry's events are
        written out (``to_dict``) once per version of the game, for every seat's frame, and
        redacted for each seat from that (``redact_event`` copies it)."""
        lines: list[LogLine] = []
        for i in range(start, len(self.entries)):
            e = self.entries[i]
            wire = self._wire.get(i)
            if wire is None:
                wire = self._wire[i] = [ev.to_dict() for ev in e.events]
            lines.append(
                {
                    "seq": e.seq,
                    "seat": e.seat,
                    "action": public_action(e, seat),
                    "events": [redact_event(ev, seat) for ev in wire],
                }
            )
        return lines

    def view_text(self, conn: Conn) -> str:
        """The view frame due to ``conn``, as JSON text, and the connection marked as sent.

        Each distinct frame — a seat's view with the log from a given entry — is built once
        per version of the game (``touch``) and shared: the spectators that saw the last
        step all get the same text, whatever their number.
        """
        start = 0 if conn.full_log or conn.last_log > len(self.entries) else conn.last_log
        conn.full_log = conn.view_due = False
        conn.last_log = len(self.entries)
        version = (self.version, self.seq)
        if self._built_for != version:
            self._built_for = version
            self._texts.clear()
            self._views.clear()
            self._wire.clear()
            self._seats_now = None
        key = (conn.seat, start)
        text = self._texts.get(key)
        if text is None:
            text = encode(self.frame(conn.seat, start))
            self._texts[key] = text
        if self.clock is not None:
            # the server's time when the frame leaves, from which the page counts the
            # clocks down (a shared frame may be sent long after it was built)
            return f'{text[:-1]},"now":{self.now():.3f}}}'
        return text

    def message(self, seat: int | None, start: int = 0) -> ViewFrame:
        """The view frame of ``seat`` with the log from entry ``start`` on."""
        view = self._views.get(seat)
        if view is None and not self.state.over and self.over:
            view = self._views[seat] = ended_view(self.state, seat, self.resigned)
        elif view is None:
            view = self._views[seat] = player_view(self.state, seat)
            if self.resigned and self.over:
                view["result"] = self.result()
        if self._seats_now is None:
            self._seats_now = self.public_seats()
        return {
            "type": "view",
            "game": self.id,
            "seq": self.seq,
            "seat": seat,
            "view": view,
            "seats": self._seats_now,
            "can_undo": self.can_undo(seat),
            "chat": self.settings.get("chat", "players"),
            "rematch": self.settings.get("rematch"),
            "clock": None if self.clock is None else self.clock.public(),
            "timeouts": self.timeouts,
            "seat_log": self.seat_log,
            "log_reset": start == 0,
            "log": self.log_for(seat, start),
            "stats": self.stats() if self.over else None,
        }

    def frame(self, seat: int | None, start: int = 0) -> ViewFrame:
        """``message``, marked ``aborted`` when a moderator stopped the game (the key is
        there only then: the frames of other games stay as they were)."""
        frame = self.message(seat, start)
        if self.aborted:
            frame["aborted"] = True
            if self.aborted_by is not None:
                frame["aborted_by"] = self.aborted_by
        return frame

    def stats(self) -> dict[str, Any]:
        """The game's statistics (``stats.game_stats``); published once the game is over,
        when every score is public."""
        return game_stats(len(self.seats), [e.events for e in self.entries])

    def touch(self) -> None:
        """Something a view shows changed: the frames built so far are stale."""
        self.version += 1

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "options": self.options,
            "seats": self.public_seats(),
            "status": "over" if self.over else "aborted" if self.aborted else "active",
            "seq": self.seq,
            "to_act": self.actor(),
            "result": self.result(),
            "listed": self.listed,
            "rated": self.rated_now(),
            "clock": None if self.clock is None else self.clock.public(),
            "timeouts": self.timeouts,
        }

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
            if seat.get("token") and secrets.compare_digest(seat["token"], digest):
                return i
        raise GameError("bad-token", "this link's token does not open any seat of this game")

    def seat_or_none(self, token: str | None) -> int | None:
        """The seat a token opens, ``None`` for no token or a wrong one."""
        try:
            return self.seat_for(token)
        except GameError:
            return None

    # --- the connections ------------------------------------------------------------------

    def broadcast(self, exclude: int | None = None) -> None:
        """A fresh view is due to every connection (but ``exclude``): the players' first.
        Their writers then run first, so that a move's acknowledgement and the opponent's
        view do not wait behind the frames of the game's spectators, whenever they joined."""
        self.touch()
        for key, conn in self.conns.items():
            if key != exclude and conn.seat is not None:
                conn.due()
        for key, conn in self.conns.items():
            if key != exclude and conn.seat is None:
                conn.due()

    def send_error(self, conn: Conn, err: GameError, *, with_view: bool = True) -> None:
        """An error frame to ``conn`` only, then (``with_view``) a fresh view."""
        conn.send(error_frame(err.code, err.message, self.seq))
        if with_view:
            conn.due(full_log=True)

    def expel(self, seat: int) -> None:
        """The seat's account was banned: its connections are told why and closed (4403)."""
        for conn in self.conns.values():
            if conn.seat == seat and conn.closing is None:
                conn.send(
                    error_frame(
                        "banned",
                        "a moderator banned the account of this seat: a bot plays it now",
                        self.seq,
                    )
                )
                conn.close(4403, "banned")

    def take_over(self, seat: int, *, announced_only: bool = False) -> None:
        """One live connection a seat: the older ones are told why and closed (4409).
        ``announced_only``: a newer connection opened in another process, which makes
        older only the connections whose claim came before its claim."""
        for old in self.conns.values():
            if old.seat == seat and old.closing is None and (old.announced or not announced_only):
                old.send(
                    error_frame(
                        "taken-over",
                        "this seat was opened in another window or device, "
                        "which plays it now: this connection is closed",
                        self.seq,
                    )
                )
                old.close(4409, "taken-over")
