"""The message catalogues for the page: ``GET /api/catalogues`` lists the languages (with
each one's name in itself, for the page's language switch) and themes,
``GET /api/catalogues/{language}/{theme}`` is one merged catalogue
(``tigris_euphrates.catalogues``), which the page reads before drawing a game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from ... import catalogues
from ..inputs import CATALOGUE_PATTERN

Part = Annotated[str, PathParam(pattern=CATALOGUE_PATTERN)]

router = APIRouter()


@router.get("/api/catalogues")
async def catalogue_list() -> dict[str, Any]:
    return {
        "languages": catalogues.languages(),
        "themes": catalogues.themes(),
        "default_language": catalogues.BASE_LANGUAGE,
        "names": catalogues.language_names(),
    }


@router.get("/api/catalogues/{language}/{theme}", response_model=None)
async def catalogue(language: Part, theme: Part) -> dict[str, Any] | JSONResponse:
    try:
        return catalogues.catalogue(language, theme)
    except KeyError as err:
        return JSONResponse({"error": "no-catalogue", "message": err.args[0]}, status_code=404)
