"""The web server: ``create_app(settings)`` (FastAPI), its ``Settings`` and the live-game hub."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
