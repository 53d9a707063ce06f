"""The frames the server sends on a game's websocket, typed, and their one encoder.

The client's frames are read in one place too (``inputs.read_message``: ``Join``, ``Move``,
``Undo``, ``Sync``, ``Ping``, ``Chat``, ``Hint``). The server answers with:

- ``ViewFrame`` after every change the connection may see: its seat's view (built by the
  engine's ``player_view``, so it holds only what that seat may see), the seats, the log
  since the last frame (or whole: ``log_reset``), the clock, the statistics once over;
- ``ChatFrame``: the table chat, all of it on joining (``reset``), then each new line;
- ``ErrorFrame``: a refused message, to its sender only (``seq``: the game's step then; a
  refusal before the connection joined a game has none);
- ``PongFrame``: the answer to a ping;
- ``HintFrame``: a suggested move for the asking seat's decision at step ``seq``, and why
  (``server/hints.py``), to that connection only.

A bot account's event socket (``/ws/bot``, ``routes/botsocket.py``) sends ``HelloFrame``
first, then ``ChallengeFrame`` and ``GameFrame`` as challenges and games come (and pongs and
error frames).

The lobby's websocket (``lobbyfeed.py``) sends ``TablesFrame`` and ``MeFrame``.

The frames are ``TypedDict``\\ s: JSON objects whose keys keep the order written here, so
that the bytes on the wire stay what the page and the bots have always read.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict

import orjson

#: A JSON document the engine or the clocks built (a view, an event, a clock's state).
JsonObject = dict[str, Any]


class SeatInfo(TypedDict):
    """A seat as everybody at the table may see it."""

    seat: int
    kind: str
    level: str | None
    name: str
    online: bool
    away: bool
    offline_since: float | None
    #: the name was chosen (else the page shows ``name`` translated: ``Player 2``, a bot)
    named: bool
    #: the account holding the seat, its displayed rating in the game's family (``None``:
    #: a guest, a bot), and its rating change once the rated game is counted
    account: str | None
    rating: int | None
    change: int | None
    #: the seat's player resigned (it ranks last; a bot may play it out)
    resigned: bool


class LogLine(TypedDict):
    """A step of the game's log as one seat may read it."""

    seq: int
    seat: int | None
    action: str
    events: list[JsonObject]


class TimeoutNote(TypedDict):
    """A seat whose time ran out: the bot that took it, the step, and when its player took
    it back (``None`` while the bot holds it)."""

    seat: int
    level: str
    seq: int
    back: int | None


class SeatNote(TypedDict):
    """A line of the log that is no move: seat ``seat`` went to a bot (``bot``, ``timeout``:
    its time ran out), came back (``human``), resigned (``resign``) or its player aborted
    the game (``abort``), at entry ``seq``, asked by seat ``by`` (``None``: the game's
    creator, the clock or the server)."""

    seq: int
    seat: int
    change: str
    level: str | None
    by: int | None


class ViewFrame(TypedDict):
    type: Literal["view"]
    game: str
    seq: int
    seat: int | None
    view: JsonObject
    seats: list[SeatInfo]
    can_undo: bool
    chat: str
    rematch: str | None
    clock: JsonObject | None
    timeouts: list[TimeoutNote]
    seat_log: list[SeatNote]
    log_reset: bool
    log: list[LogLine]
    stats: JsonObject | None
    #: the game was stopped (only in the frames of such a game): by a moderator, or by
    #: the player of seat ``aborted_by`` before every player had moved
    aborted: NotRequired[bool]
    aborted_by: NotRequired[int]


class ChatLineData(TypedDict):
    n: int
    seat: int | None
    name: str
    text: str
    at: float


class ChatFrame(TypedDict):
    type: Literal["chat"]
    reset: bool
    lines: list[ChatLineData]


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    seq: NotRequired[int]


class PongFrame(TypedDict):
    type: Literal["pong"]
    t: object


class HintFrame(TypedDict):
    type: Literal["hint"]
    seq: int
    seat: int
    action: str
    #: why: a catalogue key (``hint_why_*``) and the fields its text names
    reason: JsonObject
    #: hints the seat may still ask for in this game
    left: int


class HelloFrame(TypedDict):
    """The bot account an event socket opened."""

    type: Literal["hello"]
    account: JsonObject


class ChallengeFrame(TypedDict):
    """A challenge of the bot account, new or in a new state (``Challenge.public``)."""

    type: Literal["challenge"]
    challenge: JsonObject


class GameFrame(TypedDict):
    """An unfinished game of the bot account: its program plays ``seat`` of it."""

    type: Literal["game"]
    game: str
    seat: int
    rated: bool
    options: JsonObject


#: Every frame the server sends.
OutFrame = (
    ViewFrame
    | ChatFrame
    | ErrorFrame
    | PongFrame
    | HintFrame
    | HelloFrame
    | ChallengeFrame
    | GameFrame
)


class TableInfo(TypedDict):
    """An open table as the lobby lists it: its game, its rules of entry, the seated
    players (name, whether an account, its rating and rated games there) and the free
    seats."""

    id: str
    options: JsonObject
    pace: JsonObject | None
    players: int
    rated: bool
    min_rating: float | None
    max_rating: float | None
    allow_bots: bool
    expires: float
    seats: list[JsonObject]
    free: int


class StartedTable(TypedDict):
    table: str
    game: str


class TablesFrame(TypedDict):
    """The lobby's open tables, and the tables that started lately (their players' pages
    go to the game)."""

    type: Literal["tables"]
    tables: list[TableInfo]
    started: list[StartedTable]


class InviteInfo(TypedDict):
    id: int
    table: str
    by: str


class FriendInfo(TypedDict):
    name: str
    online: bool


class MeFrame(TypedDict):
    """A signed-in account's own corner of the lobby: its invitations, whom it follows
    (and who of them is online), whom it blocked, its quick match."""

    type: Literal["me"]
    invites: list[InviteInfo]
    friends: list[FriendInfo]
    blocked: list[str]
    match: JsonObject | None


#: Every frame the lobby's websocket sends.
LobbyFrame = TablesFrame | MeFrame | ErrorFrame | PongFrame


def error_frame(code: str, message: str, seq: int | None = None) -> ErrorFrame:
    """An error frame (``seq``: the game's step, when the connection is in a game)."""
    frame: ErrorFrame = {"type": "error", "code": code, "message": message}
    if seq is not None:
        frame["seq"] = seq
    return frame


def encode(frame: OutFrame | LobbyFrame) -> str:
    """A frame as compact JSON text. orjson writes a view in about a tenth of the time of
    the standard library's encoder, whose share of a move's server time came next after the
    database's. A frame whose keys are all strings (a view's are) is written without
    ``OPT_NON_STR_KEYS``, which takes orjson's slower path (about twice the time) for the
    same bytes; one with other keys (orjson refuses it) is written with it; what orjson
    refuses even then (an integer over 64 bits, a lone surrogate) goes through ``json``."""
    try:
        return orjson.dumps(frame).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))
