"""FastAPI dependencies: how a route (HTTP or websocket) reaches what the running app holds.

A route declares what it needs by type, e.g. ``hub: HubDep`` or ``client: Client``; the
lifespan (``app.py``) puts the objects on ``app.state`` and these are the only readers.
Nothing here refuses a request except ``SignedIn`` (``sign-in``, 401): the others only hand
things over, so declaring them does not change the order in which a request is checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..store import Store
from ..store.accounts import Account
from .accounts import AccountService
from .conncount import Connections
from .hub import Hub
from .limits import Limits
from .mail import Mailer
from .settings import Settings


def get_hub(conn: HTTPConnection) -> Hub:
    """The live games of this process."""
    hub: Hub = conn.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


def get_store(conn: HTTPConnection) -> Store:
    """The game store (its calls block: run them with ``hub.db``)."""
    store: Store = conn.app.state.store
    return store


StoreDep = Annotated[Store, Depends(get_store)]


def get_settings(conn: HTTPConnection) -> Settings:
    """The settings the app was built from."""
    settings: Settings = conn.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_limits(hub: HubDep) -> Limits:
    """What one client may ask (the hub enforces most of them)."""
    return hub.limits


LimitsDep = Annotated[Limits, Depends(get_limits)]


def get_mailer(conn: HTTPConnection) -> Mailer | None:
    """Where the server's e-mails go (``None``: this server sends none)."""
    mailer: Mailer | None = conn.app.state.mailer
    return mailer


MailerDep = Annotated[Mailer | None, Depends(get_mailer)]

#: The key that signs the links e-mailed (unsubscribe, confirm an address), shared by every
#: process: read from the store on first use.
LinkKey = Callable[[], Awaitable[str]]


def get_link_key(hub: HubDep) -> LinkKey:
    """How to read the links' signing key (the clocks' timekeeper keeps it once read)."""
    return hub.timekeeper.key


LinkKeyDep = Annotated[LinkKey, Depends(get_link_key)]


def get_connections(conn: HTTPConnection) -> Connections:
    """The websockets open from each client address of this process, and their limit."""
    connections: Connections = conn.app.state.connections
    return connections


ConnectionsDep = Annotated[Connections, Depends(get_connections)]


def client_of(conn: HTTPConnection) -> str:
    """Who is asking, for the per-client limits: a hash of the address. It is the socket's
    peer, unless that peer is a proxy the setting ``forwarded_allow_ips`` names, whose
    ``X-Forwarded-For`` then gives the player's address (uvicorn reads it)."""
    host = conn.client.host if conn.client is not None else ""
    return hashlib.sha256(host.encode("utf-8", "replace")).hexdigest()[:32]


Client = Annotated[str, Depends(client_of)]


def get_accounts(conn: HTTPConnection) -> AccountService:
    """The account service: accounts, ratings, passwords and sessions."""
    service: AccountService = conn.app.state.accounts
    return service


AccountsDep = Annotated[AccountService, Depends(get_accounts)]


async def current_account(conn: HTTPConnection, service: AccountsDep) -> Account | None:
    """The signed-in account (``None``: a guest)."""
    return await service.current(conn)


CurrentAccount = Annotated[Account | None, Depends(current_account)]


async def signed_in(conn: HTTPConnection, service: AccountsDep) -> Account:
    """The signed-in account; a guest is refused (``sign-in``). Only for routes that check
    nothing before it: a dependency runs before the request's own fields are validated."""
    return await service.signed_in(conn)


SignedIn = Annotated[Account, Depends(signed_in)]
