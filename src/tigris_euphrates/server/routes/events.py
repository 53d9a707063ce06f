"""Live events over HTTP (``liveevents.py`` says who may do what): the list, an event's page,
making one, entering and leaving, and its results as a tournament record. Every post needs a
signed-in account (a bot account's API token too) and, from the page, its CSRF token; the
pairing itself is the pairing process's (``eventrunner.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import AfterValidator, Field

from ..answers import events as answers
from ..answers.errors import refusals
from ..deps import AccountsDep, CurrentAccount, HubDep
from ..errors import GameError
from ..eventviews import detail, record, summary
from ..inputs import OptionName, OptionValue, Strict, check_text
from ..liveevents import MAX_EVENT_NAME, NewEvent, enter, make_event, visible_event

router = APIRouter()

#: An event's id: 12 hex digits.
EVENT_ID_PATTERN = r"^[0-9a-f]{12}$"
EventId = Annotated[str, PathParam(pattern=EVENT_ID_PATTERN)]
Invite = Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")]


def _event_name(value: str) -> str:
    """An event's name under the server's character policy (``check_text``), 60 at most."""
    return check_text(value, MAX_EVENT_NAME)


class EventPaceSpec(Strict):
    """The clock of the event's games: ``base`` seconds a player, ``increment`` a turn."""

    base: Annotated[float, Field(ge=60, le=3600)]
    increment: Annotated[float, Field(ge=0, le=60)] = 0.0


class NewEventSpec(Strict):
    """``POST /api/events``: an arena (``minutes`` long) or a Swiss event (``rounds``); its
    games' ruleset and ``options`` (the variants: ``wonder``, ``buildings``, ``scoring``…,
    as a game's options, the players and the ruleset aside)."""

    kind: Literal["arena", "swiss"]
    name: Annotated[str, Field(min_length=3, max_length=240), AfterValidator(_event_name)]
    players: Annotated[int, Field(ge=2, le=4)] = 2
    ruleset: Annotated[str, Field(max_length=32)] = "classic"
    options: Annotated[dict[OptionName, OptionValue], Field(max_length=12)] = Field(
        default_factory=dict
    )
    pace: EventPaceSpec
    starts: float | None = None
    minutes: Annotated[int, Field(ge=10, le=720)] | None = None
    rounds: Annotated[int, Field(ge=1, le=15)] | None = None
    rating_min: Annotated[float, Field(ge=0, le=5000)] | None = None
    rating_max: Annotated[float, Field(ge=0, le=5000)] | None = None
    bots: bool = False
    private: bool = False
    repeat_minutes: Annotated[int, Field(ge=60, le=60 * 24 * 28)] | None = None


class JoinSpec(Strict):
    """``POST /api/events/{id}/join``: the invitation code of a private event."""

    invite: Annotated[str, Field(max_length=64)] | None = None


@router.get("/api/events")
async def list_events(hub: HubDep) -> answers.Events:
    """The public events: to come and under way (by start), then the newest finished."""
    now = hub.clock()
    return {"events": [summary(e, now) for e in await hub.db(hub.store.events.listing)]}


@router.get("/api/events/{event_id}", responses=refusals("no-event"))
async def event_page(
    event_id: EventId, hub: HubDep, account: CurrentAccount, invite: Invite = None
) -> answers.EventDetail:
    """An event's page: standings, games, your entry (a private event: with its
    invitation, or for its maker and entrants)."""
    event = await visible_event(hub, event_id, account, invite)
    state = await hub.db(hub.store.events.state, event.id)
    if state is None:
        raise GameError("no-event", "there is no such event")
    return detail(state, hub.clock(), None if account is None else account.id)


@router.post("/api/events", responses=refusals("csrf", "sign-in", "bad-event", "admin-only"))
async def new_event(
    body: NewEventSpec, request: Request, hub: HubDep, service: AccountsDep
) -> answers.EventDetail:
    """Make an event (public or recurring: admins only; anyone: a private one)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    event = await make_event(
        hub,
        account,
        NewEvent(
            body.kind,
            body.name,
            body.players,
            body.ruleset,
            dict(body.options),
            body.pace.base,
            body.pace.increment,
            body.starts,
            body.minutes,
            body.rounds,
            body.rating_min,
            body.rating_max,
            body.bots,
            body.private,
            body.repeat_minutes,
        ),
    )
    return await _page(hub, event.id, account.id)


@router.post(
    "/api/events/{event_id}/join",
    responses=refusals(
        "csrf", "sign-in", "no-event", "event-closed", "bot-not-allowed", "rating-range"
    ),
)
async def join_event(
    event_id: EventId, request: Request, hub: HubDep, service: AccountsDep, body: JoinSpec
) -> answers.EventDetail:
    """Enter the event (an arena's paused entrant comes back)."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    event = await visible_event(hub, event_id, account, body.invite)
    await enter(hub, account, event)
    return await _page(hub, event.id, account.id)


@router.post("/api/events/{event_id}/leave", responses=refusals("csrf", "sign-in", "no-event"))
async def leave_event(
    event_id: EventId, request: Request, hub: HubDep, service: AccountsDep
) -> answers.EventDetail:
    """Leave the event: an arena's entrant pauses (no new game until it joins again), a
    Swiss entrant withdraws (its results stay); before the start, simply not entered."""
    service.check_csrf(request)
    account = await service.signed_in(request)
    event = await visible_event(hub, event_id, account, None)
    await hub.db(hub.store.events.leave, event.id, account.id)
    return await _page(hub, event.id, account.id)


@router.get("/api/events/{event_id}/record", responses=refusals("no-event"))
async def event_record(
    event_id: EventId, hub: HubDep, account: CurrentAccount, invite: Invite = None
) -> answers.EventRecord:
    """The event's finished games as a tournament summary that ``tne ratings`` reads."""
    event = await visible_event(hub, event_id, account, invite)
    state = await hub.db(hub.store.events.state, event.id)
    if state is None:
        raise GameError("no-event", "there is no such event")
    return record(state, hub.clock())


async def _page(hub: HubDep, event_id: str, account: int) -> answers.EventDetail:
    state = await hub.db(hub.store.events.state, event_id)
    if state is None:
        raise GameError("no-event", "there is no such event")
    return detail(state, hub.clock(), account)
