"""What the server accepts: a pydantic model for every request body and websocket message.

Every text field has a length limit and one character policy (``check_text``): no lone
surrogates (they cannot be encoded, so a stored one broke every page that showed it), no
control characters (C0, C1, and the bidirectional overrides that make a name read as
something else), and NFC normalisation (one spelling per name). Models forbid unknown
fields and coerce nothing (``strict``): ``"1"`` is not a number and ``true`` is not 1.
"""

from __future__ import annotations

import unicodedata
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

MAX_NAME = 40
MAX_LEVEL = 32
MAX_TOKEN = 64
MAX_OPTION = 32
#: The longest table chat line (``chat.CHAT_MAX``).
MAX_CHAT = 300
#: A game id is 12 hex digits (``secrets.token_hex(6)``); stored ids are at most 32
#: characters. Checked before any database query: a NUL or a megabyte never reaches it.
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,32}$"
#: The largest seed a client may choose (only for games without another person): the
#: server's own seeds are 128 random bits (``secrets``).
SEED_LIMIT = 2**128
#: The most actions a lesson's play may hold (``tutorial.MAX_ACTIONS``).
MAX_LESSON_ACTIONS = 12

#: Format characters that reorder text: a name holding them can display as another name.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_text(value: str, limit: int) -> str:
    """``value`` under the character policy, NFC-normalised; raises ``ValueError`` naming
    the problem (never echoing the text)."""
    if len(value) > 4 * limit:  # NFC can shorten a string, but not by four times
        raise ValueError(f"at most {limit} characters")
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cs":
            raise ValueError("a lone surrogate is not a character (send valid UTF-16 pairs)")
        if category == "Cc" or ch in _BIDI:
            raise ValueError(f"control characters are not allowed (U+{ord(ch):04X})")
    value = unicodedata.normalize("NFC", value)
    if len(value) > limit:
        raise ValueError(f"at most {limit} characters")
    return value


def _text(limit: int) -> Any:
    return AfterValidator(partial(check_text, limit=limit))


Name = Annotated[str, _text(MAX_NAME)]
#: A name looked up (sign-in, a player's page): never empty.
NameQuery = Annotated[str, StringConstraints(min_length=1), _text(MAX_NAME)]
Level = Annotated[str, _text(MAX_LEVEL)]
#: Seat and creator tokens are ``secrets.token_urlsafe``: URL-safe base64.
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{0,64}$"
Token = Annotated[str, StringConstraints(min_length=1, pattern=TOKEN_PATTERN)]
OptionName = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]
#: A catalogue's language or theme in a path (``de``, ``galaxy``).
CATALOGUE_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
#: A signed unsubscribe token (itsdangerous: URL-safe base64 parts joined by dots).
UNSUBSCRIBE_PATTERN = r"^[A-Za-z0-9_.-]{1,200}$"
OptionValue = bool | int | Annotated[str, _text(MAX_OPTION)]


#: a plain address check: something@domain.tld, no spaces, no angle brackets
EMAIL_PATTERN = r"^[^\s@<>,;\"]+@[^\s@<>,;\"]+\.[^\s@<>,;\"]+$"
#: an e-mail address: at most 254 characters, under the character policy
EmailAddress = Annotated[
    str,
    Field(max_length=254, pattern=EMAIL_PATTERN),
    AfterValidator(partial(check_text, limit=254)),
]


class Strict(BaseModel):
    """Unknown fields are refused and nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    """One seat of a new game: a person (``human``) or a bot of a registered level."""

    kind: Literal["human", "bot"] = "human"
    level: Level | None = None
    name: Name | None = None


class PaceSpec(Strict):
    """A game's pace (``server/clocks.py``): ``realtime``, ``base`` seconds a seat plus
    ``increment`` a turn, or ``turn`` (turn-based), ``base`` seconds a move; ``level``: the
    bot that takes the seat of a player whose time ran out."""

    kind: Literal["realtime", "turn"]
    base: Annotated[float, Field(ge=0.5, le=30 * 24 * 3600)]
    increment: Annotated[float, Field(ge=0, le=30 * 24 * 3600)] = 0.0
    level: Level | None = None


class CreateGame(Strict):
    """``POST /api/games``: the options are checked by the engine (``Options.from_dict``);
    ``seed`` only for games where no other person sits (see ``Hub.create``)."""

    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=4)]
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    seed: Annotated[int, Field(ge=0, lt=SEED_LIMIT)] | None = None
    #: whether the public lobby lists the game (anyone may then watch it from there)
    listed: bool = False
    #: who may write in the table chat (see ``chat``)
    chat: Literal["players", "everyone", "off"] = "players"
    #: the result changes the players' ratings (the creator must be signed in)
    rated: bool = False
    #: a clock per player (none: the game waits for everybody as long as it takes)
    pace: PaceSpec | None = None


class SeatChange(Strict):
    """``POST /api/games/{id}/seats/{seat}/bot``: the seat's own token or the creator's
    (none: the seat held by the signed-in account, with the CSRF header)."""

    token: Token | None = None
    level: Level | None = None


class Rematch(Strict):
    """``POST /api/games/{id}/rematch``: a seat's token or the creator's (none: a seat held
    by the signed-in account, with the CSRF header)."""

    token: Token | None = None


class SeatReturn(Strict):
    """``POST /api/games/{id}/seats/{seat}/human``: the seat's own token (none: the seat
    held by the signed-in account, with the CSRF header)."""

    token: Token | None = None


def error_message(errors: list[Any]) -> str:
    """One line naming each refused field and why, without echoing what was sent."""
    parts, named = [], set()
    for err in errors:
        # the location, without pydantic's names of union members ("constrained-str", ...)
        loc = [
            str(x)
            for x in err.get("loc", ())
            if x not in ("body", "path", "query") and "-" not in str(x) and "[" not in str(x)
        ]
        where = ".".join(loc)
        if where in named:
            continue  # one reason a field (a union's first)
        named.add(where)
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
        if len(parts) == 5:
            break
    text = "; ".join(parts) or "invalid request"
    return text.encode("utf-8", "replace").decode("utf-8")[:500]


# --- websocket messages -------------------------------------------------------------------

#: The action notation is ASCII (FORMATS.md): words, cells, counts, ``=``, ``,`` and ``-``.
#: Anything else (``commit ²``: a digit to ``isdigit`` that ``int`` refuses) is refused here.
ActionText = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9 ,=\-]+$")
]
ActionWord = Annotated[str, StringConstraints(max_length=32, pattern=r"^[A-Za-z0-9\-]+$")]
ActionField = Annotated[str, StringConstraints(max_length=16, pattern=r"^[a-z_]+$")]
#: The JSON form of an action (``{"type": "tile", "colour": "red", "cell": "e4"}``; a
#: swap's ``tiles`` is an object colour -> count); the engine reads it.
ActionObject = Annotated[
    dict[
        ActionField,
        Annotated[int, Field(ge=0, le=99)]
        | ActionWord
        | Annotated[dict[ActionWord, Annotated[int, Field(ge=0, le=99)]], Field(max_length=4)],
    ],
    Field(max_length=6),
]
#: A step of the game's log; more steps than any game has are simply stale.
Seq = Annotated[int, Field(ge=0, lt=2**31)]


class Join(Strict):
    """The first message: a seat's token, or a seat bound to the signed-in account (the
    session cookie of the websocket's request), or neither to watch."""

    type: Literal["join"]
    token: Token | None = None
    seat: Annotated[int, Field(ge=0, le=3)] | None = None


class Move(Strict):
    """An action (notation or JSON form) made against step ``seq``."""

    type: Literal["move"]
    seq: Seq
    action: ActionText | ActionObject


class Undo(Strict):
    """Take back one's own last action, made at step ``seq - 1``."""

    type: Literal["undo"]
    seq: Seq


class Sync(Strict):
    """Send the current view with the whole log."""

    type: Literal["sync"]


def _chat_text(value: str) -> str:
    value = check_text(value, MAX_CHAT).strip()
    if not value:
        raise ValueError("an empty line")
    return value


class Chat(Strict):
    """A line of the table chat: plain text, at most ``MAX_CHAT`` characters."""

    type: Literal["chat"]
    text: Annotated[str, AfterValidator(_chat_text)]


class Ping(Strict):
    """Answered with ``{"type": "pong", "t": t}``."""

    type: Literal["ping"]
    t: int | float | Annotated[str, StringConstraints(max_length=64)] | None = None


class Hint(Strict):
    """Ask for a suggested move for one's own decision at step ``seq`` (games that are not
    rated: ``server/hints.py``)."""

    type: Literal["hint"]
    seq: Seq


class Resign(Strict):
    """The seat's player resigns (``endings.py``)."""

    type: Literal["resign"]


class Abort(Strict):
    """The seat's player stops the game, unrated, while a player has not moved yet."""

    type: Literal["abort"]


class Nickname(Strict):
    """A guest names their seat (``people.nickname`` checks the text)."""

    type: Literal["name"]
    name: Annotated[str, StringConstraints(max_length=4 * MAX_NAME)]


#: Every message a joined connection may send.
Message = Join | Move | Undo | Sync | Ping | Chat | Hint | Resign | Abort | Nickname
ClientMessage = Annotated[Message, Field(discriminator="type")]
MESSAGE: TypeAdapter[Message] = TypeAdapter(ClientMessage)


def read_message(text: str) -> Message:
    """One websocket message; raises ``BadMessage`` naming the problem."""
    try:
        return MESSAGE.validate_json(text)
    except ValidationError as exc:
        errors = exc.errors(include_input=False)
        code = "bad-json" if any(e["type"] == "json_invalid" for e in errors) else "bad-message"
        if code == "bad-json":
            message = "messages are JSON objects: " + error_message(list(errors))
            raise BadMessage(code, message) from None
        raise BadMessage(code, error_message(list(errors))) from None


class BadMessage(ValueError):
    """A websocket message that is not one of the protocol's messages."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the tutorial (``routes/tutorial.py``) ----------------------------------------------


class LessonPlay(Strict):
    """``POST /api/lessons/{id}/play``: the learner's actions so far, in notation."""

    actions: Annotated[list[ActionText], Field(max_length=MAX_LESSON_ACTIONS)]


# --- moderation (``routes/moderation.py``) ------------------------------------------------

#: The longest reason of a report.
MAX_REASON = 200


def _reason(value: str) -> str:
    value = check_text(value, MAX_REASON).strip()
    if not value:
        raise ValueError("say in a few words what is wrong")
    return value


class ReportBody(Strict):
    """``POST /api/reports``: a chat line (``kind`` ``chat``: ``game`` and its line ``n``)
    or an account (``account``: its ``name``), with a short reason."""

    kind: Literal["chat", "account"]
    reason: Annotated[str, AfterValidator(_reason)]
    game: Annotated[str, StringConstraints(pattern=GAME_ID_PATTERN)] | None = None
    n: Annotated[int, Field(ge=1, lt=2**31)] | None = None
    name: NameQuery | None = None

    @model_validator(mode="after")
    def _target(self) -> ReportBody:
        if self.kind == "chat" and (self.game is None or self.n is None or self.name):
            raise ValueError("a chat line is reported with its game and its line n (no name)")
        if self.kind == "account" and (self.name is None or self.game or self.n):
            raise ValueError("an account is reported with its name (no game, no line)")
        return self


class ReportState(Strict):
    """``POST /api/admin/reports/{id}``: the report's new state."""

    state: Literal["open", "resolved", "dismissed"]
