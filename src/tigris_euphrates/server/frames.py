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

The lobby's websocket (``lobbyfeed.py``) sends ``TablesFrame``, ``MeFrame`` and
``ActivityFrame``.

The frames are ``TypedDict``\\ s: JSON objects whose keys keep the order written here, so
that the bytes on the wire stay what the page and the bots have always read.
"""

from __future__ import annotations

import json
from typing import Literal, NotRequired

import orjson
from typing_extensions import TypedDict

from ..store.bots import PublicChallenge
from ..store.jsontypes import JsonDict
from ..store.rows import PaceData, SentOptions
from .clocks import ClockData


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
    #: present (true) only when a bot account holds the seat: the page marks it BOT
    bot: NotRequired[bool]


class LogLine(TypedDict):
    """A step of the game's log as one seat may read it."""

    seq: int
    seat: int | None
    action: str
    events: list[JsonDict]


class TimeoutNote(TypedDict):
    """A seat whose time ran out: the bot that took it, the step, and when its player took
    it back (``None`` while the bot holds it)."""

    seat: int
    level: str
    seq: int
    back: int | None


class SeatNote(TypedDict):
    """A line of the log that is no move: seat ``seat`` went to a bot (``bot``, ``timeout``:
    its time ran out; ``fallback``: its bot could not move, one of ``level`` plays it from
    then on), came back (``human``), resigned (``resign``) or its player aborted
    the game (``abort``), at entry ``seq``, asked by seat ``by`` (``None``: the game's
    creator, the clock or the server). ``why``: the seat gave up in a rated game's opening,
    which aborted it (``resign``, ``bot``, ``timeout``: ``endings.py``)."""

    seq: int
    seat: int
    change: str
    level: str | None
    by: int | None
    why: NotRequired[str]


class ViewFrame(TypedDict):
    type: Literal["view"]
    game: str
    seq: int
    seat: int | None
    view: JsonDict
    seats: list[SeatInfo]
    can_undo: bool
    chat: str
    rematch: str | None
    clock: ClockData | None
    timeouts: list[TimeoutNote]
    seat_log: list[SeatNote]
    log_reset: bool
    log: list[LogLine]
    stats: JsonDict | None
    #: the game was stopped (only in the frames of such a game): by a moderator, or by
    #: the player of seat ``aborted_by`` before every player had moved, or because seat
    #: ``aborted_by`` gave up in a rated game's opening (``aborted_why``: ``endings.py``)
    aborted: NotRequired[bool]
    aborted_by: NotRequired[int]
    aborted_why: NotRequired[str]


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


class HintReason(TypedDict):
    """Why a hint's move is worth playing: a catalogue key (``hint_why_*``) and the fields
    its text names (a colour, the seat's and the other side's strength ``mine`` and
    ``theirs``, a number of points or supporters ``n``, a monument)."""

    key: str
    colour: NotRequired[str]
    mine: NotRequired[int]
    theirs: NotRequired[int]
    n: NotRequired[int]
    monument: NotRequired[str]


class Suggestion(TypedDict):
    """A suggested move (its notation) and why (``suggest.suggest``)."""

    action: str
    reason: HintReason


class HintFrame(TypedDict):
    type: Literal["hint"]
    seq: int
    seat: int
    action: str
    #: why: a catalogue key (``hint_why_*``) and the fields its text names
    reason: HintReason
    #: hints the seat may still ask for in this game
    left: int


class BotHello(TypedDict):
    """The bot account an event socket opened: its name and id (``bot``: always true)."""

    name: str
    id: int
    bot: bool


class HelloFrame(TypedDict):
    """The bot account an event socket opened."""

    type: Literal["hello"]
    account: BotHello


class ChallengeFrame(TypedDict):
    """A challenge of the bot account, new or in a new state (``Challenge.public``)."""

    type: Literal["challenge"]
    challenge: PublicChallenge


class GameFrame(TypedDict):
    """An unfinished game of the bot account: its program plays ``seat`` of it."""

    type: Literal["game"]
    game: str
    seat: int
    rated: bool
    options: SentOptions


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


class TableSeatInfo(TypedDict):
    """A taken seat of an open table: its player's name, whether it is an account (a bot
    account: ``bot``) and that account's displayed rating and rated games in the table's
    family and size (``None``: not rated there yet, or not an account)."""

    seat: int
    name: str
    account: bool
    bot: bool
    rating: int | None
    games: int | None


class TableInfo(TypedDict):
    """An open table as the lobby lists it: its game, its rules of entry, the seated
    players (name, whether an account, its rating and rated games there) and the free
    seats."""

    id: str
    options: SentOptions
    pace: PaceData | None
    players: int
    rated: bool
    min_rating: float | None
    max_rating: float | None
    #: the creator may start early with AI players in the free seats
    allow_bots: bool
    #: bot accounts may take its seats (the lobby marks it "bots welcome")
    bot_accounts: bool
    expires: float
    seats: list[TableSeatInfo]
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


class PlayingInfo(TypedDict):
    """One unfinished game of the account in its lobby corner: the game, its seat, every
    seat's name, whether it is rated, its pace's kind and whether the account is to act."""

    game: str
    seat: int
    names: list[str]
    rated: bool
    pace: str | None
    my_turn: bool


class InviteeInfo(TypedDict):
    """An account a direct challenge invites, and its answer (``waiting``, ``accepted``,
    ``declined``)."""

    name: str
    answer: str


class ChallengeInfo(TypedDict):
    """A direct challenge as its people's lobbies show it: who sent it (``mine``: this
    account), whom it invites, the game it offers, its state (``open``, ``accepted`` with
    its ``game``, ``declined`` or ``cancelled`` by ``closed_by``, ``expired``) and until when
    it waits."""

    id: str
    by: str
    mine: bool
    invitees: list[InviteeInfo]
    players: int
    options: SentOptions
    pace: PaceData | None
    rated: bool
    state: str
    closed_by: str | None
    game: str | None
    expires: float


class QuickMatch(TypedDict):
    """An account's quick match: its state (``waiting``, ``matched``, ``seated``), the game
    wanted (family, players, pace's kind), since when it waits, after how many seconds a
    bot may fill the game, and the game and seat once matched."""

    state: str
    family: str
    players: int
    pace: str
    joined: float
    bot_after: float | None
    game: str | None
    seat: int | None


class MeFrame(TypedDict):
    """A signed-in account's own corner of the lobby: its invitations, whom it follows
    (and who of them is online), whom it blocked, its quick match (``None`` once its game
    is over) and its unfinished games."""

    type: Literal["me"]
    invites: list[InviteInfo]
    friends: list[FriendInfo]
    blocked: list[str]
    match: QuickMatch | None
    playing: list[PlayingInfo]
    #: its direct challenges, sent and received (``direct.py``)
    challenges: list[ChallengeInfo]


class SeekInfo(TypedDict):
    """A player waiting in quick match: the game wanted, since when, and the displayed
    rating there (``None``: not rated there yet)."""

    name: str
    family: str
    players: int
    pace: str
    since: float
    rating: int | None


class WatchSeat(TypedDict):
    """A seat of a game under way: its name, whether an account holds it, and that
    account's displayed rating at the game (``None``: not rated there, a guest, a bot)."""

    name: str
    account: bool
    rating: int | None


class WatchInfo(TypedDict):
    """A listed game under way between people, to watch (``/game/<game>``): the average
    displayed rating of its accounts (one not rated there counts as a newcomer's 1500;
    ``None``: no account plays it)."""

    game: str
    options: SentOptions
    rated: bool
    seats: list[WatchSeat]
    average: int | None


class ActivityFrame(TypedDict):
    """What everybody in the lobby sees of the others (``lobbyactivity.py``): how many
    people are online, the open seeks of quick match, games under way to watch and the
    best of them (the rated game of the highest average rating)."""

    type: Literal["activity"]
    online: int
    seeks: list[SeekInfo]
    games: list[WatchInfo]
    best: WatchInfo | None


#: Every frame the lobby's websocket sends.
LobbyFrame = TablesFrame | MeFrame | ActivityFrame | ErrorFrame | PongFrame


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
