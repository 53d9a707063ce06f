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

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

MAX_NAME = 40
MAX_LEVEL = 32
MAX_TOKEN = 64
MAX_OPTION = 32
#: A game id is 12 hex digits (``secrets.token_hex(6)``); stored ids are at most 32
#: characters. Checked before any database query: a NUL or a megabyte never reaches it.
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,32}$"
#: The largest seed a client may choose (only for games without another person): the
#: server's own seeds are 128 random bits (``secrets``).
SEED_LIMIT = 2**128

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
Level = Annotated[str, _text(MAX_LEVEL)]
#: Seat and creator tokens are ``secrets.token_urlsafe``: URL-safe base64.
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
OptionName = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]
OptionValue = bool | int | Annotated[str, _text(MAX_OPTION)]


class Strict(BaseModel):
    """Unknown fields are refused and nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    """One seat of a new game: a person (``human``) or a bot of a registered level."""

    kind: Literal["human", "bot"] = "human"
    level: Level | None = None
    name: Name | None = None


class CreateGame(Strict):
    """``POST /api/games``: the options are checked by the engine (``Options.from_dict``);
    ``seed`` only for games where no other person sits (see ``Hub.create``)."""

    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=4)]
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    seed: Annotated[int, Field(ge=0, lt=SEED_LIMIT)] | None = None


class SeatChange(Strict):
    """``POST /api/games/{id}/seats/{seat}/bot``: the seat's own token or the creator's."""

    token: Token
    level: Level | None = None


class SeatReturn(Strict):
    """``POST /api/games/{id}/seats/{seat}/human``: the seat's own token."""

    token: Token


def error_message(errors: list[Any]) -> str:
    """One line naming each refused field and why, without echoing what was sent."""
    parts = []
    for err in errors[:5]:
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "path", "query")]
        msg = str(err.get("msg", "invalid"))
        msg = msg.removeprefix("Value error, ")
        parts.append(f"{'.'.join(loc) or 'body'}: {msg}" if loc else msg)
    text = "; ".join(parts) or "invalid request"
    return text.encode("utf-8", "replace").decode("utf-8")[:500]
