"""Making, entering and leaving live events (the routes are ``routes/events.py``; the
pairing is ``eventrunner.py``).

Who makes what: an admin makes public events, recurring ones too (``repeat_minutes``); any
signed-in person makes a private event, shown only to whoever holds its invitation link, its
maker and its entrants. Who enters: people whose displayed rating (of the event's rating
family and player count) is within its range; bot accounts only where the maker allowed
them, always shown as bots. A game between people is rated like any other; a game with a
bot account is not (as everywhere on this server), but it counts for the event.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from .. import RULESETS, InvalidAction
from ..store.accounts import Account
from ..store.eventrows import EventRefused, EventRow, EventSettings, event_options, game_options
from ..store.ratings import displayed, family_of, size_of
from ..store.rows import GameOptions, checked_options
from .errors import GameError
from .hub import Hub

#: The longest event name, and the bounds of an event's length.
MAX_EVENT_NAME = 60
ARENA_MINUTES = (10, 720)
SWISS_ROUNDS = (1, 15)
#: The events to come or under way a player (not an admin) may have made.
EVENTS_PER_MAKER = 3
#: How far ahead an event may be scheduled (30 days).
MAX_AHEAD = 30 * 86400.0
#: The bounds of a game's clock in an event: 1 to 60 minutes a player, 0 to 60 s a turn.
BASE_SECONDS = (60.0, 3600.0)
INCREMENT_SECONDS = (0.0, 60.0)


@dataclass
class NewEvent:
    """What a maker asks for (``routes/events.py`` checked the shapes)."""

    kind: str
    name: str
    players: int
    ruleset: str
    options: dict[str, object]
    base: float
    increment: float
    starts: float | None
    minutes: int | None
    rounds: int | None
    rating_min: float | None
    rating_max: float | None
    bots: bool
    private: bool
    repeat_minutes: int | None


def _check(new: NewEvent, now: float) -> None:
    """Refuse a new event that cannot be run (``bad-event``)."""
    problems = []
    if new.kind not in ("arena", "swiss"):
        problems.append("the kind is arena or swiss")
    if new.ruleset not in RULESETS:
        problems.append(f"there is no ruleset {new.ruleset!r}")
    elif {"players", "ruleset"} & set(new.options):
        problems.append("the players and the ruleset are fields of their own, not options")
    else:
        try:
            checked_options({**game_options(new.ruleset, new.options), "players": new.players})
        except InvalidAction as exc:
            problems.append(f"the options: {exc}")
    if not 2 <= new.players <= 4:
        problems.append("a game has 2 to 4 players")
    if not 3 <= len(new.name.strip()) <= MAX_EVENT_NAME:
        problems.append(f"the name has 3 to {MAX_EVENT_NAME} characters")
    if not BASE_SECONDS[0] <= new.base <= BASE_SECONDS[1]:
        problems.append("the clock gives 1 to 60 minutes a player")
    if not INCREMENT_SECONDS[0] <= new.increment <= INCREMENT_SECONDS[1]:
        problems.append("the clock adds 0 to 60 seconds a turn")
    if new.kind == "arena" and not (
        new.minutes is not None and ARENA_MINUTES[0] <= new.minutes <= ARENA_MINUTES[1]
    ):
        problems.append(f"an arena lasts {ARENA_MINUTES[0]} to {ARENA_MINUTES[1]} minutes")
    if new.kind == "swiss" and not (
        new.rounds is not None and SWISS_ROUNDS[0] <= new.rounds <= SWISS_ROUNDS[1]
    ):
        problems.append(f"a Swiss event has {SWISS_ROUNDS[0]} to {SWISS_ROUNDS[1]} rounds")
    if new.starts is not None and not now - 60 <= new.starts <= now + MAX_AHEAD:
        problems.append("an event starts within the next 30 days")
    if (
        new.rating_min is not None
        and new.rating_max is not None
        and new.rating_min > new.rating_max
    ):
        problems.append("the lowest rating is above the highest")
    if new.repeat_minutes is not None and new.repeat_minutes < 60:
        problems.append("a recurring event comes back after an hour or more")
    if problems:
        raise GameError("bad-event", "; ".join(problems))


async def make_event(hub: Hub, account: Account, new: NewEvent) -> EventRow:
    """A new event by ``account`` (public events and recurring ones: admins only)."""
    now = hub.clock()
    _check(new, now)
    admin = (await hub.db(hub.store.moderation.standing, account.id)).admin
    if not admin and (not new.private or new.repeat_minutes is not None):
        raise GameError(
            "admin-only",
            "only an admin makes public or recurring events: make it private and share "
            "its invitation link",
        )
    starts = now + 300.0 if new.starts is None else max(new.starts, now)
    settings: EventSettings = {
        "players": new.players,
        "ruleset": new.ruleset,
        "options": game_options(new.ruleset, new.options),
        "base": new.base,
        "increment": new.increment,
        "rating_min": new.rating_min,
        "rating_max": new.rating_max,
        "bots": new.bots,
        "private": new.private,
        "minutes": new.minutes if new.kind == "arena" else None,
        "rounds": new.rounds if new.kind == "swiss" else None,
        "repeat_minutes": new.repeat_minutes,
    }
    row = EventRow(
        secrets.token_hex(6),
        new.name.strip(),
        new.kind,
        account.id,
        "scheduled",
        settings,
        starts,
        starts + 60.0 * new.minutes if new.kind == "arena" and new.minutes else None,
        0,
        secrets.randbits(31),
        secrets.token_urlsafe(12) if new.private else None,
        None,
        now,
        account.name,
    )
    try:
        await hub.db(hub.store.events.create, row, None if admin else EVENTS_PER_MAKER)
    except EventRefused as exc:
        raise GameError(exc.code, exc.message) from None
    return row


async def visible_event(
    hub: Hub, event_id: str, account: Account | None, invite: str | None
) -> EventRow:
    """The event, if this visitor may see it (``no-event`` otherwise, as if there were
    none: a private event's existence is not told)."""
    seen = await hub.db(
        hub.store.events.visible, event_id, None if account is None else account.id, invite
    )
    event = await hub.db(hub.store.events.get, event_id) if seen else None
    if event is None:
        raise GameError("no-event", "there is no such event")
    return event


async def rating_in(hub: Hub, account: Account, event: EventRow) -> float:
    """The account's displayed rating for the event's games (a newcomer: 1500)."""
    options: GameOptions = {**event_options(event), "players": event.settings["players"]}
    family = family_of(options)
    ordinals = await hub.db(
        hub.store.ratings.ordinals, [account.id], family, size_of(event.settings["players"])
    )
    return float(displayed(ordinals.get(account.id, 0.0)))


async def enter(hub: Hub, account: Account, event: EventRow) -> None:
    """Enter the event (or come back to an arena after a pause)."""
    if account.is_bot and not event.settings["bots"]:
        raise GameError("bot-not-allowed", "this event is for people: its maker allowed no bots")
    rating = await rating_in(hub, account, event)
    low, high = event.settings["rating_min"], event.settings["rating_max"]
    if (low is not None and rating < low) or (high is not None and rating > high):
        raise GameError(
            "rating-range",
            f"this event is for ratings {low if low is not None else 0:g} to "
            f"{high if high is not None else '∞'}; yours is {rating:g}",
        )
    try:
        await hub.db(
            hub.store.events.join, event.id, account.id, rating, account.is_bot, hub.clock()
        )
    except EventRefused as exc:
        raise GameError(exc.code, exc.message) from None
    hub.eventrunner.kick.set()
