"""The odd values the hostile inputs are made of (``hostile``, ``hostile_meet``): text that
breaks parsers and policies, JSON values of any type, a valid body with a field broken,
raw frames, and how such a frame is sent and what the websocket layer answers to it."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import quote

from websockets.sync.client import ClientConnection

WEIRD_TEXT = [
    "",
    " ",
    "\ud83d",
    "a\udc00b",
    "\x00",
    "x\x1b[31m",
    "\u202eevil",
    "e\u0301",
    "²",
    "¹²³",
    "٣",
    "Ⅻ",
    "🀄",
    "null",
    "true",
    "0",
    "-1",
    "1e400",
    "NaN",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "tile red e4",
    "commit ²",
    "swap red=¹",
    "swap red=1,red=1",
    "commit 99999999999999999999999999",
    "monument red-blue a1",
    "undo",
    "seat 1 bot random",
]


COLOURS = ["red", "blue", "green", "black", "purple", "RED", ""]


def weird_value(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value of any type, often odd."""
    kind = rng.randrange(14)
    if kind == 0:
        return rng.choice(WEIRD_TEXT)
    if kind == 1:
        return rng.choice([0, -1, 1, 2**31, 2**63, 2**64, 2**128, 2**200, -(2**63)])
    if kind == 2:
        return rng.choice([0.5, -0.0, 1e308, 3.0])
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return "x" * rng.choice([41, 201, 1000, 5000])
    if kind == 5 and depth < 3:
        return [weird_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 6 and depth < 3:
        return {rng.choice([*WEIRD_TEXT, "type", "seq"]): weird_value(rng, depth + 1)}
    if kind == 7:
        nest = rng.choice([5, 100, 300])
        return json.loads("[" * nest + "]" * nest)
    if kind == 8:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(1, 20)))
    if kind == 9:
        return f"{rng.choice(['tile', 'leader', 'catastrophe', 'swap', 'commit'])} " + rng.choice(
            WEIRD_TEXT
        )
    if kind == 10:
        return rng.choice(COLOURS)
    if kind == 11:
        return rng.randrange(-5, 300)
    if kind == 12:
        return {"type": rng.choice(["tile", "commit", "swap", "x"]), "n": weird_value(rng, 3)}
    return rng.choice(WEIRD_TEXT)


def mutate(rng: random.Random, base: dict[str, Any]) -> Any:
    """``base`` broken in one or a few ways (or, rarely, left valid)."""
    out: Any = json.loads(json.dumps(base))
    for _ in range(rng.randrange(1, 4)):
        if not isinstance(out, dict):
            break
        op = rng.randrange(6)
        keys = list(out)
        if op == 0 and keys:
            out[rng.choice(keys)] = weird_value(rng)
        elif op == 1 and keys:
            del out[rng.choice(keys)]
        elif op == 2:
            out[rng.choice(["extra", "type", "seq", "token", "seats", "pad"])] = weird_value(rng)
        elif op == 3 and keys:  # reach inside a nested value
            key = rng.choice(keys)
            inner = out[key]
            if isinstance(inner, list) and inner:
                i = rng.randrange(len(inner))
                inner[i] = mutate(rng, inner[i]) if isinstance(inner[i], dict) else weird_value(rng)
            elif isinstance(inner, dict):
                out[key] = mutate(rng, inner)
        elif op == 4:
            out = weird_value(rng)
        # op 5: unchanged this round
    return out


def raw_text(rng: random.Random) -> str | bytes:
    """Text that is not JSON, or not text at all."""
    kind = rng.randrange(6)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "[" * rng.choice([10, 1000, 3000])
    if kind == 2:
        return "{" + '"a":' * rng.randrange(1, 50)
    if kind == 3:
        return rng.choice(WEIRD_TEXT)
    if kind == 4:
        return '{"type": "move", "seq": 0, "action": "' + "x" * rng.choice([5000, 20000]) + '"}'
    return "".join(chr(rng.randrange(1, 0x800)) for _ in range(rng.randrange(1, 40)))


def send(ws: ClientConnection, frame: str | bytes) -> None:
    """Send ``frame``; text holding lone surrogates goes out as the invalid UTF-8 it is."""
    if isinstance(frame, str):
        try:
            frame.encode("utf-8")
        except UnicodeEncodeError:
            ws.send(frame.encode("utf-8", "surrogatepass"), text=True)
            return
    ws.send(frame)


def protocol_close(frame: str | bytes) -> int | None:
    """The close code the websocket layer itself answers ``frame`` with, if any: 1007 for
    a text frame that is not UTF-8, 1009 for one over ``Limits.ws_max_bytes``."""
    if isinstance(frame, str):
        try:
            size = len(frame.encode("utf-8"))
        except UnicodeEncodeError:
            return 1007
    else:
        size = len(frame)
    return 1009 if size > 64 * 1024 else None


def quoted(value: Any) -> str:
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def encode_body(rng: random.Random, body: Any) -> bytes:
    text = json.dumps(body, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate sent raw: not UTF-8 at all
        return text.encode("utf-8", "surrogatepass")
