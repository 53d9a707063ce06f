"""The web server: ``create_app`` (FastAPI) and the live-game hub."""

from .app import create_app

__all__ = ["create_app"]
