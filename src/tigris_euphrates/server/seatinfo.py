"""How a table's seats are shown to everybody: each seat's name (the one chosen, an
account's, or the default the page translates) and what anybody may see of it (kind, bot
level, whether someone plays it now, since when its player is away, the account, its
rating and change, resigned, a bot account's mark). Nothing here reads a hand or a token."""

from __future__ import annotations

from collections.abc import Mapping

from ..store.rows import StoredSeat
from .frames import SeatInfo
from .table import Person


def is_named(seat: int, stored: StoredSeat) -> bool:
    """Whether a seat's name was chosen (by its creator, or its guest's nickname): else the
    page shows the default name in its language (``Player 2``, a bot's level). Games stored
    before the default was left unnamed hold ``Player N`` itself."""
    name = stored.get("name")
    return bool(name) and name != f"Player {seat + 1}"


def seat_name(seat: int, stored: StoredSeat) -> str:
    """A seat's name as stored, else its default in English (the page translates it)."""
    if is_named(seat, stored):
        return str(stored["name"])
    if stored["kind"] == "bot" and not stored.get("token"):  # not a person's seat a bot holds
        return f"Bot ({stored.get('level')})"
    return f"Player {seat + 1}"


def public_seats(
    seats: list[StoredSeat],
    people: Mapping[int, Person],
    online: set[int],
    away_since: Mapping[int, float],
    resigned: list[int],
) -> list[SeatInfo]:
    """Each seat as everybody may see it: kind, bot level, name, whether someone plays it
    now (``online``), whether a bot holds it for its player (``away``) and since when its
    player has been offline (``offline_since``, seconds since the epoch); ``people``: the
    accounts holding seats (``people.read_people``); ``bot`` (only where true) when a bot
    account holds the seat."""
    out: list[SeatInfo] = []
    for i, s in enumerate(seats):
        person = people.get(i)
        info: SeatInfo = {
            "seat": i,
            "kind": s["kind"],
            "level": s.get("level") if s["kind"] == "bot" else None,
            "name": (person["account"] if person else "") or seat_name(i, s),
            "online": s["kind"] == "bot" or i in online,
            "away": s["kind"] == "bot" and bool(s.get("token")),
            "offline_since": None if i in online or not s.get("token") else round(away_since[i], 1),
            "named": i in people or is_named(i, s),
            "account": person["account"] if person else None,
            "rating": person["rating"] if person else None,
            "change": person["change"] if person else None,
            "resigned": i in resigned,
        }
        if person and person["bot"]:
            info["bot"] = True
        out.append(info)
    return out
