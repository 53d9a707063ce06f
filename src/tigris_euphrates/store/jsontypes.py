"""Any JSON, typed: the documents the store keeps and the server passes on without a fixed
shape (a seat's view and a step's events, a game's statistics, its record, an analysis, a
line of an export before it is checked, a catalogue, the rulesets' facts).

``JsonValue`` is pydantic's recursive one (``None``, ``bool``, ``int``, ``float``, ``str``,
a list of JSON values, an object of them): mypy reads it as that union, so a value read out
of such a document is checked (``isinstance``) before it is used as a number or a text, and
an answer holding one is described in the OpenAPI document and checked as any JSON value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from pydantic import JsonValue

#: A JSON object: text keys, any JSON values.
JsonDict: TypeAlias = dict[str, JsonValue]

__all__ = [
    "JsonDict",
    "JsonValue",
    "int_at",
    "json_object",
    "json_value",
    "list_at",
    "text_at",
    "texts_at",
]


def json_value(value: object) -> JsonValue:
    """``value`` as JSON, checked all through: ``None``, a bool, a number, a text, a list or
    a tuple (a list) of such values, a mapping of texts to them (a dict); anything else
    raises ``TypeError``. Its JSON text is the one ``value`` would give."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Mapping):
        items: JsonDict = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"a JSON object's key is a text, not {k!r}")
            items[k] = json_value(v)
        return items
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def json_object(value: object) -> JsonDict:
    """``value`` as a JSON object (``json_value``); raises ``TypeError`` if it is none."""
    checked = json_value(value)
    if not isinstance(checked, dict):
        raise TypeError(f"not a JSON object: {type(value).__name__}")
    return checked


def int_at(doc: JsonDict, key: str) -> int:
    """The whole number at ``key`` of ``doc``; raises ``TypeError`` if it is none (or a
    bool), ``KeyError`` if the key is absent."""
    value = doc[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{key!r} is not a whole number: {value!r}")
    return value


def text_at(doc: JsonDict, key: str) -> str:
    """The text at ``key`` of ``doc``; raises ``TypeError`` if it is none, ``KeyError`` if
    the key is absent."""
    value = doc[key]
    if not isinstance(value, str):
        raise TypeError(f"{key!r} is not a text: {value!r}")
    return value


def list_at(doc: JsonDict, key: str) -> list[JsonValue]:
    """The list at ``key`` of ``doc``; raises ``TypeError`` if it is none, ``KeyError`` if
    the key is absent."""
    value = doc[key]
    if not isinstance(value, list):
        raise TypeError(f"{key!r} is not a list: {value!r}")
    return value


def texts_at(doc: JsonDict, key: str) -> list[str]:
    """The list of texts at ``key`` of ``doc``; raises ``TypeError`` if it is none,
    ``KeyError`` if the key is absent."""
    values = list_at(doc, key)
    texts = [v for v in values if isinstance(v, str)]
    if len(texts) != len(values):
        raise TypeError(f"{key!r} is not a list of texts: {values!r}")
    return texts
