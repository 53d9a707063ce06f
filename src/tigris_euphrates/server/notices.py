"""The messages the server processes send each other on one PostgreSQL database.

They travel on the database's ``LISTEN``/``NOTIFY`` channel (``cluster.py``), as versioned
JSON objects: ``{"v": 1, "kind": "step", "proc": "...", ...}``. Each kind is a frozen
dataclass below; ``encode`` writes one and ``decode`` reads one, the only two places where
the text of a message is written or read. A message of another version or a malformed one
decodes to ``None`` (a process of a newer release may share the database for a moment
during an upgrade: it is ignored, not misread).

``proc`` is the sending process. The kinds:

- ``step``: log entry ``seq`` of ``game`` was committed, with the entry itself (sent by the
  store in the transaction that writes it, so it is delivered exactly when the entry is
  visible);
- ``claim``: a connection opened ``seat`` (it takes over older ones: the common order of
  the notifications decides which is newer); ``here``: it is still there (an answer to
  ``who``); ``gone``: it closed; ``who``: who is connected to ``game``?
- ``chat``: chat line ``n`` of ``game`` was stored; ``rematch``: ``game``'s rematch is
  ``rematch``;
- ``hide``: a moderator hid (or showed again) chat line ``n`` of ``game``: read its chat
  again; ``expel``: ``seat`` of ``game`` belongs to a banned account: close its connections;
- ``names``: a seat of ``game`` was bound to an account, or a guest named their seat:
  read the table's names again (``people.py``);
- ``beat``: the process is alive.
- ``lobby``: what the lobby shows changed: the open tables (``account`` 0), or what one
  account's lobby shows (its invitations, its quick match: ``account``); ``what`` says which;
- ``released``: the process let go of every game lock it held (it is stopping): the others
  take the games now instead of at their next scan.

The command line (``tne admin``) sends ``step``, ``hide`` and ``expel`` messages too, with a
``proc`` of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar

#: The version of the messages this release writes and reads.
VERSION = 1


@dataclass(frozen=True, slots=True)
class Step:
    kind: ClassVar[str] = "step"
    proc: str
    game: str
    seq: int
    seat: int | None
    action: str


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClassVar[str] = "claim"
    proc: str
    game: str
    seat: int
    conn: str


@dataclass(frozen=True, slots=True)
class Here:
    kind: ClassVar[str] = "here"
    proc: str
    game: str
    seat: int
    conn: str


@dataclass(frozen=True, slots=True)
class Gone:
    kind: ClassVar[str] = "gone"
    proc: str
    game: str
    seat: int
    conn: str


@dataclass(frozen=True, slots=True)
class Who:
    kind: ClassVar[str] = "who"
    proc: str
    game: str


@dataclass(frozen=True, slots=True)
class ChatStored:
    kind: ClassVar[str] = "chat"
    proc: str
    game: str
    n: int


@dataclass(frozen=True, slots=True)
class RematchMade:
    kind: ClassVar[str] = "rematch"
    proc: str
    game: str
    rematch: str


@dataclass(frozen=True, slots=True)
class ChatHidden:
    kind: ClassVar[str] = "hide"
    proc: str
    game: str
    n: int


@dataclass(frozen=True, slots=True)
class Expel:
    kind: ClassVar[str] = "expel"
    proc: str
    game: str
    seat: int


@dataclass(frozen=True, slots=True)
class Names:
    kind: ClassVar[str] = "names"
    proc: str
    game: str


@dataclass(frozen=True, slots=True)
class Beat:
    kind: ClassVar[str] = "beat"
    proc: str


@dataclass(frozen=True, slots=True)
class LobbyNote:
    kind: ClassVar[str] = "lobby"
    proc: str
    account: int
    what: str


@dataclass(frozen=True, slots=True)
class Released:
    kind: ClassVar[str] = "released"
    proc: str


#: Every message between processes.
Notice = (
    Step
    | Claim
    | Here
    | Gone
    | Who
    | ChatStored
    | RematchMade
    | ChatHidden
    | Expel
    | Names
    | Beat
    | Released
    | LobbyNote
)
#: A seat's presence: a connection opened, still there, or closed.
Presence = Claim | Here | Gone

_KINDS: dict[str, type[Notice]] = {
    cls.kind: cls
    for cls in (
        Step,
        Claim,
        Here,
        Gone,
        Who,
        ChatStored,
        RematchMade,
        ChatHidden,
        Expel,
        Names,
        Beat,
        Released,
        LobbyNote,
    )
}
#: The Python types each field's JSON value must have (a bool is not an int here).
_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "int | None": (int, type(None)),
}


#: Each kind's fields in order, with the Python types their JSON values must have (a bool
#: is not an int here): read once, not per message (``dataclasses.fields`` per call was a
#: visible share of a move's server time).
_FIELDS: dict[type[Notice], tuple[tuple[str, tuple[type, ...]], ...]] = {
    cls: tuple((f.name, _TYPES[str(f.type)]) for f in fields(cls)) for cls in _KINDS.values()
}
#: The encoder of the messages' text: compact, non-ASCII characters as they are.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def encode(notice: Notice) -> str:
    """The message as the text of a notification (its fields are strings, integers and
    ``None``: read as they are, no ``asdict`` deep copy)."""
    data: dict[str, str | int | None] = {"v": VERSION, "kind": notice.kind}
    for name, _ in _FIELDS[type(notice)]:
        data[name] = getattr(notice, name)
    return _ENCODER.encode(data)


def written_by(proc: str, but: tuple[type[Notice], ...] = ()) -> tuple[str, ...]:
    """How the text of every message that process ``proc`` writes begins, of every kind
    but ``but`` (``encode`` puts the version, the kind and the process first; the
    beginning ends with the process's closing quote, so no other process's text has it):
    a process passes over its own messages, which come back to it, without reading them."""
    return tuple(
        _ENCODER.encode({"v": VERSION, "kind": cls.kind, "proc": proc})[:-1]
        for cls in _KINDS.values()
        if cls not in but
    )


def decode(text: str) -> Notice | None:
    """The message a notification carries; ``None`` for one of another version or a
    malformed one."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return None
    cls = _KINDS.get(data.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        return None
    values: dict[str, Any] = {}
    for name, types in _FIELDS[cls]:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, types):
            return None
        values[name] = value
    return cls(**values)
