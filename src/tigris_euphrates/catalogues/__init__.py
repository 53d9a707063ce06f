"""Message catalogues: every word a player reads, keyed by language and theme.

A catalogue is a JSON file ``LANGUAGE.THEME.json`` beside this module (``en.classic.json``,
``en.galaxy.json``). A theme is the look and vocabulary of a ruleset (the galaxy ruleset
reads as the space game: colonists, alien artifacts, weapon ships); a language is a
translation. Both are the same mechanism: ``catalogue(language, theme)`` merges, later
layers winning, ``en.classic`` ← ``en.THEME`` ← ``LANGUAGE.classic`` ← ``LANGUAGE.THEME``,
so a file holds only what differs from the layers below it and a new theme or language is a
new file, not code. The engine knows no theme words: everything it says (events, actions,
options) is turned into text here, by the web page (the server serves the merged catalogue)
and by ``display`` (``tne show``).

Templates: ``{field}`` is a field's value, ``{TERM:field}`` the term ``TERM`` of the field's
value (``{tiles:colour}`` → "temples" or "scientists"), ``{name:field}`` the name of the seat
in the field (the caller supplies names) and ``{@word}`` a word of the catalogue. The
page's ``server/static/js/words.js`` implements the same few rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
BASE_LANGUAGE = "en"
BASE_THEME = "classic"

_FIELD = re.compile(r"\{(@?)([A-Za-z_]+)(?::([A-Za-z_]+))?\}")


def _files() -> list[tuple[str, str]]:
    """(language, theme) of every catalogue file."""
    out = []
    for path in sorted(HERE.glob("*.*.json")):
        language, theme, _ = path.name.split(".")
        out.append((language, theme))
    return out


def languages() -> list[str]:
    """Languages with at least one catalogue."""
    return sorted({lang for lang, _ in _files()})


def language_names() -> dict[str, str]:
    """Each language's name in that language (``ui.language_name``), for a language switch."""
    return {
        lang: str(_load(lang, BASE_THEME).get("ui", {}).get("language_name", lang))
        for lang in languages()
    }


def themes() -> list[str]:
    """Themes with a catalogue in the base language (the ones a game can be shown in)."""
    return sorted({theme for lang, theme in _files() if lang == BASE_LANGUAGE})


def theme_for(options: Mapping[str, Any] | None) -> str:
    """The theme a game is shown in: its ruleset's, when that ruleset has a catalogue."""
    ruleset = str((options or {}).get("ruleset") or BASE_THEME)
    return ruleset if ruleset in themes() else BASE_THEME


def _merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


@cache
def _load(language: str, theme: str) -> dict[str, Any]:
    layers = []
    for lang, th in (
        (BASE_LANGUAGE, BASE_THEME),
        (BASE_LANGUAGE, theme),
        (language, BASE_THEME),
        (language, theme),
    ):
        if (lang, th) not in layers:
            layers.append((lang, th))
    merged: dict[str, Any] = {}
    for lang, th in layers:
        path = HERE / f"{lang}.{th}.json"
        if path.exists():
            merged = _merge(merged, json.loads(path.read_text(encoding="utf-8")))
    merged["language"], merged["theme"] = language, theme
    return merged


def catalogue(language: str = BASE_LANGUAGE, theme: str = BASE_THEME) -> dict[str, Any]:
    """The merged catalogue of ``language`` and ``theme`` (a fresh copy: callers may keep it).

    Raises ``KeyError`` for a language or theme that has no catalogue."""
    if language not in languages():
        raise KeyError(f"no catalogue in language {language!r}: {', '.join(languages())}")
    if theme not in themes():
        raise KeyError(f"no theme {theme!r}: {', '.join(themes())}")
    merged: dict[str, Any] = json.loads(json.dumps(_load(language, theme)))
    return merged


def for_options(options: Mapping[str, Any] | None, language: str = BASE_LANGUAGE) -> dict[str, Any]:
    """The catalogue a game with these options is shown in."""
    return catalogue(language, theme_for(options))


def render(
    cat: Mapping[str, Any],
    template: str,
    fields: Mapping[str, Any],
    name: Callable[[int], str] | None = None,
) -> str:
    """Fill ``template`` from ``fields`` (see the module's docstring for the syntax).

    A term or word the catalogue lacks shows the raw value, so a partial translation
    still reads."""

    def one(match: re.Match[str]) -> str:
        word, term, field = match.group(1), match.group(2), match.group(3)
        if word:
            return str(cat.get("words", {}).get(term, term))
        if field is None:
            return _plain(fields.get(term, ""))
        value = fields.get(field)
        if term == "name":
            seat = int(value or 0)
            return name(seat) if name is not None else f"Player {seat + 1}"
        return str(cat.get("terms", {}).get(term, {}).get(str(value), value))

    return _FIELD.sub(one, template)


def _plain(value: Any) -> str:
    if isinstance(value, Mapping):  # tile counts: "2 red, 1 black"
        return ", ".join(f"{n} {c}" for c, n in value.items() if n)
    return str(value)


def text(cat: Mapping[str, Any], key: str, **fields: Any) -> str:
    """The interface text ``key`` (``ui``) filled with ``fields``."""
    return render(cat, str(cat.get("ui", {}).get(key, key)), fields)


def event_text(
    cat: Mapping[str, Any], event: Mapping[str, Any], name: Callable[[int], str] | None = None
) -> str | None:
    """An event's line in a log (``None``: an event the log does not show)."""
    template = cat.get("events", {}).get(event.get("type", ""))
    if template is None:
        return None
    fields = dict(event)
    if event.get("type") == "tiles_drawn":
        tiles = event.get("tiles")
        if not tiles:
            return None  # another seat's draw: only the count, not worth a line
        fields["tiles"] = _counts(cat, tiles)
    if event.get("type") == "tiles_removed":
        fields["count"] = len(event.get("cells", ()))
    if event.get("type") == "game_over":
        fields["reason"] = event.get("reason")
    return render(cat, template, fields, name)


def _counts(cat: Mapping[str, Any], tiles: Mapping[str, int]) -> str:
    """``{"red": 2, "black": 1}`` as "2 temples, 1 settlement" in the catalogue's terms."""
    terms = cat.get("terms", {})
    return ", ".join(
        f"{n} {terms.get('tiles' if n != 1 else 'tile', {}).get(c, c)}"
        for c, n in tiles.items()
        if n
    )


def action_text(cat: Mapping[str, Any], notation: str) -> str:
    """An action (notation, or a redacted swap ``swap N tiles``) in the catalogue's words."""
    words = notation.split()
    if not words:
        return notation
    kind, args = words[0], words[1:]
    fields: dict[str, Any] = {}
    if kind == "swap" and args and args[0].isdigit():
        kind, fields["count"] = "swap_count", args[0]
    elif kind == "swap" and args:
        counts = {c: int(n) for c, n in (p.split("=") for p in args[0].split(","))}
        fields["tiles"] = _counts(cat, counts)
    elif kind in ("tile", "leader", "building"):
        fields["colour"], fields["cell"] = args[0], args[1]
    elif kind in ("catastrophe", "treasure", "wonder"):
        fields["cell"] = args[0]
    elif kind in ("withdraw", "war", "point"):
        fields["colour"] = args[0]
    elif kind == "commit":
        fields["n"] = args[0]
    elif kind == "monument":
        fields["monument"], fields["cell"] = args[0], args[1]
    template = cat.get("actions", {}).get(kind)
    return notation if template is None else render(cat, template, fields)
