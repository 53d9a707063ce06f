"""The message catalogues: complete for every theme, templates that name only what exists,
the page asking only for keys the base catalogue has, and the galaxy theme free of the
classic game's words wherever the galaxy game can show them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tigris_euphrates import EVENTS, catalogues
from tigris_euphrates.catalogues import action_text, catalogue, event_text, render, text

PAGE_JS = Path(catalogues.__file__).parents[1] / "server" / "static" / "js"
BASE = catalogue("en", "classic")
GALAXY = catalogue("en", "galaxy")
PLACEHOLDER = re.compile(r"\{(@?)([A-Za-z_]+)(?::([A-Za-z_]+))?\}")

#: Interface texts of the decisions and options the galaxy ruleset never has (RULES.md §11:
#: no monuments, so no wonder and no buildings either).
NOT_IN_GALAXY = {
    "option_wonder",
    "option_buildings",
    "monument_offer",
    "monument_text",
    "wonder_offer",
    "wonder_text",
    "building_offer",
    "building_text",
    "wonder_point",
    "wonder_point_text",
    "label_monument",
    "label_wonder",
    "label_point",
    "label_building",
    "wonder_piece",
    "building_piece",
    "monument_built",
    "monument_declined",
    "wonder_built",
    "building_placed",
    "building_declined",
    "building_returned",
    "monument",
    "wonder",
    "point",
    "building",
    "points_monument",
    "points_wonder",
    "points_building",
    "stats_monuments",
    "supply_monuments",
    "supply_monuments_none",
    "help_monument_title",
    "help_monument",
    "help_building_title",
    "help_building",
    "help_wonder_title",
    "help_wonder",
}
#: Interface texts of the lobby and the account pages, always shown in the classic theme.
LOBBY_ONLY = {
    "conflicts_line",
    "lobby_intro",
    "english_label",
    "open_label",
    "wonder_label",
    "buildings_label",
    "galaxy_note",
    "hotseat_note",
}
CLASSIC_WORDS = re.compile(
    r"\b(tiles?|treasures?|catastrophes?|kingdoms?|temples?|farms?|markets?|settlements?|"
    r"priests?|farmers?|traders?|kings?|bag|dynast(y|ies)|rivers?|hand)\b"
)


def key_paths(data: Any, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    if not isinstance(data, dict):
        return {prefix}
    out: set[tuple[str, ...]] = set()
    for key, value in data.items():
        out |= key_paths(value, (*prefix, key))
    return out


def test_themes_languages_and_the_theme_of_a_game() -> None:
    assert catalogues.themes() == ["classic", "galaxy"]
    assert "en" in catalogues.languages()
    assert catalogues.theme_for({"ruleset": "galaxy"}) == "galaxy"
    assert catalogues.theme_for({"wonder": True}) == "classic"
    assert catalogues.theme_for(None) == "classic"
    with pytest.raises(KeyError):
        catalogue("en", "steampunk")
    with pytest.raises(KeyError):
        catalogue("xx", "classic")


def test_a_theme_file_only_overrides_keys_the_base_has() -> None:
    """A typo in a theme's key would silently fall back to the base word: refused here.
    The drawing (``style``) may add what a theme draws and the base does not."""
    base = key_paths(json.loads((catalogues.HERE / "en.classic.json").read_text()))
    for path in sorted(catalogues.HERE.glob("*.json")):
        for key in key_paths(json.loads(path.read_text())):
            if key[0] == "style" and len(key) > 2:
                continue
            assert key in base, f"{path.name}: {'.'.join(key)} is not in en.classic.json"


@pytest.mark.parametrize("language", catalogues.languages())
@pytest.mark.parametrize("theme", catalogues.themes())
def test_templates_name_existing_terms_and_words(language: str, theme: str) -> None:
    cat = catalogue(language, theme)
    for section in ("events", "actions", "log", "ui"):
        for key, template in cat[section].items():
            for word, term, field in PLACEHOLDER.findall(template):
                if word:
                    assert term in cat["words"], f"{section}.{key}: no word {term}"
                elif field and term != "name":
                    assert term in cat["terms"], f"{section}.{key}: no term {term}"


def test_every_event_the_log_shows_is_an_engine_event() -> None:
    assert set(BASE["events"]) <= set(EVENTS)


def test_the_page_asks_only_for_keys_of_the_base_catalogue() -> None:
    """The page's modules read interface texts with tx("key") and terms with term("kind", ...)."""
    js = "\n".join(p.read_text() for p in sorted(PAGE_JS.glob("*.js")))
    ui_keys = set(re.findall(r'\btx\("([a-z_]+)"', js))
    ui_keys |= set(re.findall(r'"(support_revolt|support_war|your_decision|your_turn)"', js))
    assert ui_keys and ui_keys <= set(BASE["ui"]), ui_keys - set(BASE["ui"])
    term_kinds = set(re.findall(r'\bterm\("([A-Za-z_]+)"', js))
    assert term_kinds <= set(BASE["terms"]), term_kinds - set(BASE["terms"])
    words = set(re.findall(r'\bword\("([a-z_]+)"\)', js))
    assert words <= set(BASE["words"]), words - set(BASE["words"])


def page_ui_keys() -> set[str]:
    """Every interface text the page's modules ask for: ``tx("key")``, ``txc("key")`` (help.js),
    ``say("key", "English")`` (table.js; log.js's ``say`` reads the log section) and the keys
    chosen in ``tx(cond ? "a" : "b")``."""
    keys: set[str] = set()
    for path in sorted(PAGE_JS.glob("*.js")):
        js = path.read_text()
        keys |= set(re.findall(r'\btxc?\("([a-z_]+)"', js))
        chosen = re.findall(r'\btx\([^()"]*\? "([a-z_]+)" : "([a-z_]+)"', js)
        keys |= {k for pair in chosen for k in pair}
        if path.name != "log.js":
            keys |= set(re.findall(r'\bsay\("([a-z_]+)"', js))
    return keys


@pytest.mark.parametrize("language", catalogues.languages())
def test_every_text_of_the_page_is_in_each_language(language: str) -> None:
    """Each interface text the page shows is in the language's own classic file (not only
    English falling through), reading the same fields as the English text."""
    keys = page_ui_keys()
    assert {"confirm_title", "chat_title", "help_goal", "hint_tile", "listed_label"} <= keys
    english = BASE["ui"]
    path = catalogues.HERE / f"{language}.classic.json"
    mine = json.loads(path.read_text(encoding="utf-8"))["ui"]
    missing = sorted(keys - set(mine))
    assert not missing, f"{language}.classic.json lacks {missing}"
    for key in sorted(keys):
        assert fields_of(mine[key]) == fields_of(english[key]), f"{language} {key}: {mine[key]!r}"


def test_the_page_writes_no_english_sentence_itself() -> None:
    """No page module passes English text of its own to ``say``: every text is a key."""
    for path in sorted(PAGE_JS.glob("*.js")):
        if path.name == "log.js":
            continue
        calls = re.findall(r'\bsay\("([a-z_]+)", ["`]', path.read_text())
        assert not calls, f"{path.name}: say() with English for {calls}"


def test_the_page_log_has_a_line_for_each_event_it_tells() -> None:
    """The page's log (log.js) reads its sentences from the catalogues' ``log`` section:
    every key it names, and one points line per reason points are scored for."""
    js = (PAGE_JS / "log.js").read_text()
    keys = set(re.findall(r'\bsay\("([a-z_]+)"', js))
    keys |= {k for pair in re.findall(r'"([a-z_]+)" : "([a-z_]+)"', js) for k in pair}
    keys = {k for k in keys if not k.endswith("_")}  # "points_" + reason: listed below
    keys |= {f"points_{reason}" for reason in ("tile", "revolt", "war", "monument", "wonder")}
    keys |= {"points_building", "at", "on_cells"}
    for theme in catalogues.themes():
        assert keys <= set(catalogue("en", theme)["log"]), keys - set(BASE["log"])


def test_the_galaxy_reads_as_the_space_game() -> None:
    """Every text the galaxy game can show is free of the classic game's words."""
    found = []
    for section in ("words", "events", "actions", "log", "ui"):
        for key, value in GALAXY[section].items():
            shown = PLACEHOLDER.sub("", value).lower()  # the words it prints, not its fields
            if key not in NOT_IN_GALAXY | LOBBY_ONLY and CLASSIC_WORDS.search(shown):
                found.append(f"{section}.{key}: {value}")
    for kind in ("tile", "tiles", "leader", "leaders", "point", "points", "end", "withdrawn"):
        for key, value in GALAXY["terms"][kind].items():
            if CLASSIC_WORDS.search(value.lower()):
                found.append(f"terms.{kind}.{key}: {value}")
    assert not found, "\n".join(found)


def test_the_galaxy_vocabulary_of_the_source() -> None:
    terms = GALAXY["terms"]
    assert terms["tiles"] == {
        "red": "scientists",
        "blue": "mining robots",
        "green": "merchants",
        "black": "settlers",
    }
    assert terms["leader"] == {
        "red": "scientific leader",
        "blue": "mining foreman",
        "green": "merchant leader",
        "black": "government head",
    }
    assert terms["points"] == {
        "red": "technology",
        "blue": "raw materials",
        "green": "money",
        "black": "people",
    }
    assert GALAXY["words"]["treasure"] == "alien artifact"
    assert GALAXY["words"]["catastrophe"] == "weapon ship"
    assert GALAXY["words"]["river"] == "uninhabitable system"


def test_render_event_and_action_texts() -> None:
    names = ["Ann", "Bob"].__getitem__
    scored = {"type": "points_scored", "seat": 1, "colour": "blue", "points": 2, "reason": "war"}
    assert event_text(BASE, scored, names) == "Bob +2 blue (war)"
    assert event_text(GALAXY, scored, names) == "Bob +2 raw materials (external conflict)"
    ship = {"type": "catastrophe_placed", "seat": 0, "cell": "h7", "removed": "red"}
    assert event_text(GALAXY, ship, names) == "a weapon ship destroys the system h7"
    drawn = {"type": "tiles_drawn", "seat": 0, "count": 3, "tiles": {"red": 2, "black": 1}}
    assert event_text(GALAXY, drawn, names) == "Ann draws 2 scientists, 1 settler"
    assert event_text(GALAXY, {"type": "tiles_drawn", "seat": 1, "count": 3}, names) is None
    assert event_text(BASE, {"type": "turn_started", "seat": 0}, names) is None
    assert action_text(BASE, "tile blue e4") == "farm on e4"
    assert action_text(GALAXY, "tile blue e4") == "mining robot to e4"
    assert action_text(GALAXY, "swap red=2,black=1") == "swaps 2 scientists, 1 settler"
    assert action_text(GALAXY, "swap 3 tiles") == "swaps 3 colonists"
    assert action_text(GALAXY, "treasure b2") == "harvests the alien artifact of b2"
    assert action_text(BASE, "building green k3") == "puts the green building on k3"
    assert action_text(BASE, "point red") == "takes a wonder point: red"
    assert text(GALAXY, "end_text", end="treasures").startswith(
        "The game ended: only two alien artifacts were left"
    )
    assert render(GALAXY, "{@treasures} / {tiles:colour} / {name:seat}", {"colour": "green"}) == (
        "alien artifacts / merchants / Player 1"
    )


def test_a_catalogue_is_a_copy() -> None:
    cat = catalogue("en", "galaxy")
    cat["words"]["treasure"] = "changed"
    assert catalogue("en", "galaxy")["words"]["treasure"] == "alien artifact"


#: The classic game's words in each translation (the galaxy test above is the English one).
CLASSIC_WORDS_IN = {
    "de": re.compile(
        r"\b(plättchen|schatz|schätze\w*|katastrophe\w*|königreich\w*|tempel|bauernh\w*|"
        r"markt|märkte|siedlung\w*|priester|bauern?|könig\w*|beutel|dynastie\w*|fluss|hand)\b"
    ),
    "fr": re.compile(
        r"\b(tuiles?|trésors?|catastrophes?|royaumes?|temples?|fermes?|marchés?|colonies?|"
        r"prêtres?|fermiers?|rois?|sac|dynasties?|fleuves?|main)\b"
    ),
}


def fields_of(template: str) -> set[str]:
    """The fields a template reads (a translation may pick other terms or words for them)."""
    return {field or term for word, term, field in PLACEHOLDER.findall(template) if not word}


def test_german_and_french_are_there() -> None:
    assert {"en", "de", "fr"} <= set(catalogues.languages())
    assert catalogue("de", "classic")["title"] == "Euphrat & Tigris"
    assert catalogue("fr", "classic")["title"] == "Tigre & Euphrate"
    assert catalogue("de", "classic")["terms"]["tiles"]["red"] == "Tempel"
    assert catalogue("fr", "galaxy")["words"]["treasure"] == "artefact extraterrestre"


@pytest.mark.parametrize("language", sorted(set(catalogues.languages()) - {"en"}))
@pytest.mark.parametrize("theme", catalogues.themes())
def test_a_translation_has_every_key_of_its_english_file(language: str, theme: str) -> None:
    """A translation file says everything its English file says (the drawing, ``style``,
    aside): a key it lacks would show English, or the classic game's words in the galaxy."""
    english = json.loads((catalogues.HERE / f"en.{theme}.json").read_text(encoding="utf-8"))
    english.pop("style", None)
    path = catalogues.HERE / f"{language}.{theme}.json"
    assert path.exists(), path.name
    mine = key_paths(json.loads(path.read_text(encoding="utf-8")))
    missing = sorted(".".join(k) for k in key_paths(english) - mine)
    assert not missing, f"{path.name} lacks {missing}"


@pytest.mark.parametrize("language", sorted(set(catalogues.languages()) - {"en"}))
@pytest.mark.parametrize("theme", catalogues.themes())
def test_a_translation_keeps_the_placeholders(language: str, theme: str) -> None:
    english, mine = catalogue("en", theme), catalogue(language, theme)
    assert key_paths(mine) == key_paths(english)
    for section in ("events", "actions", "log", "ui"):
        for key, template in english[section].items():
            assert fields_of(mine[section][key]) == fields_of(template), (
                f"{language}.{theme} {section}.{key}: {mine[section][key]!r}"
            )


@pytest.mark.parametrize("language", sorted(CLASSIC_WORDS_IN))
def test_the_translated_galaxy_reads_as_the_space_game(language: str) -> None:
    cat, words, found = catalogue(language, "galaxy"), CLASSIC_WORDS_IN[language], []
    for section in ("words", "events", "actions", "log", "ui"):
        for key, value in cat[section].items():
            shown = PLACEHOLDER.sub("", value).lower()
            if key not in NOT_IN_GALAXY | LOBBY_ONLY and words.search(shown):
                found.append(f"{section}.{key}: {value}")
    for kind in ("tile", "tiles", "leader", "leaders", "a_tile", "the_leader", "point", "points"):
        for key, value in cat["terms"][kind].items():
            if words.search(value.lower()):
                found.append(f"terms.{kind}.{key}: {value}")
    assert not found, "\n".join(found)


def test_translated_log_and_texts() -> None:
    names = ["Anna", "Ben"].__getitem__
    de, fr = catalogue("de", "classic"), catalogue("fr", "classic")
    assert render(
        de, de["log"]["tile_placed"], {"seat": 0, "colour": "black", "at": ""}, names
    ) == ("Anna legt eine Siedlung")
    assert render(
        fr, fr["log"]["leader_placed"], {"seat": 1, "colour": "black", "at": ""}, names
    ) == ("Ben place le roi")
    at = render(de, de["log"]["at"], {"cell": "g3"})
    placed = {"seat": 0, "colour": "black", "at": at}
    assert (
        render(de, de["log"]["leader_placed"], placed, names) == "Anna setzt den König auf g3 ein"
    )
    hit = {"seat": 1, "removed": "black", "at": ""}
    assert render(de, de["log"]["catastrophe_destroys"], hit, names) == (
        "Ben spielt eine Katastrophe und zerstört eine Siedlung"
    )
    assert action_text(de, "tile blue e4") == "Bauernhof auf e4"
    assert action_text(fr, "swap red=2,black=1") == "échange 2 temples, 1 colonie"
    assert (
        text(catalogue("de", "galaxy"), "hand_title", name="Anna", symbol="")
        == "Deine Flotte — Anna "
    )
