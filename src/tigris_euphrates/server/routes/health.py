"""Health, readiness and the figures, for whoever runs the server (a load balancer, an
orchestrator, Prometheus):

- ``GET /healthz``: the process is alive and its event loop answers (200 at once; it asks
  nothing of the database, so a database outage does not get the process restarted);
- ``GET /readyz``: the process may take traffic: its database answers a cheap query through
  the database thread within 2 s and, on PostgreSQL, it hears the other processes (its
  listening connection is up), and its schema is the one this code works with (at the
  newest migration: not behind, not ahead, as after a restore or a newer version's
  upgrade); else 503 with ``{"ready": false, "reason": ...}``. A process that is stopping
  is not ready;
- ``GET /metrics``: the Prometheus figures (``metrics.py``) when the setting ``metrics`` is
  on; a 404 otherwise.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from ...store import migrate
from ..answers.meta import Alive
from ..deps import HubDep, SettingsDep
from ..hub import Hub
from ..metrics import CONTENT_TYPE
from ..readiness import READY_SECONDS
from ..responses import SafeJSONResponse

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz() -> Alive:
    return {"alive": True}


@router.get("/readyz", include_in_schema=False)
async def readyz(hub: HubDep) -> Response:
    reason = await hub.readiness.unready() or await schema_unready(hub)
    if reason is not None:
        return SafeJSONResponse({"ready": False, "reason": reason}, status_code=503)
    return SafeJSONResponse({"ready": True})


async def schema_unready(hub: Hub) -> str | None:
    """Why the database's schema does not fit this process (``None``: it is at the head)."""
    db = hub.store.db
    try:
        return await asyncio.wait_for(hub.db(migrate.mismatch, db.engine, db.prefix), READY_SECONDS)
    except TimeoutError:
        return f"the database did not answer within {READY_SECONDS:g} s"
    except Exception as exc:
        return f"the database cannot be reached ({type(exc).__name__})"


@router.get("/metrics", include_in_schema=False)
async def metrics(hub: HubDep, settings: SettingsDep) -> Response:
    if not settings.metrics:
        raise HTTPException(404, "the figures are off (the setting metrics)")
    return Response(hub.readiness.census().render(), media_type=CONTENT_TYPE)
