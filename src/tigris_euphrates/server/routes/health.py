"""Health, readiness and the figures, for whoever runs the server (a load balancer, an
orchestrator, Prometheus):

- ``GET /healthz``: the process is alive and its event loop answers (200 at once; it asks
  nothing of the database, so a database outage does not get the process restarted);
- ``GET /readyz``: the process may take traffic: its database answers a cheap query through
  the database thread within 2 s and, on PostgreSQL, it hears the other processes (its
  listening connection is up); else 503 with ``{"ready": false, "reason": ...}``. A process
  that is stopping is not ready;
- ``GET /metrics``: the Prometheus figures (``metrics.py``) when the setting ``metrics`` is
  on; a 404 otherwise.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from ..deps import HubDep, SettingsDep
from ..metrics import CONTENT_TYPE
from ..responses import SafeJSONResponse

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, Any]:
    return {"alive": True}


@router.get("/readyz", include_in_schema=False)
async def readyz(hub: HubDep) -> Response:
    reason = await hub.unready()
    if reason is not None:
        return SafeJSONResponse({"ready": False, "reason": reason}, status_code=503)
    return SafeJSONResponse({"ready": True})


@router.get("/metrics", include_in_schema=False)
async def metrics(hub: HubDep, settings: SettingsDep) -> Response:
    if not settings.metrics:
        raise HTTPException(404, "the figures are off (the setting metrics)")
    return Response(hub.census().render(), media_type=CONTENT_TYPE)
