"""The message catalogues for the page: ``GET /api/catalogues`` lists the languages (with
each one's name in itself, for the page's language switch) and themes,
``GET /api/catalogues/{language}/{theme}`` is one merged catalogue
(``tigris_euphrates.catalogues``), which the page reads before drawing a game."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam

from ... import catalogues
from ...store.jsontypes import JsonDict
from ..answers.errors import refusals
from ..answers.meta import Catalogues
from ..errors import GameError
from ..inputs import CATALOGUE_PATTERN

Part = Annotated[str, PathParam(pattern=CATALOGUE_PATTERN)]

router = APIRouter()


@router.get("/api/catalogues")
async def catalogue_list() -> Catalogues:
    """The languages (with each one's name in itself) and the themes."""
    return {
        "languages": catalogues.languages(),
        "themes": catalogues.themes(),
        "default_language": catalogues.BASE_LANGUAGE,
        "names": catalogues.language_names(),
    }


@router.get("/api/catalogues/{language}/{theme}", responses=refusals("no-catalogue"))
async def catalogue(language: Part, theme: Part) -> JsonDict:
    """One merged catalogue: the page's words in ``language`` for ``theme`` (its keys are
    the catalogue's own, nested by part)."""
    try:
        return catalogues.catalogue(language, theme)
    except KeyError as err:
        raise GameError("no-catalogue", err.args[0]) from None
