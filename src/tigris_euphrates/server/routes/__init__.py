"""The server's routes, one ``APIRouter`` module per area (``create_app`` includes them in
the order of ``ROUTERS``, which is also the order of the API docs at ``/api/docs``)."""

from __future__ import annotations

from fastapi import APIRouter

from . import (
    accounts,
    analysis,
    bots,
    botsocket,
    catalogues,
    credentials,
    direct,
    events,
    games,
    health,
    meet,
    meta,
    moderation,
    notify,
    pages,
    play,
    players,
    puzzles,
    social,
    tutorial,
)

ROUTERS: tuple[APIRouter, ...] = (
    catalogues.router,
    accounts.router,
    credentials.router,
    players.router,
    notify.router,
    pages.router,
    meta.router,
    games.router,
    analysis.router,
    play.router,
    tutorial.router,
    puzzles.router,
    meet.router,
    social.router,
    direct.router,
    events.router,
    moderation.router,
    bots.router,
    botsocket.router,
    health.router,
)

__all__ = ["ROUTERS"]
