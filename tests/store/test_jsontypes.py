"""Any JSON, checked where it is read (store/jsontypes.py)."""

from __future__ import annotations

import json

import pytest

from tigris_euphrates.store.jsontypes import int_at, json_object, json_value, text_at, texts_at


def test_a_value_is_json_all_through_and_gives_the_same_text() -> None:
    value = {"b": (1, 2.5), "a": [None, True, {"c": "x"}]}
    checked = json_value(value)
    assert checked == {"b": [1, 2.5], "a": [None, True, {"c": "x"}]}
    assert json.dumps(checked) == json.dumps(value)


@pytest.mark.parametrize("value", [{1: "a"}, {"a": object()}, [{1, 2}], b"x"])
def test_what_json_cannot_hold_is_refused(value: object) -> None:
    with pytest.raises(TypeError):
        json_value(value)


def test_an_object_is_asked_for() -> None:
    assert json_object({"a": 1}) == {"a": 1}
    with pytest.raises(TypeError):
        json_object([1])


def test_a_number_or_a_text_read_is_one() -> None:
    doc = json_object({"n": 3, "yes": True, "s": "x", "list": ["a", "b"], "mixed": ["a", 1]})
    assert int_at(doc, "n") == 3
    assert text_at(doc, "s") == "x"
    assert texts_at(doc, "list") == ["a", "b"]
    for read, key in ((int_at, "yes"), (int_at, "s"), (text_at, "n"), (texts_at, "mixed")):
        with pytest.raises(TypeError):
            read(doc, key)
    with pytest.raises(KeyError):
        int_at(doc, "absent")
